#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# bisect gate: every commit of the topic builds, in the builtin and the
# modular configuration. All commits go through one build directory per
# configuration (incremental, ccache), and the first commit that fails is
# named. For integration: its tip, in both configurations.
. "$(dirname "$0")/lib.sh"

if [ "$TARGET" = integration ]; then revs=$(kgit rev-parse integration)
else revs=$(kgit rev-list --reverse "$(target_range)"); fi
[ -n "$revs" ] || gate_pass "no commits to build"
n=0
for rev in $revs; do
	n=$((n + 1))
	for cfg in builtin modular; do
		if ! "$TOP/tools/build.sh" "$rev" "$cfg"; then
			gate_fail "first failing commit: $(kgit log -1 --format='%h %s' "$rev") ($cfg, log: $LOGDIR/build-$BUILD_NAME-$cfg.log)"
		fi
	done
done
gate_pass "$n commits build in builtin and modular"
