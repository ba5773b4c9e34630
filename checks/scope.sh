#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# scope gate: each patch of a topic touches only files that the topic's
# entry in MAINTAINERS.local (the entry whose T: line names the topic's
# branch) covers, as the kernel's own scripts/get_maintainer.pl matches
# F: patterns. Otherwise: the patch, the file and the entries that do.
. "$(dirname "$0")/lib.sh"

[ "$TARGET" = integration ] && gate_skip "integration adds only merges and the manifest"
MNT=$TOP/MAINTAINERS.local

# owners FILE: "NAME<tab>BRANCH" of each MAINTAINERS.local entry covering
# FILE. get_maintainer.pl reads the file names of a patch on stdin, so
# FILE need not exist in the checked-out tree.
owners() {
	printf 'diff --git a/%s b/%s\n' "$1" "$1" |
		(cd "$KSRC" && perl scripts/get_maintainer.pl --mpath "$MNT" --sections --no-git --no-git-fallback) |
		awk 'name == "" { name = $0 } /^T:/ { print name "\t" $NF } /^$/ { name = "" }' | sort -u
}

branch=$(topic_branch "$TARGET")
grep -Eq "^T:.*[[:space:]]$branch\$" "$MNT" ||
	gate_fail "MAINTAINERS.local has no entry with 'T: git <url> $branch' and F: lines"
# Read first: a broken series must fail the gate, not end a subshell.
patches=$(topic_patches "$TARGET") || gate_fail "$TOPICS_REL/$TARGET/series cannot be read (above)"
declare -A owned
n=0 files=0 bad=0
while read -r p; do
	[ -n "$p" ] || continue
	n=$((n + 1))
	while read -r f; do
		files=$((files + 1))
		[ -n "${owned[$f]+set}" ] || owned[$f]=$(owners "$f")
		grep -q "	$branch\$" <<<"${owned[$f]}" && continue
		bad=$((bad + 1))
		echo "${p#"$TOP"/}: touches $f, outside topic $TARGET's F: patterns (owned by: $(cut -f1 <<<"${owned[$f]}" | paste -sd';' - | sed 's/^$/no entry/'))"
	done < <(sed -n 's|^diff --git a/\(.*\) b/\(.*\)$|\1\n\2|p' "$p" | sort -u)
done <<<"$patches"
[ "$bad" = 0 ] && gate_pass "$n patches, $files files, all inside topic $TARGET's F: patterns"
gate_fail "$bad of $files files outside topic $TARGET's F: patterns"
