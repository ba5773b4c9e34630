#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# scope gate: each patch of a topic touches only files matched by the F:
# patterns of that topic's entry in MAINTAINERS.local (the entry whose T:
# line names branch topic/<t>). Otherwise: the patch, the file and the
# entry that does own it.
. "$(dirname "$0")/lib.sh"

[ "$TARGET" = integration ] && gate_skip "integration adds only merges and the manifest"
MNT=$TOP/MAINTAINERS.local

# entry_patterns BRANCH: the F: patterns of the entry that names BRANCH.
entry_patterns() {
	awk -v b="$1" '
		/^[A-Z0-9]/ && !/^[A-Z]:/ { name = $0 }
		/^$/ { if (hit) exit; f = "" }
		/^T:/ && $4 == b { hit = 1 }
		/^F:/ { f = f $2 "\n" }
		END { if (hit) printf "%s", f }' "$MNT"
}

# matches FILE PATTERN: MAINTAINERS F: semantics (dir/ covers all below).
# shellcheck disable=SC2254 # the F: pattern is a glob
matches() {
	case $2 in
	*/) [ "${1#"$2"}" != "$1" ] ;;
	*) case $1 in $2) return 0 ;; *) return 1 ;; esac ;;
	esac
}

# owner FILE: the MAINTAINERS.local entry names whose F: match FILE.
owner() {
	awk '/^[A-Z0-9]/ && !/^[A-Z]:/ { name = $0 } /^F:/ { print name "\t" $2 }' "$MNT" |
		while IFS=$'\t' read -r name pat; do
			if matches "$1" "$pat"; then echo "$name"; fi
		done | sort -u | paste -sd';' -
}

branch=$(topic_branch "$TARGET")
patterns=$(entry_patterns "$branch")
[ -n "$patterns" ] || gate_fail "MAINTAINERS.local has no entry with 'T: git <url> $branch' and F: lines"
# Read first: a broken series must fail the gate, not end a subshell.
patches=$(topic_patches "$TARGET") || gate_fail "topics/$TARGET/series cannot be read (above)"
n=0 files=0 bad=0
while read -r p; do
	[ -n "$p" ] || continue
	n=$((n + 1))
	while read -r f; do
		files=$((files + 1))
		ok=
		while read -r pat; do matches "$f" "$pat" && ok=1 && break; done <<<"$patterns"
		[ -n "$ok" ] && continue
		bad=$((bad + 1))
		o=$(owner "$f")
		echo "${p#"$TOP"/}: touches $f, outside topic $TARGET's F: patterns (owned by: ${o:-no entry})"
	done < <(sed -n 's|^diff --git a/\(.*\) b/\(.*\)$|\1\n\2|p' "$p" | sort -u)
done <<<"$patches"
[ "$bad" = 0 ] && gate_pass "$n patches, $files files, all inside topic $TARGET's F: patterns"
gate_fail "$bad of $files files outside topic $TARGET's F: patterns"
