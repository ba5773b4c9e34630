# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Shared by the gates in checks/. Each gate is run as
#   checks/<gate>.sh TARGET
# where TARGET is a topic name or 'integration'. It prints its findings and
# ends with one line: "<gate>: PASS|FAIL|SKIP <what it counted>", which it
# also appends as JSON to $GATE_JSON when that is set (make check reads
# that and the exit status). Exit status 0 is PASS or SKIP, 1 is FAIL.
. "$(dirname "${BASH_SOURCE[0]}")/../tools/lib.sh"

GATE=$(basename "$0" .sh)
TARGET=${1:?usage: checks/$GATE.sh TOPIC|integration}
[ "$TARGET" = integration ] || topic_dir "$TARGET" >/dev/null

# All gates build in one directory per configuration, whatever the
# revision: walking from one commit to the next is then incremental.
export BUILD_NAME=${BUILD_NAME:-gate}

# gate_verdict RESULT SUMMARY...: report and end the gate. A verdict given
# inside a subshell would end only the subshell, and the gate could go on
# to pass: it is reported as a failure of its own, which make check sees
# beside the later verdict.
gate_verdict() {
	local r=$1
	shift
	if [ "$BASHPID" != "$$" ]; then
		set -- "verdict $r given inside a subshell: $*"
		r=FAIL
	fi
	echo "$GATE: $r $*"
	[ -z "${GATE_JSON:-}" ] || printf '{"gate":"%s","target":"%s","result":"%s","summary":%s}\n' \
		"$GATE" "$TARGET" "$r" "$(json_str "$*")" >>"$GATE_JSON"
	[ "$r" = FAIL ] && exit 1
	exit 0
}
gate_pass() { gate_verdict PASS "$@"; }
gate_fail() { gate_verdict FAIL "$@"; }
gate_skip() { gate_verdict SKIP "$@"; }

# target_range: the commits TARGET adds, as a rev-list range.
target_range() {
	if [ "$TARGET" = integration ]; then
		echo "$(base_tag)..integration"
	else
		echo "$(topic_base_rev "$TARGET")..$(topic_branch "$TARGET")"
	fi
}

# skip_unless_built: end the gate with SKIP when the target changes no file
# a kernel build reads (no commits, or only documentation and semantic
# patches): the kernel it would build and boot is the base's.
skip_unless_built() {
	local range
	range=$(target_range)
	kgit diff --name-only "${range%%..*}" "${range#*..}" | grep -qvE '^(Documentation|scripts/coccinelle)/' ||
		gate_skip "$TARGET changes no file a kernel build reads"
}

# commit_by_subject TOPIC SUBJECT: the topic's commit with exactly that
# subject (for topic.conf keys that name a generated commit).
commit_by_subject() {
	local h
	for h in $(kgit log --format=%H --fixed-strings --grep="$2" "$(topic_base_rev "$1")..$(topic_branch "$1")"); do
		[ "$(kgit log -1 --format=%s "$h")" = "$2" ] && { echo "$h"; return 0; }
	done
	return 1
}

# commits_by_subject TOPIC PATTERN: the topic's commits, oldest first,
# whose subject matches the shell PATTERN ("*" for the part that names the
# driver, when a generated change is split per driver), one per line.
commits_by_subject() {
	local h s
	kgit log --reverse --format='%H %s' "$(topic_base_rev "$1")..$(topic_branch "$1")" |
		while read -r h s; do
			# shellcheck disable=SC2053 # PATTERN is a glob on purpose
			[[ $s == $2 ]] && echo "$h"
		done
}

# is_output_of FROM TO DIFF: the change from commit FROM to commit TO is
# the diff in file DIFF (git diff or spatch output, whose "diff -u -p a/F
# b/F" heads are read as git's "diff --git": patch-id hashes the file
# names), whitespace and line numbers aside.
is_output_of() {
	local want have
	want=$(sed 's|^diff -u -p a/\(.*\) b/.*|diff --git a/\1 b/\1|' "$3" | kgit patch-id --stable | cut -d' ' -f1)
	have=$(kgit diff "$1" "$2" | kgit patch-id --stable | cut -d' ' -f1)
	[ -n "$want" ] && [ "$want" = "$have" ]
}

# Results shared by the gates of one WORK, stored under the hash of what
# they were computed from: a result is reused only for the same inputs,
# and going back to an earlier state finds the earlier result again.
RESULTS=${GATE_RESULTS:-$WORK/results}
# result_key WORD...: the key of a result computed from the WORDs (the
# caller names every input: revisions, config stamps), from the versions
# of the toolchain packages, and from the code of this gate and of the
# tools it uses.
result_key() {
	{
		printf '%s\n' "$@"
		tool_versions
		cat "$TOP/checks/$GATE".* "$TOP/checks/lib.sh" "$TOP/tools/lib.sh" "$TOP/tools/kbuild.sh" "$TOP/tools/build.sh"
	} | sha256sum | cut -c1-40
}
result_get() { [ -f "$RESULTS/$1" ] && cat "$RESULTS/$1"; }
result_put() {
	mkdir -p "$RESULTS"
	cat >"$RESULTS/$1.tmp.$$" && mv "$RESULTS/$1.tmp.$$" "$RESULTS/$1"
}

# new_findings TIP BASE: the lines of file TIP that file BASE lacks,
# counted, so a finding that occurs more often at the tip is new as well.
new_findings() {
	comm -23 <(sort "$1" | uniq -c | sort) <(sort "$2" | uniq -c | sort) | sed -E 's/^ *[0-9]+ //' | grep -v '^$' || true
}
