#!/usr/bin/env bash
# The main job (tools/pipeline.sh) runs the two bases side by side: a step
# that fails stops the rest of its own base only, the summary and
# summary.json list every step in order, and the run fails. With
# SERIAL_BASES=1 one failure stops everything after it; TERM stops every
# step of both at once. A missing tarball fails each base's first step
# within a second.
. "$(dirname "$0")/lib.sh"

# summary_has NAME RESULT [TEXT]: the summary's line for step NAME.
summary_has() {
	grep -qE "^$1 +$2 .*${3:-}" <<<"$out" ||
		{ echo "# no summary line '$1 $2 ... ${3:-}'"; diag <<<"$out"; return 1; }
}
# json_steps: the steps of summary.json, "name result summary" in order.
json_steps() {
	python3 -c 'import json, sys
for s in json.load(open(sys.argv[1])): print(s["step"], s["result"], s["summary"])' "$WORK/summary.json"
}
steps=$(sed -n '/^steps=(/,/^)/s/^\t"\([a-z0-9.-]*\)|.*/\1/p' "$REPO/tools/pipeline.sh")

# A quote in WORK: summary.json must still parse.
export WORK=$TEST_ROOT/pipe\"line TARBALL=$TEST_ROOT/no-such-tarball.tar.xz
rm -rf "$WORK"
run_tool "$REPO/tools/pipeline.sh"
check "the main job fails when a base's first step fails" failed
check "the 6.1 tree step fails, naming the tarball" summary_has tree FAIL "no-such-tarball.tar.xz not found"
check "the rest of 6.1 is skipped after it" summary_has equiv SKIP "after tree failed"
check "the 6.12 chain ran on its own and failed at its own first step" summary_has tree-6.12 FAIL "no-such-tarball"
check "the rest of 6.12 is skipped after its own failure" summary_has equiv-6.12 SKIP "after tree-6.12 failed"
# (grep -q would stop reading early: under pipefail a flake)
check "summary.json lists every step in order with its result and summary" \
	eval 'js=$(json_steps) && [ "$(cut -d" " -f1 <<<"$js")" = "$steps" ] && grep -q "^tree-6.12 FAIL error: .*no-such-tarball" <<<"$js"'

rm -rf "$WORK"
run_tool env SERIAL_BASES=1 "$REPO/tools/pipeline.sh"
check "SERIAL_BASES=1: the 6.12 steps are skipped after the 6.1 failure" \
	eval 'failed && summary_has tree-6.12 SKIP "after tree failed"'

# Stopped by TERM while both bases import their trees: every process of
# the run ends at once, not when the running steps end.
export WORK=$TEST_ROOT/pipeline-stop
unset TARBALL
rm -rf "$WORK"
setsid "$REPO/tools/pipeline.sh" >"$TEST_ROOT/pipeline-stop.log" 2>&1 &
pid=$!
for _ in $(seq 100); do
	[ -e "$WORK/linux.import" ] && [ -e "$WORK/base-6.12/linux.import" ] && break
	sleep 0.1
done
kill -TERM "$pid"
for _ in $(seq 50); do pgrep -g "$pid" >/dev/null || break; sleep 0.1; done
check "TERM stops both bases' steps within 5 s" eval '! pgrep -a -g "$pid"'
pkill -KILL -g "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
rm -rf "$WORK"
done_testing
