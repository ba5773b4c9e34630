#!/usr/bin/env bash
# QEMU's own Exynos4210 machines (tools/exynos4210.sh): ARM32
# exynos_defconfig at the base and on integration, with the S3C RTC a
# module on the series side, boots the same on smdkc210 and nuri, with
# the MCT's counter started (read from QEMU's MCT model); and a fault
# seeded into the common PLL code that ARM32 keeps built in (the 4508
# type's post divider, which the Exynos4210 APLL and MPLL use) fails,
# naming the PLL. Uses the WORK of tests/70-boot.t; the ARM32 builds hit
# the ccache entries of make's (paths relative to WORK), and the seeded
# one rebuilds only clk-pll.c (one worktree per side).
. "$(dirname "$0")/../lib.sh"
scratch_checkout
use_boot_work

rebuild_integration
run_tool "$T/exynos4210.sh"
check "the base and the series boot the same on smdkc210 and nuri" eval \
	'passed && has "exynos4210: PASS nuri smdkc210"'
check "on both boards the MCT's counter is started before any module, on both kernels" eval \
	'grep -qx "mct tcon-start 1" "$WORK/exynos4210/smdkc210/a.state" &&
	grep -qx "mct tcon-start 1" "$WORK/exynos4210/smdkc210/b.state" &&
	grep -qx "mct tcon-start 1" "$WORK/exynos4210/nuri/b.state"'

seed_commit clk zz-e4-pll.patch "clk: samsung: pll: drop the 4508 post divider correction" \
	"sed -i '/if (pll->type == pll_4508)/{N;d}' drivers/clk/samsung/clk-pll.c"
rebuild_integration
run_tool "$T/exynos4210.sh" smdkc210
check "a PLL rate fault in the common code fails on smdkc210, naming the PLL" eval \
	'failed && grep -qE "^\+ clk fout_apll parent=fin_pll rate=" "$WORK/logs/exynos4210-smdkc210.diff"'
unseed clk zz-e4-pll.patch
rebuild_integration
check "the kernel tree is left clean" tree_clean
done_testing
