#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tools/exynos4210.sh [BOARD...]: boot ARM32 exynos_defconfig at the base
# and on the series on QEMU's own Exynos4210 machines, and compare what
# the drivers built. QEMU models this SoC itself (MCT, clock controller,
# PMU, RTC, UARTs, interrupt combiner), so this is the series' common code
# (clk.c, clk-pll.c, pinctrl-samsung.c, the PMU), which ARM32 keeps built
# in, on a model of real silicon that this project did not write.
# A BOARD is boot/soc/<board>.conf with "machine =" (default: every one):
# smdkc210 (exynos4210-smdkv310.dtb) and nuri (exynos4210-universal_c210).
# Each kernel is exynos_defconfig + boot/configs/exynos4210/trim.config
# (+ modular.config on the series side: the S3C RTC as a module), built
# out of tree from a git worktree of its own (one per side), so the shared checkout
# is never switched. The guest is boot/agent/ built for ARM32; states are
# compared as tools/equiv.sh compares them, against the same expectations.
#   E4_A, E4_B   revisions of the baseline and the series (default: the
#                base tag and integration)
#   E4_EXPECTED  the expectations file (default boot/equiv/expected-differences)
# shellcheck source=tools/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=tools/kbuild.sh
. "$TOP/tools/kbuild.sh"
# shellcheck source=tools/equiv-state.sh
. "$TOP/tools/equiv-state.sh"

CROSS=arm-linux-gnueabihf-
need qemu-system-arm qemu-system-arm ${CROSS}gcc gcc-arm-linux-gnueabihf make make bison bison flex flex bc bc \
	fdtput device-tree-compiler
[ -f /usr/arm-linux-gnueabihf/lib/libc.a ] ||
	die "no static ARM32 C library for the guest agent: install Debian package libc6-dev-armhf-cross (make deps)"

boards=("$@")
if [ ${#boards[@]} -eq 0 ]; then
	for f in "$TOP"/boot/soc/*.conf; do
		[ -z "$(conf_get "$f" machine "")" ] || boards+=("$(basename "$f" .conf)")
	done
fi
rev_a=${E4_A:-$(base_tag)}
rev_b=${E4_B:-integration}
expected=${E4_EXPECTED:-$TOP/boot/equiv/expected-differences}
[ -f "$expected" ] || die "no expectations file $expected"
timeout_s=${BOOT_TIMEOUT:-120}
frag=$TOP/boot/configs/exynos4210
out=$WORK/exynos4210
mkdir -p "$out"

# e4_worktree SIDE REV: the worktree of the kernel repository for SIDE (a
# or b), checked out at REV. One per side, not per revision: moving it to
# another revision rewrites only the files that differ, so kbuild rebuilds
# only what they reach in the side's build directory. Prints it.
e4_worktree() {
	local wt=$WORK/worktrees/arm32-$1 sha
	sha=$(kb_rev "$2") || return
	if [ ! -e "$wt/.git" ]; then
		rm -rf "$wt"
		kgit worktree prune
		kgit worktree add -q --detach "$wt" "$sha" >&2 || return
	elif [ "$(git -C "$wt" rev-parse HEAD)" != "$sha" ]; then
		git -C "$wt" checkout -q --detach -f "$sha" >&2 || return
	fi
	echo "$wt"
}

# e4_dtb_path WT NAME: NAME.dtb's make target in worktree WT (6.1 keeps
# the ARM32 DTS flat, 6.12 in vendor folders).
e4_dtb_path() {
	local d
	d=$(cd "$1/arch/arm/boot/dts" && find . -name "$2.dts" | head -n1) && [ -n "$d" ] ||
		{ echo "no $2.dts under $1/arch/arm/boot/dts" >&2; return 1; }
	d=${d#./}
	echo "${d%.dts}.dtb"
}

# e4_build REV SIDE: build exynos_defconfig + the fragments of SIDE (a:
# trim, b: trim + modular) at REV in $WORK/build/arm32-<side>, stage
# its modules and build /init and the initramfs. Unchanged inputs (tree,
# fragments, toolchain, agent, this script): nothing runs. Prints O.
e4_build() {
	local rev=$1 side=$2 wt o log stamp f rel cc=${CROSS}gcc
	local -A dtb=()
	local -a frags=("$frag/trim.config")
	[ "$side" = a ] || frags+=("$frag/modular.config")
	o=$WORK/build/arm32-$side
	log=$LOGDIR/exynos4210-build-$side.log
	wt=$(e4_worktree "$side" "$rev") || die "no worktree of $rev in $WORK/worktrees"
	stamp=$( {
		git -C "$wt" rev-parse "HEAD^{tree}"
		cat "${frags[@]}" "$TOP/tools/exynos4210.sh" "$TOP"/boot/agent/*
		echo "${boards[@]}"
		${CROSS}gcc --version
	} | sha256sum | cut -c1-40)
	if [ "$(cat "$o/.e4-stamp" 2>/dev/null)" = "$stamp" ]; then
		echo "exynos4210: $rev ($side) unchanged since its last build ($o)" >&2
		echo "$o"
		return
	fi
	rm -f "$o/.e4-stamp"
	mkdir -p "$o"
	# ccache with paths relative to WORK: every WORK lays out worktree
	# and build directory alike, so another WORK's builds (a test's)
	# hit the same cache entries.
	command -v ccache >/dev/null 2>&1 && cc="ccache $cc" && export CCACHE_BASEDIR=$WORK CCACHE_NOHASHDIR=1
	step "exynos4210: build $rev exynos_defconfig + ${frags[*]#"$TOP/"} (log: $log)"
	: >"$log"
	{
		make -s -C "$wt" O="$o" ARCH=arm CROSS_COMPILE=$CROSS exynos_defconfig &&
			(cd "$o" && "$wt/scripts/kconfig/merge_config.sh" -m -O "$o" .config "${frags[@]}") &&
			make -s -C "$wt" O="$o" ARCH=arm CROSS_COMPILE=$CROSS olddefconfig &&
			kb_check_config "$o/.config" "${frags[@]}"
	} >>"$log" 2>&1 || die "exynos4210: the configuration of $rev does not come out as asked: $log"
	for f in "${boards[@]}"; do
		dtb[$f]=$(e4_dtb_path "$wt" "$(conf_get "$TOP/boot/soc/$f.conf" dtb)") || die "$f: no DTB at $rev"
	done
	make -C "$wt" O="$o" ARCH=arm CROSS_COMPILE=$CROSS CC="$cc" -j"$(nproc)" vmlinux modules "${dtb[@]}" 2>&1 |
		kb_progress "$log" || die "exynos4210: $rev does not build: $log"
	# The zImage wrapper's piggy.S pulls the compressed kernel in with
	# .incbin, which ccache does not see: a cached piggy.o would wrap the
	# kernel of an earlier build: assemble it again, with the same CC
	# (kbuild's command lines stay the same) and ccache off.
	rm -f "$o/arch/arm/boot/compressed/piggy.o"
	CCACHE_DISABLE=1 make -C "$wt" O="$o" ARCH=arm CROSS_COMPILE=$CROSS CC="$cc" -j"$(nproc)" zImage \
		>>"$log" 2>&1 || die "exynos4210: $rev: no zImage: $log"
	rel=$(cat "$o/include/config/kernel.release")
	rm -rf "$o/staging" "$o/qemu"
	make -C "$wt" O="$o" ARCH=arm CROSS_COMPILE=$CROSS INSTALL_MOD_PATH="$o/staging" DEPMOD=true \
		modules_install >>"$log" 2>&1 || die "exynos4210: modules_install failed: $log"
	mkdir -p "$o/staging/lib/modules/$rel" "$o/qemu/root/lib/modules"
	for f in "${!dtb[@]}"; do cp "$o/arch/arm/boot/dts/${dtb[$f]}" "$o/qemu/$f.dtb" || die "no ${dtb[$f]} in $o"; done
	kb_depmod -b "$o/staging" -e -F "$o/System.map" "$rel" >>"$log" 2>&1 || die "exynos4210: depmod failed: $log"
	KB_CROSS=$CROSS kb_build_init "$o/qemu/root/init" || die "boot/agent/ does not compile for ARM32 (above)"
	cp -a "$o/staging/lib/modules/$rel" "$o/qemu/root/lib/modules/" &&
		rm -f "$o/qemu/root/lib/modules/$rel/build" "$o/qemu/root/lib/modules/$rel/source" &&
		kb_cpio "$o/qemu/root" "$o/qemu/initramfs.cpio" || die "exynos4210: no initramfs in $o/qemu"
	echo "$stamp" >"$o/.e4-stamp"
	echo "$o"
}

# e4_boot O BOARD LOG: boot build O on BOARD's QEMU machine with the
# board's DTB (after the conf's dt_fixup, "PATH PROPERTY VALUE"), the
# console on the board's UART, the conf's append and qemu options. The
# model has no power off and no reset: QEMU is stopped once /init has
# said its totals (or the kernel panicked). Sets KB_VERDICT and KB_SECS.
e4_boot() {
	local o=$1 conf=$TOP/boot/soc/$2.conf log=$3 uart serial=() i pid rc=0 start k v app fix board_dtb=$3.dtb
	local -a qemu_extra
	uart=$(conf_get "$conf" uart)
	for ((i = 0; i < uart; i++)); do serial+=(-serial null); done
	app="console=ttySAC$uart,115200 panic=-1 $(conf_get "$conf" append "") eq_soc=$2 eq_whole=1"
	for k in soc_id rtc gpio bus mct; do
		v=$(conf_get "$conf" $k "")
		app+=${v:+ eq_$k=$v}
	done
	read -ra qemu_extra <<<"$(conf_get "$conf" qemu "")"
	cp "$o/qemu/$2.dtb" "$board_dtb"
	fix=$(conf_get "$conf" dt_fixup "")
	# shellcheck disable=SC2086 # PATH PROPERTY VALUE
	[ -z "$fix" ] || fdtput -t u "$board_dtb" $fix || die "boot/soc/$2.conf: dt_fixup '$fix' does not apply to $board_dtb"
	start=$EPOCHREALTIME
	: >"$log"
	timeout -k 5 "$timeout_s" qemu-system-arm -M "$(conf_get "$conf" machine)" -smp 2 -display none -monitor none \
		"${serial[@]}" -serial stdio -no-reboot "${qemu_extra[@]}" \
		-kernel "$o/arch/arm/boot/zImage" -dtb "$board_dtb" \
		-initrd "$o/qemu/initramfs.cpio" -append "$app" </dev/null >"$log" 2>"$log.qemu" &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		if grep -qE '^# totals: |Kernel panic' "$log"; then
			sleep 1
			kill "$pid" 2>/dev/null || true
			break
		fi
		sleep 0.2
	done
	wait "$pid" || rc=$?
	# Stopped by us after the totals: as a clean power-off.
	! grep -q '^# totals: ' "$log" || rc=0
	KB_SECS=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
	KB_VERDICT=$(kb_verdict "$log" "$rc")
}

o_a=$(e4_build "$rev_a" a)
o_b=$(e4_build "$rev_b" b)

fail=0
table=()
for board in "${boards[@]}"; do
	conf=$TOP/boot/soc/$board.conf
	[ -f "$conf" ] && [ -n "$(conf_get "$conf" machine "")" ] ||
		die "unknown board '$board': boot/soc/$board.conf with 'machine =' does not exist"
	d=$out/$board
	rm -rf "$d" && mkdir -p "$d"
	board_fail=0
	for side in a b; do
		if [ $side = a ]; then o=$o_a rev=$rev_a; else o=$o_b rev=$rev_b; fi
		step "exynos4210 $board: $rev on -M $(conf_get "$conf" machine)"
		e4_boot "$o" "$board" "$d/$side.log"
		printf 'exynos4210: %s %s %s, %ss\n' "$board" "$rev" "$KB_VERDICT" "$KB_SECS"
		case $KB_VERDICT in PASS*) ;; *) board_fail=1 ;; esac
		eq_state "$d/$side.log" >"$d/$side.state"
	done
	read -r n_exp n_unexp <<<"$(eq_compare "$d/a.state" "$d/b.state" "$d/diff" "$expected")"
	cp "$d/diff" "$LOGDIR/exynos4210-$board.diff"
	if [ "$n_unexp" -gt 0 ]; then
		board_fail=1
		echo "exynos4210: $board: $n_unexp unexpected differences ($rev_a '-', $rev_b '+'; $LOGDIR/exynos4210-$board.diff):"
		{ grep '^[-+] dev ' "$d/diff" || true; grep -v '^[-+] dev ' "$d/diff" || true; } | head -n 60
	fi
	bound=$(grep -c '^dev .* bound ' "$d/b.state" || true)
	ndev=$(grep -c '^dev ' "$d/b.state" || true)
	clocks=$(grep -c '^clk ' "$d/b.state" || true)
	mct=$(sed -n 's/^mct tcon-start //p' "$d/b.state")
	[ -n "$(conf_get "$conf" mct "")" ] || mct="no MCT"
	table+=("$(printf '%-9s %7s %6s %9s %8s/%-10s %s' "$board" "$bound/$ndev" "$clocks" "${mct:-none}" \
		"$n_exp" "$n_unexp" "$([ $board_fail = 0 ] && echo PASS || echo FAIL)")")
	[ $board_fail = 0 ] || fail=1
done

echo "exynos4210: $rev_a exynos_defconfig against $rev_b with the S3C RTC a module"
printf '%-9s %7s %6s %9s %19s %s\n' board bound clocks mct-start "diff expect/unexp" result
printf '%s\n' "${table[@]}"
if [ $fail = 0 ]; then
	echo "exynos4210: PASS ${boards[*]}"
else
	echo "exynos4210: FAIL ${boards[*]} (logs: $out, $LOGDIR/exynos4210-*.diff)"
	exit 1
fi
