#!/usr/bin/env bash
# The gates that build kernels (bisect, modpost, sparse, arm32, coccicheck,
# w1)
# pass on the real topics and integration, and each fails on a seeded
# defect, naming it. One WORK and its build directories serve every case.
. "$(dirname "$0")/../lib.sh"
scratch_checkout
export WORK=$TEST_ROOT/gates-build
mkdir -p "$WORK"
KSRC=$WORK/linux
if [ -d "$KSRC" ]; then "$T/tree.sh" >/dev/null 2>&1 || rm -rf "$KSRC"; fi
[ -d "$KSRC" ] || clone_pristine "$KSRC"
"$T/topics.sh" >/dev/null 2>&1
"$T/integration.sh" >/dev/null 2>&1
BUILD_GATES="bisect modpost sparse arm32 coccicheck w1"

GATES=$BUILD_GATES run_tool "$T/check.sh"
echo "$out" | grep -E '^(GATE|[a-z0-9]+ +[a-z]+ +(PASS|FAIL|SKIP))' | diag
check "the build gates pass on every topic and on integration" eval 'passed && has "check: PASS"'

gate() { "$T/topics.sh" >/dev/null 2>&1; run_tool "$SCRATCH/checks/$2.sh" "$1"; }
c=drivers/clk/samsung/clk-exynos-clkout.c

# A commit in mid-series that does not build, fixed by the next one.
seed_commit clk zz-break.patch "clk: samsung: break the build for a while" \
	"sed -i 's/^static int exynos_clkout_probe(struct platform_device \\*pdev)/static int zz_broken = ;\\n\\n&/' $c"
seed_commit clk zz-fix.patch "clk: samsung: and mend it again" \
	"sed -i '/^static int zz_broken = ;/d' $c"
gate clk bisect
check "bisect: names the first commit that does not build" eval \
	'failed && has "first failing commit: " && has "clk: samsung: break the build for a while (builtin"'
unseed clk zz-fix.patch; unseed clk zz-break.patch

# A bisect hazard: the commit that lets a CMU probe defer, moved before the
# one that takes the probes out of init memory. Each commit builds, and
# modpost is blind to it (__refdata); a probe retried after boot oopses.
defer=clk-samsung-defer-a-CMU-probe-until-the-clocks-it-needs-are-there.patch
sed -i -e "/^$defer\$/d" -e "/^clk-samsung-drop-the-init-annotations-/i $defer" "$SCRATCH/topics/clk/series"
gate clk bisect
check "bisect: a probe that can defer while still in init memory oopses when retried, naming the commit" eval \
	'failed && has "defer a CMU probe until the clocks it needs are there (builtin) boots worse than its parent: " &&
	grep -qE "boots worse than its parent: .*Oops.* pc : exynos5433_cmu_probe" <<<"$out"'
git -C "$SCRATCH" checkout -q -- topics/clk/series

# The Rockchip-revert class: probe of a module reads an __initconst table.
seed_commit clk zz-init.patch "clk: samsung: read an init table from probe" \
	"sed -i -e '/^static int exynos_clkout_probe(/,/^}/s/^{\$/{\\n\\tdev_info(\\&pdev->dev, \"%d\\\\n\", zz_rates[pdev->id \\& 1]);/' \
		-e 's/^static int exynos_clkout_probe(struct platform_device \\*pdev)/static const int zz_rates[] __initconst = { 1, 2 };\\n\\n&/' $c"
gate clk modpost
check "modpost: an __initconst table reached from a module's probe is a section mismatch" eval \
	'failed && has "section mismatches" && has "zz_rates"'
unseed clk zz-init.patch

# The same defect class in another topic's module, found by that topic's
# Coccinelle rule through the kernel's make coccicheck.
ch=drivers/soc/samsung/exynos-chipid.c
seed_commit soc zz-init.patch "soc: samsung: read an init table from probe" \
	"sed -i -e '/^static int exynos_chipid_probe(/,/^}/s/^{\$/{\\n\\tdev_info(\\&pdev->dev, \"%d\\\\n\", zz_ids[pdev->id \\& 1]);/' \
		-e 's/^static int exynos_chipid_probe(struct platform_device \\*pdev)/static const int zz_ids[] __initconst = { 1, 2 };\\n\\n&/' $ch"
gate soc coccicheck
check "coccicheck: the topic's rule reports the __initconst table a module's probe reads" eval \
	'failed && has "init data zz_ids is reachable from a module'"'"'s probe" && has "1 reports"'
gate soc modpost
check "modpost: and the build catches the same defect" eval 'failed && has "zz_ids"'
unseed soc zz-init.patch

# Across files: SoC data defined in one file, reached from the match table
# of another, back in an init section (rule set 3 of the shared rule).
seed_commit pinctrl zz-init.patch "pinctrl: samsung: put the Exynos5433 data back in init" \
	"sed -i 's/^const struct samsung_pinctrl_of_match_data exynos5433_of_data = {/const struct samsung_pinctrl_of_match_data exynos5433_of_data __initconst = {/' \
		drivers/pinctrl/samsung/pinctrl-exynos-arm64.c"
gate pinctrl coccicheck
check "coccicheck: non-static init data another file's match table reaches is reported" eval \
	'failed && has "init data exynos5433_of_data is reachable from a module'"'"'s probe" && has "1 reports"'
unseed pinctrl zz-init.patch

# A topic that changes C files while its rule finds nothing at the base
# must say why (soc does, in topic.conf); without the reason it fails.
sed -i '/^cocci-clean-base/d' "$SCRATCH/topics/soc/topic.conf"
gate soc coccicheck
check "coccicheck: a clean base without a stated reason is a rule without teeth" eval \
	'failed && has "have no teeth" && has "topics/soc/topic.conf"'
git -C "$SCRATCH" checkout -q -- topics/soc/topic.conf

# A rule that spatch cannot run fails the gate, also where a clean base is
# allowed (the failure used to end only a subshell, and the gate passed).
# A commit said to be the rules' output that they do not make.
sed -i 's/^cocci-commit = .*/cocci-commit = clk: samsung: exynos7: add the missing blank lines between the MSCL tables/' \
	"$SCRATCH/topics/clk/topic.conf"
gate clk coccicheck
check "coccicheck: a commit said to be generated that the rules do not make fails, named" eval \
	'failed && has "add the missing blank lines between the MSCL tables'"'"' is not the unedited output of coccinelle/probe_init.cocci"'
git -C "$SCRATCH" checkout -q -- topics/clk/topic.conf
# A per-driver split ("*" for the driver) must be consecutive commits
# of one file each: a pattern that also takes in hand-written commits
# fails on both counts, naming a commit.
sed -i 's/^cocci-commit = .*/cocci-commit = clk: samsung: */' "$SCRATCH/topics/clk/topic.conf"
gate clk coccicheck
check "coccicheck: generated commits split per driver must be consecutive, one file each" eval \
	'failed && has "are not consecutive in clk" && has "a change split per driver changes one file per commit"'
git -C "$SCRATCH" checkout -q -- topics/clk/topic.conf

printf '@@\nexpression E;\n@@\n- E(\n' >"$SCRATCH/coccinelle/zz-broken.cocci"
sed -i 's|^cocci = .*|cocci = coccinelle/zz-broken.cocci|' "$SCRATCH/topics/soc/topic.conf"
gate soc coccicheck
check "coccicheck: a rule spatch cannot run fails the gate, named" eval \
	'failed && has "coccinelle/zz-broken.cocci: spatch -D report failed" && has "coccicheck: FAIL"'
rm "$SCRATCH/coccinelle/zz-broken.cocci"
git -C "$SCRATCH" checkout -q -- topics/soc/topic.conf

# A module that uses a symbol the kernel does not export.
seed_commit clk zz-export.patch "clk: samsung: use an unexported symbol" \
	"sed -i -e '/^static int exynos_clkout_probe(/,/^}/s/^{\$/{\\n\\tif (timekeeping_suspended)\\n\\t\\treturn -EBUSY;/' \
		-e 's/^static int exynos_clkout_probe(struct platform_device \\*pdev)/extern int timekeeping_suspended;\\n\\n&/' $c"
gate clk modpost
check "modpost: a missing export is an undefined symbol, named" eval \
	'failed && has "timekeeping_suspended" && has "1 undefined"'
unseed clk zz-export.patch

# A new sparse warning: an __iomem pointer dereferenced directly.
seed_commit clk zz-sparse.patch "clk: samsung: read a register the wrong way" \
	"printf '\\nint zz_sparse(void __iomem *reg);\\nint zz_sparse(void __iomem *reg)\\n{\\n\\treturn *(int __force *)reg + *(int *)reg;\\n}\\n' >>drivers/clk/samsung/clk.c.new &&
	 cat drivers/clk/samsung/clk.c drivers/clk/samsung/clk.c.new >drivers/clk/samsung/clk.c.tmp &&
	 mv drivers/clk/samsung/clk.c.tmp drivers/clk/samsung/clk.c && rm drivers/clk/samsung/clk.c.new"
gate clk sparse
check "sparse: a new warning fails the gate and is named" eval \
	'failed && has "1 new warnings" && has "new: drivers/clk/samsung/clk.c: warning: cast removes address space"'

unseed clk zz-sparse.patch

# A new ARM32 warning in code ARM32 Exynos builds.
seed_commit clk zz-arm32.patch "clk: samsung: leave an unused variable" \
	"sed -i '0,/^void __init samsung_clk_register_alias(/s//static int zz_unused;\\n\\n&/' drivers/clk/samsung/clk.c"
gate clk arm32
check "arm32: a new warning in the ARM32 exynos_defconfig build is named" eval \
	'failed && has "1 new warnings" && grep -q "^new: drivers/clk/samsung/clk.c: .*zz_unused.* defined but not used" <<<"$out"'
unseed clk zz-arm32.patch

# The kernel test robot's find in the 2025 modular MCT: an __init function
# reached from a module's probe through a function pointer. gcc's normal
# build inlines the call away and modpost sees nothing; the bots' builds
# keep it, and modpost names it. Also a new W=1 warning in a touched file.
seed_commit clk zz-w1.patch "clk: samsung: call init code through a pointer" \
	"sed -i -e '/^static int exynos_clkout_probe(/,/^}/s/^{\$/{\n\tif (zz_call(zz_setup, pdev) < -1)\n\t\treturn -EINVAL;/' \
		-e 's/^static int exynos_clkout_probe(struct platform_device \\*pdev)/static int __init zz_setup(struct platform_device *pdev)\n{\n\treturn pdev->id;\n}\n\nstatic int zz_call(int (*fn)(struct platform_device *), struct platform_device *pdev)\n{\n\tint zz_w1;\n\n\tzz_w1 = 0;\n\treturn fn(pdev);\n}\n\n&/' $c"
gate clk modpost
diag "modpost (gcc, as the topics are built) on the seeded init call: $(tail -n1 <<<"$out")"
gate clk w1
check "w1: an __init function reached through a pointer from a module's probe is a section mismatch, named" eval \
	'failed && has "zz_setup" && has "does not build"'
check "w1: a new W=1 warning in a touched file is named" eval \
	'grep -qE "^gcc (builtin|modular): new: drivers/clk/samsung/clk-exynos-clkout.c: warning: variable .zz_w1. set but not used" <<<"$out"'
unseed clk zz-w1.patch
done_testing
