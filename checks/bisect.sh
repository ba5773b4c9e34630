#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# bisect gate: every commit of the topic builds, in the builtin and the
# modular configuration. All commits go through one build directory per
# configuration (incremental, ccache), and the first commit that fails is
# named. For integration: its tip, in both configurations. A commit whose
# tree, configuration inputs and toolchain were proven to build before (in
# this WORK) is not built again.
. "$(dirname "$0")/lib.sh"
. "$TOP/tools/kbuild.sh"

if [ "$TARGET" = integration ]; then revs=$(kgit rev-parse integration)
else revs=$(kgit rev-list --reverse "$(target_range)"); fi
[ -n "$revs" ] || gate_pass "no commits to build"
n=0 known=0
for rev in $revs; do
	n=$((n + 1))
	for cfg in builtin modular; do
		kb_fragments "$rev" "$cfg"
		key=$(result_key "$(kgit rev-parse "$rev^{tree}")" "$cfg" "$(kb_config_stamp "$rev" "${KB_FRAGMENTS[@]}")")
		if result_get "$key" >/dev/null; then
			known=$((known + 1))
			continue
		fi
		if ! "$TOP/tools/build.sh" "$rev" "$cfg"; then
			gate_fail "first failing commit: $(kgit log -1 --format='%h %s' "$rev") ($cfg, log: $LOGDIR/build-$BUILD_NAME-$cfg.log)"
		fi
		echo "builds: $rev $cfg" | result_put "$key"
	done
done
gate_pass "$n commits build in builtin and modular ($known of $((2 * n)) builds known from earlier runs)"
