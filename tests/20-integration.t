#!/usr/bin/env bash
# make integration: merges the topics in order; an unrecorded conflict
# stops with the files and both sides' commits and a clean tree; a
# resolution recorded with 'make resolve' is replayed on the next run.
. "$(dirname "$0")/lib.sh"
scratch_checkout
fresh_work integration

run_tool "$T/topics.sh"
run_tool "$T/integration.sh"
check "integration merges cocci, clk, pinctrl and soc; rtc has nothing to merge" eval 'passed &&
	has "cocci    merged" && has "clk      merged" && has "pinctrl  merged" && has "soc      merged" && has "rtc      no commits"'
first=$(kgit rev-parse integration)
check "the manifest is committed into the branch" eval \
	'kgit show integration:exynos-gki.manifest | grep -qE "^clk	[0-9]+	$(kgit rev-parse topic/clk)	clk: samsung:"'
check "every merge is --no-ff with its topic's commits in the message" eval \
	'test "$(kgit rev-list --merges --count "$(cat "$KSRC/.git/exynos-gki/base-tag")..integration")" = 4 &&
	 kgit log -1 --format=%b integration^ | grep -q "soc: samsung:"'
run_tool "$T/integration.sh"
check "unchanged inputs: a rerun is a no-op" eval 'passed && has "(up to date)"'

# A soc patch that rewrites the line the clk topic deletes.
cat >"$SCRATCH/topics/soc/zz-conflict.patch" <<'PATCH'
From: Test Author <test@invalid>
Date: Tue, 1 Dec 2026 00:00:00 +0000
Subject: [PATCH] soc: samsung: a change that collides with the clk topic

Rewrites the select line that topic clk removes.

Signed-off-by: Test Author <test@invalid>
---
diff --git a/arch/arm64/Kconfig.platforms b/arch/arm64/Kconfig.platforms
--- a/arch/arm64/Kconfig.platforms
+++ b/arch/arm64/Kconfig.platforms
@@ -97,4 +97,4 @@
 config ARCH_EXYNOS
 	bool "ARMv8 based Samsung Exynos SoC family"
-	select COMMON_CLK_SAMSUNG
+	select COMMON_CLK_SAMSUNG if COMMON_CLK
 	select CLKSRC_EXYNOS_MCT
PATCH
echo zz-conflict.patch >>"$SCRATCH/topics/soc/series"
run_tool "$T/topics.sh"
run_tool "$T/integration.sh"
check "unrecorded conflict: non-zero exit naming topic and file" eval 'failed &&
	has "merging topic soc into integration conflicts" && has "  arch/arm64/Kconfig.platforms"'
check "unrecorded conflict: both sides' commits are listed" eval '
	has "integration: $(kgit log -1 --format=%h topic/clk -- arch/arm64/Kconfig.platforms) clk: samsung:" &&
	has "soc: $(kgit rev-parse --short topic/soc) soc: samsung: a change that collides"'
check "unrecorded conflict: prints the command that records a resolution" has "make resolve TOPIC=soc"
check "unrecorded conflict: tree clean, integration branch kept" eval \
	'tree_clean && test ! -f "$KSRC/.git/MERGE_HEAD" && test "$(kgit rev-parse integration)" = "$first"'

run_tool "$T/integration.sh" --resolve soc
check "make resolve leaves the conflict in the tree for editing" eval 'passed &&
	has "edit those files" && grep -q "^<<<<<<<" "$KSRC/arch/arm64/Kconfig.platforms"'
run_tool "$T/integration.sh" --resolve soc
check "make resolve refuses while conflict markers remain" eval 'failed && has "conflict markers are still in"'
# The resolution: keep the clk topic's side, where the line is gone.
kgit show HEAD:arch/arm64/Kconfig.platforms >"$TEST_ROOT/resolved"
cp "$TEST_ROOT/resolved" "$KSRC/arch/arm64/Kconfig.platforms.new"
mv "$KSRC/arch/arm64/Kconfig.platforms.new" "$KSRC/arch/arm64/Kconfig.platforms"
run_tool "$T/integration.sh" --resolve soc
check "make resolve records the resolution under topics/rerere/" eval 'passed &&
	test -n "$(find "$SCRATCH/topics/rerere" -name postimage)" && tree_clean'
run_tool "$T/integration.sh"
check "the recorded resolution is replayed" eval 'passed &&
	has "recorded resolution replayed for: arch/arm64/Kconfig.platforms"'
check "the replayed result is the recorded one" eval \
	'kgit show integration:arch/arm64/Kconfig.platforms | cmp -s - "$TEST_ROOT/resolved" && tree_clean'
done_testing
