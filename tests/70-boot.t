#!/usr/bin/env bash
# The main job's check: the integration branch builds and boots in QEMU
# with the Samsung drivers built in and as modules; the build refuses a
# fragment option that olddefconfig dropped; the console judge catches a
# panic. Build directories are reused across runs of this test.
. "$(dirname "$0")/lib.sh"
scratch_checkout
export WORK=$TEST_ROOT/boot
mkdir -p "$WORK"
KSRC=$WORK/linux
# Keep the build directories between runs: only the tree is made anew.
if [ -d "$KSRC" ]; then
	run_tool "$T/tree.sh"
	[ "$rc" = 0 ] || rm -rf "$KSRC"
fi
[ -d "$KSRC" ] || clone_pristine "$KSRC"
run_tool "$T/topics.sh"
run_tool "$T/integration.sh"
check "integration branch is there to boot" passed

for cfg in builtin modular; do
	run_tool "$T/boot.sh" integration "$cfg"
	echo "$out" | grep -E '^(build|boot): ' | diag
	check "integration $cfg: builds and boots, every KTAP result ok" eval \
		'passed && has "boot: PASS integration $cfg"'
done
run_tool "$T/boot.sh" integration modular
check "a second boot of the same kernel, /init and command line reports the first one's result" eval \
	'passed && has "boot: PASS integration modular" && has "(cached: this kernel and /init passed"'
check "modular: the Samsung modules load in QEMU" eval \
	'grep -qE "^ok [0-9]+ load clk-samsung" <<<"$out" && has "load rtc-s3c" && has "load exynos_chipid" && has "load exynos-usi" && ! grep -q "^not ok" <<<"$out"'
all_loaded() {
	local m
	for m; do
		grep -qE "^ok [0-9]+ load $m\$" <<<"$out" || { echo "# $m did not load"; return 1; }
	done
}
check "modular: every arm64 SoC clock driver is a module and loads" \
	all_loaded clk-exynos5433 clk-exynos7 clk-exynos7885 clk-exynos850 clk-exynosautov9 clk-fsd
check "modular: pin control and the PMU are modules and load (pinctrl, soc topics)" \
	all_loaded pinctrl_samsung exynos_pmu
check "the build leaves the kernel tree clean" tree_clean

printf 'CONFIG_MODULES=m\n' >"$TEST_ROOT/dropped.config"
EXTRA_FRAGMENT=$TEST_ROOT/dropped.config run_tool "$T/build.sh" integration modular
check "a fragment option that olddefconfig drops fails the build, naming it" eval 'failed &&
	has "CONFIG_MODULES: " && has "asks for m, olddefconfig gave n" && has "dropped.config"'

BOOT_APPEND=rdinit=/nonexistent BOOT_TIMEOUT=60 run_tool "$T/boot.sh" integration builtin
check "a kernel panic on the console fails the boot, naming the line" eval \
	'failed && has "boot: FAIL integration builtin" && has "Kernel panic"'
done_testing
