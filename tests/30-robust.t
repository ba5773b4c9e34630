#!/usr/bin/env bash
# Bad situations get a clear error and lose nothing: a dirty kernel tree,
# two runs on one WORK, and a 'make topics' killed in the middle.
. "$(dirname "$0")/lib.sh"
scratch_checkout
fresh_work robust

# Local edits in the kernel tree are never overwritten.
sed -i '$a # local edit' "$KSRC/drivers/clk/samsung/Kconfig"
echo "scratch" >"$KSRC/my-notes.txt"
run_tool "$T/topics.sh"
check "dirty tree: refused, naming the files and the fix" eval 'failed &&
	has "drivers/clk/samsung/Kconfig" && has "my-notes.txt" && has "has local changes" && has "reset --hard"'
check "dirty tree: the local edits are still there" eval \
	'tail -n1 "$KSRC/drivers/clk/samsung/Kconfig" | grep -q "# local edit" && test -f "$KSRC/my-notes.txt"'
check "dirty tree: no branch was created" eval '! kgit rev-parse -q --verify topic/clk >/dev/null'
kgit checkout -q -- drivers/clk/samsung/Kconfig
rm "$KSRC/my-notes.txt"

# Two runs at once on one WORK: the second is told who holds the lock.
flock "$WORK/.lock" sleep 5 &
holder=$!
sleep 0.5
run_tool "$T/topics.sh"
check "concurrent run: refused with a clear message" eval 'failed && has "another exynos-gki run is using $WORK"'
wait "$holder"
run_tool "$T/topics.sh"
check "after the other run ended, the same command works" passed

# An interrupted run: a long series, killed while git am is applying it.
rm -f "$SCRATCH"/topics/rtc/*.patch
for i in $(seq -w 1 150); do
	cat >"$SCRATCH/topics/rtc/stress-$i.patch" <<PATCH
From: Test Author <test@invalid>
Date: Tue, 1 Dec 2026 00:00:00 +0000
Subject: [PATCH] rtc: test: add file $i

A series long enough to interrupt.

Signed-off-by: Test Author <test@invalid>
---
diff --git a/drivers/rtc/stress-$i.txt b/drivers/rtc/stress-$i.txt
new file mode 100644
--- /dev/null
+++ b/drivers/rtc/stress-$i.txt
@@ -0,0 +1 @@
+$i
PATCH
	echo "stress-$i.patch" >>"$SCRATCH/topics/rtc/series"
done
setsid "$T/topics.sh" rtc >"$TEST_ROOT/interrupted.log" 2>&1 &
victim=$!
for _ in $(seq 1 600); do
	[ -f "$KSRC/.git/rebase-apply/next" ] && [ "$(cat "$KSRC/.git/rebase-apply/next")" -gt 5 ] && break
	sleep 0.05
done
kill -KILL -- "-$victim" 2>/dev/null
wait "$victim" 2>/dev/null
check "interrupted run: killed while git am was in progress" test -d "$KSRC/.git/rebase-apply"
run_tool "$T/topics.sh"
check "interrupted run: the rerun recovers and builds every topic" eval 'passed &&
	has "recovering from an interrupted run" && test "$(kgit rev-list --count "$(cat "$KSRC/.git/exynos-gki/base-tag")..topic/rtc")" = 150'
check "interrupted run: tree clean afterwards" tree_clean

# A git am that the tools did not start is the user's: left alone.
kgit checkout -q --detach topic/clk
kgit am -q "$SCRATCH/topics/clk/"*.patch >/dev/null 2>&1
run_tool "$T/topics.sh"
check "a user's own git am in progress is not aborted" eval 'failed &&
	has "git am or merge in progress that exynos-gki did not start" && test -d "$KSRC/.git/rebase-apply"'
kgit am --abort

# A topic branch moved by hand (a commit not exported yet) is not reset
# to what the exported patches say, and the message names both ways out.
run_tool "$T/topics.sh"
moved=$(kgit commit-tree "topic/soc^{tree}" -p topic/soc -m "soc: samsung: local work")
kgit update-ref refs/heads/topic/soc "$moved"
run_tool "$T/topics.sh"
check "moved branch: refused, naming make export and branch -D" eval 'failed &&
	has "topic/soc in $KSRC has moved since make topics built it" && has "make export TOPIC=soc" && has "branch -D topic/soc"'
check "moved branch: the local commit is still there" eval '[ "$(kgit rev-parse topic/soc)" = "$moved" ]'
kgit branch -q -D topic/soc
run_tool "$T/topics.sh"
check "moved branch: after dropping it, the rerun builds it again" eval 'passed && [ "$(kgit rev-parse topic/soc)" != "$moved" ]'
done_testing
