#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make bench: timings of the pipeline, median of RUNS runs (default 5), in
# one WORK (BENCH_WORK, default $WORK-bench) so the figures are comparable.
#   warm no-op      make topics integration, nothing changed
#   one patch       the same after one patch's commit message changed
#   check no-op     make check, nothing changed (all results cached)
#   check one patch make check after that change (one topic + integration)
#   kconfig-matrix  that gate alone on integration, uncached (GATE_RUNS runs)
#   bisect clk      that gate alone on clk, uncached (GATE_RUNS runs), and
#                   the part of it spent booting
#   equiv           tools/equiv.sh, base built in against integration modular
#                   with its module orders (only with BENCH_EQUIV=1: it
#                   builds two kernels the first time), EQUIV_RUNS runs
#   cold test       make test from an empty test root (only with BENCH_COLD=1,
#                   COLD_RUNS runs, default 1: it takes many minutes)
# It edits a scratch copy of this checkout, never the checkout itself.
. "$(dirname "$0")/lib.sh"

RUNS=${RUNS:-5}
export WORK=${BENCH_WORK:-$WORK-bench}
mkdir -p "$WORK"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
(cd "$TOP" && git ls-files -z | xargs -0 cp -P --parents -t "$scratch")
T=$scratch/tools
unset EXYNOS_GKI_LOCKED

# time_it CMD...: seconds the command took (it must succeed).
time_it() {
	local s
	s=$EPOCHREALTIME
	"$@" >>"$WORK/bench.log" 2>&1 || die "benchmark step failed: $* (see $WORK/bench.log)"
	awk -v a="$s" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f\n", b - a }'
}
median() { sort -n | awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.2f", m }'; }
report() { printf '%-16s median %7ss over %d runs: %s\n' "$1" "$(tr ' ' '\n' <<<"$2" | median)" "$(wc -w <<<"$2")" "$2"; }

step "preparing $WORK (tree, topics, integration, check)"
"$T/tree.sh" >>"$WORK/bench.log" 2>&1
"$T/topics.sh" >>"$WORK/bench.log" 2>&1
"$T/integration.sh" >>"$WORK/bench.log" 2>&1
"$T/check.sh" >>"$WORK/bench.log" 2>&1 || die "make check fails in $WORK: see $WORK/bench.log"

noop='' onep='' chk='' chk1=''
patch=$(find "$scratch/topics/pinctrl" -name '*.patch' | head -n1)
for i in $(seq 1 "$RUNS"); do
	noop="$noop $(time_it sh -c "'$T/topics.sh' && '$T/integration.sh'")"
	chk="$chk $(time_it "$T/check.sh")"
	# A different message each run: a real change every time.
	sed -i "0,/^Signed-off-by: /s//Benchmark run $i.\n\n&/" "$patch"
	onep="$onep $(time_it sh -c "'$T/topics.sh' && '$T/integration.sh'")"
	chk1="$chk1 $(time_it "$T/check.sh")"
done
echo "exynos-gki benchmark, $(nproc) cores, WORK=$WORK"
report "warm no-op" "$noop"
report "one patch" "$onep"
report "check no-op" "$chk"
report "check one patch" "$chk1"

# The kconfig-matrix gate on integration, run directly (no result cache):
# its own cost, which every topic that changes Kconfig pays in make check.
km=
for i in $(seq 1 "${GATE_RUNS:-3}"); do
	km="$km $(time_it "$scratch/checks/kconfig-matrix.sh" integration)"
done
report "kconfig-matrix" "$km"

# The bisect gate on clk with no results to recall (every commit built and
# booted in both configurations; incremental builds, ccache warm), and its
# boots alone, as the gate counts them.
bs='' boots=''
for i in $(seq 1 "${GATE_RUNS:-3}"); do
	rm -rf "$WORK/bench-results"
	bs="$bs $(time_it env GATE_RESULTS="$WORK/bench-results" "$scratch/checks/bisect.sh" clk)"
	boots="$boots $(tac "$WORK/bench.log" | sed -n 's/^bisect: PASS .* boots \([0-9.]*\)s)$/\1/p' | head -n1)"
done
report "bisect clk" "$bs"
report "  its boots" "$boots"

if [ "${BENCH_EQUIV:-0}" = 1 ]; then
	"$T/equiv.sh" >>"$WORK/bench.log" 2>&1 || die "tools/equiv.sh fails in $WORK: see $WORK/bench.log"
	eq=
	for i in $(seq 1 "${EQUIV_RUNS:-3}"); do
		eq="$eq $(time_it "$T/equiv.sh")"
	done
	report "equiv" "$eq"
	# Its own per-boot times, from the last run (which starts with the
	# first SoC's device tree step): every SoC's, not only the last one's.
	tac "$WORK/bench.log" | sed '/^==> equiv exynos5433: device tree/q' | tac |
		grep -E '^equiv: .* [0-9.]+s' >"$scratch/boots"
	sed 's/^/    /' "$scratch/boots"
	# The budgets of the equivalence suite: the warm suite within 3 min,
	# one QEMU boot (an order's: QEMU alone, no build step) within 1 s.
	boot=$(sed -n 's/^equiv: .* order [0-9]* [a-zA-Z]* \([0-9.]*\)s .*/\1/p' "$scratch/boots" | median)
	within() { awk -v v="$1" -v b="$2" 'BEGIN { print (v <= b) ? "within" : "OVER" }'; }
	printf 'equiv budget: suite median %ss, %s 180 s; QEMU boot median %ss, %s 1 s\n' \
		"$(tr ' ' '\n' <<<"$eq" | median)" "$(within "$(tr ' ' '\n' <<<"$eq" | median)" 180)" \
		"$boot" "$(within "$boot" 1)"
fi

if [ "${BENCH_COLD:-0}" = 1 ]; then
	cold=
	for i in $(seq 1 "${COLD_RUNS:-1}"); do
		rm -rf "$WORK/test-root"
		cold="$cold $(time_it env TEST_ROOT="$WORK/test-root" "$scratch/tests/run")"
	done
	report "cold make test" "$cold"
fi
