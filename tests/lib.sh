# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Test helpers: TAP output, a scratch copy of this checkout, and scratch
# WORK directories cloned (hard links) from one kernel import per run.
set -uo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TEST_ROOT=${TEST_ROOT:-/var/tmp/exynos-gki-tests}
mkdir -p "$TEST_ROOT"
export TZ=UTC LC_ALL=C
unset EXYNOS_GKI_LOCKED

_n=0 _failed=0
ok()      { _n=$((_n + 1)); echo "ok $_n - $*"; }
not_ok()  { _n=$((_n + 1)); _failed=$((_failed + 1)); echo "not ok $_n - $*"; }
diag()    { sed 's/^/# /'; }
done_testing() { echo "1..$_n"; [ "$_failed" = 0 ]; }

# check DESCRIPTION COMMAND...: one TAP line from a command's status. A
# failure's diagnostics also go to $TEST_ROOT/failures.log, which tests/run
# prints after prove's summary (prove hides them unless verbose). Tests run
# two at a time: each keeps its own check log.
check() {
	local d=$1 log=$TEST_ROOT/check-${0##*/}.out
	shift
	if "$@" >"$log"; then
		cat "$log"
		ok "$d"
	else
		cat "$log"
		not_ok "$d"
		{ echo "${0#"$REPO/"}: not ok $_n - $d"; head -n 60 "$log"; } >>"$TEST_ROOT/failures.log"
	fi
}

# run_tool CMD...: run, keeping status in $rc and output in $out.
run_tool() {
	out=$("$@" 2>&1)
	rc=$?
	return 0
}
has() { grep -qF -- "$1" <<<"$out" || { echo "# expected output to contain: $1"; diag <<<"$out"; return 1; }; }
failed() { [ "$rc" != 0 ] || { echo "# expected a non-zero exit"; diag <<<"$out"; return 1; }; }
passed() { [ "$rc" = 0 ] || { echo "# expected success, got exit $rc"; diag <<<"$out"; return 1; }; }

# use_work NAME TEST [KSRC]: WORK=$TEST_ROOT/NAME as TEST left it (tree
# and builds) for a later test; skips the test when TEST has not run.
use_work() {
	export WORK=$TEST_ROOT/$1
	KSRC=${3:-$WORK/linux}
	if [ ! -d "$KSRC/.git" ]; then
		echo "1..0 # SKIP no $KSRC: $2 prepares it"
		exit 0
	fi
}
use_boot_work() { use_work boot tests/70-boot.t; }

# Helpers of the equivalence tests. rebuild_integration: the topics and
# integration again, after a seed. in_diff ERE [SOC]: the kept diff of the
# last run on SOC (exynos5433) has a line matching ERE. seed_regs and
# seed_dtsi SED: a copy of the Exynos5433 description edited by SED.
# On a failure, what each changed path of the tree now is, and the free
# space, go first in $out: a dirty tree here would be another test's leak.
rebuild_integration() {
	run_tool sh -c "'$T/topics.sh' && '$T/integration.sh'"
	[ "$rc" != 0 ] || return 0
	out="$( (cd "$KSRC" && git status --porcelain | head -n 5 | cut -c4- | xargs -r ls -ld --time-style=full-iso
		git -C "$KSRC" diff | head -n 12; df -h "$TEST_ROOT") 2>&1)
$out"
}
in_diff() {
	grep -qE -- "$1" "$WORK/logs/equiv-${2:-exynos5433}.diff" ||
		{ echo "# no line matching $1 in the ${2:-exynos5433} diff"; return 1; }
}
seed_regs() { sed "$1" "$SCRATCH/boot/soc/exynos5433.regs" >"$TEST_ROOT/fault.regs"; }
seed_dtsi() { sed "$1" "$SCRATCH/boot/soc/exynos5433.dtsi" >"$TEST_ROOT/fault.dtsi"; }
# The module order of the late-probe cases: the clkout module last.
clkout_last=clk-exynos5433,clk-exynos7,clk-exynos850,clk-exynos7885,clk-exynosautov9,clk-fsd,exynos_chipid,rtc-s3c,clk-exynos-clkout
# defer_case: the deferral case's inputs. CMU_FSYS is assigned the PMU's
# clkout, whose module is loaded last; fw_devlink does not follow
# assigned-clocks, so only the CMU probe can defer for it. The parents
# assigned are those the registers already select: applying them changes
# nothing, and the series must match the base.
defer_case() {
	seed_dtsi '/cmu_fsys: clock-controller@6e0000 {/s/{/{ assigned-clocks = <\&cmu_fsys CLK_MOUT_SCLK_UFS_MPHY_USER>, <\&pmu_system_controller 0>; assigned-clock-parents = <\&xxti>, <\&xxti>;/'
	mv "$TEST_ROOT/fault.dtsi" "$TEST_ROOT/defer.dtsi"
	{ cat "$SCRATCH/boot/soc/exynos5433.regs"; printf 'block pmu 0x5f5c0000\n0xa00 0x1001 # CLKOUT: parent 16 (oscclk), gated\n'; } >"$TEST_ROOT/defer.regs"
	export EQ_ORDER=$clkout_last EQ_REGS_exynos5433=$TEST_ROOT/defer.regs EQ_DTSI_B_exynos5433=$TEST_ROOT/defer.dtsi
}

# A copy of this checkout that a test may edit (topics, series, rerere),
# committed so that 'git status' shows what the tools changed.
scratch_checkout() {
	SCRATCH=$(mktemp -d "$TEST_ROOT/checkout.XXXXXX")
	trap 'rm -rf "$SCRATCH"' EXIT
	(cd "$REPO" && git ls-files -z --cached --others --exclude-standard |
		xargs -0 cp -P --parents -t "$SCRATCH")
	git -C "$SCRATCH" init -q
	git -C "$SCRATCH" add -A
	git -C "$SCRATCH" -c user.name=test -c user.email=test@invalid commit -q -m scratch
	T=$SCRATCH/tools
}

# One import of the tarball per test run; later WORKs are hard-link
# clones. git replaces files by rename, so the pristine copy stays intact;
# a test that edits a tree file must do the same (sed -i, not >>).
pristine_work() {
	local p=$TEST_ROOT/pristine
	# A no-op in seconds when the import exists and the tarball is the same.
	# Tests run two at a time: the second waits for the first's import.
	# The copies share the import's inodes (cp -al), whose ctime changes
	# whenever another copy links or replaces a file: git must not take
	# that for a change of the file, or 'git am' in one test fails with
	# "does not match index" while another test checks out.
	mkdir -p "$p"
	flock "$p.lock" sh -c 'WORK=$1 "$2/tools/tree.sh" && git -C "$1/linux" config core.trustctime false' - "$p" "$REPO" \
		>/dev/null 2>&1 || return 1
	echo "$p"
}

# clone_pristine DIR: a tree at DIR that shares the import's files (hard
# links), except the tools' state and the symlinks. A symlink's mtime,
# changed through another tree's link while git status runs here, makes
# status list it as modified without reading it (regular files it
# re-reads); a symlink of its own in each tree keeps them apart.
clone_pristine() {
	local p f
	p=$(pristine_work) || { echo "Bail out! cannot import the kernel tree"; exit 1; }
	cp -al "$p/linux" "$1"
	rm -rf "$1/.git/exynos-gki"
	cp -a "$p/linux/.git/exynos-gki" "$1/.git/"
	# A new link, not a copy: cp takes the two links of one inode for the
	# same file and does nothing.
	git -C "$1" ls-files -s | awk '$1 == "120000" { print $4 }' | while IFS= read -r f; do
		ln -sfn "$(readlink "$p/linux/$f")" "$1/$f" || exit
	done || { echo "Bail out! cannot give $1 symlinks of its own"; exit 1; }
}

# fresh_work NAME: a scratch WORK holding an imported, untouched tree.
fresh_work() {
	local w=$TEST_ROOT/$1
	rm -rf "$w"
	mkdir -p "$w"
	clone_pristine "$w/linux"
	export WORK=$w
	KSRC=$w/linux
}

# hostile_home: a HOME whose ~/.gitconfig changes what commit, am,
# format-patch and merge do; the tools must not see it (the same SHAs).
hostile_home() {
	local h=$TEST_ROOT/hostile-home
	mkdir -p "$h"
	cat >"$h/.gitconfig" <<'CFG'
[user]
	name = Someone Else
	email = else@invalid
[commit]
	gpgsign = true
[core]
	autocrlf = true
	abbrev = 20
[am]
	threeWay = true
	keepcr = true
[format]
	signature = hostile
	subjectPrefix = HOSTILE
	numbered = true
[diff]
	noprefix = true
[merge]
	conflictStyle = diff3
[init]
	defaultBranch = hostile
CFG
	echo "$h"
}

# all_refs TREE: every branch and tag of the kernel tree TREE with its SHA.
all_refs() { git -C "$1" for-each-ref --format='%(refname) %(objectname)' refs/heads refs/tags; }

kgit() { git -C "$KSRC" "$@"; }
# tree_clean: the tree holds nothing but what is committed, as the tools
# judge it (tools/lib.sh tree_changes).
tree_clean() {
	local s
	s=$(bash -c '. "$1/tools/lib.sh" && KSRC=$2 && tree_changes' - "$REPO" "$KSRC") ||
		{ echo "# git status failed in $KSRC"; return 1; }
	[ -z "$s" ] || { diag <<<"$s"; return 1; }
}

# scratch_topics: the scratch checkout's topics folder of BASE.
scratch_topics() { if [ "${BASE:-6.1}" = 6.1 ]; then echo "$SCRATCH/topics"; else echo "$SCRATCH/topics/$BASE"; fi; }

# seed_patch TOPIC NAME SUBJECT SIGNOFF DIFF: add a patch with a seeded
# defect at the end of a topic's series in the scratch checkout. SIGNOFF
# is 'yes' or 'no'. unseed TOPIC NAME takes it out again.
seed_patch() {
	local t=$1 name=$2 subject=$3 sob=$4 diff=$5
	{
		printf 'From: Test Author <test@invalid>\nDate: Tue, 1 Dec 2026 00:00:00 +0000\n'
		printf 'Subject: [PATCH] %s\n\n' "$subject"
		printf 'This patch is a seeded defect for a self-test of the gates; it\nmust never pass them.\n'
		[ "$sob" = yes ] && printf '\nSigned-off-by: Test Author <test@invalid>\n'
		printf -- '---\n%s\n' "$diff"
	} >"$(scratch_topics)/$t/$name"
	echo "$name" >>"$(scratch_topics)/$t/series"
}
unseed() {
	rm -f "$(scratch_topics)/$1/$2"
	sed -i "/^$2\$/d" "$(scratch_topics)/$1/series"
}

# new_file_diff PATH LINE...: a diff that creates PATH with these lines.
new_file_diff() {
	local path=$1
	shift
	printf 'diff --git a/%s b/%s\nnew file mode 100644\n--- /dev/null\n+++ b/%s\n@@ -0,0 +1,%d @@\n' \
		"$path" "$path" "$path" $#
	printf '+%s\n' "$@"
}

# seed_commit TOPIC NAME SUBJECT SCRIPT: write the seeded defect as a real
# commit on top of the topic branch (SCRIPT edits files in $KSRC, by
# rename), export it into the scratch topic as patch NAME, and put the
# tree back as it was.
seed_commit() {
	local t=$1 name=$2 subject=$3 script=$4 head
	# On top of what the series holds now, earlier seeded patches included.
	"$T/topics.sh" "$t" >/dev/null 2>&1
	head=$(kgit rev-parse HEAD)
	kgit checkout -q --detach "topic/$t"
	(cd "$KSRC" && eval "$script")
	kgit -c user.name="Test Author" -c user.email=test@invalid commit -q -a \
		-m "$subject" -m "A seeded defect for a self-test of the gates; it must never pass them." \
		-m "Signed-off-by: Test Author <test@invalid>"
	kgit format-patch -q -1 -N --no-signature --zero-commit --stdout >"$(scratch_topics)/$t/$name"
	echo "$name" >>"$(scratch_topics)/$t/series"
	kgit checkout -q --detach "$head"
}
