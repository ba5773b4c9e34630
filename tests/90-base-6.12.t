#!/usr/bin/env bash
# The second base, Debian's linux-source-6.12: the tree imports into its
# own WORK/base-6.12, its topics (topics/6.12/) apply and merge, and the
# range-diffs kept in topics/6.12/ are what git range-diff gives against
# the 6.1 topics. Reproducible SHAs, the gates, the boot and the
# equivalence suite on 6.12 are in tests/full/90-base-6.12.t.
. "$(dirname "$0")/lib.sh"
scratch_checkout
fresh_work second-base

run_tool env BASE=6.x "$T/tree.sh"
check "BASE that is not a version is refused, named" eval 'failed && has "BASE=6.x is not a kernel version"'
run_tool env BASE=5.10 "$T/tree.sh"
check "a base without topics is refused, naming the directory" eval 'failed && has "no topics for BASE=5.10: $SCRATCH/topics/5.10 does not exist"'

export BASE=6.12
run_tool "$T/tree.sh"
check "make tree BASE=6.12 imports linux-source-6.12 into WORK/base-6.12, tagged with Debian's version" eval \
	'passed && has "imported into $WORK/base-6.12/linux" && grep -qE "^tree: v6\.12\.[0-9]+-debian-[^ ~]+ at " <<<"$out"'
run_tool "$T/topics.sh"
check "the 6.12 topics apply" eval 'passed && has "topics: cocci 1, clk 25, pinctrl 4, soc 6, rtc 0 commits"'
run_tool "$T/integration.sh"
check "and merge into the 6.12 integration branch" eval 'passed && has "soc      merged"'

# The 6.1 topics, in the 6.1 WORK beside it, for the range-diffs.
BASE=6.1 "$T/topics.sh" >/dev/null 2>&1
run_tool "$T/range-diff.sh"
check "the range-diffs against 6.1 in topics/6.12/ are up to date" eval \
	'passed && has "range-diff: soc: " && git -C "$SCRATCH" diff --exit-code --stat -- topics/6.12'
# A verdict on a 6.12 topic also depends on the base's own files beside
# the topic folders: an edit to the Kconfig matrix spec reruns the gates.
export GATES=provenance
"$T/check.sh" clk >/dev/null 2>&1
run_tool "$T/check.sh" clk
check "a 6.12 topic's verdict is reused while nothing changed" eval 'passed && has "provenance     clk          PASS" && has "(cached)"'
echo "# an edit" >>"$SCRATCH/topics/6.12/kconfig-matrix.spec"
run_tool "$T/check.sh" clk
check "an edit to topics/6.12/kconfig-matrix.spec reruns the gate on a 6.12 topic" eval 'passed && ! has "(cached)"'
git -C "$SCRATCH" checkout -q -- topics/6.12/kconfig-matrix.spec
done_testing
