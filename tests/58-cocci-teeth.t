#!/usr/bin/env bash
# The topics' Coccinelle rule (coccinelle/probe_init.cocci) has teeth
# outside drivers/clk/samsung: on a driver of the class of the reverted
# 2021 Rockchip conversion (tests/fixtures/cocci/rockchip-class.c: a
# platform driver that can be a module, whose probe and the tables it
# registers are in init sections), every mode finds the probe, the helper
# it calls and both tables; the same driver always built in is left
# alone. spatch on one file: seconds, no kernel tree.
. "$(dirname "$0")/lib.sh"
rule=$REPO/coccinelle/probe_init.cocci
fixture=$REPO/tests/fixtures/cocci/rockchip-class.c
tmp=$(mktemp -d "$TEST_ROOT/cocci-teeth.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

# cocci MODE FILE: the rule's output on FILE in MODE, as make coccicheck
# runs it.
cocci() { out=$(spatch --very-quiet -D "$1" --no-includes --include-headers --cocci-file "$rule" "$2" 2>&1); rc=$?; }
# all NAME...: $out names each NAME.
all() { local n; for n; do has "$n" || return 1; done; }

cocci patch "$fixture"
check "patch: drops __init from the probe and its helper, and the init sections of both tables" eval \
	'passed && all "-static int __init zz_clk_probe(" "+static int zz_clk_probe(" "-static int __init zz_register(" \
		"-static const struct zz_rate zz_pll_rates[] __initconst = {" "+static const struct zz_rate zz_pll_rates[] = {" \
		"-static struct zz_branch zz_branches[] __initdata = {" "+static struct zz_branch zz_branches[] = {"'
cocci report "$fixture"
check "report: names the probe, the helper and both tables" eval \
	'passed && [ "$(grep -c "reachable from a module'"'"'s probe" <<<"$out")" = 4 ] &&
	all "__init function zz_clk_probe" "__init function zz_register" "init data zz_branches" "init data zz_pll_rates"'
cocci context "$fixture"
check "context: marks the four declarations" eval \
	'passed && all "-static int __init zz_clk_probe(" "-static int __init zz_register(" \
		"-static const struct zz_rate zz_pll_rates[] __initconst = {" "-static struct zz_branch zz_branches[] __initdata = {"'
cocci org "$fixture"
check "org: four TODO items" eval 'passed && [ "$(grep -c "^\* TODO .*reachable from a module" <<<"$out")" = 4 ]'

# The control: the same driver, built in only (no module markers).
sed -e 's/^module_platform_driver(zz_clk_driver);/builtin_platform_driver(zz_clk_driver);/' \
	-e '/^MODULE_DEVICE_TABLE/d' -e '/^MODULE_LICENSE/d' "$fixture" >"$tmp/builtin.c"
cocci report "$tmp/builtin.c"
check "control: the same driver, always built in, is not reported" eval 'passed && [ -z "$out" ]'
cocci patch "$tmp/builtin.c"
check "control: and not patched" eval 'passed && [ -z "$out" ]'

# The rule the gates run is the one the cocci topic posts upstream, as
# scripts/coccinelle/misc/probe_init.cocci: the patch adds the same text.
posted=$(sed -n '/^+++ b\/scripts\/coccinelle\/misc\/probe_init.cocci$/,/^-- *$/p' "$REPO"/topics/cocci/*.patch |
	sed -n '/^@@ /,$p' | sed -n 's/^+//p')
check "the rule posted in topics/cocci is coccinelle/probe_init.cocci, byte for byte" \
	diff <(printf '%s\n' "$posted") "$rule"
done_testing
