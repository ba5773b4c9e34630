#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make bench: timings of the pipeline, median of RUNS runs (default 3), in
# one WORK (BENCH_WORK, default $WORK-bench) so the figures are comparable,
# then the budgets table: each budget with its measured floor and the ratio
# time / floor, measured in the same run.
#   warm no-op make  the main job (tools/pipeline.sh), nothing changed
#   topics no-op     make topics integration, nothing changed
#   check no-op      make check, nothing changed (all results cached)
#   one patch        make topics integration after the last pinctrl commit
#                    was amended with a one-line change to a C file
#   floor            its floor: build integration built in (the touched
#                    object, relink) and boot it once
#   check one patch  make check after that change (pinctrl + integration)
#   kconfig-matrix   that gate alone on integration, uncached (GATE_RUNS runs)
#   bisect clk       that gate alone on clk, uncached (GATE_RUNS runs), and
#                    the part of it spent booting
#   equiv            tools/equiv.sh with no results to recall (only with
#                    BENCH_EQUIV=1), EQUIV_RUNS runs
#   cold make        the main job from an empty WORK with an empty ccache,
#   cold make test   and make test from an empty test root, the same (only
#                    with BENCH_COLD=1, COLD_RUNS runs, default 1: each takes
#                    many minutes); their floor: one cold build per distinct
#                    configuration the run built, a cold build timed apart
# It edits a scratch copy of this checkout, never the checkout itself.
# Its WORK is chosen before lib.sh derives the tree's path from it.
WORK=${BENCH_WORK:-${WORK:-/var/cache/exynos-gki}-bench}
export WORK
. "$(dirname "$0")/lib.sh"

RUNS=${RUNS:-3}
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
# median: of the numbers on stdin, one per line (blank lines ignored).
median() { grep . | sort -n | awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.2f", m }'; }
# med TIMES: the median of a space-separated list.
med() { tr ' ' '\n' <<<"$1" | median; }
# report NAME TIMES: one line, unless nothing was timed (RUNS=0).
report() {
	[ -n "${2// /}" ] || return 0
	printf '%-16s median %7ss over %d runs:%s\n' "$1" "$(med "$2")" "$(wc -w <<<"$2")" "$2"
}

step "preparing $WORK (the main job once)"
"$T/pipeline.sh" >>"$WORK/bench.log" 2>&1 || die "the main job fails in $WORK: see $WORK/bench.log"

# amend_pinctrl N: the last commit of topic/pinctrl gets one more line in a
# C file it touches, exported as a maintainer would (make export). The line
# is new every time: no build or result of an earlier bench run fits it.
amend_pinctrl() {
	local tip f blob tree c idx=$WORK/bench.index
	tip=$(kgit rev-parse topic/pinctrl)
	f=$(kgit diff --name-only "$tip^" "$tip" -- '*.c' | head -n1)
	blob=$(kgit show "$tip:$f" | sed "\$a /* benchmark $EPOCHREALTIME, run $1 */" | kgit hash-object -w --stdin)
	GIT_INDEX_FILE=$idx kgit read-tree "$tip"
	GIT_INDEX_FILE=$idx kgit update-index --cacheinfo "100644,$blob,$f"
	tree=$(GIT_INDEX_FILE=$idx kgit write-tree)
	rm -f "$idx"
	c=$(GIT_AUTHOR_NAME=$(kgit log -1 --format=%an "$tip") GIT_AUTHOR_EMAIL=$(kgit log -1 --format=%ae "$tip") \
		GIT_AUTHOR_DATE=$(kgit log -1 --format=%aD "$tip") GIT_COMMITTER_DATE=$BASE_DATE \
		kgit commit-tree "$tree" -p "$tip^" -F <(kgit log -1 --format=%B "$tip"))
	kgit update-ref refs/heads/topic/pinctrl "$c"
	"$T/export.sh" pinctrl >>"$WORK/bench.log" 2>&1
}

make0='' noop='' chk='' onep='' floor='' chk1=''
for i in $(seq 1 "$RUNS"); do
	make0="$make0 $(time_it "$T/pipeline.sh")"
	noop="$noop $(time_it sh -c "'$T/topics.sh' && '$T/integration.sh'")"
	chk="$chk $(time_it "$T/check.sh")"
done
for i in $(seq 1 "$RUNS"); do
	amend_pinctrl "$i"
	onep="$onep $(time_it sh -c "'$T/topics.sh' && '$T/integration.sh'")"
	floor="$floor $(time_it sh -c "'$T/build.sh' integration builtin && '$T/boot.sh' integration builtin")"
	chk1="$chk1 $(time_it "$T/check.sh")"
done
echo "exynos-gki benchmark, $(nproc) cores, WORK=$WORK"
report "warm no-op make" "$make0"
report "topics no-op" "$noop"
report "check no-op" "$chk"
report "one patch" "$onep"
report "  its floor" "$floor"
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
	boots="$boots $(sed -n 's/^bisect: PASS .* boots \([0-9.]*\)s)$/\1/p' "$WORK/bench.log" | tail -n1)"
done
report "bisect clk" "$bs"
report "  its boots" "$boots"

# budget NAME MEDIAN FLOOR LIMIT: a row of the budgets table. LIMIT is
# seconds, or "Nx" for N times FLOOR; FLOOR is seconds or "-".
budgets=()
budget() {
	local ratio=- verdict
	[ "$3" = - ] || ratio=$(awk -v t="$2" -v f="$3" 'BEGIN { printf "%.1f", t / f }')
	case $4 in
	*x) verdict=$(awk -v r="$ratio" -v l="${4%x}" 'BEGIN { print (r <= l) ? "within" : "OVER" }') ;;
	*) verdict=$(awk -v t="$2" -v l="$4" 'BEGIN { print (t <= l) ? "within" : "OVER" }') ;;
	esac
	budgets+=("$(printf '%-28s %10s %9s %6s %10s  %s' "$1" "$2" "$3" "$ratio" "$([[ $4 == *x ]] && echo "$4 floor" || echo "$4")" "$verdict")")
}
budget "warm no-op make" "$(med "$make0")" - 10
budget "make check after one patch" "$(med "$chk1")" "$(med "$floor")" 3x

if [ "${BENCH_EQUIV:-0}" = 1 ]; then
	eq=
	for i in $(seq 1 "${EQUIV_RUNS:-3}"); do
		rm -rf "$WORK/equiv/results"
		eq="$eq $(time_it "$T/equiv.sh")"
	done
	report "equiv" "$eq"
	# Its own per-boot times, from the last run (which starts with the
	# first SoC's device tree step): every SoC's, not only the last one's.
	awk '/^==> equiv exynos5433: device tree/ { n = NR } { l[NR] = $0 } END { for (i = n; i <= NR; i++) print l[i] }' \
		"$WORK/bench.log" | { grep -E '^equiv: .* [0-9.]+s' || true; } >"$scratch/boots"
	sed 's/^/    /' "$scratch/boots"
	# One QEMU boot: an order's (QEMU alone, no build step).
	budget "equiv suite, warm" "$(med "$eq")" - 180
	budget "one QEMU boot" "$(sed -n 's/^equiv: .* order [0-9]* [a-zA-Z]* \([0-9.]*\)s .*/\1/p' "$scratch/boots" | median)" - 1
fi

# configs DIR: how many distinct kernel configurations were built below DIR.
configs() { find "$1" -path '*/build/*' -name .config -exec sha256sum {} + | cut -d' ' -f1 | sort -u | wc -l; }
if [ "${BENCH_COLD:-0}" = 1 ]; then
	cold_make='' cold_test='' one=''
	for i in $(seq 1 "${COLD_RUNS:-1}"); do
		rm -rf "$WORK-cold" "$WORK/test-root" "$WORK/ccache"
		cold_make="$cold_make $(time_it env WORK="$WORK-cold" CCACHE_DIR="$WORK/ccache" "$T/pipeline.sh")"
		rm -rf "$WORK/ccache"
		cold_test="$cold_test $(time_it env TEST_ROOT="$WORK/test-root" CCACHE_DIR="$WORK/ccache" "$scratch/tests/run")"
		# One cold build: an empty build directory and an empty ccache.
		rm -rf "$WORK/ccache"
		one="$one $(time_it env BUILD_NAME=bench-cold BUILD_KEEP=0 CCACHE_DIR="$WORK/ccache" "$T/build.sh" integration builtin)"
		rm -rf "$WORK/build/bench-cold-builtin"
	done
	report "cold make" "$cold_make"
	report "cold make test" "$cold_test"
	report "one cold build" "$one"
	n_make=$(configs "$WORK-cold") n_test=$(configs "$WORK/test-root")
	budget "cold make ($n_make configs)" "$(med "$cold_make")" "$(awk -v n="$n_make" -v t="$(med "$one")" 'BEGIN { printf "%.1f", n * t }')" 1200
	budget "cold make test ($n_test configs)" "$(med "$cold_test")" "$(awk -v n="$n_test" -v t="$(med "$one")" 'BEGIN { printf "%.1f", n * t }')" 2100
fi

echo
echo "budgets (seconds; floor: the compiling the step cannot avoid, measured in this run)"
printf '%-28s %10s %9s %6s %10s  %s\n' budget median floor ratio limit verdict
printf '%s\n' "${budgets[@]}"
