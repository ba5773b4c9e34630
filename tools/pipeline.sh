#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make: the main job. Import the tree, build the topics and the
# integration branch, check defconfig equivalence, then build and boot
# integration in QEMU with the drivers built in and as modules, and prove
# the modules equivalent to the built-in base (tools/equiv.sh). Prints one
# line per step and a summary; writes $WORK/summary.json for bots.
#
# The two bases run at the same time: each has its own WORK, tree, lock
# and build directories, and they share only ccache and the cores. What
# one base does on a single core (links, boots, spatch, kconfig, git)
# leaves the other core to the other base's compiles. The 6.1 steps print
# to the terminal; the 6.12 steps print a line as each starts and ends,
# their output is in their logs. SERIAL_BASES=1 runs them one after the
# other, all on the terminal.
. "$(dirname "$0")/lib.sh"

# The gates that run on 6.12, comma-separated for the step's command line:
# all of them.
GATES_6_12=checkpatch,scope,provenance,kconfig,kconfig-matrix,coccicheck,exports,sparse,modpost,bisect,arm32
steps=(
	"tree|$TOP/tools/tree.sh"
	"topics|$TOP/tools/topics.sh"
	"integration|$TOP/tools/integration.sh"
	"check|$TOP/tools/check.sh"
	"boot-builtin|$TOP/tools/boot.sh integration builtin"
	"boot-modular|$TOP/tools/boot.sh integration modular"
	"equiv|$TOP/tools/equiv.sh"
	# Whole boards: the six real boards of 6.1, one pair of kernels.
	"equiv-whole|env EQ_WHOLE=1 $TOP/tools/equiv.sh"
	# The same boards, GKI-like: every Samsung/Exynos tristate a module.
	"equiv-gki|env EQ_WHOLE=1 EQ_GKI=1 $TOP/tools/equiv.sh"
	"exynos4210|$TOP/tools/exynos4210.sh"
	# The second base, Debian's linux-source-6.12 (topics/6.12/).
	"tree-6.12|env BASE=6.12 $TOP/tools/tree.sh"
	"topics-6.12|env BASE=6.12 $TOP/tools/topics.sh"
	"integration-6.12|env BASE=6.12 $TOP/tools/integration.sh"
	"check-6.12|env BASE=6.12 GATES=$GATES_6_12 $TOP/tools/check.sh"
	"boot-6.12|env BASE=6.12 $TOP/tools/boot.sh integration modular"
	"equiv-6.12|env BASE=6.12 $TOP/tools/equiv.sh"
	# Whole boards: the seven real boards of 6.12 (gs101's oriole too).
	"equiv-whole-6.12|env BASE=6.12 EQ_WHOLE=1 $TOP/tools/equiv.sh"
	# No GKI-like step yet: tm2 differs in one order (README, whole boards).
	"exynos4210-6.12|env BASE=6.12 $TOP/tools/exynos4210.sh"
)

# Every environment knob of tools/ and checks/, with its default: what
# --help prints. tests/07-help.t keeps it in step with the code.
knobs() {
	cat <<'EOF_KNOBS'
  WORK=/var/cache/exynos-gki      tree, builds, logs, results, caches (outside the checkout)
  BASE=6.1                        the kernel base: topics/ and WORK for 6.1, topics/<base>/ and WORK/base-<base> for another
  TARBALL=/usr/src/linux-source-$BASE.tar.xz   the Debian kernel source the tree is imported from
  BUILD_NAME=<revision>           build directory name (the gates use "gate": one per config)
  EXTRA_FRAGMENT=                 extra config fragment(s), merged last
  BUILD_KEEP=6                    finished builds kept per configuration, of branches and of bare commits each, to return to or start from (0: none)
  CCACHE_NODEPEND=                non-empty: ccache in its preprocessor mode, not depend mode, for kernel builds
  SERIAL_BASES=                   non-empty: make runs the 6.12 steps after the 6.1 ones instead of beside them
  GATES="checkpatch scope provenance kconfig kconfig-matrix coccicheck exports sparse modpost bisect arm32"
                                  the gates make check runs, in this order
  GATE_RESULTS=$WORK/results      where gates keep results keyed by their inputs
  W1_TOOLCHAINS="clang gcc"       the toolchains of the w1 gate (GATES=w1; not yet in the default list)
  KB_BOARD_FRAGMENT=              the drivers of whole boards (tools/board-config.sh), merged after virt.config, built in <rev>-<config>-board (EQ_WHOLE sets it)
  KB_LLVM=, KB_MAKE_FLAGS=        kernel builds with clang and LLVM binutils of that suffix (-16), and extra make variables (W=1)
  GATE_JSON=                      a file a gate run alone appends its verdict to, as JSON (make check sets it)
  BOOT_TIMEOUT=120 (equiv: 30)    seconds before QEMU is killed
  BOOT_APPEND=                    extra kernel command line of tools/boot.sh
  QEMU_EXTRA=                     extra qemu-system-aarch64 arguments of tools/boot.sh
  EQ_A="v<base> builtin"          the equivalence baseline, "REV CONFIG"
  EQ_B="integration modular"      the series side of the equivalence suite
  EQ_ORDERS=12                    module orders per SoC on a modular series side
  EQ_ORDER=                       the module order of the series' first boot
  EQ_SEED=<from the series kernel>   seed of the sampled module orders (printed, to replay)
  EQ_EXPECTED=boot/equiv/expected-differences   the expected differences
  EQ_WHOLE=                       non-empty: whole boards, the drivers of the boards' devices built and bound too (real boards only)
  EQ_GKI=                         non-empty, with EQ_WHOLE: the series side GKI-like (CONFIG gki: every Samsung/Exynos tristate a module)
  EQ_DTSI_<soc>, EQ_REGS_<soc>, EQ_DTSI_B_<soc>, EQ_REGS_B_<soc>
                                  other SoC descriptions, for both sides or the series only
  E4_A=v<base>, E4_B=integration   make exynos4210: the ARM32 baseline and series revisions
  E4_EXPECTED=boot/equiv/expected-differences   make exynos4210: the expected differences
  FRESH_BUILD=$WORK/build/integration-modular   the booted build make fresh-check reuses
  FRESH_PROBES=<all>              the fresh-check probes to run
  URL=<the tree>                  the repository make request-pull names
  LOCAL_URL=                      non-empty: make request-pull may name a tree on this machine
  SERIES_AUTHOR=<git's user>      make send: "Name <address>" the mail is from and signed off by
  VERSION=3, PREFIXES=RFC         make send: the revision and the subject prefixes
  RUNS=3, GATE_RUNS=3, EQUIV_RUNS=3, COLD_RUNS=1   make bench: runs per figure
  BENCH_WORK=$WORK-bench          make bench's own WORK
  BENCH_EQUIV=0, BENCH_COLD=0     make bench: also time the equivalence suite; a cold make and make test
  TEST_ROOT=/var/tmp/exynos-gki-tests   make test's scratch directory
  TEST_FULL=                      non-empty: make test also runs tests/full/ (make test-full)
EOF_KNOBS
}

if [ "${1:-}" = --help ]; then
	echo "usage: make [TARGET] [VAR=value...]; make runs the main job, tools/pipeline.sh:"
	for s in "${steps[@]}"; do c=${s#*|}; printf '  %-16s %s\n' "${s%%|*}" "${c//"$TOP"\//}"; done
	echo "Other targets: deps tree topics integration build boot equiv exynos4210 check test test-full bench bloat range-diff (BASE=6.12)"
	echo "  export request-pull send resolve (TOPIC=), fresh-check; BRANCH=integration CONFIG=modular SOC= BOARD= TOPIC="
	echo "Environment (default):"
	knobs
	exit 0
fi

take_lock

# run_chain STEPS RESULTS [quiet]: run the steps of file STEPS ("name|cmd"
# lines) one after the other, stopping at the first failure (the rest SKIP);
# append one "name|result|seconds|summary" line per step to RESULTS. quiet:
# each step's output only in its log, and one line on the terminal as
# each starts and ends.
run_chain() {
	local out=$2 quiet=${3:-} s name cmd failed='' r secs start log last
	# The list on fd 7, which the steps do not get: one that reads its
	# stdin must not eat the steps after it.
	while IFS= read -r s <&7; do
		name=${s%%|*} cmd=${s#*|} log=$LOGDIR/step-$name.log
		if [ -n "$failed" ]; then
			printf '%s|SKIP|0|(after %s failed)\n' "$name" "$failed" >>"$out"
			continue
		fi
		start=$(date +%s)
		if [ -n "$quiet" ]; then
			step "$name (beside the 6.1 steps; log: $log)"
			if $cmd >"$log" 2>&1 </dev/null 7<&-; then r=PASS; else r=FAIL; failed=$name; fi
		else
			step "$name"
			# Each step's own output goes to the terminal and to its log.
			if $cmd 2>&1 7<&- | tee "$log"; then r=PASS; else r=FAIL; failed=$name; fi
		fi
		secs=$(($(date +%s) - start)) last=$(tail -n1 "$log")
		printf '%s|%s|%s|%s\n' "$name" "$r" "$secs" "$last" >>"$out"
		[ -z "$quiet" ] || printf '==> %s %s %ss: %s\n' "$name" "$r" "$secs" "$last" >&2
	done 7<"$1"
}

res=$(mktemp -d)
# A stopped run stops both bases and every step they run, at once: the
# chains run in the background and this shell only waits, which a signal
# interrupts (a foreground step would hold the trap until it ended).
trap 'rm -rf "$res"' EXIT
trap 'trap - INT TERM; rm -rf "$res"; kill 0' INT TERM
printf '%s\n' "${steps[@]}" | grep -v '^[a-z0-9-]*-6\.12|' >"$res/steps.6.1"
printf '%s\n' "${steps[@]}" | grep '^[a-z0-9-]*-6\.12|' >"$res/steps.6.12"
if [ -n "${SERIAL_BASES:-}" ]; then
	cat "$res/steps.6.1" "$res/steps.6.12" >"$res/steps"
	run_chain "$res/steps" "$res/6.1" &
	: >"$res/6.12"
else
	run_chain "$res/steps.6.12" "$res/6.12" quiet &
	run_chain "$res/steps.6.1" "$res/6.1" &
fi
wait

results=() json=() failed=
while IFS='|' read -r name r secs last; do
	results+=("$(printf '%-16s %-6s %4ss  %s' "$name" "$r" "$secs" "$last")")
	json+=("{\"step\":$(json_str "$name"),\"result\":\"$r\",\"seconds\":$secs,\"log\":$(json_str "$LOGDIR/step-$name.log"),\"summary\":$(json_str "$last")}")
	[ "$r" = PASS ] || failed=1
done < <(cat "$res/6.1" "$res/6.12")

echo
echo "exynos-gki summary (WORK=$WORK)"
printf '%s\n' "${results[@]}"
(IFS=,; echo "[${json[*]}]") >"$WORK/summary.json"
echo "JSON: $WORK/summary.json"
[ -z "$failed" ]
