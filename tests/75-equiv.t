#!/usr/bin/env bash
# The equivalence check (tools/equiv.sh): the base tree and integration,
# both built in, booted on the synthetic Exynos5433, give the same state;
# faults seeded into what the series' kernel sees make it fail with a diff
# naming the clock, pin or device. Uses the build directories of
# tests/70-boot.t (the same WORK), so it only builds the base once more.
. "$(dirname "$0")/lib.sh"
scratch_checkout
# tests/70-boot.t made this WORK (tree and build directories): reuse it.
export WORK=$TEST_ROOT/boot
if [ ! -d "$WORK/linux/.git" ]; then
	echo "1..0 # SKIP no $WORK/linux: tests/70-boot.t prepares it"
	exit 0
fi
run_tool sh -c "'$T/topics.sh' && '$T/integration.sh'"
check "integration branch is there to compare" passed
# EQ_A defaults to the base tree built in.
export EQ_B="integration builtin" EQ_ORDERS=1

run_tool "$T/equiv.sh" exynos5433 exynos850
echo "$out" | grep -E '^(equiv|exynos)' | diag
check "base and integration, built in, give the same state on exynos5433 and exynos850" eval \
	'passed && has "equiv: PASS exynos5433 exynos850" &&
	grep -qE "^exynos5433 +[0-9]+/[0-9]+ +[1-9][0-9]+ +[1-9][0-9]+ " <<<"$out" &&
	grep -qE "^exynos850 +[0-9]+/[0-9]+ +[1-9][0-9]+ +[1-9][0-9]+ " <<<"$out"'

S=$SCRATCH/boot/soc
# seed_regs SED: the series' kernel sees registers edited by SED.
seed_regs() { sed "$1" "$S/exynos5433.regs" >"$TEST_ROOT/fault.regs"; }
seed_dtsi() { sed "$1" "$S/exynos5433.dtsi" >"$TEST_ROOT/fault.dtsi"; }

seed_regs 's/^0x100 pll35xx 46 1 1/0x100 pll35xx 47 1 1/'
EQ_REGS_B_exynos5433=$TEST_ROOT/fault.regs run_tool "$T/equiv.sh" exynos5433
check "a wrong PLL setting fails, naming the PLL and its rate" eval \
	'failed && has "unexpected differences" && has "- clk fout_isp_pll parent=oscclk rate=552000000" &&
	has "+ clk fout_isp_pll parent=oscclk rate=564000000"'

seed_dtsi 's/BANK(gpz0); BANK(gpz1);/BANK(gpz0);/'
EQ_DTSI_B_exynos5433=$TEST_ROOT/fault.dtsi run_tool "$T/equiv.sh" exynos5433
check "a missing pinctrl bank fails, naming the bank's pins" eval \
	'failed && has "unexpected differences" && grep -qE "^- (pinctrl|dev) .*(gpz1|pinctrl@4b0000)" <<<"$out"'

seed_dtsi '/cmu_fsys: clock-controller@6e0000 {/s/cmu_fsys: clock-controller@6e0000 {/cmu_fsys: clock-controller@6e0000 { status = "disabled";/'
EQ_DTSI_B_exynos5433=$TEST_ROOT/fault.dtsi run_tool "$T/equiv.sh" exynos5433
check "a CMU missing from the DT fails, naming the device and its clocks" eval \
	'failed && has "- dev clock-controller@6e0000 bound exynos5433-cmu" && grep -qE "^- clk [a-z_]*fsys" <<<"$out"'
done_testing
