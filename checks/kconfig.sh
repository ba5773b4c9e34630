#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# kconfig gate: the series may turn selects into defaults, but must not
# change any existing configuration.
#  1. At the base, after every commit of every topic and at integration,
#     arm64 defconfig and ARM32 exynos_defconfig / multi_v7_defconfig give a
#     .config byte-identical to the base's.
#  2. Each topic's topics/<t>/kconfig-effect.config (when present) takes
#     effect on the topic tip and not on the base: proof the change did
#     something.
# usage: checks/kconfig.sh [TOPIC...]
. "$(dirname "$0")/../tools/lib.sh"
. "$TOP/tools/kconfig.sh"

need make make gcc gcc aarch64-linux-gnu-gcc gcc-aarch64-linux-gnu \
	arm-linux-gnueabihf-gcc gcc-arm-linux-gnueabihf flex flex bison bison
take_lock
require_clean_tree

TARGETS="arm64:defconfig arm:exynos_defconfig arm:multi_v7_defconfig"
out=$WORK/kconfig
mkdir -p "$out"
topics=${*:-$(topic_list)}
base=$(base_tag)

# config_sum REV ARCH:DEFCONFIG: sha256 of the .config that REV gives.
config_sum() {
	local rev=$1 arch=${2%%:*} target=${2#*:} dir
	dir=$out/$arch-$target
	kgit checkout -q --detach "$rev"
	kconfig_make "$arch" "$dir" "$target" >"$dir.log" 2>&1 ||
		die "make $target failed at $(kgit log -1 --format='%h %s' "$rev"), see $dir.log"
	sha256sum <"$dir/.config" | cut -c1-16
}

begin_tree_op "kconfig check"
trap 'kgit checkout -q --detach "$base"; end_tree_op' EXIT
fail=0
declare -A ref
for tg in $TARGETS; do ref[$tg]=$(config_sum "$base" "$tg"); done
printf '%-9s %-12s %-60s %s\n' WHERE COMMIT SUBJECT "$TARGETS"
revs() {
	local t
	for t in $topics; do
		kgit rev-list --reverse "$(topic_base_rev "$t")..$(topic_branch "$t")" | sed "s/^/$t /"
	done
	kgit rev-parse -q --verify refs/heads/integration | sed 's/^/integration /'
}
while read -r where rev; do
	line=
	for tg in $TARGETS; do
		s=$(config_sum "$rev" "$tg")
		if [ "$s" = "${ref[$tg]}" ]; then line="$line identical"
		else line="$line CHANGED"; fail=1
			cp "$out/${tg%%:*}-${tg#*:}/.config" "$LOGDIR/kconfig-$where-${rev:0:12}-${tg#*:}.config"
		fi
	done
	printf '%-9s %-12s %-60.60s%s\n' "$where" "${rev:0:12}" "$(kgit log -1 --format=%s "$rev")" "$line"
done < <(revs)

# The effect proof: the fragment's options hold on the tip, not on base.
for t in $topics; do
	frag=$(topic_dir "$t")/kconfig-effect.config
	[ -f "$frag" ] || continue
	on_tip=$(kconfig_fragment_misses "$(topic_branch "$t")" "$frag" "$out/effect-$t")
	on_base=$(kconfig_fragment_misses "$base" "$frag" "$out/effect-$t")
	if [ -z "$on_tip" ] && [ -n "$on_base" ]; then
		printf 'effect    %-12s %s takes effect on the topic, not on base (%s)\n' "$t" \
			"topics/$t/kconfig-effect.config" "$(echo "$on_base" | head -n1)"
	else
		fail=1
		printf 'effect    %-12s FAIL: %s\n' "$t" \
			"${on_tip:-topics/$t/kconfig-effect.config already takes effect on base: it proves nothing}"
	fi
done
[ "$fail" = 0 ] && echo "kconfig: PASS" || { echo "kconfig: FAIL (changed .config files kept in $LOGDIR)"; exit 1; }
