#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# arm32 gate: ARM32 Exynos shares the Samsung clk, pinctrl, soc and rtc code
# and keeps it built in (CLK_OF_DECLARE). Build those directories for
# exynos_defconfig with gcc-arm-linux-gnueabihf at the target's tip and at
# the base: it must build, with no warning the base does not have (counted:
# a warning that occurs more often is new too). The base's are cached.
. "$(dirname "$0")/lib.sh"
. "$TOP/tools/kbuild.sh"
need arm-linux-gnueabihf-gcc gcc-arm-linux-gnueabihf

DIRS="drivers/clk/samsung drivers/pinctrl/samsung drivers/soc/samsung drivers/rtc"
skip_unless_built
if [ "$TARGET" = integration ]; then rev=integration; else rev=$(topic_branch "$TARGET"); fi
base=$(base_tag)
take_lock
require_clean_tree

# arm32_warnings REV DIR: build $DIRS at REV in O=DIR from scratch for those
# directories; print the warnings without line numbers, sorted.
arm32_warnings() {
	local r=$1 o=$2 log d cc=arm-linux-gnueabihf-gcc
	# ccache replays a hit's warnings: the objects are deleted to see
	# every warning, not to compile every file again.
	command -v ccache >/dev/null 2>&1 && cc="ccache $cc"
	log=$LOGDIR/arm32-$(basename "$o").log
	begin_tree_op "arm32 gate: checkout $r"
	kgit checkout -q --detach "$r"
	end_tree_op
	# shellcheck disable=SC2046 # one target per directory
	{
		kconfig_make arm "$o" CC="$cc" exynos_defconfig &&
			for d in $DIRS; do if [ -d "$o/$d" ]; then find "$o/$d" -name '*.o' -delete; fi; done &&
			kconfig_make arm "$o" CC="$cc" -j"$(nproc)" $(for d in $DIRS; do echo "$d/"; done)
	} >"$log" 2>&1 || { echo "ARM32 build failed at $(kgit log -1 --format='%h %s' "$r"), see $log" >&2; return 1; }
	sed -n -E 's#^(\.\./|'"$KSRC"'/)?([^:]+):[0-9]+:[0-9]+: warning: (.*)#\2: \3#p' "$log" | sort
}

tmp=$WORK/arm32.$$
arm32_warnings "$rev" "$WORK/build/arm32-tip" >"$tmp.tip" || gate_fail "ARM32 exynos_defconfig does not build at $rev"
# The base's warnings are the same for every target: computed once.
base_key=$(result_key "$(kgit rev-parse "$base")" "$DIRS" "$(arm-linux-gnueabihf-gcc --version | head -n1)")
if ! result_get "$base_key" >"$tmp.base"; then
	arm32_warnings "$base" "$WORK/build/arm32-base" >"$tmp.base" || gate_fail "ARM32 exynos_defconfig does not build at the base"
	result_put "$base_key" <"$tmp.base"
fi
kgit checkout -q --detach "$base"
new=$(new_findings "$tmp.tip" "$tmp.base")
rm -f "$tmp.tip" "$tmp.base"
[ -n "$new" ] && echo "$new" | sed 's/^/new: /'
nnew=$(grep -c . <<<"$new" || true)
summary="$nnew new warnings, exynos_defconfig builds $(echo $DIRS | wc -w) directories at $rev"
[ "$nnew" = 0 ] && gate_pass "$summary"
gate_fail "$summary"
