#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# kconfig gate: the series turns selects into defaults but must not change
# any existing configuration.
#  1. After every commit of the topic (or at the integration tip), arm64
#     defconfig and ARM32 exynos_defconfig / multi_v7_defconfig give a
#     .config byte-identical to the base's.
#  2. topics/<t>/kconfig-effect.config, when present, takes effect on the
#     topic tip and not on the base: proof that the change did something.
. "$(dirname "$0")/lib.sh"
. "$TOP/tools/kbuild.sh"

need make make aarch64-linux-gnu-gcc gcc-aarch64-linux-gnu \
	arm-linux-gnueabihf-gcc gcc-arm-linux-gnueabihf flex flex bison bison
take_lock
require_clean_tree

TARGETS="arm64:defconfig arm:exynos_defconfig arm:multi_v7_defconfig"
out=$WORK/kconfig
mkdir -p "$out/sums"
base=$(base_tag)

# sum_file REV ARCH:DEFCONFIG: where the checksum of the .config REV gives
# is kept (and the .config beside it, with .config added). The .config
# depends on REV's kconfig inputs only and, through the compiler version
# it records, on the toolchain: it is cached by both, so a commit that
# changes only C files reuses its parent's.
toolchain=$(tool_versions | sha256sum | cut -c1-12)
# The hash of a revision's kconfig inputs, once per revision (kin_hash
# runs in the main shell; sum_file is called from command substitutions).
declare -A kin
kin_hash() { [ -n "${kin[$1]:-}" ] || kin[$1]=$(kb_kconfig_inputs "$1" | sha256sum | cut -c1-40); }
sum_file() {
	echo "$out/sums/${kin[$1]:?kin_hash $1 first}-$toolchain-${2%%:*}-${2#*:}"
}
# config_sum REV ARCH:DEFCONFIG: that checksum.
config_sum() {
	local rev=$1 arch=${2%%:*} target=${2#*:} dir cache
	cache=$(sum_file "$rev" "$2")
	if [ ! -s "$cache" ]; then
		dir=$out/$arch-$target
		kgit checkout -q --detach "$rev"
		kconfig_make "$arch" "$dir" "$target" >"$dir.log" 2>&1 || {
			echo "$arch make $target failed at $(kgit log -1 --format='%h %s' "$rev"):" >&2
			tail -n 5 "$dir.log" >&2
			return 1
		}
		cp "$dir/.config" "$cache.config"
		sha256sum <"$dir/.config" | cut -c1-16 >"$cache"
	fi
	cat "$cache"
}

begin_tree_op "kconfig gate"
trap 'kgit checkout -q --detach "$base"; end_tree_op' EXIT
declare -A ref
kin_hash "$base"
for tg in $TARGETS; do
	ref[$tg]=$(config_sum "$base" "$tg") || gate_fail "$tg does not configure on the base (above)"
done

if [ "$TARGET" = integration ]; then
	revs=$(kgit rev-parse integration)
else
	revs=$(kgit rev-list --reverse "$(target_range)")
fi
n=0 changed=0
for rev in $revs; do
	kin_hash "$rev"
	n=$((n + 1)) line=
	for tg in $TARGETS; do
		s=$(config_sum "$rev" "$tg") ||
			gate_fail "$tg does not configure at $(kgit log -1 --format='%h %s' "$rev") (above)"
		if [ "$s" = "${ref[$tg]}" ]; then line="$line $tg=identical"; else
			line="$line $tg=CHANGED"; changed=$((changed + 1))
			diff "$(sum_file "$base" "$tg").config" "$(sum_file "$rev" "$tg").config" | sed 's/^/    /' || true
		fi
	done
	printf '%s %s:%s\n' "$(kgit log -1 --format='%h' "$rev")" "$(kgit log -1 --format=' %s' "$rev" | cut -c1-60)" "$line"
done

effect=
frag=$TOPICS/$TARGET/kconfig-effect.config
if [ "$TARGET" != integration ] && [ -f "$frag" ]; then
	# effect_misses REV: kconfig_fragment_misses, cached as config_sum is.
	effect_misses() {
		local cache
		cache=$(sum_file "$1" arm64:defconfig)-effect-$TARGET-$(sha256sum <"$frag" | cut -c1-16)
		[ -f "$cache" ] || { kconfig_fragment_misses "$1" "$frag" "$out/effect" >"$cache.tmp" && mv "$cache.tmp" "$cache"; }
		cat "$cache"
	}
	tip=$(kgit rev-parse "$(topic_branch "$TARGET")")
	kin_hash "$tip"
	on_tip=$(effect_misses "$tip")
	on_base=$(effect_misses "$base")
	if [ -n "$on_tip" ]; then
		echo "$TOPICS_REL/$TARGET/kconfig-effect.config does not take effect on the topic: $on_tip"
		changed=$((changed + 1))
	elif [ -z "$on_base" ]; then
		echo "$TOPICS_REL/$TARGET/kconfig-effect.config takes effect on base too: it proves nothing"
		changed=$((changed + 1))
	else
		effect=", kconfig-effect.config holds on the topic and not on base"
	fi
fi
[ "$changed" = 0 ] && gate_pass "$n commits x 3 defconfigs identical to base$effect"
gate_fail "$changed differences in $n commits (diffs above)"
