#!/usr/bin/env bash
# make topics: builds every topic; a bad patch or series fails that topic
# alone, names the patch, file and hunk, and loses nothing.
. "$(dirname "$0")/lib.sh"
scratch_checkout
fresh_work topics

run_tool "$T/tree.sh"
check "a second 'make tree' is a no-op" eval 'passed && has "up to date"'
run_tool "$T/topics.sh"
check "all topics build" eval 'passed && has "rtc" && has "no commit on 6.1"'
declare -A tip
for t in clk pinctrl soc; do tip[$t]=$(kgit rev-parse "topic/$t"); done

# A file that is no patch at all.
cp "$SCRATCH/topics/pinctrl/series" "$TEST_ROOT/series.saved"
echo "not a patch" >"$SCRATCH/topics/pinctrl/zz-corrupt.patch"
echo zz-corrupt.patch >>"$SCRATCH/topics/pinctrl/series"
run_tool "$T/topics.sh"
check "corrupt patch: non-zero exit naming topic and patch" \
	eval 'failed && has "topic pinctrl: patch topics/pinctrl/zz-corrupt.patch does not apply"'
check "corrupt patch: branch keeps its previous tip" \
	test "$(kgit rev-parse topic/pinctrl)" = "${tip[pinctrl]}"
check "corrupt patch: the other topics still built" eval 'has "soc " && has "rtc "'
check "corrupt patch: kernel tree left clean, no git am in progress" \
	eval 'tree_clean && test ! -d "$KSRC/.git/rebase-apply"'
cp "$TEST_ROOT/series.saved" "$SCRATCH/topics/pinctrl/series"
rm "$SCRATCH/topics/pinctrl/zz-corrupt.patch"

# A patch whose context is no longer in the tree.
cat >"$SCRATCH/topics/clk/zz-stale.patch" <<'PATCH'
From: Test Author <test@invalid>
Date: Tue, 1 Dec 2026 00:00:00 +0000
Subject: [PATCH] clk: samsung: a patch written against another tree

It expects lines that the base does not have.

Signed-off-by: Test Author <test@invalid>
---
diff --git a/drivers/clk/samsung/Kconfig b/drivers/clk/samsung/Kconfig
--- a/drivers/clk/samsung/Kconfig
+++ b/drivers/clk/samsung/Kconfig
@@ -3,3 +3,3 @@
 config COMMON_CLK_SAMSUNG
-	tristate "this line was never in 6.1"
+	tristate "nor was this one"
 	default y if ARCH_EXYNOS
PATCH
echo zz-stale.patch >>"$SCRATCH/topics/clk/series"
run_tool "$T/topics.sh"
check "stale patch: non-zero exit naming the patch" \
	eval 'failed && has "topic clk: patch topics/clk/zz-stale.patch does not apply"'
check "stale patch: names the file and the hunk" \
	eval 'has "file drivers/clk/samsung/Kconfig, hunk at line 3"'
check "stale patch: branch keeps its previous tip, tree clean" \
	eval 'test "$(kgit rev-parse topic/clk)" = "${tip[clk]}" && tree_clean'
sed -i '/zz-stale.patch/d' "$SCRATCH/topics/clk/series"
rm "$SCRATCH/topics/clk/zz-stale.patch"

# A series that names a file that is not there.
echo missing.patch >>"$SCRATCH/topics/soc/series"
run_tool "$T/topics.sh"
check "missing file: non-zero exit naming series and file" \
	eval "failed && has \"topics/soc/series names 'missing.patch', which is not in topics/soc/\""
check "missing file: branch keeps its previous tip" \
	test "$(kgit rev-parse topic/soc)" = "${tip[soc]}"
sed -i '/missing.patch/d' "$SCRATCH/topics/soc/series"

run_tool "$T/topics.sh"
check "after the fixes the same SHAs come back" eval 'passed &&
	test "$(kgit rev-parse topic/clk) $(kgit rev-parse topic/soc)" = "${tip[clk]} ${tip[soc]}"'
# The commits of the last build are taken for the patches that begin the
# series as they did then: an appended patch is the only one applied,
# dropping it applies none, and the SHAs are those of a build from scratch.
n=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$SCRATCH/topics/clk/series" | wc -l)
seed_patch clk zz-append.patch "clk: samsung: an appended patch" yes \
	"$(new_file_diff drivers/clk/samsung/zz-append.txt 'appended')"
run_tool "$T/topics.sh" clk
check "an appended patch is applied on the last build's tip, the others reused" eval 'passed &&
	grep -q "^$n patches as at the last build" "$WORK/logs/topics-clk.log" &&
	test "$(kgit rev-parse topic/clk^)" = "${tip[clk]}"'
unseed clk zz-append.patch
run_tool "$T/topics.sh" clk
check "the patch dropped again: the old tip, no patch applied" eval 'passed &&
	test "$(kgit rev-parse topic/clk)" = "${tip[clk]}" && grep -q "^$n patches as at the last build" "$WORK/logs/topics-clk.log"'
rm "$KSRC/.git/exynos-gki/topic-clk.applied" "$KSRC/.git/exynos-gki/topic-clk.key"
run_tool "$T/topics.sh" clk
check "built from scratch: the same tip" eval 'passed && test "$(kgit rev-parse topic/clk)" = "${tip[clk]}" &&
	! grep -q "as at the last build" "$WORK/logs/topics-clk.log"'
check "checkout untouched by the tools" eval 'test -z "$(git -C "$SCRATCH" status --porcelain)"'
done_testing
