#!/usr/bin/env bash
# The kconfig-matrix gate passes on integration, and fails, naming the
# defect and the first assignment that shows it, on each kind it exists
# for: an object left unbuilt below a modular option, a built-in object
# that needs a module's symbol, a kernel without the MCT, a pin controller
# without the PMU driver its pad retention needs, and coverage allmodconfig
# lost.
. "$(dirname "$0")/../lib.sh"
scratch_checkout
fresh_work kconfig-matrix
run_tool "$T/topics.sh"
run_tool "$T/integration.sh"

gate() { "$T/topics.sh" >/dev/null 2>&1; run_tool "$SCRATCH/checks/kconfig-matrix.sh" "$1"; }

gate integration
check "kconfig-matrix: passes on integration, every assignment evaluated" eval \
	'passed && has "11664 assignments" && has "allmodconfig (also linked, narrowed)" && has "4 MCT tick clocks from the DTBs"'
gate rtc
check "kconfig-matrix: a topic without Kconfig changes is skipped" eval 'passed && has "SKIP rtc changes no Kconfig file"'

# The clock defects of the 2026 reviews, put back: the ARM32 bools below a
# modular core (their objects not built), and the MCT dropped whenever
# the Samsung clocks are modules (the conditional select the series had
# before the MCT could take its bus clock late).
k=drivers/clk/samsung/Kconfig
seed_commit clk zz-kconfig.patch "clk: samsung: loosen the Kconfig again" \
	"sed -i 's/^\\tdepends on COMMON_CLK_SAMSUNG=y\$/\\tdepends on COMMON_CLK_SAMSUNG/' $k &&
	 sed -i 's/^\\tselect CLKSRC_EXYNOS_MCT\$/& if COMMON_CLK_SAMSUNG=y/' arch/arm64/Kconfig.platforms"
gate clk
check "kconfig-matrix: the object of a bool y below a modular option is named as unbuilt" eval \
	'failed && has "unbuilt: drivers/clk/samsung/clk-s3c64xx.o" && has "first: COMMON_CLK_SAMSUNG=m"'
check "kconfig-matrix: a kernel without the MCT is named" eval \
	'failed && has "mct: the Exynos MCT is not built in, but ARCH_EXYNOS is" && has "COMMON_CLK_SAMSUNG=m"'
unseed clk zz-kconfig.patch

# The pin control defects of the 2026 review, put back: Exynos pin control
# depending on the PMU instead of selecting it. EXYNOS_PMU=n then leaves
# the Exynos5433 pin controllers without pad retention, and arm64
# allmodconfig (S3C pin control built in, the PMU a module) no longer
# compiles the Exynos pin control files.
p=drivers/pinctrl/samsung/Kconfig
seed_commit soc zz-kconfig.patch "pinctrl: samsung: depend on the PMU again" \
	"sed -i -e '/^\tselect EXYNOS_PMU if /d' \
	 -e '/^config PINCTRL_EXYNOS\$/,/^\$/s/^\tselect PINCTRL_SAMSUNG\$/\tdepends on EXYNOS_PMU || !EXYNOS_PMU\n\tdepends on EXYNOS_PMU != m || !(PINCTRL_S3C24XX || PINCTRL_S3C64XX)\n&/' $p"
gate soc
check "kconfig-matrix: a pin controller with PMU retention and no PMU driver is named, with the board" eval \
	'failed && has "pinctrl: exynos/exynos5433-tm2.dtb: pin controller samsung,exynos5433-pinctrl (drivers/pinctrl/samsung/pinctrl-exynos-arm64.o) needs the PMU driver" &&
	has "EXYNOS_PMU=n"'
check "kconfig-matrix: an object allmodconfig compiled at the base and no longer does is named" \
	has "allmod: drivers/pinctrl/samsung/pinctrl-exynos-arm64.o was compiled by arm64 allmodconfig at the base"
unseed soc zz-kconfig.patch

# The allmodconfig link failure: S3C pin control makes the core built in,
# and the Exynos part linked into it calls into the PMU, which the select
# (tristate, not "!= n") then only makes a module.
seed_commit soc zz-kconfig.patch "pinctrl: samsung: select the PMU at the Exynos part's value" \
	"sed -i 's/^\tselect EXYNOS_PMU if PINCTRL_EXYNOS != n /\tselect EXYNOS_PMU if PINCTRL_EXYNOS /' $p"
gate soc
check "kconfig-matrix: vmlinux needing a module's symbol is named with the module" eval \
	'failed && has "link: vmlinux (drivers/pinctrl/samsung/pinctrl-exynos.o) needs exynos_get_pmu_regmap, which only drivers/soc/samsung/exynos_pmu.ko defines"'
check "kconfig-matrix: and the narrowed allmodconfig does not link, the linker naming the symbol" \
	has "linked: vmlinux: undefined reference to exynos_get_pmu_regmap"
unseed soc zz-kconfig.patch

check "the kernel tree is left clean" tree_clean
done_testing
