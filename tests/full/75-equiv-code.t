#!/usr/bin/env bash
# The equivalence check fails on faults seeded into the series' own code,
# each merged into integration and built as modules: a CMU missing from a
# match table, PLLs and a mux read from the wrong register or bit on four
# SoCs, a pin bank missing, the Exynos MCT left out of the kernel (its
# counter never started), an __initconst CMU description read by a late
# probe, a CMU that registers before its assigned clocks exist, and a
# resume that does not restore the CMU registers. Each
# names the clock, pin or device. Uses the WORK of tests/70-boot.t and
# the base build of tests/75-equiv.t.
. "$(dirname "$0")/../lib.sh"
scratch_checkout
use_boot_work
# The same module orders every run, so that a failure here replays; make
# equiv draws them from the series kernel, new ones for every change.
export EQ_SEED=20261205
# One modular boot per run.
export EQ_ORDERS=1

# Faults in the series' own code: seeded commits on the clk topic, merged
# into integration, built as modules.
seed_commit clk zz-eq-match.patch "clk: samsung: exynos5433: forget CMU_PERIC in the early table" \
	"sed -i '/\.compatible = \"samsung,exynos5433-cmu-peric\",/,+2d' drivers/clk/samsung/clk-exynos5433.c"
seed_commit clk zz-eq-pll.patch "clk: samsung: exynos5433: read ISP_PLL from the AUD_PLL register" \
	"sed -i 's/ISP_PLL_LOCK, ISP_PLL_CON0,/ISP_PLL_LOCK, AUD_PLL_CON0,/' drivers/clk/samsung/clk-exynos5433.c"
seed_commit pinctrl zz-eq-bank.patch "pinctrl: samsung: exynos5433: forget the gpz1 bank" \
	"sed -i '/EXYNOS5433_PIN_BANK_EINTG(4, 0x020, \"gpz1\", 0x04),/d' drivers/pinctrl/samsung/pinctrl-exynos-arm64.c"
seed_commit clk zz-eq-exynos7.patch "clk: samsung: exynos7: read BUS0_PLL from the CC_PLL register" \
	"sed -i '/\"fout_bus0_pll\", \"fin_pll\", BUS0_PLL_LOCK,/{n;s/BUS0_PLL_CON0/CC_PLL_CON0/}' drivers/clk/samsung/clk-exynos7.c"
seed_commit clk zz-eq-autov9.patch "clk: samsung: exynosautov9: read SHARED1_PLL from the SHARED2 register" \
	"sed -i 's/PLL_LOCKTIME_PLL_SHARED1, PLL_CON3_PLL_SHARED1,/PLL_LOCKTIME_PLL_SHARED1, PLL_CON3_PLL_SHARED2,/' drivers/clk/samsung/clk-exynosautov9.c"
seed_commit clk zz-eq-fsd.patch "clk: samsung: fsd: take the SHARED0 PLL mux from the wrong bit" \
	"sed -i 's/mout_cmu_shared0_pll_p, PLL_CON0_PLL_SHARED0, 4, 1)/mout_cmu_shared0_pll_p, PLL_CON0_PLL_SHARED0, 5, 1)/' drivers/clk/samsung/clk-fsd.c"
rebuild_integration
run_tool "$T/equiv.sh" exynos5433 tm2 espresso sadk fsd-evb
check "a CMU missing from the module's match table fails, naming the device and its clocks" eval \
	'failed && has "+ dev clock-controller@c80000 unbound" && in_diff "^- clk [a-z_0-9]+ parent=aclk_peric_66"'
check "a PLL read from the wrong register fails, naming the PLL and both rates" eval \
	'in_diff "^- clk fout_isp_pll parent=oscclk rate=552000000" && in_diff "^\+ clk fout_isp_pll parent=oscclk rate=196000000"'
check "a pin bank missing from the driver's data fails, naming its pins" in_diff "^- pinctrl .*gpz1"
check "on the TM2 board too: the CMU the series no longer matches is grafted (the base's sources name it) and found unbound" eval \
	'grep -qE "^equiv: tm2: [0-9]+ unexpected differences" <<<"$out" && in_diff "^\+ dev clock-controller@4c80000 unbound" tm2'
check "a CMU table of Exynos7 reading a PLL from the wrong register fails on the Espresso board, naming the PLL" eval \
	'grep -qE "^equiv: espresso: [0-9]+ unexpected differences" <<<"$out" && in_diff "^- clk fout_bus0_pll parent=fin_pll rate=1600000000" espresso'
check "a CMU table of ExynosAutoV9 reading a PLL from the wrong register fails on the SADK board, naming the PLL" eval \
	'grep -qE "^equiv: sadk: [0-9]+ unexpected differences" <<<"$out" && in_diff "^\+ clk fout_shared1_pll parent=oscclk rate=1995500000" sadk'
check "a CMU table of FSD with a wrong mux bit fails on the FSD board, naming the mux" eval \
	'grep -qE "^equiv: fsd-evb: [0-9]+ unexpected differences" <<<"$out" && in_diff "^\+ clk mout_cmu_pll_shared0 parent=fin_pll" fsd-evb'
unseed clk zz-eq-exynos7.patch
unseed clk zz-eq-autov9.patch
unseed clk zz-eq-fsd.patch
unseed clk zz-eq-match.patch
unseed clk zz-eq-pll.patch
unseed pinctrl zz-eq-bank.patch

# A sleep cycle whose resume does not write back the CMU registers its
# suspend saved: the Exynos5433 CMUs with suspend values (CMU_TOP, CPIF,
# PERIC) keep those values after it.
seed_commit clk zz-eq-resume.patch "clk: samsung: skip the register restore on resume" \
	"sed -i 's/^\t\tsamsung_clk_restore(reg_cache->reg_base, reg_cache->rdump,\$/\t\tif (0)\n&/' drivers/clk/samsung/clk.c"
rebuild_integration
run_tool "$T/equiv.sh" exynos5433
check "a resume that does not restore the CMU registers fails the sleep cycle, naming CMU and register" eval \
	'failed && has "equiv sleep cycle leaves CMU registers and clocks as they were" && in_diff "^\+ sleep reg clock-controller@[0-9a-f]+ \+0x[0-9a-f]+ "'
unseed clk zz-eq-resume.patch

# The MCT dropped whenever the Samsung clocks are modules, as the series
# once had it (its select made conditional, and the modular fragment no
# longer asking for the MCT): the series kernel boots on the architected
# timer, and only the MCT's own registers show that nothing started it.
sed -i '/CLKSRC_EXYNOS_MCT/d' "$SCRATCH/topics/clk/modular.config"
seed_commit clk zz-eq-mct.patch "arm64: Exynos: select the MCT only with built-in Samsung clocks" \
	"sed -i 's/^\\tselect CLKSRC_EXYNOS_MCT\$/& if COMMON_CLK_SAMSUNG=y/' arch/arm64/Kconfig.platforms"
rebuild_integration
run_tool "$T/equiv.sh" e850-96
check "a series without the MCT fails on the E850-96 board, naming the MCT's counter" eval \
	'failed && has "mct counter started before any module" && has "the Exynos MCT did not start its counter" &&
	in_diff "^- mct tcon-start 1" e850-96'
unseed clk zz-eq-mct.patch
git -C "$SCRATCH" checkout -q -- topics/clk/modular.config

# An __initconst CMU description, read by a probe that runs after the
# module's init sections are gone. CMU_FSYS is made to wait for the clkout
# module, loaded last: the control run shows that this alone is fine.
seed_dtsi 's/clocks = <&xxti>, <&cmu_cpif CLK_SCLK_UFS_MPHY>,/clocks = <\&pmu_system_controller 0>, <\&cmu_cpif CLK_SCLK_UFS_MPHY>,/'
export EQ_DTSI_exynos5433=$TEST_ROOT/fault.dtsi
export EQ_ORDER=$clkout_last
rebuild_integration
run_tool "$T/equiv.sh" exynos5433
check "control: CMU_FSYS fed by the clkout module, loaded last, probes late and passes" eval \
	'passed && has "equiv: PASS exynos5433"'
seed_commit clk zz-eq-init.patch "clk: samsung: exynos5433: put the CMU_FSYS description in init memory" \
	"sed -i 's/^static const struct samsung_cmu_info fsys_cmu_info = {/static const struct samsung_cmu_info fsys_cmu_info __initconst = {/' drivers/clk/samsung/clk-exynos5433.c"
rebuild_integration
# It oopses and the guest hangs: do not wait the full 30 s.
BOOT_TIMEOUT=12 run_tool "$T/equiv.sh" exynos5433
check "an __initconst table reached by a late probe fails, naming the probe or the device" eval \
	'failed && grep -qE "exynos5433_cmu_probe|^\+ dev clock-controller@6e0000 unbound" <<<"$out"'
unseed clk zz-eq-init.patch
unset EQ_DTSI_exynos5433
rebuild_integration

# The deferral case of tests/75-equiv.t, with the series registering the
# CMU's clocks before its assigned clocks are there.
defer_case
seed_commit clk zz-eq-defer.patch "clk: samsung: register a CMU before its assigned clocks are there" \
	"sed -i '/^int samsung_cmu_clocks_ready(/,/^}/s/^\tfor (i = 0; i < ARRAY_SIZE(props); i++) {\$/\treturn 0;\n&/' drivers/clk/samsung/clk.c"
rebuild_integration
run_tool "$T/equiv.sh" exynos5433
# Seeded, CMU_FSYS registers its clocks and cannot publish them: it stays
# bound (failing would unmap the registers under its clocks) and says so,
# which the base does not.
check "deferral: a CMU that registers before its assigned clocks exist fails, naming the device" eval \
	'failed && in_diff "^\+ kerr exynos5433-cmu 5f6e0000.clock-controller: failed to add clock provider"'
unseed clk zz-eq-defer.patch
unset EQ_REGS_exynos5433 EQ_DTSI_B_exynos5433 EQ_ORDER
rebuild_integration
check "the kernel tree is left clean" tree_clean
done_testing
