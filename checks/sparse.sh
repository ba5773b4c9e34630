#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# sparse gate: sparse on the C files the target touches under drivers/ and
# kernel/, and on the C files beside a header it touches there (the
# header's users), at its tip and at its base, both in the modular
# configuration: make C=2 checks every file of their directories, whatever
# the build directory recompiles, so both sides see the same files. Only
# warnings the target adds count; they are matched without line and column
# numbers, so a warning that merely moved is not new. Gate: 0 new.
. "$(dirname "$0")/lib.sh"
. "$TOP/tools/kbuild.sh"
need sparse sparse
take_lock
require_clean_tree

if [ "$TARGET" = integration ]; then rev=integration; else rev=$(topic_branch "$TARGET"); fi
range=$(target_range)
base=${range%%..*}
touched=$(kgit diff --name-only --diff-filter=d "$range" -- 'drivers/*.[ch]' 'kernel/*.[ch]')
files=$( {
	grep '\.c$' <<<"$touched" || true
	for h in $(grep '\.h$' <<<"$touched" || true); do
		kgit ls-tree --name-only "$rev" "$(dirname "$h")/" | grep '\.c$' || true
	done
} | sort -u)
[ -n "$files" ] || gate_pass "no C file under drivers/ or kernel/ touched"
nfiles=$(wc -l <<<"$files")

# sparse_warnings REV: the normalised sparse warnings of $files at REV
# (those of them that exist there).
sparse_warnings() {
	local r=$1 o out f there=()
	"$TOP/tools/build.sh" "$r" modular >&2 || { echo "build of $r failed" >&2; return 1; }
	# make C=2 reads the sources: $r's (build.sh checks out only to build).
	begin_tree_op "sparse gate: checkout $r"
	kgit checkout -q --detach "$r"
	end_tree_op
	o=$(kb_outdir "$r" modular)
	out=$LOGDIR/sparse-$(kb_name "$r").log
	for f in $files; do [ ! -f "$KSRC/$f" ] || there+=("$f"); done
	[ ${#there[@]} -gt 0 ] || return 0
	# shellcheck disable=SC2046 # one make target per directory
	kb_make "$o" C=2 CHECK=sparse $(printf '%s\n' "${there[@]}" | xargs -n1 dirname | sort -u | sed 's|$|/|') >"$out" 2>&1 ||
		{ echo "make C=2 failed at $r, see $out" >&2; return 1; }
	sed -n -E 's#^(\.\./|'"$KSRC"'/)?([^:]+):[0-9]+:[0-9]+: (warning|error): (.*)#\2: \3: \4#p' "$out" | sort
}

# The base's warnings are the same for every target: computed once.
kb_fragments "$base" modular
base_key=$(result_key C=2 "$(kgit rev-parse "$base")" "$files" "$(kb_config_stamp "$base" "${KB_FRAGMENTS[@]}")" "$(sparse --version)")
tmp=$WORK/sparse.$$
sparse_warnings "$rev" >"$tmp.tip" || gate_fail "sparse could not run at $rev (above)"
if ! result_get "$base_key" >"$tmp.base"; then
	sparse_warnings "$base" >"$tmp.base" || gate_fail "sparse could not run at the base (above)"
	result_put "$base_key" <"$tmp.base"
fi
new=$(new_findings "$tmp.tip" "$tmp.base")
nnew=$(grep -c . <<<"$new" || true)
[ -n "$new" ] && echo "$new" | sed 's/^/new: /'
summary="$nnew new warnings ($(grep -c . "$tmp.tip" || true) at tip, $(grep -c . "$tmp.base" || true) at base) in $nfiles C files"
rm -f "$tmp.tip" "$tmp.base"
[ "$nnew" = 0 ] && gate_pass "$summary"
gate_fail "$summary"
