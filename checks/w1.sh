#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# w1 gate: the builds upstream's bots make. The target's tip and its base,
# in the built-in and the modular configuration, each with clang (Debian's
# clang and lld, make LLVM=-<version>) and with gcc, all with W=1; gcc
# also with DEBUG_SECTION_MISMATCH (checks/w1.config). Every section
# mismatch is an error (boot/configs/virt.config). Gate: every build
# links (no section mismatch, no modpost error), and no W=1 warning in a
# file the target touches that the base does not have (matched without line and column, so a warning
# that merely moved is not new). The kernel test robot found the section
# mismatch that had the 2025 modular Exynos MCT reverted this way: clang
# kept a call into init code that gcc inlined away.
#   W1_TOOLCHAINS="clang gcc"   the toolchains to build with
. "$(dirname "$0")/lib.sh"
. "$TOP/tools/kbuild.sh"

# The newest clang of Debian 12 that each base supports.
W1_LLVM=-16
need clang$W1_LLVM clang-16 ld.lld$W1_LLVM lld-16 llvm-ar$W1_LLVM llvm-16
skip_unless_built
take_lock
if [ "$TARGET" = integration ]; then rev=integration; else rev=$(topic_branch "$TARGET"); fi
range=$(target_range)
base=${range%%..*}
touched=$(kgit diff --name-only --diff-filter=d "$range" -- '*.[ch]')

# w1_build REV TOOLCHAIN CONFIG: build REV; prints its log's path. Each
# toolchain and configuration has its own build directory, shared by every
# target and revision: a walk from the base to a tip is incremental.
w1_build() {
	local llvm=$W1_LLVM frag=
	[ "$2" != gcc ] || llvm='' frag=$TOP/checks/w1.config
	BUILD_NAME=w1-$2 KB_LLVM=$llvm KB_MAKE_FLAGS=W=1 EXTRA_FRAGMENT=$frag \
		"$TOP/tools/build.sh" "$1" "$3" >&2 || return 1
	echo "$LOGDIR/build-w1-$2-$3.log"
}

# w1_warnings LOG: the W=1 warnings of the touched files in LOG, one per
# line as "file: warning text [-Wflag]", sorted.
w1_warnings() {
	[ -n "$touched" ] || return 0
	sed -n -E 's#^(\.\./|'"$KSRC"'/)?([^: ]+):[0-9]+:([0-9]+:)? (warning|error): (.*)#\2: \4: \5#p' "$1" |
		grep -F -f <(sed 's/$/:/' <<<"$touched") | sort -u || true
}

tmp=$WORK/w1.$$
trap 'rm -f "$tmp".*' EXIT
bad=0 summary=()
for tc in ${W1_TOOLCHAINS:-clang gcc}; do
	for cfg in builtin modular; do
		what="$tc $cfg"
		if ! log=$(w1_build "$rev" "$tc" "$cfg"); then
			log=$LOGDIR/build-w1-$tc-$cfg.log
			grep -E 'Section mismatch in reference|modpost: |error:' "$log" | sort -u | head -n 20 | sed "s/^/$what: /"
			summary+=("$what: the tip does not build ($log)")
			bad=$((bad + 1))
			continue
		fi
		w1_warnings "$log" >"$tmp.tip"
		# The base's warnings are the same for every target: kept by key.
		key=$(result_key w1 "$(kgit rev-parse "$base")" "$tc" "$cfg" "$touched" "$(kb_config_stamp "$base" "$TOP/checks/w1.config")")
		if ! result_get "$key" >"$tmp.base"; then
			blog=$(w1_build "$base" "$tc" "$cfg") || gate_fail "$what: the base does not build ($LOGDIR/build-w1-$tc-$cfg.log)"
			w1_warnings "$blog" | result_put "$key"
			result_get "$key" >"$tmp.base"
		fi
		new=$(new_findings "$tmp.tip" "$tmp.base")
		n=$(grep -c . <<<"$new" || true)
		[ -z "$new" ] || sed "s/^/$what: new: /" <<<"$new"
		summary+=("$what: $n new")
		bad=$((bad + n))
	done
done
msg="$(IFS=';'; echo "${summary[*]}" | sed 's/;/, /g') (W=1 warnings in the $(grep -c . <<<"$touched" || true) C files and headers the target touches; section mismatches are errors)"
[ "$bad" = 0 ] && gate_pass "$msg"
gate_fail "$msg"
