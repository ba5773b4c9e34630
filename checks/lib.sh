# SPDX-License-Identifier: GPL-2.0
# Shared by the gates in checks/. Each gate is run as
#   checks/<gate>.sh TARGET
# where TARGET is a topic name or 'integration'. It prints its findings and
# ends with one line: "<gate>: PASS|FAIL|SKIP <what it counted>". Exit
# status 0 is PASS or SKIP, 1 is FAIL.
. "$(dirname "${BASH_SOURCE[0]}")/../tools/lib.sh"

GATE=$(basename "$0" .sh)
TARGET=${1:?usage: checks/$GATE.sh TOPIC|integration}
[ "$TARGET" = integration ] || topic_dir "$TARGET" >/dev/null

# All gates build in one directory per configuration, whatever the
# revision: walking from one commit to the next is then incremental.
export BUILD_NAME=${BUILD_NAME:-gate}

gate_pass() { echo "$GATE: PASS $*"; exit 0; }
gate_fail() { echo "$GATE: FAIL $*"; exit 1; }
gate_skip() { echo "$GATE: SKIP $*"; exit 0; }

# target_range: the commits TARGET adds, as a rev-list range.
target_range() {
	if [ "$TARGET" = integration ]; then
		echo "$(base_tag)..integration"
	else
		echo "$(topic_base_rev "$TARGET")..$(topic_branch "$TARGET")"
	fi
}
