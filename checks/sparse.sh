#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# sparse gate: sparse on the C files of every directory under drivers/
# and kernel/ in which the target touches a C file or a header (the
# header's users are usually beside it), at its tip and at its base, both
# in the modular configuration: make C=2 checks each of those files that
# the configuration compiles, whatever the build directory recompiles, so
# both sides see the same files. Only warnings the target adds count; they
# are matched without line and column numbers, so a warning that merely
# moved is not new. Gate: 0 new.
. "$(dirname "$0")/lib.sh"
. "$TOP/tools/kbuild.sh"
need sparse sparse
sparse_version=$(sparse --version)
take_lock
require_clean_tree

if [ "$TARGET" = integration ]; then rev=integration; else rev=$(topic_branch "$TARGET"); fi
range=$(target_range)
base=${range%%..*}
dirs=$(kgit diff --name-only --diff-filter=d "$range" -- 'drivers/*.[ch]' 'kernel/*.[ch]' | xargs -r -n1 dirname | sort -u)
[ -n "$dirs" ] || gate_pass "no C file or header under drivers/ or kernel/ touched"
files=$(for d in $dirs; do kgit ls-tree --name-only "$rev" "$d/"; kgit ls-tree --name-only "$base" "$d/"; done | grep '\.c$' | sort -u || true)
[ -n "$files" ] || gate_pass "no C file in the directories touched under drivers/ or kernel/"

# file_key O F CONFIG: the key of F's warnings in build directory O of
# configuration stamp CONFIG, from what sparse reads for F as kbuild
# recorded it beside F's object when it compiled it (the command line and
# every header read). Empty when O does not compile F: make C=2 would not
# check it either.
file_key() {
	local o=$1 f=$2 cmd inputs
	cmd=$o/$(dirname "$f")/.$(basename "$f" .c).o.cmd
	[ -f "$cmd" ] || return 0
	inputs=$( {
		sed -n 1p "$cmd"
		cat -- "$KSRC/$f"
		awk '/^deps_/ { d = 1; next } d && /^$/ { exit } d { sub(/^ +/, ""); sub(/ *\\$/, ""); if ($0 !~ /^\$\(wildcard/) print }' "$cmd" |
			(cd "$o" && xargs -r cat -- 2>&1)
	} | sha256sum)
	result_key sparse-file "$f" "$3" "$sparse_version" "$inputs"
}

# sparse_warnings REV: the normalised sparse warnings of $files at REV
# (those of them that exist there and that the configuration compiles).
# Each file's come from the cache when what sparse reads for it is
# unchanged; the others are checked in one make, one file after the
# other, so that each warning follows the CHECK line of its file.
sparse_warnings() {
	local r=$1 o out f key cstamp keys=() todo=() objs=()
	"$TOP/tools/build.sh" "$r" modular >&2 || { echo "build of $r failed" >&2; return 1; }
	# make C=2 reads the sources: $r's (build.sh checks out only to build).
	begin_tree_op "sparse gate: checkout $r"
	kgit checkout -q --detach "$r"
	end_tree_op
	o=$(kb_outdir "$r" modular)
	out=$LOGDIR/sparse-$(kb_name "$r").log
	kb_fragments "$r" modular
	cstamp=$(kb_config_stamp "$r" "${KB_FRAGMENTS[@]}")
	: >"$out"
	for f in $files; do
		[ -f "$KSRC/$f" ] || continue
		key=$(file_key "$o" "$f" "$cstamp")
		[ -n "$key" ] || continue
		keys+=("$key")
		[ -f "$RESULTS/$key" ] || { todo+=("$key:$f"); objs+=("${f%.c}.o"); }
	done
	if [ ${#todo[@]} -gt 0 ]; then
		kb_make "$o" -j1 C=2 CHECK=sparse "${objs[@]}" >"$out" 2>&1 ||
			{ echo "make C=2 failed at $r, see $out" >&2; return 1; }
		for f in "${todo[@]}"; do
			# A file make did not check must not pass as clean.
			awk -v f="${f#*:}" '$1 == "CHECK" { p = $2; on = (p == f || substr(p, length(p) - length(f)) == "/" f); seen += on; next }
				on { print } END { exit !seen }' "$out" >"$out.one" ||
				{ echo "make C=2 did not check ${f#*:} at $r, see $out" >&2; return 1; }
			sed -n -E 's#^(\.\./|'"$KSRC"'/)?([^:]+):[0-9]+:[0-9]+: (warning|error): (.*)#\2: \3: \4#p' "$out.one" |
				result_put "${f%%:*}"
		done
		rm -f "$out.one"
	fi
	checked=${#keys[@]}
	for key in "${keys[@]}"; do result_get "$key"; done | sort
}

# The base's warnings are the same for every target: computed once.
kb_fragments "$base" modular
base_key=$(result_key C=2 "$(kgit rev-parse "$base")" "$files" "$(kb_config_stamp "$base" "${KB_FRAGMENTS[@]}")" "$sparse_version")
tmp=$WORK/sparse.$$
sparse_warnings "$rev" >"$tmp.tip" || gate_fail "sparse could not run at $rev (above)"
nfiles=$checked
if ! result_get "$base_key" >"$tmp.base"; then
	sparse_warnings "$base" >"$tmp.base" || gate_fail "sparse could not run at the base (above)"
	result_put "$base_key" <"$tmp.base"
fi
new=$(new_findings "$tmp.tip" "$tmp.base")
nnew=$(grep -c . <<<"$new" || true)
[ -n "$new" ] && echo "$new" | sed 's/^/new: /'
summary="$nnew new warnings ($(grep -c . "$tmp.tip" || true) at tip, $(grep -c . "$tmp.base" || true) at base) in $nfiles C files of $(wc -w <<<"$dirs") directories"
rm -f "$tmp.tip" "$tmp.base"
[ "$nnew" = 0 ] && gate_pass "$summary"
gate_fail "$summary"
