#!/usr/bin/env bash
# The second base, Debian's linux-source-6.12: the tree imports into its
# own WORK/base-6.12, its topics (topics/6.12/) apply and merge (the same
# SHAs from a second import under a hostile ~/.gitconfig), the gates
# that need no kernel build pass on them, the modular integration branch
# boots and is equivalent to the built-in base on nine SoCs (gs101 among
# them), and the range-diffs kept in topics/6.12/ are what git
# range-diff gives against the 6.1 topics.
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
check "the 6.12 topics apply" eval 'passed && has "topics: cocci 1, clk 15, pinctrl 3, soc 4, rtc 0 commits"'
run_tool "$T/integration.sh"
check "and merge into the 6.12 integration branch" eval 'passed && has "soc      merged"'

# Reproducible on this base too: a second WORK that imports the tarball
# itself, under a hostile ~/.gitconfig, gives the same SHAs.
refs() { git -C "$1/base-6.12/linux" for-each-ref --format='%(refname) %(objectname)' refs/heads refs/tags; }
repro=$TEST_ROOT/repro-6.12
rm -rf "$repro"
run_tool env WORK="$repro" HOME="$(hostile_home)" sh -c '"$1/tree.sh" && "$1/topics.sh" && "$1/integration.sh"' - "$T"
check "a second import of linux-source-6.12 under a hostile ~/.gitconfig gives the same base, topic and integration SHAs" eval \
	'passed && test "$(refs "$WORK")" = "$(refs "$repro")" && test "$(refs "$WORK" | wc -l)" -ge 7'
refs "$repro" | diag
rm -rf "$repro"
GATES="checkpatch scope provenance kconfig" run_tool "$T/check.sh"
echo "$out" | grep -E '^[a-z]+ +[a-z0-9]+ +(PASS|FAIL|SKIP)' | diag
check "checkpatch, scope, provenance and kconfig pass on every 6.12 topic and integration" eval \
	'passed && has "check: PASS" && has "kconfig        soc          PASS"'

run_tool "$T/boot.sh" integration modular
check "the 6.12 integration branch builds with clocks, pin control and the PMU as modules, and boots loading them" eval \
	'passed && has "ok 6 load exynos_pmu" && has "ok 7 load pinctrl_samsung" && has "load clk-gs101" && has "boot: PASS integration modular"'

# The equivalence suite on 6.12: the synthetic SoCs and the six boards of
# 6.1, and gs101's Pixel 6 (oriole) from its own DT.
EQ_SEED=20261205 run_tool "$T/equiv.sh"
echo "$out" | grep -E '^(equiv|exynos|[a-z0-9-]+ +[0-9]+/)' | diag
# brow SOC: bound/devices, clocks, pins, deferrals, 12 orders, no unexpected difference
brow() { grep -qE "^$1 +[0-9]+/[0-9]+ +[1-9][0-9]+ +[1-9][0-9]+ +[0-9,]+ +12 +[0-9]+/0 +PASS" <<<"$out"; }
check "on 6.12, the base built in and integration modular give the same state on gs101 (oriole) and the eight SoCs of 6.1, in 12 orders" eval \
	'passed && has "equiv: PASS exynos5433 exynos850 tm2 e850-96 espresso jackpotlte sadk fsd-evb oriole" &&
	brow oriole && brow e850-96 && brow sadk && brow tm2'

# The 6.1 topics, in the 6.1 WORK beside it, for the range-diffs.
BASE=6.1 "$T/topics.sh" >/dev/null 2>&1
run_tool "$T/range-diff.sh"
check "the range-diffs against 6.1 in topics/6.12/ are up to date" eval \
	'passed && has "range-diff: soc: " && git -C "$SCRATCH" diff --exit-code --stat -- topics/6.12'
done_testing
