#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# checkpatch gate: scripts/checkpatch.pl --strict on every patch of the
# topic, 0 errors, 0 warnings, 0 checks. The only exceptions are the
# message types listed in topics/<t>/checkpatch.profile, one per line with
# the reason ("TYPE  reason"); a line without a reason is itself an error.
. "$(dirname "$0")/lib.sh"
/usr/bin/python3 -c 'import ply' 2>/dev/null ||
	gate_fail "python3-ply is missing (checkpatch's SPDX check needs it): run make deps"

[ "$TARGET" = integration ] && gate_skip "integration adds only merges and the manifest"
profile=$(topic_dir "$TARGET")/checkpatch.profile
ignore=
if [ -f "$profile" ]; then
	while read -r type reason; do
		case $type in ''|\#*) continue ;; esac
		[ -n "$reason" ] || gate_fail "$profile: '$type' has no reason: say why it is allowed"
		ignore="$ignore${ignore:+,}$type"
	done <"$profile"
fi

scratch=$WORK/build/checkpatch
mkdir -p "$scratch"
# Read first: a broken series must fail the gate, not end a subshell.
patches=$(topic_patches "$TARGET") || gate_fail "$TOPICS_REL/$TARGET/series cannot be read (above)"
n=0 bad=0 errors=0 warnings=0 checks=0
while read -r p; do
	[ -n "$p" ] || continue
	n=$((n + 1))
	# From a scratch directory: --strict caches CamelCase names in a file in
	# the current directory, which must not land in the kernel tree.
	# Debian's python3 first: checkpatch runs scripts/spdxcheck.py on new
	# files' SPDX lines, which needs python3-ply (make deps installs it).
	out=$(cd "$scratch" && PATH=/usr/bin:$PATH GIT_DIR=$KSRC/.git "$KSRC/scripts/checkpatch.pl" --root="$KSRC" \
		--strict --terse --show-types --no-summary ${ignore:+--ignore "$ignore"} "$p" 2>&1) || true
	e=$(grep -c ': ERROR:' <<<"$out" || true)
	w=$(grep -c ': WARNING:' <<<"$out" || true)
	c=$(grep -c ': CHECK:' <<<"$out" || true)
	errors=$((errors + e)) warnings=$((warnings + w)) checks=$((checks + c))
	if [ $((e + w + c)) -gt 0 ]; then
		bad=$((bad + 1))
		echo "${p#"$TOP"/}:"
		sed 's/^/  /' <<<"$out"
	fi
done <<<"$patches"
summary="$n patches, $errors errors, $warnings warnings, $checks checks${ignore:+ (profile ignores $ignore)}"
[ "$bad" = 0 ] && gate_pass "$summary"
gate_fail "$summary"
