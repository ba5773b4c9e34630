#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# bisect gate: every commit of the topic builds and boots, in the builtin
# and the modular configuration. All commits go through one build
# directory per configuration (incremental, ccache), and the first commit
# that fails is named. For integration: its tip. A commit whose tree,
# configuration inputs, toolchain and boot inputs were proven before (in
# this WORK) is not built or booted again.
#
# The boot: the synthetic Exynos5433 of boot/soc/exynos5433-late.dtsi,
# whose CMU_FSYS waits for a clock that never comes, and every device still
# deferred after boot probed again (reprobe=1), as any later driver bind
# would do: a retried probe that is still in init memory oopses. The base
# cannot defer a CMU and panics on this DT instead, so a commit fails when
# it boots worse than its parent: with a failure its parent did not have.
. "$(dirname "$0")/lib.sh"
. "$TOP/tools/kbuild.sh"

skip_unless_built
if [ "$TARGET" = integration ]; then
	first=$(base_tag) revs=$(kgit rev-parse integration)
else
	first=$(topic_base_rev "$TARGET") revs=$(kgit rev-list --reverse "$(target_range)")
fi
[ -n "$revs" ] || gate_pass "no commits to build"

late=$WORK/bisect
mkdir -p "$late/img"
kb_virt_dtb "$late/virt.dtb" && kb_regimg "$late/regimg" &&
	kb_soc_dtsi "$TOP/boot/soc/exynos5433-late.dtsi" "$late/soc.dtsi" &&
	kb_soc_dtb "$late/virt.dtb" "$late/soc.dtsi" "$late" &&
	"$late/regimg" "$TOP/boot/soc/exynos5433.regs" "$late/img" >"$late/loader.args" ||
	gate_fail "cannot make the boot's device tree from boot/soc/exynos5433-late.dtsi (above)"
boot_inputs=$(cat "$TOP"/boot/agent/* "$late/soc.dtb" "$late/loader.args" "$late"/img/* | sha256sum)

# verdict REV CFG: build and boot REV (or recall both), and set V to
# "PASS" or to the first offending console line, with what varies between
# commits (line and test numbers, addresses) taken out. Fails when REV does
# not build.
verdict() {
	local rev=$1 cfg=$2 key o log t0 t1
	kb_fragments "$rev" "$cfg"
	key=$(result_key "$(kgit rev-parse "$rev^{tree}")" "$cfg" "$(kb_config_stamp "$rev" "${KB_FRAGMENTS[@]}")" "$boot_inputs")
	if V=$(result_get "$key"); then
		known=$((known + 1))
		return 0
	fi
	t0=$EPOCHREALTIME
	"$TOP/tools/build.sh" "$rev" "$cfg" || return 1
	t1=$EPOCHREALTIME
	o=$(kb_outdir "$rev" "$cfg") log=$LOGDIR/bisect-$(kgit rev-parse --short "$rev")-$cfg.log
	kb_initramfs "$o" || return 1
	# shellcheck disable=SC2046 # loader.args is a list of arguments
	kb_boot "$o" "$log" 60 reprobe=1 -dtb "$late/soc.dtb" $(cat "$late/loader.args")
	read -r build_s boot_s <<<"$(awk -v a="$t0" -v b="$t1" -v c="$EPOCHREALTIME" -v x="$build_s" -v y="$boot_s" \
		'BEGIN { printf "%.1f %.1f", x + b - a, y + c - b }')"
	V=$(sed -E 's/^FAIL (line [0-9]+: )?//; s/^PASS .*/PASS/; s/^\[ *[0-9.]+\] //; s/(ok) [0-9]+ /\1 /; s/[0-9a-f]{8,}/X/g' <<<"$KB_VERDICT")
	echo "$V" | result_put "$key"
}

n=0 known=0 build_s=0 boot_s=0
declare -A prev
for cfg in builtin modular; do
	verdict "$first" "$cfg" || gate_fail "the base $first does not build ($cfg)"
	prev[$cfg]=$V
	echo "bisect: base $(kgit rev-parse --short "$first") $cfg boots: $V"
done
for rev in $revs; do
	n=$((n + 1))
	for cfg in builtin modular; do
		what="$(kgit log -1 --format='%h %s' "$rev") ($cfg"
		verdict "$rev" "$cfg" || gate_fail "first failing commit: $what, log: $LOGDIR/build-$BUILD_NAME-$cfg.log)"
		if [ "$V" != PASS ] && [ "$V" != "${prev[$cfg]}" ]; then
			log=$LOGDIR/bisect-$(kgit rev-parse --short "$rev")-$cfg.log
			gate_fail "first failing commit: $what) boots worse than its parent: $V" \
				"$(tr -d '\r' <"$log" | grep -m1 -E '^pc : ' || true) (console: $log)"
		fi
		[ "$V" = "${prev[$cfg]}" ] || echo "bisect: $(kgit rev-parse --short "$rev") $cfg boots: $V"
		prev[$cfg]=$V
	done
done
gate_pass "$n commits build and boot in builtin and modular ($known of $((2 * n + 2)) results known from earlier runs;" \
	"builds ${build_s}s, boots ${boot_s}s)"
