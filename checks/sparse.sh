#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# sparse gate: 'make C=2' over the source directories the target touches,
# at its tip and at its base, both in the modular configuration. Only
# warnings the target adds count; they are matched without line and column
# numbers, so a warning that merely moved is not new. Gate: 0 new.
. "$(dirname "$0")/lib.sh"
. "$TOP/tools/kbuild.sh"
need sparse sparse

if [ "$TARGET" = integration ]; then rev=integration; else rev=$(topic_branch "$TARGET"); fi
range=$(target_range)
base=${range%%..*}
dirs=$(kgit diff --name-only "$range" -- 'drivers/*' 'kernel/*' | xargs -r -n1 dirname | sort -u | tr '\n' ' ')
[ -n "$dirs" ] || gate_pass "no source directory touched"

# sparse_warnings REV: the normalised sparse warnings of $dirs at REV.
sparse_warnings() {
	local r=$1 o out
	"$TOP/tools/build.sh" "$r" modular >&2 || { echo "build of $r failed" >&2; return 1; }
	o=$(kb_outdir "$r" modular)
	out=$LOGDIR/sparse-$(kb_name "$r").log
	# shellcheck disable=SC2086 # one make target per directory
	# shellcheck disable=SC2046 # one target per directory
	kb_make "$o" C=2 CHECK=sparse $(for d in $dirs; do echo "$d/"; done) >"$out" 2>&1 ||
		{ echo "make C=2 failed at $r, see $out" >&2; return 1; }
	sed -n -E 's#^(\.\./|'"$KSRC"'/)?([^:]+):[0-9]+:[0-9]+: (warning|error): (.*)#\2: \3: \4#p' "$out" | sort
}

# The base's warnings are the same for every target: computed once.
kb_fragments "$base" modular
base_key=$(result_key "$(kgit rev-parse "$base")" "$dirs" "$(kb_config_stamp "$base" "${KB_FRAGMENTS[@]}")" "$(sparse --version)")
tmp=$WORK/sparse.$$
sparse_warnings "$rev" >"$tmp.tip" || gate_fail "sparse could not run at $rev (above)"
if ! result_get "$base_key" >"$tmp.base"; then
	sparse_warnings "$base" >"$tmp.base" || gate_fail "sparse could not run at the base (above)"
	result_put "$base_key" <"$tmp.base"
fi
new=$(new_findings "$tmp.tip" "$tmp.base")
nnew=$(grep -c . <<<"$new" || true)
[ -n "$new" ] && echo "$new" | sed 's/^/new: /'
summary="$nnew new warnings ($(grep -c . "$tmp.tip" || true) at tip, $(grep -c . "$tmp.base" || true) at base) in $dirs"
rm -f "$tmp.tip" "$tmp.base"
[ "$nnew" = 0 ] && gate_pass "$summary"
gate_fail "$summary"
