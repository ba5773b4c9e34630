# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# Kernel build and QEMU boot helpers for build.sh, boot.sh and later gates.
# Sourced after lib.sh, never run.

KB_ARCH=arm64
KB_CROSS=aarch64-linux-gnu-
KB_CONFIGS=$TOP/boot/configs

# Same inputs, same Image: no build host, user, clock or count of the
# builds made in its directory (the '#N' of the banner) in the kernel,
# and no '+' appended to the release because the tree is a git checkout.
export KBUILD_BUILD_TIMESTAMP=$BASE_DATE KBUILD_BUILD_USER=exynos-gki KBUILD_BUILD_HOST=exynos-gki
export KBUILD_BUILD_VERSION=1
export LOCALVERSION=

# kb_check_config_name NAME: NAME must be a boot/configs/NAME.config other
# than virt.config, which every configuration starts from.
kb_check_config_name() {
	local f known=
	if [ "$1" = virt ] || [ ! -f "$KB_CONFIGS/$1.config" ]; then
		for f in "$KB_CONFIGS"/*.config; do
			f=${f##*/} f=${f%.config}
			[ "$f" = virt ] || known+=" $f"
		done
		die "unknown build configuration '$1' (known:$known)"
	fi
}

# kb_rev REV: the commit a revision name points to, or die.
kb_rev() {
	kgit rev-parse -q --verify "$1^{commit}" ||
		die "'$1' is not a revision in $KSRC: give a branch, tag or commit"
}

# kb_name REV: REV as one path component; slashes become dashes.
kb_name() {
	printf '%s' "${1//\//-}" | tr -c 'A-Za-z0-9._+-' '_'
	echo
}

# kb_outdir REV CONFIG: the O= directory. One per name, not per commit, so
# rebuilding a moved branch is incremental. BUILD_NAME replaces the name,
# for gates that walk many commits through one directory.
# KB_BOARD_FRAGMENT (tools/board-config.sh: the drivers of whole boards)
# is merged after virt.config, not checked option by option (the series
# decides what of it may be a module), and builds in <name>-<CONFIG>-board.
kb_outdir() { printf '%s\n' "$WORK/build/${BUILD_NAME:-$(kb_name "$1")}-$2${KB_BOARD_FRAGMENT:+-board}"; }

# kb_fragments REV CONFIG: sets KB_FRAGMENTS to the config fragments in merge
# order: virt, KB_BOARD_FRAGMENT, the configuration, each topic's own,
# EXTRA_FRAGMENT. A topic's own is 'fragment =' in its topic.conf for
# modular (default topics/<t>/modular.config), topics/<t>/<CONFIG>.config
# otherwise. It counts only when the topic's branch is merged into REV:
# the base tree cannot give a symbol the prompt only the topic adds.
# gki is modular with the board fragment's GKI-like twin.
kb_fragments() {
	local rev=$1 cfg=$2 t d f b as=$2 board=${KB_BOARD_FRAGMENT:-}
	if [ "$cfg" = gki ]; then
		as=modular
		[ -z "$board" ] || board=${board%.config}-gki.config
	fi
	KB_FRAGMENTS=("$KB_CONFIGS/virt.config" ${board:+"$board"} "$KB_CONFIGS/$as.config")
	[ "$as" = "$cfg" ] || KB_FRAGMENTS+=("$KB_CONFIGS/$cfg.config")
	if [ -f "$TOPICS/merge-order" ]; then
		for t in $(topic_list); do
			topic_dir "$t" >/dev/null # dies here, not in a subshell, if unknown
			d=$TOPICS/$t
			f=$d/$as.config
			if [ "$as" = modular ] && grep -q '^[[:space:]]*fragment[[:space:]]*=' "$d/topic.conf"; then
				f=$TOP/$(conf_get "$d/topic.conf" fragment)
				[ -f "$f" ] || die "$TOPICS_REL/$t/topic.conf: fragment '${f#"$TOP/"}' does not exist"
			fi
			[ -f "$f" ] || continue
			b=$(topic_branch "$t")
			if kgit rev-parse -q --verify "$b^{commit}" >/dev/null &&
				kgit merge-base --is-ancestor "$b" "$rev"; then
				KB_FRAGMENTS+=("$f")
			fi
		done
	fi
	# For tests and one-off experiments: space-separated extra fragments.
	for f in ${EXTRA_FRAGMENT:-}; do
		[ -f "$f" ] || die "EXTRA_FRAGMENT names '$f', which does not exist"
		KB_FRAGMENTS+=("$(realpath -- "$f")")
	done
}

# ccache in depend mode: a miss does not run the preprocessor first, which
# makes cold builds faster. It gives up hits between configurations whose
# preprocessed output happens to match; build.sh's seeded build
# directories and kbuild's per-option dependencies cover that case.
[ -n "${CCACHE_NODEPEND:-}" ] || export CCACHE_DEPEND=1

# The toolchain of kb_make: KB_LLVM, a version suffix ("-16"), builds
# with Debian's clang and LLVM binutils of that version (make LLVM=-16)
# instead of gcc; KB_MAKE_FLAGS are make variables for every make (W=1).
# Both are part of kb_config_stamp, hence of every build's stamp.
KB_LLVM=${KB_LLVM:-}
KB_MAKE_FLAGS=${KB_MAKE_FLAGS:-}

# kb_make O ARGS...: make in the kernel tree, out of tree in O.
kb_make() {
	local o=$1 cc=${KB_CROSS}gcc
	shift
	[ -z "$KB_LLVM" ] || cc=clang$KB_LLVM
	command -v ccache >/dev/null 2>&1 && cc="ccache $cc"
	# shellcheck disable=SC2086 # KB_MAKE_FLAGS: a list of make variables
	make -C "$KSRC" O="$o" ARCH=$KB_ARCH ${KB_LLVM:+LLVM=$KB_LLVM} CROSS_COMPILE=$KB_CROSS CC="$cc" $KB_MAKE_FLAGS "$@"
}

# Incremental builds by content. kbuild rebuilds what is newer than its
# objects, and a checkout gives every file it rewrites a new mtime, also
# a file that goes back to the content a build directory was made from:
# the gates walk topic commits and integration through shared directories,
# and a round trip of one header (timekeeping.h) recompiles most objects.
# A finished build records its source tree in O/.kb-tree; before the next
# make in O, all of O is dated now and then the files that differ from
# that tree newer still, so kbuild rebuilds what the content change
# reaches and nothing else. A make that did not finish leaves no record,
# and mtimes alone decide, as before.

# kb_incremental O TREE: prepare O for a make of source tree TREE (checked
# out in $KSRC).
kb_incremental() {
	local o=$1 was now
	was=$(cat "$o/.kb-tree" 2>/dev/null) || return 0
	rm -f "$o/.kb-tree"
	# a tree this repository no longer has (imported anew): mtimes decide
	kgit cat-file -e "$was^{tree}" 2>/dev/null || return 0
	# One timestamp for all of O (make compares its files with each other
	# too), and a later one for the files that differ. Both explicit: the
	# time a file write records is the kernel's coarse clock, which can lag
	# $EPOCHREALTIME by a tick, so a plain touch could date a file earlier.
	now=$EPOCHREALTIME
	find "$o" -exec touch -h -d "@$now" {} +
	kgit diff --no-renames --name-only "$was" "$2" |
		(cd "$KSRC" && while IFS= read -r f; do [ ! -e "$f" ] || printf '%s\0' "$f"; done) |
		(cd "$KSRC" && xargs -0 -r touch -h -d "@$(awk -v t="$now" 'BEGIN { printf "%.6f", t + 0.000001 }')")
}

# kb_built O TREE: the make in O of TREE has finished.
kb_built() { echo "$2" >"$1/.kb-tree"; }

# Finished builds are kept under $WORK/build/.kept-<cfg>: a tree built
# before comes back as a copy, and a new tree starts from the kept build
# whose sources differ least from it. Two groups of BUILD_KEEP each
# (default 6): builds of named revisions (the base, the topics,
# integration: the start points of every walk) and builds of bare commits
# (a walk through one topic), so that a topic's walk does not push the
# base out. BUILD_KEEP=0 keeps none.
KB_KEEP=${BUILD_KEEP:-6}

# kb_tree_distance TREE1 TREE2: roughly what going from one source tree to
# the other recompiles: the files that differ, a header counting a hundred.
kb_tree_distance() {
	if [ "$1" = "$2" ]; then echo 0; return; fi
	kgit cat-file -e "$1^{tree}" 2>/dev/null || { echo 999999999; return; }
	kgit diff --no-renames --name-only "$1" "$2" | awk '/\.h$/ { n += 100; next } { n++ } END { print n + 0 }'
}

# kb_keep O CFG STAMP [named]: keep a copy of O, a finished build of CFG
# under STAMP; "named" when it is the build of a branch or tag.
kb_keep() {
	local d=$WORK/build/.kept-$2 k
	[ "$KB_KEEP" -gt 0 ] || return 0
	mkdir -p "$d" && rm -rf "$d/${3:?}" "$d/$3.tmp" || return
	cp -a "$1" "$d/$3.tmp" && rm -f "$d/$3.tmp/.kb-named" || { rm -rf "$d/$3.tmp"; return 1; }
	[ "${4-}" != named ] || : >"$d/$3.tmp/.kb-named"
	mv "$d/$3.tmp" "$d/$3" && touch -d "@$EPOCHREALTIME" "$d/$3" || return
	# the most recently kept or used ones of each group stay (dated
	# explicitly: a plain touch takes the coarse clock, and can tie)
	find "$d" -mindepth 1 -maxdepth 1 -type d -printf '%T@ %p\n' | sort -rn | cut -d' ' -f2- |
		while IFS= read -r k; do
			if [ -e "$k/.kb-named" ]; then echo "named $k"; else echo "walk $k"; fi
		done | awk -v n="$KB_KEEP" '++kept[$1] > n { print substr($0, length($1) + 2) }' | xargs -r rm -rf
}

# kb_restore O CFG STAMP TREE: replace O by the kept build of STAMP
# (returns 0: nothing to build), or by the kept build nearest TREE when it
# is nearer than O itself (returns 1, as when nothing is replaced).
kb_restore() {
	local o=$1 d=$WORK/build/.kept-$2 best='' bestd=999999999 s n
	[ "$KB_KEEP" -gt 0 ] && [ -d "$d" ] || return 1
	if [ -f "$d/$3/.kb-tree" ]; then
		best=$d/$3
	else
		[ ! -f "$o/.kb-tree" ] || bestd=$(kb_tree_distance "$(cat "$o/.kb-tree")" "$4")
		for s in "$d"/*/.kb-tree; do
			[ -f "$s" ] || continue
			n=$(kb_tree_distance "$(cat "$s")" "$4")
			if [ "$n" -lt "$bestd" ]; then best=${s%/.kb-tree} bestd=$n; fi
		done
	fi
	[ -n "$best" ] || return 1
	touch -d "@$EPOCHREALTIME" "$best"
	rm -rf "$o.new" && cp -a "$best" "$o.new" && rm -rf "$o" && mv "$o.new" "$o" || return 1
	[ "$best" = "$d/$3" ]
}

# kb_kconfig_inputs REV: the files of REV that a .config is made from (the
# Kconfig files, kconfig and the scripts its macros run, the Makefiles
# that name the defconfigs, the defconfigs), one ls-tree line each.
kb_kconfig_inputs() {
	kgit ls-tree -r "$1" |
		grep -E $'\t((.*/)?Kconfig[^/]*|scripts/(kconfig/.*|[^/]*\\.(sh|include))|Makefile|arch/[^/]*/Makefile|arch/[^/]*/configs/.*)$'
}

# kb_config_stamp REV FRAGMENT...: a hash of everything the .config is made
# from: the fragments, REV's kconfig inputs, the toolchain.
kb_config_stamp() {
	local rev=$1
	shift
	{
		cat -- "$@"
		kb_kconfig_inputs "$rev"
		${KB_CROSS}gcc --version
		${KB_CROSS}ld --version
		echo "LLVM=$KB_LLVM $KB_MAKE_FLAGS"
		[ -z "$KB_LLVM" ] || { clang$KB_LLVM --version && ld.lld$KB_LLVM --version; }
	} | sha256sum | cut -d' ' -f1
}

# kb_kconfig_env CMD...: run CMD (a program linked with the tree's
# scripts/kconfig) in KSRC, in the environment the top Makefile gives
# Kconfig's macros.
kb_kconfig_env() {
	(cd "$KSRC" && env srctree="$KSRC" ARCH=$KB_ARCH SRCARCH=$KB_ARCH CC=${KB_CROSS}gcc LD=${KB_CROSS}ld \
		OBJCOPY=${KB_CROSS}objcopy NM=${KB_CROSS}nm CC_VERSION_TEXT="$(${KB_CROSS}gcc --version | sed -n 1p)" \
		KERNELVERSION="$(make -s kernelversion)" RUSTC=rustc BINDGEN=bindgen PAHOLE=pahole HOSTCC=gcc HOSTCXX=g++ \
		"$@")
}

# kb_lkc_tool O SRC OUT: compile SRC into OUT, linked with the Kconfig
# objects that configuring build directory O compiled (the tree's own
# Kconfig code), for kb_kconfig_env to run.
kb_lkc_tool() {
	local k=$1/scripts/kconfig
	gcc -O2 -Wall -I"$KSRC/scripts/kconfig" -I"$KSRC/scripts/include" -I"$k" -o "$3" "$2" \
		"$k"/{confdata,expr,lexer.lex,menu,parser.tab,preprocess,symbol,util}.o
}

# kb_keep_config O CMD...: run CMD, which writes O/.config; if the .config
# comes out as it was, it keeps its old mtime, so that the next build does
# not sync the configuration again and recompile everything.
kb_keep_config() {
	local o=$1 rc=0
	shift
	rm -f "$o/.config.kb-prev"
	if [ -f "$o/.config" ]; then cp -p "$o/.config" "$o/.config.kb-prev" || return; fi
	"$@" || rc=$?
	if [ -f "$o/.config.kb-prev" ]; then
		if [ "$rc" = 0 ] && cmp -s "$o/.config" "$o/.config.kb-prev"; then touch -r "$o/.config.kb-prev" "$o/.config"; fi
		rm -f "$o/.config.kb-prev"
	fi
	return "$rc"
}

# kb_merge_fragments O FRAGMENT...: allnoconfig, the fragments, olddefconfig.
kb_merge_fragments() {
	local o=$1
	shift
	kb_make "$o" allnoconfig || return
	# merge_config.sh makes its temp files in the cwd: keep them out of KSRC.
	(cd "$o" && CONFIG_=CONFIG_ "$KSRC/scripts/kconfig/merge_config.sh" -m -O "$o" "$o/.config" "$@") || return
	kb_make "$o" olddefconfig
}

# kb_configure O REV FRAGMENT...: allnoconfig + fragments (merge_config.sh -m)
# + olddefconfig, then kb_check_config. Skipped when the stamp says nothing
# changed; an unchanged result keeps the old .config's mtime, so make does
# not even rerun syncconfig. Returns non-zero on failure (callers redirect
# it into a log, often under '||', where set -e is off: hence the returns).
kb_configure() {
	local o=$1 rev=$2 stamp
	shift 2
	mkdir -p "$o" || return
	stamp=$(kb_config_stamp "$rev" "$@") || return
	if [ -f "$o/.config" ] && [ "$(cat "$o/.kb-config-stamp" 2>/dev/null)" = "$stamp" ]; then
		echo "config: inputs unchanged (stamp $stamp), keeping $o/.config"
		kb_check_config "$o/.config" "$@"
		return
	fi
	rm -f "$o/.kb-config-stamp"
	kb_keep_config "$o" kb_merge_fragments "$o" "$@" || return
	kb_check_config "$o/.config" "$@" || return
	echo "$stamp" >"$o/.kb-config-stamp"
}

# kb_check_config CONFIG FRAGMENT...: every option a fragment asks for must
# be in the final .config with that value; the last fragment to name an
# option is the one that asked. Prints one line per mismatch to stderr and
# returns 1.
kb_check_config() {
	local cfg=$1 f board=${KB_BOARD_FRAGMENT:-}
	shift
	# The board fragment (or its GKI-like twin) is a wish list: say what
	# of it did not stick.
	for f; do
		if [ -n "$board" ] && { [ "$f" = "$board" ] || [ "$f" = "${board%.config}-gki.config" ]; }; then
			kb_board_report "$cfg" "$f"
			shift
			continue
		fi
		set -- "$@" "$f"
		shift
	done
	awk -v cfg="$cfg" -v top="$TOP/" '
		function val(line) {
			if (line ~ /^# CONFIG_[A-Za-z0-9_]+ is not set/) return "n"
			sub(/^[^=]*=/, "", line)
			return line
		}
		function sym(line) {
			sub(/^# /, "", line)
			sub(/[ =].*/, "", line)
			return line
		}
		function show(v) {
			if (v == "n") return "n (is not set)"
			if (v == "") return "nothing (not in .config: unknown option, or its dependencies are not met)"
			return v
		}
		!/^CONFIG_[A-Za-z0-9_]+=/ && !/^# CONFIG_[A-Za-z0-9_]+ is not set/ { next }
		FILENAME == cfg { have[sym($0)] = val($0); next }
		{
			s = sym($0); want[s] = val($0)
			f = FILENAME; if (index(f, top) == 1) f = substr(f, length(top) + 1)
			from[s] = f ":" FNR
			if (!(s in seen)) { seen[s] = 1; order[++n] = s }
		}
		END {
			for (i = 1; i <= n; i++) {
				s = order[i]; got = (s in have) ? have[s] : ""
				if (got == want[s] || (want[s] == "n" && got == "")) continue
				printf "config: %s: %s asks for %s, olddefconfig gave %s\n", s, from[s], show(want[s]), show(got) > "/dev/stderr"
				bad++
			}
			exit (bad > 0)
		}
	' "$@" "$cfg"
}

# kb_board_report CONFIG FRAGMENT: one line per option of FRAGMENT that
# CONFIG does not have with the fragment's value.
kb_board_report() {
	awk -F= 'NR == FNR { if (/^CONFIG_/) have[$1] = $2; next }
		/^CONFIG_/ && have[$1] != $2 { printf "config: board option %s=%s is %s here\n", $1, $2, have[$1] == "" ? "n" : have[$1] }' "$1" "$2"
}

# kb_progress LOG: copy make's output into LOG; on the terminal show
# warnings and errors as they come and a heartbeat every 15 s.
kb_progress() {
	local line n=0 last=$SECONDS
	while IFS= read -r line; do
		printf '%s\n' "$line" >&3
		n=$((n + 1))
		case $line in
		*warning:* | *error:* | *Error\ [0-9]* | WARNING:* | ERROR:*) printf '%s\n' "$line" >&2 ;;
		esac
		if [ $((SECONDS - last)) -ge 15 ]; then
			last=$SECONDS
			printf '    ... %4ds, %5d lines, at: %s\n' "$SECONDS" "$n" "${line:0:100}" >&2
		fi
	done 3>>"$1"
}

# kb_depmod ARGS...: depmod lives in /usr/sbin, which a user's PATH may lack.
kb_depmod() {
	local d
	d=$(PATH=$PATH:/usr/sbin:/sbin command -v depmod) ||
		die "'depmod' not found: install Debian package 'kmod' (run 'make deps')"
	"$d" "$@"
}

# kb_build_init OUT: the guest agent, boot/agent/, as a static aarch64 /init.
kb_build_init() { ${KB_CROSS}gcc -static -O2 -Wall -Wextra -Werror -o "$1" "$TOP"/boot/agent/*.c; }

# kb_cpio DIR OUT: DIR as a reproducible initramfs: fixed mtimes, sorted
# names, owner root, no inode numbers.
kb_cpio() {
	find "$1" -exec touch -h -d "$BASE_DATE" {} + &&
		(cd "$1" && find . -mindepth 1 -print0 | LC_ALL=C sort -z |
			cpio --quiet --null -o -H newc --reproducible -R 0:0) >"$2"
}

# kb_release O: the kernel release the build in O reports (uname -r).
kb_release() { cat "$1/include/config/kernel.release"; }

# kb_samsung_compatibles O BASE: the DT compatibles the Samsung clock,
# pinctrl, SoC and RTC modules of build directory O bind, sorted: their
# modinfo aliases, and the compatibles that the same source files (kbuild's
# .mod lists) match at BASE, so that one the series drops is still known.
kb_samsung_compatibles() {
	local o=$1 base=$2 rel srcs
	rel=$(kb_release "$o") || return
	srcs=$(cat "$o"/drivers/{clk,pinctrl,soc}/samsung/*.mod "$o"/drivers/rtc/rtc-s3c.mod 2>/dev/null |
		tr ' ' '\n' | sed -n 's/\.o$/.c/p' | sort -u)
	[ -n "$srcs" ] || { echo "no Samsung modules in $o" >&2; return 1; }
	{
		find "$o/staging/lib/modules/$rel/kernel/drivers" -name '*.ko' |
			grep -E '/drivers/(clk|pinctrl|soc)/samsung/|/drivers/rtc/rtc-s3c\.ko' |
			xargs -r env PATH="$PATH:/sbin:/usr/sbin" modinfo -F alias |
			sed -n 's/^of:N\*T\*C\(.*\)C\*$/\1/p'
		# shellcheck disable=SC2086 # one pathspec per source
		kgit grep -h -o -E '(\.compatible[[:space:]]*=|CLK_OF_DECLARE(_DRIVER)?\([^,]+,)[[:space:]]*"[^"]+"' \
			"$base" -- $srcs | sed 's/.*"\(.*\)"$/\1/'
	} | LC_ALL=C sort -u
}

# kb_mct_compatibles REV: the DT compatibles the Exynos MCT timer driver
# of REV declares (TIMER_OF_DECLARE), one per line.
kb_mct_compatibles() {
	kgit show "$1:drivers/clocksource/exynos_mct.c" |
		sed -n 's/^TIMER_OF_DECLARE([^,]*, *"\([^"]*\)".*/\1/p'
}

# The QEMU machine, in one place: a DTB dumped with -M virt,dumpdtb= only
# describes a boot with the very same options. -nic none: virt otherwise
# adds a virtio-net PCI NIC whose option ROM (efi-virtio.rom) comes from
# ipxe-qemu, a Recommends of qemu-system-arm that 'make deps' does not
# install; without it QEMU refuses to start. The guest needs no network.
KB_QEMU_MACHINE=virt
KB_QEMU_OPTS=(-cpu cortex-a57 -m 512 -nographic -no-reboot -nic none)

# kb_qemu_cmd MACHINE: sets KB_QEMU to qemu-system-aarch64 -M MACHINE and the
# options above, as an array to run under timeout. Close its stdin: a tty
# there would be switched to raw mode.
kb_qemu_cmd() { KB_QEMU=(qemu-system-aarch64 -M "$1" "${KB_QEMU_OPTS[@]}"); }

# kb_dump_dtb OUT: the device tree QEMU gives the guest, for tests that add
# fake SoC nodes to it (then boot with QEMU_EXTRA="-dtb ...").
kb_dump_dtb() {
	local err
	kb_qemu_cmd "$KB_QEMU_MACHINE,dumpdtb=$1"
	err=$("${KB_QEMU[@]}" </dev/null 2>&1 >/dev/null) || { printf '%s\n' "$err" >&2; return 1; }
}

# kb_virt_dtb OUT: as kb_dump_dtb, without the random seeds QEMU puts in
# /chosen, and rewritten by dtc (fdtput leaves stray bytes): the same every
# run, so that what is built from it can be cached.
kb_virt_dtb() {
	kb_dump_dtb "$1.raw" && fdtput -d "$1.raw" /chosen rng-seed kaslr-seed &&
		dtc -q -I dtb -O dtb -o "$1" "$1.raw"
}

# kb_soc_dtsi DTSI OUT: a synthetic SoC's DTSI (boot/soc/) preprocessed,
# with the tree's dt-bindings headers.
kb_soc_dtsi() { cpp -nostdinc -undef -P -x assembler-with-cpp -I "$KSRC/include" "$1" >"$2"; }

# kb_soc_dtb VIRT DTSI DIR: DIR/soc.dtb, QEMU's DT (kb_virt_dtb) with a
# preprocessed SoC DTSI (kb_soc_dtsi) merged in; DIR/soc.dts kept.
kb_soc_dtb() {
	dtc -q -I dtb -O dts -o "$3/virt.dts" "$1" && cat "$3/virt.dts" "$2" >"$3/soc.dts" &&
		dtc -q -I dts -O dtb -o "$3/soc.dtb" "$3/soc.dts"
}

# kb_regimg OUT: the host tool that makes register images and the QEMU
# loader options seeding them from a boot/soc/*.regs description.
kb_regimg() { gcc -O2 -Wall -Wextra -Werror -o "$1" "$TOP/boot/regimg.c"; }

# kb_initramfs O: O/qemu/initramfs.cpio, boot/agent/ as /init and the
# modules staged in build directory O. O/qemu/stamp identifies it (the
# build's stamp, /init's source, this file): with neither changed since,
# the cpio is kept.
kb_initramfs() {
	local q=$1/qemu rel stamp
	stamp=$( { cat "$1/.kb-build-stamp" && cat "$TOP"/boot/agent/* "$TOP/tools/kbuild.sh"; } 2>/dev/null | sha256sum | cut -c1-40)
	if [ -f "$1/.kb-build-stamp" ] && [ -f "$q/initramfs.cpio" ] && [ "$(cat "$q/stamp" 2>/dev/null)" = "$stamp" ]; then
		return 0
	fi
	rel=$(kb_release "$1")
	rm -rf "$q" && mkdir -p "$q/root/lib/modules" || return 1
	kb_build_init "$q/root/init" || { echo "boot/agent/ does not compile (above)" >&2; return 1; }
	cp -a "$1/staging/lib/modules/$rel" "$q/root/lib/modules/" &&
		# build and source point into this host's WORK: not for the guest.
		rm -f "$q/root/lib/modules/$rel/build" "$q/root/lib/modules/$rel/source" &&
		kb_cpio "$q/root" "$q/initramfs.cpio" && echo "$stamp" >"$q/stamp"
}

# kb_boot O LOG TIMEOUT APPEND [QEMU ARG...]: boot build directory O's
# Image and initramfs (kb_initramfs), console to LOG, QEMU's own messages
# to LOG.qemu. Sets KB_VERDICT (kb_verdict's) and KB_SECS.
kb_boot() {
	local o=$1 log=$2 t=$3 app=$4 rc=0 start
	shift 4
	start=$EPOCHREALTIME
	kb_qemu_cmd "$KB_QEMU_MACHINE"
	timeout -k 5 "$t" "${KB_QEMU[@]}" -kernel "$o/arch/arm64/boot/Image" -initrd "$o/qemu/initramfs.cpio" \
		-append "console=ttyAMA0 panic=-1${app:+ $app}" "$@" </dev/null >"$log" 2>"$log.qemu" || rc=$?
	# shellcheck disable=SC2034 # for the callers
	KB_SECS=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
	# shellcheck disable=SC2034 # for the callers
	KB_VERDICT=$(kb_verdict "$log" "$rc")
}

# kb_ktap LOG: the KTAP lines of a console log, from the version line on.
kb_ktap() {
	tr -d '\r' <"$1" | awk '/^KTAP version /{on = 1} on && /^(KTAP version |1\.\.[0-9]+$|(not )?ok [0-9]+|# )/'
}

# kb_verdict LOG RC: judge a console log (RC is qemu's status under
# timeout). Prints "PASS <passed> <total>" or "FAIL <reason>". The first
# offending line wins over everything else, because it is the cause.
kb_verdict() {
	tr -d '\r' <"$1" | awk -v rc="$2" '
		function where() { return last == "" ? "the console stayed empty" : "last console line: " last }
		!bad && /Kernel panic|Oops|BUG:|WARNING:|Unknown symbol|Section mismatch/ {
			bad = "line " NR ": " $0
		}
		/^KTAP version 1$/ { ktap = 1 }
		ktap && plan == "" && /^1\.\.[0-9]+$/ { plan = substr($0, 4) + 0 }
		ktap && /^ok [0-9]+/ { pass++; n++ }
		ktap && /^not ok [0-9]+/ { n++; if (!bad) bad = "line " NR ": " $0 }
		NF { last = $0 }
		END {
			if (bad) print "FAIL " bad (rc == 124 ? " (and then timed out)" : "")
			else if (rc == 124) print "FAIL timeout; " where()
			else if (!ktap || plan == "") print "FAIL no KTAP plan on the console (did /init run?); " where()
			else if (n != plan) print "FAIL the plan says " plan " results, /init reported " n "; " where()
			else if (rc != 0) print "FAIL qemu exited with status " rc
			else print "PASS " pass + 0 " " plan
		}
	'
}

# kconfig_make ARCH O TARGET...: a Kconfig target for any ARCH the gates
# compare (arm64, and arm for the ARM32 Exynos configs), out of tree.
kconfig_make() {
	local arch=$1 o=$2 cross
	shift 2
	case $arch in
	arm64) cross=aarch64-linux-gnu- ;;
	arm) cross=arm-linux-gnueabihf- ;;
	*) die "no cross compiler known for ARCH=$arch" ;;
	esac
	mkdir -p "$o"
	make -s -C "$KSRC" O="$o" ARCH="$arch" CROSS_COMPILE="$cross" "$@"
}

# kconfig_fragment_misses REV FRAGMENT DIR: check REV out, make arm64
# defconfig plus FRAGMENT in DIR, and print kb_check_config's complaints
# (nothing when every option of FRAGMENT took effect).
kconfig_fragment_misses() {
	local rev=$1 frag=$2 dir=$3
	kgit checkout -q --detach "$rev"
	kconfig_make arm64 "$dir" defconfig >"$dir.log" 2>&1
	(cd "$dir" && "$KSRC/scripts/kconfig/merge_config.sh" -m -O "$dir" .config "$frag") >>"$dir.log" 2>&1
	kconfig_make arm64 "$dir" olddefconfig >>"$dir.log" 2>&1
	kb_check_config "$dir/.config" "$frag" 2>&1 || true
}
