#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tools/equiv.sh [SOC...]: boot two kernels on the same Exynos SoC and
# compare what they built. A SoC is boot/soc/<soc>.conf: a synthetic one
# (exynos5433, exynos850: boot/soc/<soc>.dtsi merged into the DT QEMU
# dumps) or a real board (tm2, e850-96, espresso, jackpotlte, sadk,
# fsd-evb, and gs101's oriole on 6.12: "board =" names a DTB of the tree
# whose SoC nodes boot/graft.c grafts into QEMU's DT); registers seeded
# from boot/soc/<soc>.regs. Default: every SoC whose .conf names BASE in
# its "bases" (6.1 when it has none): the eight above on 6.1, and oriole
# too on 6.12. Compared is what the drivers built: devices bound, clock
# names/parents/rates, pins, groups and functions, SoC id, RTC time, a
# GPIO line, the kernel's error messages. A
# modular second kernel is booted again with the top-level Samsung modules
# loaded in EQ_ORDERS orders (the second: clock modules last, after all
# their consumers; the third: all at once, one process each; the fourth:
# clock modules first and the PMU's last; the rest seeded); every order
# must give the same state
# (but for kernel errors, compared between the kernels only). Differences listed
# in boot/equiv/expected-differences pass; any other fails, and the diff
# is printed and kept in $WORK/logs.
#   EQ_A, EQ_B   "REV CONFIG" of the baseline and of the series
#                (default "v<base> builtin" and "integration modular";
#                CONFIG gki with EQ_WHOLE: every Samsung/Exynos tristate
#                of the boards' drivers a module too, GKI-like)
#   EQ_GKI       non-empty: EQ_B's CONFIG defaults to gki
#   EQ_ORDERS    module orders to try on a modular or gki EQ_B (default 12)
#   EQ_ORDER     the module order of the series' first boot (default:
#                modules.dep order), e.g. to make a probe defer past init
#   EQ_SEED      seed of the order sample (default: from the series kernel
#                and /init, so that a rerun of the same series replays the
#                same orders and finds its results; printed)
#   EQ_EXPECTED  the expectations file (default boot/equiv/expected-differences)
#   EQ_WHOLE     non-empty: whole boards. Both kernels also build the
#                drivers of the boards' own devices (tools/board-config.sh,
#                from the DTBs), graft places those devices too, and their
#                modules join the orders; default SoCs: the real boards.
#                The drivers are those of every board of the base.
#   EQ_DTSI_<soc>, EQ_REGS_<soc>   other SoC description files ('-' in
#                <soc> spelled '_'), for both
#                kernels; EQ_DTSI_B_<soc>, EQ_REGS_B_<soc> for the series
#                only (tests/75-equiv.t seeds faults with them)
# shellcheck source=tools/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=tools/kbuild.sh
. "$TOP/tools/kbuild.sh"
# shellcheck source=tools/equiv-state.sh
. "$TOP/tools/equiv-state.sh"

need qemu-system-aarch64 qemu-system-arm dtc device-tree-compiler fdtput device-tree-compiler fdtget device-tree-compiler cpp cpp gcc gcc \
	timeout coreutils
# eq_base_socs [boards]: the SoCs of this base (boot/soc/<name>.conf
# bases =), or only its real boards (board =).
eq_base_socs() {
	local s
	for s in exynos5433 exynos850 tm2 e850-96 espresso jackpotlte sadk fsd-evb oriole; do
		[[ " $(conf_get "$TOP/boot/soc/$s.conf" bases 6.1) " == *" $BASE "* ]] || continue
		[ -z "${1:-}" ] || [ -n "$(conf_get "$TOP/boot/soc/$s.conf" board "")" ] || continue
		echo "$s"
	done
}
socs=("$@")
[ ${#socs[@]} -gt 0 ] || mapfile -t socs < <(eq_base_socs ${EQ_WHOLE:+boards})
read -r rev_a cfg_a <<<"${EQ_A:-$(base_tag) builtin}"
read -r rev_b cfg_b <<<"${EQ_B:-integration ${EQ_GKI:+gki}}"
cfg_b=${cfg_b:-modular}
[ -z "${EQ_GKI:-}" ] || [ -n "${EQ_WHOLE:-}" ] || die "EQ_GKI=1 needs EQ_WHOLE=1: the GKI-like side differs from modular in the boards' drivers only"
# The series' modules (their compatibles, the orders) come from cfg_b when
# it builds them (modular, or gki: GKI-like), else from its modular build.
mods_cfg=modular
[ "$cfg_b" != gki ] || mods_cfg=gki
orders=${EQ_ORDERS:-12}
expected=${EQ_EXPECTED:-$TOP/boot/equiv/expected-differences}
[ -f "$expected" ] || die "no expectations file $expected"
timeout_s=${BOOT_TIMEOUT:-30}
out=$WORK/equiv
# Held for all builds and boots.
take_lock
mkdir -p "$out/cache" "$out/results"
# Cache entries no run has used for 30 days go (and ones never finished).
find "$out/cache" -mindepth 1 -maxdepth 1 -type d -mtime +1 ! -exec test -f '{}/done' ';' -exec rm -rf '{}' + 2>/dev/null
find "$out/cache" "$out/results" -mindepth 2 -maxdepth 2 -name 'done' -mtime +30 -printf '%h\0' | xargs -0 -r rm -rf

# eq_kernel REV CONFIG: build REV CONFIG and its initramfs; prints the
# initramfs stamp (kernel build and /init). Both kernels come first: the
# stamps key the results below, and every boot after is QEMU alone.
eq_kernel() {
	local o log
	log=$LOGDIR/equiv-build-$(kb_name "$1")-$2${KB_BOARD_FRAGMENT:+-board}.log
	step "equiv: build $1 $2 (log: $log)"
	"$TOP/tools/build.sh" "$1" "$2" >"$log" 2>&1 || die "$1 $2 does not build: $log"
	o=$(kb_outdir "$1" "$2")
	kb_initramfs "$o" >>"$log" 2>&1 || die "no initramfs for $o: $log"
	cat "$o/qemu/stamp"
}
# eq_board_dtb SOC: the path of the board DTB of SOC (built), or nothing
# for a synthetic SoC.
eq_board_dtb() {
	local board
	board=$(conf_get "$TOP/boot/soc/$1.conf" board "")
	[ -n "$board" ] || return 0
	[ -f "$WORK/build/dtbs/.config" ] || kb_make "$WORK/build/dtbs" -s defconfig >/dev/null
	kb_make "$WORK/build/dtbs" -s "$board.dtb" >&2 || die "$board.dtb does not build (above)"
	echo "$WORK/build/dtbs/arch/arm64/boot/dts/$board.dtb"
}

# Whole boards (EQ_WHOLE=1): both kernels also build the drivers of the
# real boards' own devices, derived from their DTBs (tools/board-config.sh),
# and graft binds those devices too: the consumers of the series' clocks,
# pins and PMU, and not only its providers. The drivers of every board of
# the base, whichever boards are named: one pair of kernels serves them all.
if [ -n "${EQ_WHOLE:-}" ]; then
	dtbs=()
	for soc in $(eq_base_socs boards); do
		d=$(eq_board_dtb "$soc") || exit 1
		dtbs+=("$d")
	done
	step "equiv: the drivers of ${#dtbs[@]} board(s), from their DTBs (log: $out/board.config.log)"
	"$TOP/tools/board-config.sh" "$rev_a" "$out/board.config" "${dtbs[@]}" ||
		die "tools/board-config.sh failed (above)"
	grep '^board-config: [0-9]* options' "$out/board.config.log"
	export KB_BOARD_FRAGMENT=$out/board.config
fi
stamp_a=$(eq_kernel "$rev_a" "$cfg_a")
stamp_b=$(eq_kernel "$rev_b" "$cfg_b")
seed=${EQ_SEED:-$((16#${stamp_b:0:7}))}

# eq_dt_tools: the register image generator and the MCT's compatibles.
# Once per run, when a DT is to be made.
eq_dt_tools() {
	[ -z "${dt_tools_done:-}" ] || return 0
	kb_regimg "$out/regimg" || die "boot/regimg.c does not compile (above)"
	kb_mct_compatibles "$rev_a" >"$out/mct-compat" || die "no Exynos MCT driver at $rev_a"
	dt_tools_done=1
}

# eq_machine SOC: QEMU's machine for SOC: virt, with the options of
# "virt-<base> =" or else "virt =" in its .conf (gs101's PMU writes go
# through the secure monitor: virtualization=on puts QEMU's PSCI firmware
# on the SMC conduit, where it answers calls it does not know with
# NOT_SUPPORTED; without it, an SMC is an undefined instruction).
eq_machine() {
	local opts
	opts=$(conf_get "$TOP/boot/soc/$1.conf" "virt-$BASE" "$(conf_get "$TOP/boot/soc/$1.conf" virt "")")
	echo "virt${opts:+,$opts}"
}

# eq_virt_dtb SOC: sets vdtb to QEMU's own DT for SOC's machine, which
# SOC's DT starts from; dumped once per run and machine.
declare -A virt_dtbs
eq_virt_dtb() {
	local m
	m=$(eq_machine "$1")
	if [ -z "${virt_dtbs[$m]:-}" ]; then
		virt_dtbs[$m]=$out/$(tr -c 'A-Za-z0-9_\n-' _ <<<"$m").dtb
		KB_QEMU_MACHINE=$m kb_virt_dtb "${virt_dtbs[$m]}" || die "qemu -M $m could not dump its device tree (above)"
	fi
	vdtb=${virt_dtbs[$m]}
}

# eq_board_inputs: for the SoCs given as a real board (board = in their
# .conf): the graft tool, the compatibles the series' modules bind (from
# its modular build; also those their sources bind in the baseline, so that
# a node the series forgets is grafted and found unbound) and the build
# directory of the board DTBs. Once per run.
eq_board_inputs() {
	local o
	[ -z "${board_inputs_done:-}" ] || return 0
	gcc -O2 -Wall -Wextra -Werror -o "$out/graft" "$TOP/boot/graft.c" -lfdt ||
		die "boot/graft.c does not compile (above; libfdt-dev comes with make deps)"
	[ "$cfg_b" = "$mods_cfg" ] || eq_kernel "$rev_b" "$mods_cfg" >/dev/null
	o=$(kb_outdir "$rev_b" "$mods_cfg")
	kb_samsung_compatibles "$o" "$rev_a" >"$out/compat.new" && [ -s "$out/compat.new" ] ||
		die "no compatibles in the modules of $o"
	# The MCT too: built in, but it needs the series' clocks.
	kb_mct_compatibles "$rev_a" >>"$out/compat.new" || die "no Exynos MCT driver at $rev_a"
	# Whole boards: the compatibles of the board drivers either kernel built.
	[ -z "${KB_BOARD_FRAGMENT:-}" ] ||
		awk 'FILENAME ~ /drivers$/ { if ($2 in built) print $1; next } /=[ym]$/ { sub(/^CONFIG_/, ""); sub(/=.*/, ""); built[$0] = 1 }' \
			"$(kb_outdir "$rev_a" "$cfg_a")/.config" "$o/.config" "$KB_BOARD_FRAGMENT.drivers" >>"$out/compat.new"
	LC_ALL=C sort -u -o "$out/compat.new" "$out/compat.new"
	mv "$out/compat.new" "$out/compat"
	board_inputs_done=1
}

# eq_dtb SOC SIDE DIR: DIR/soc.dtb = QEMU's own DT + the SoC fragment, or
# the SoC nodes of the board DTB grafted into it, and DIR/loader.args =
# the loader options seeding the registers. SIDE is A (baseline) or B
# (series), for the overrides above. DIR is a link into $out/cache, keyed
# by every input: with nothing changed, no dtc, graft or regimg runs.
eq_dtb() {
	local soc=$1 side=$2 d=$3 dtsi regs board v w n=${1//-/_} key c vdtb
	v=EQ_DTSI_$n w=EQ_DTSI_${side}_$n dtsi=${!w:-${!v:-$TOP/boot/soc/$soc.dtsi}}
	v=EQ_REGS_$n w=EQ_REGS_${side}_$n regs=${!w:-${!v:-$TOP/boot/soc/$soc.regs}}
	board=$(conf_get "$TOP/boot/soc/$soc.conf" board "")
	eq_dt_tools
	eq_virt_dtb "$soc"
	if [ -n "$board" ]; then
		eq_board_inputs
		board=$(eq_board_dtb "$soc") || exit 1
		key=$(cat "$vdtb" "$board" "$out/compat" "$out/graft" "$regs" "$out/regimg" | sha256sum)
	else
		kb_soc_dtsi "$dtsi" "$out/soc.dtsi" || die "$dtsi does not preprocess (above)"
		key=$(cat "$vdtb" "$out/soc.dtsi" "$regs" "$out/regimg" | sha256sum)
	fi
	c=$out/cache/${key:0:16}
	if [ -f "$c/done" ]; then
		touch "$c/done"	# in use: not pruned below
		echo "equiv: $soc $side: device tree and register images unchanged, from $c"
	else
		rm -rf "$c" && mkdir -p "$c/img"
		if [ -n "$board" ]; then
			"$out/graft" "$vdtb" "$board" "$out/compat" "$c/soc.dtb" >"$c/graft.tab" 2>"$c/graft.log" ||
				die "$board does not graft: $(cat "$c/graft.log")"
		else
			kb_soc_dtb "$vdtb" "$out/soc.dtsi" "$c" || die "$dtsi does not merge into QEMU's DT (above)"
		fi
		"$out/regimg" "$regs" "$c/img" >"$c/loader.args" || die "$regs: bad register description (above)"
		touch "$c/done"
	fi
	ln -sfn "$c" "$d"
}

# eq_mct_node DTB BUS: the enabled Exynos MCT node under BUS in DTB, if any.
eq_mct_node() {
	local n c
	for n in $(fdtget -l "$1" "/$2"); do
		[ "$(fdtget -d okay "$1" "/$2/$n" status)" != disabled ] || continue
		for c in $(fdtget -d "" "$1" "/$2/$n" compatible); do
			grep -qxF -- "$c" "$out/mct-compat" && { echo "$n"; return; }
		done
	done
}

# eq_append SOC DTB: the eq_* kernel parameters of boot/soc/SOC.conf, and
# the MCT's node in DTB for the agent's MCT cases.
eq_append() {
	local c=$TOP/boot/soc/$1.conf k a="eq_soc=$1" mct
	for k in soc_id rtc gpio bus; do
		a+=" eq_$k=$(conf_get "$c" $k)"
	done
	mct=$(eq_mct_node "$2" "$(conf_get "$c" bus)")
	# Whole boards: a device without a driver here (or whose driver fails
	# on what QEMU does not model) is compared with the base, not required.
	printf '%s\n' "$a${mct:+ eq_mct=$mct}${KB_BOARD_FRAGMENT:+ eq_whole=1}"
}

# eq_boot NAME REV CONFIG SOC DIR SIDE [APPEND]: boot REV CONFIG (built
# by eq_kernel) on the SoC of DIR/SIDE (eq_dtb). Leaves DIR/NAME.log and
# DIR/NAME.state.
eq_boot() {
	local name=$1 rev=$2 cfg=$3 soc=$4 d=$5 hw=$5/$6 app=${7:-}
	# shellcheck disable=SC2046 # the loader options are a list of arguments
	KB_QEMU_MACHINE=$(eq_machine "$soc") kb_boot "$(kb_outdir "$rev" "$cfg")" "$d/$name.log" "$timeout_s" "$(eq_append "$soc" "$hw/soc.dtb") $app" \
		-dtb "$hw/soc.dtb" $(cat "$hw/loader.args")
	eq_verdict="boot: $KB_VERDICT"
	eq_secs=$KB_SECS
	eq_state "$d/$name.log" >"$d/$name.state"
	eq_deferrals=$(tr -d '\r' <"$d/$name.log" | sed -n 's/^# deferrals: //p' | tail -n1)
	case $eq_verdict in "boot: PASS"*) return 0 ;; *) return 1 ;; esac
}

# eq_result_key SOC: everything the SoC's verdict depends on: both kernels
# with their /init, the SoC's description and any override of it, the
# tools that make its DT and judge it, the expectations and the orders.
eq_result_key() {
	local n=${1//-/_} v
	{
		echo "$stamp_a $stamp_b $orders $seed ${EQ_ORDER:-} $timeout_s ${EQ_WHOLE:-}"
		for v in EQ_DTSI_$n EQ_REGS_$n EQ_DTSI_A_$n EQ_REGS_A_$n EQ_DTSI_B_$n EQ_REGS_B_$n; do
			echo "$v=${!v:-}"
			[ -z "${!v:-}" ] || cat "${!v}"
		done
		cat "$TOP/boot/soc/$1".* "$expected" "$TOP/boot/graft.c" "$TOP/boot/regimg.c" \
			"$TOP/tools/equiv.sh" "$TOP/tools/equiv-state.sh" "$TOP/tools/kbuild.sh"
		tool_versions
	} | sha256sum | cut -c1-40
}

# eq_failed NAME DIR: after a boot that crashed, the console from its
# first offending line (the judge's "line N"), so the trace shows here.
eq_failed() {
	local n
	n=$(sed -n 's/.*line \([0-9][0-9]*\): .*/\1/p' <<<"$eq_verdict" | head -n1)
	# A failed KTAP case says it all in the verdict; a crash needs its trace.
	[ -n "$n" ] && [[ $eq_verdict != *": not ok "* ]] || return 0
	echo "--- $2/$1.log from line $n:"
	tr -d '\r' <"$2/$1.log" | sed -n "$n,$((n + 24))p"
}

# The modules whose order is permuted: the Samsung clock, pin control, SoC
# and RTC modules of a build, and with whole boards every other module of
# the build too (the consumers: a PHY, a UART, ...), Samsung ones last.
eq_modules() {
	local o rel re='^kernel/drivers/(clk|pinctrl|soc|rtc)/(samsung/|rtc-s3c)'
	o=$(kb_outdir "$1" "$2") rel=$(kb_release "$o")
	[ -f "$o/staging/lib/modules/$rel/modules.dep" ] || return 0
	if [ -n "${KB_BOARD_FRAGMENT:-}" ]; then
		sed 's/:.*//' "$o/staging/lib/modules/$rel/modules.dep" | grep -v -E "$re" |
			sed 's|.*/||; s/\.ko.*//' | LC_ALL=C sort
	fi
	grep -E "$re" "$o/staging/lib/modules/$rel/modules.dep" |
		sed 's/:.*//; s|.*/||; s/\.ko.*//' | LC_ALL=C sort
}

# The clock modules meant to stay: those under drivers/clk/samsung with no
# exit function (no cleanup_module), which delete_module must refuse.
eq_clk_modules() {
	local o rel ko
	o=$(kb_outdir "$1" "$2") rel=$(kb_release "$o")
	[ -d "$o/staging/lib/modules/$rel/kernel/drivers/clk/samsung" ] || return 0
	for ko in "$o/staging/lib/modules/$rel/kernel/drivers/clk/samsung"/*.ko; do
		${KB_CROSS}nm "$ko" | grep -q ' cleanup_module$' || basename "$ko" .ko
	done | LC_ALL=C sort | paste -sd,
}

# eq_pmu_last ITEM...: the clock modules first, the Exynos PMU's module
# last: each user of the PMU (a PHY, the watchdog, pin retention) probes
# with its clocks there and the PMU driver not yet.
eq_pmu_last() {
	local m first=() mid=() last=()
	for m in "$@"; do
		case $m in
		clk-*) first+=("$m") ;;
		exynos_pmu | exynos-pmu) last+=("$m") ;;
		*) mid+=("$m") ;;
		esac
	done
	(IFS=,; echo "${first[*]},${mid[*]}${last[*]:+,${last[*]}}")
}

# eq_shuffle SEED ITEM...: the items in a seeded random order (Fisher-Yates
# on bash's RANDOM, which an assignment seeds), comma-separated.
eq_shuffle() {
	local -a a=("${@:2}")
	local i j t
	RANDOM=$1
	for ((i = ${#a[@]} - 1; i > 0; i--)); do
		j=$((RANDOM % (i + 1)))
		t=${a[i]} a[i]=${a[j]} a[j]=$t
	done
	(IFS=,; echo "${a[*]}")
}

# eq_at_once ITEM...: all items loaded at once (the agent's "a+b+c").
eq_at_once() { (IFS=+; echo "$*"); }

# eq_hostile ITEM...: the clock modules last, in reverse order (the SoC's
# CMUs and the PMU's clkout, whose clocks other devices and CMUs take,
# after all of their consumers), comma-separated. ITEMs come as
# eq_modules lists them: with whole boards, the consumers' modules
# first, so that each probes before its providers' modules load (the USB
# PHY before the PMU driver).
eq_hostile() {
	local m first=() last=()
	for m in "$@"; do
		if [[ $m == clk-* ]]; then last=("$m" "${last[@]}"); else first+=("$m"); fi
	done
	(IFS=,; echo "${first[*]},${last[*]}")
}

fail=0
table=()
json=()
for soc in "${socs[@]}"; do
	[ -f "$TOP/boot/soc/$soc.conf" ] || die "unknown SoC '$soc': boot/soc/$soc.conf does not exist"
	[ -z "$(conf_get "$TOP/boot/soc/$soc.conf" machine "")" ] ||
		die "'$soc' is one of QEMU's own Exynos4210 machines (boot/soc/$soc.conf names a machine): run make exynos4210 BOARD=$soc"
	res=$out/results/$(eq_result_key "$soc")
	if [ -f "$res/done" ]; then
		echo "equiv: $soc: PASS in an earlier run with the same kernels, /init, DT, registers and orders ($(cat "$res/when"); $res)"
		touch "$res/done"
		# The SoC's directory shows the run whose verdict this is (hard
		# links: a run removes the directory first, never writes into it).
		d=$out/$soc
		rm -rf "$d"
		[ ! -d "$res/run" ] || cp -al "$res/run" "$d"
		table+=("$(cat "$res/row")")
		json+=("$(cat "$res/json")")
		continue
	fi
	d=$out/$soc
	rm -rf "$d"
	mkdir -p "$d"
	step "equiv $soc: device tree and register images in $d"
	eq_dtb "$soc" A "$d/A"
	eq_dtb "$soc" B "$d/B"
	[ ! -f "$d/A/graft.tab" ] || echo "equiv: $soc: $(conf_get "$TOP/boot/soc/$soc.conf" board) grafted," \
		"$(wc -l <"$d/A/graft.tab") register blocks moved ($d/A/graft.tab), $(wc -l <"$d/A/graft.log") notes ($d/A/graft.log)"
	soc_fail=0

	step "equiv $soc: baseline $rev_a $cfg_a"
	# The sleep cycle on the first boot of each kernel only: pm_test holds
	# each cycle for 5 s.
	if eq_boot a "$rev_a" "$cfg_a" "$soc" "$d" A eq_sleep=1; then :; else soc_fail=1 && eq_failed a "$d"; fi
	printf 'equiv: %s baseline %s, %ss\n' "$soc" "${eq_verdict#boot: }" "$eq_secs"
	state_a=$d/a.state

	perm=$(eq_clk_modules "$rev_b" "$cfg_b")
	step "equiv $soc: series $rev_b $cfg_b"
	if eq_boot b "$rev_b" "$cfg_b" "$soc" "$d" B "eq_sleep=1 ${EQ_ORDER:+eq_order=$EQ_ORDER }${perm:+eq_permanent=$perm}"; then :; else soc_fail=1 && eq_failed b "$d"; fi
	printf 'equiv: %s series %s, %ss\n' "$soc" "${eq_verdict#boot: }" "$eq_secs"
	defs="${eq_deferrals:-?}"
	read -r n_exp n_unexp <<<"$(eq_compare "$state_a" "$d/b.state" "$d/diff" "$expected")"
	cp "$d/diff" "$LOGDIR/equiv-$soc.diff"
	if [ "$n_unexp" -gt 0 ]; then
		soc_fail=1
		echo "equiv: $soc: $n_unexp unexpected differences ($rev_a $cfg_a '-', $rev_b $cfg_b '+'; $LOGDIR/equiv-$soc.diff):"
		# Devices first: a device that did not bind explains the rest.
		{ grep '^[-+] dev ' "$d/diff" || true; grep -v '^[-+] dev ' "$d/diff" || true; } | head -n 60
		[ "$(wc -l <"$d/diff")" -le 60 ] || echo "... ($(wc -l <"$d/diff") lines, all in $LOGDIR/equiv-$soc.diff)"
	fi

	tried=1
	mapfile -t mods < <(eq_modules "$rev_b" "$cfg_b")
	if [ "$cfg_b" = "$mods_cfg" ] && [ ${#mods[@]} -gt 1 ] && [ "$orders" -gt 1 ]; then
		step "equiv $soc: $orders module orders of ${#mods[@]} modules: modules.dep, clock modules last, all at once, the PMU last, seed $seed (replay: EQ_SEED=$seed)"
		for i in $(seq 2 "$orders"); do
			case $i in
			2) order=$(eq_hostile "${mods[@]}") ;;
			3) order=$(eq_at_once "${mods[@]}") ;;
			4) order=$(eq_pmu_last "${mods[@]}") ;;
			*) order=$(eq_shuffle "$seed$i" "${mods[@]}") ;;
			esac
			if eq_boot "order$i" "$rev_b" "$cfg_b" "$soc" "$d" B "eq_order=$order${perm:+ eq_permanent=$perm}"; then :; else
				soc_fail=1 && eq_failed "order$i" "$d"
			fi
			tried=$((tried + 1))
			defs+=",${eq_deferrals:-?}"
			# Kernel errors are compared between the kernels, not across
			# orders: a driver tried on a device before its parent's
			# driver may log a refusal (exynos-clkout on the PMU node).
			# The orders run no sleep cycle.
			grep -v -E '^(kerr|sleep) ' "$d/b.state" >"$d/b.core"
			grep -v -E '^(kerr|sleep) ' "$d/order$i.state" >"$d/order$i.core"
			if ! cmp -s "$d/b.core" "$d/order$i.core"; then
				soc_fail=1
				echo "equiv: $soc: order $order gives another state than modules.dep order:"
				diff "$d/b.core" "$d/order$i.core" | head -n 30 || true
				diff "$d/b.core" "$d/order$i.core" >"$LOGDIR/equiv-$soc-order$i.diff" || true
			fi
			printf 'equiv: %s order %d %s %ss deferrals %s: %s\n' "$soc" "$i" \
				"$(cmp -s "$d/b.core" "$d/order$i.core" && echo same || echo DIFFERENT)" \
				"$eq_secs" "${eq_deferrals:-?}" "$order"
		done
	fi

	bound=$(grep -c '^dev .* bound ' "$d/b.state" || true)
	ndev=$(grep -c '^dev ' "$d/b.state" || true)
	clocks=$(grep -c '^clk ' "$d/b.state" || true)
	pins=$(grep -c '^pinctrl .* pins: pin ' "$d/b.state" || true)
	table+=("$(printf '%-11s %7s %6s %6s %-14s %6s %8s/%-10s %s' "$soc" "$bound/$ndev" "$clocks" "$pins" "$defs" "$tried" \
		"$n_exp" "$n_unexp" "$([ $soc_fail = 0 ] && echo PASS || echo FAIL)")")
	json+=("$(printf '{"soc":"%s","devices_bound":%d,"devices":%d,"clocks":%d,"pins":%d,"deferrals":"%s","orders":%d,"expected":%d,"unexpected":%d,"pass":%s}' \
		"$soc" "$bound" "$ndev" "$clocks" "$pins" "$defs" "$tried" "$n_exp" "$n_unexp" "$([ $soc_fail = 0 ] && echo true || echo false)")")
	if [ $soc_fail = 0 ]; then
		mkdir -p "$res"
		echo "${table[-1]}" >"$res/row"
		echo "${json[-1]}" >"$res/json"
		date -u '+%Y-%m-%d %H:%M UTC' >"$res/when"
		rm -rf "$res/run"
		cp -al "$d" "$res/run"
		touch "$res/done"
	else
		fail=1
	fi
done

echo "equiv: $rev_a $cfg_a against $rev_b $cfg_b, seed $seed"
printf '%-11s %7s %6s %6s %-14s %6s %19s %s\n' SoC bound clocks pins deferrals orders "diff expect/unexp" result
printf '%s\n' "${table[@]}"
printf '{"a":"%s %s","b":"%s %s","seed":"%s","socs":[%s]}\n' "$rev_a" "$cfg_a" "$rev_b" "$cfg_b" "$seed" \
	"$(IFS=,; echo "${json[*]}")" >"$WORK/equiv.json"
if [ $fail = 0 ]; then
	echo "equiv: PASS ${socs[*]}"
else
	echo "equiv: FAIL ${socs[*]} (logs: $out, $LOGDIR/equiv-*.diff)"
	exit 1
fi
