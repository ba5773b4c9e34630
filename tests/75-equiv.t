#!/usr/bin/env bash
# The equivalence check (tools/equiv.sh): the base tree built in and
# integration as modules, booted on the synthetic Exynos5433 and Exynos850
# and on the own DTs of six boards (TM2, E850-96, Espresso, jackpotlte,
# SADK, FSD-EVB), give the same state, in three module orders (make equiv
# runs 12: the same code, more boots). Faults seeded
# into what the series' kernel sees (registers, DT) make it fail with a
# diff naming the clock or device; unchanged DTs and register images come
# from the cache. A CMU whose DT names no bus clock probes on both. A CMU
# whose assigned clock comes from a module loaded
# later defers and binds once. Uses the WORK of tests/70-boot.t (tree and
# build directories), so only the base is built once more. Faults seeded
# into the series' own code, which cost a rebuild each, are in
# tests/full/75-equiv-code.t.
. "$(dirname "$0")/lib.sh"
scratch_checkout
use_boot_work
# The same module orders every run, so that a failure here replays; make
# equiv draws them from the series kernel, new ones for every change.
export EQ_SEED=20261205
# modules.dep order, the clock modules last, and one seeded order.
export EQ_ORDERS=3
rebuild_integration
check "integration branch is there to compare" passed

run_tool "$T/equiv.sh"
echo "$out" | grep -E '^(equiv|exynos)' | diag
# SoC bound clocks pins deferrals orders expected/unexpected result
row() { grep -qE "^$1 +([0-9]+)/\\1 +[1-9][0-9]+ +[1-9][0-9]+ +[0-9,]+ +$EQ_ORDERS +[0-9]+/0 +PASS" <<<"$out"; }
check "base built in and integration modular give the same state on both synthetic SoCs, in three orders" eval \
	'passed && has "equiv: PASS exynos5433 exynos850" && row exynos5433 && row exynos850 &&
	grep -q "\"orders\":$EQ_ORDERS" "$WORK/equiv.json"'
# brow BOARD: as row, but some of the board's devices may be disabled.
brow() { grep -qE "^$1 +[0-9]+/[0-9]+ +[1-9][0-9]+ +[1-9][0-9]+ +[0-9,]+ +$EQ_ORDERS +[0-9]+/0 +PASS" <<<"$out" &&
	grep -q "\"soc\":\"$1\"" "$WORK/equiv.json"; }
check "on the six boards' own DTs too (all six arm64 clock drivers), in three orders, no unexpected difference" eval \
	'row tm2 && brow e850-96 && brow espresso && row jackpotlte && row fsd-evb && brow sadk &&
	grep -qE "^espresso +20/21 " <<<"$out"'
check "the clock modules refuse removal in the guest" eval \
	'! grep -q "refuse removal # " "$WORK"/equiv/*/b.log && grep -q "delete_module clk_exynos5433: Device or resource busy, as designed" "$WORK/equiv/exynos5433/b.log"'

run_tool "$T/equiv.sh"
check "a rerun with nothing changed takes all eight verdicts from the first run and boots nothing" eval \
	'passed && [ "$(grep -c "PASS in an earlier run with the same kernels" <<<"$out")" = 8 ] && ! grep -q "order 2 " <<<"$out" &&
	row exynos5433 && brow sadk'

# One modular boot per run from here on.
export EQ_ORDERS=1

seed_regs 's/^0x100 pll35xx 46 1 1/0x100 pll35xx 47 1 1/'
EQ_REGS_B_exynos5433=$TEST_ROOT/fault.regs run_tool "$T/equiv.sh" exynos5433
check "a wrong PLL register seed fails, naming the PLL and both rates" eval \
	'failed && has "unexpected differences" && has "- clk fout_isp_pll parent=oscclk rate=552000000" &&
	has "+ clk fout_isp_pll parent=oscclk rate=564000000"'
check "the DT and images of inputs seen before come from the cache, other inputs get their own entry" eval \
	'has "equiv: exynos5433 A: device tree and register images unchanged" &&
	[ "$(readlink "$WORK/equiv/exynos5433/A")" != "$(readlink "$WORK/equiv/exynos5433/B")" ]'

seed_dtsi '/cmu_fsys: clock-controller@6e0000 {/s/{/{ status = "disabled";/'
EQ_DTSI_B_exynos5433=$TEST_ROOT/fault.dtsi run_tool "$T/equiv.sh" exynos5433
check "a CMU missing from the DT fails, naming the device and its clocks" eval \
	'failed && has "- dev clock-controller@6e0000 bound exynos5433-cmu" &&
	has "+ dev clock-controller@6e0000 disabled" && in_diff "^- clk [a-z_0-9]*fsys"'

# A CMU whose DT names no bus clock: the base logs it and registers the
# CMU all the same (the boot loader may have left the clock running), and
# so must the series, whose probes defer only while a provider is missing.
sed 's/clock-names = "oscclk", "dout_dpu";/clock-names = "oscclk", "dout_dpu_gone";/' \
	"$SCRATCH/boot/soc/exynos850.dtsi" >"$TEST_ROOT/nobus.dtsi"
EQ_DTSI_exynos850=$TEST_ROOT/nobus.dtsi run_tool "$T/equiv.sh" exynos850
check "a CMU without its bus clock in the DT still probes, on the series as on the base" eval \
	'passed && has "equiv: PASS exynos850" && grep -q "could not find bus clock dout_dpu" "$WORK/equiv/exynos850/a.log"'

# Deferral (defer_case in tests/lib.sh): the series must defer CMU_FSYS
# while nothing is registered and bind it once clkout is there.
defer_case
run_tool "$T/equiv.sh" exynos5433
check "deferral, modular: a CMU assigned a clock of a later module binds once, as in the base" eval \
	'passed && has "equiv: PASS exynos5433" && ! grep -q "failed to add clock provider" "$WORK/equiv/exynos5433/b.log"'
EQ_B="integration builtin" run_tool "$T/equiv.sh" exynos5433
check "deferral, built in: the same CMU waits for the clkout driver, then binds once" eval \
	'passed && has "equiv: PASS exynos5433" && ! grep -q "failed to add clock provider" "$WORK/equiv/exynos5433/b.log"'
unset EQ_REGS_exynos5433 EQ_DTSI_B_exynos5433 EQ_ORDER
check "the kernel tree is left clean" tree_clean
done_testing
