#!/usr/bin/env bash
# The gates that need no kernel build pass on the real topics, and each
# fails on a seeded defect, naming it.
. "$(dirname "$0")/lib.sh"
# The gates that build kernels have their own test (80-gates-build.t).
export GATES="checkpatch scope provenance kconfig"
scratch_checkout
fresh_work gates-cheap
run_tool "$T/topics.sh"
run_tool "$T/integration.sh"

run_tool "$T/check.sh"
check "every gate passes on the real topics and integration" eval 'passed && has "check: PASS"'
check "one line per gate and target, and JSON for bots" eval \
	'has "checkpatch     clk          PASS" && has "kconfig        integration  PASS" && python3 -m json.tool "$WORK/check.json" >/dev/null'
run_tool "$T/check.sh"
check "a second run with nothing changed reuses every result" eval \
	'passed && test "$(grep -c "(cached)" <<<"$out")" -ge 16 && ! grep -q " ran$" <<<"$out"'

# gate TOPIC GATE: rebuild the topics and run one gate on one topic.
gate() { "$T/topics.sh" >/dev/null 2>&1; run_tool "$SCRATCH/checks/$2.sh" "$1"; }

seed_patch clk zz-style.patch "clk: samsung: add a helper" yes \
	"$(new_file_diff drivers/clk/samsung/zz-style.c '// SPDX-License-Identifier: GPL-2.0' 'int zz_style(int x)' '{' '	if(x) return 1;' '	return 0;' '}')"
gate clk checkpatch
check "checkpatch: fails on a coding-style error and names it" eval \
	'failed && has "topics/clk/zz-style.patch" && has "ERROR:SPACING"'
echo "SPACING" >"$SCRATCH/topics/clk/checkpatch.profile"
gate clk checkpatch
check "checkpatch: a profile line without a reason is refused" eval 'failed && has "has no reason"'
rm "$SCRATCH/topics/clk/checkpatch.profile"
unseed clk zz-style.patch

seed_patch clk zz-scope.patch "clk: samsung: touch pin control" yes \
	"$(new_file_diff drivers/pinctrl/samsung/zz-scope.txt 'owned by another topic')"
gate clk scope
check "scope: fails on a file of another topic and names patch, file and owner" eval \
	'failed && has "topics/clk/zz-scope.patch: touches drivers/pinctrl/samsung/zz-scope.txt" && has "EXYNOS-GKI PINCTRL TOPIC"'
unseed clk zz-scope.patch

seed_patch soc zz-nosob.patch "soc: samsung: an unsigned change" no \
	"$(new_file_diff drivers/soc/samsung/zz-nosob.txt 'no sign-off')"
gate soc provenance
check "provenance: fails on a missing Signed-off-by and names the commit" eval \
	'failed && has "soc: samsung: an unsigned change: no '"'"'Signed-off-by: Test Author <test@invalid>'"'"'"'
unseed soc zz-nosob.patch
seed_patch soc zz-prefix.patch "misc: wrong subsystem prefix" yes \
	"$(new_file_diff drivers/soc/samsung/zz-prefix.txt 'prefix')"
gate soc provenance
check "provenance: fails on a subject without the subsystem prefix" eval \
	'failed && has "subject does not start with one of: soc: samsung:"'
unseed soc zz-prefix.patch
seed_patch soc zz-words.patch "soc: samsung: do what tests/70-boot.t wants" yes \
	"$(new_file_diff drivers/soc/samsung/zz-words.txt 'repository words')"
gate soc provenance
check "provenance: fails on a commit message naming a file of this repository" eval \
	'failed && has "do what tests/70-boot.t wants: message line 1: names this repository"'
unseed soc zz-words.patch
echo "Tested with make equiv on every board." >>"$SCRATCH/topics/soc/cover-letter"
gate soc provenance
check "provenance: fails on a cover letter naming a make target of this repository, with its line" eval \
	'failed && has "topics/soc/cover-letter:$(wc -l <"$SCRATCH/topics/soc/cover-letter"): names this repository"'
git -C "$SCRATCH" checkout -q -- topics/soc/cover-letter

# usi_default LINE: a diff that replaces the USI option's default line.
usi_default() {
	printf '%s\n' "diff --git a/drivers/soc/samsung/Kconfig b/drivers/soc/samsung/Kconfig" \
		"--- a/drivers/soc/samsung/Kconfig" "+++ b/drivers/soc/samsung/Kconfig" "@@ -29,3 +29,3 @@" \
		' 	tristate "Exynos USI (Universal Serial Interface) driver"' \
		"-	default ARCH_EXYNOS && ARM64" "+	$1" " 	depends on ARCH_EXYNOS || COMPILE_TEST"
}
seed_patch soc zz-usi.patch "soc: samsung: stop enabling USI by default" yes "$(usi_default "default n")"
gate soc kconfig
check "kconfig: fails on a Kconfig change that alters defconfig, naming commit and option" eval \
	'failed && has "stop enabling USI by default: arm64:defconfig=CHANGED" && has "CONFIG_EXYNOS_USI"'
unseed soc zz-usi.patch
echo "CONFIG_COMMON_CLK_SAMSUNG=m" >>"$SCRATCH/topics/soc/kconfig-effect.config"
seeded_line=$(wc -l <"$SCRATCH/topics/soc/kconfig-effect.config")
gate soc kconfig
check "kconfig: fails when the effect fragment does not take effect on the topic" eval \
	'failed && has "does not take effect on the topic: config: CONFIG_COMMON_CLK_SAMSUNG: topics/soc/kconfig-effect.config:$seeded_line asks for m, olddefconfig gave y"'
git -C "$SCRATCH" checkout -q -- topics/soc/kconfig-effect.config
gate soc kconfig
check "kconfig: back to PASS once the defect is gone" passed

# A Kconfig file the defconfigs cannot parse: the gate fails and says
# where (the message used to be lost inside a command substitution).
seed_patch soc zz-syntax.patch "soc: samsung: break the Kconfig syntax" yes "$(usi_default "default ARCH_EXYNOS &&")"
gate soc kconfig
check "kconfig: a Kconfig that does not parse fails the gate, naming the commit and the error" eval \
	'failed && has "does not configure at" && has "break the Kconfig syntax" && has "drivers/soc/samsung/Kconfig:" && has "unknown statement"'
unseed soc zz-syntax.patch

# A series that names a patch file that is not there: the gates that
# walk the series fail and name it (they used to pass on the rest).
echo "zz-missing.patch" >>"$SCRATCH/topics/clk/series"
for g in checkpatch scope; do
	run_tool "$SCRATCH/checks/$g.sh" clk
	check "$g: a series line without its patch file fails the gate, named" eval \
		'failed && has "names '"'"'zz-missing.patch'"'"'" && has "$g: FAIL"'
done
git -C "$SCRATCH" checkout -q -- topics/clk/series

# The exports of the clk topic are coccinelle/exports.cocci's output: the
# gate fails when the tip lacks one, naming it, and when the commit that
# topic.conf names as generated is not what the rule makes.
gate clk exports
check "exports: the export commit is the rule's output and the tip a fixed point" eval \
	'passed && has "12 exports generated by"'
seed_commit clk zz-exports.patch "clk: samsung: unexport samsung_clk_save()" \
	"sed -i '/^EXPORT_SYMBOL_NS_GPL(samsung_clk_save, SAMSUNG_CLK);\$/d' drivers/clk/samsung/clk.c"
gate clk exports
check "exports: a missing export at the tip is named with its file" eval \
	'failed && has "is not a fixed point" && has "+EXPORT_SYMBOL_NS_GPL(samsung_clk_save, SAMSUNG_CLK);"'
unseed clk zz-exports.patch
sed -i 's/^exports-commit = .*/exports-commit = clk: samsung: break the headers of the registration helpers/' "$SCRATCH/topics/clk/topic.conf"
gate clk exports
check "exports: a commit said to be generated that the rule does not make fails" eval \
	'failed && has "is not the output of coccinelle/exports.cocci on its parent"'
git -C "$SCRATCH" checkout -q -- topics/clk/topic.conf

# make check takes a gate's verdict from its JSON and exit status: seeded
# gates that fail inside a subshell and go on to pass, that die without a
# verdict, or whose exit status contradicts the verdict, fail.
gate_script() { printf '#!/usr/bin/env bash\n. "$(dirname "$0")/lib.sh"\n%s\n' "$2" >"$SCRATCH/checks/$1.sh"; chmod +x "$SCRATCH/checks/$1.sh"; }
gate_script zz-subshell 'x=$(gate_fail "the seeded failure") || true; gate_pass "after it"'
gate_script zz-died 'echo "zz-died: PASS looks fine"; exit 3'
gate_script zz-status 'echo "{\"gate\":\"zz-status\",\"target\":\"$TARGET\",\"result\":\"PASS\",\"summary\":\"\"}" >>"$GATE_JSON"; exit 1'
GATES="zz-subshell zz-died zz-status" run_tool "$SCRATCH/tools/check.sh" clk
check "check: a verdict given inside a subshell fails the gate, though it then passed" eval \
	'failed && has "zz-subshell    clk          FAIL" && has "verdict FAIL given inside a subshell: the seeded failure"'
check "check: a gate that dies without a verdict fails, whatever its last line says" eval \
	'has "zz-died        clk          FAIL" && has "gate died (exit status 3) without a verdict: zz-died: PASS looks fine"'
check "check: an exit status that contradicts the verdict fails" eval \
	'has "zz-status      clk          FAIL" && has "exit status 1 disagrees with its verdict PASS" &&
	python3 -c "import json,sys; r = json.load(open(sys.argv[1])); assert [g[\"result\"] for g in r] == [\"FAIL\"] * 3" "$WORK/check.json"'
rm "$SCRATCH"/checks/zz-*.sh
done_testing
