#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# coccicheck gate, through the kernel's own 'make coccicheck':
#  1. The topic's rule (topic.conf 'cocci') in MODE=report and MODE=patch
#     over the topic's F: directories: nothing at the topic tip (the topic
#     is a fixed point of its rule) and findings at the base (the rule has
#     teeth). A topic with no commits has tip = base: then both must be
#     clean and the teeth are shown by the self-tests instead.
#  2. The kernel's scripts/coccinelle collection on the C files the topic
#     touches: no finding that the base does not have.
. "$(dirname "$0")/lib.sh"
need spatch coccinelle
take_lock
require_clean_tree

base=$(base_tag)
if [ "$TARGET" = integration ]; then
	rev=integration rules=$(for t in $(topic_list); do conf_get "$TOP/topics/$t/topic.conf" cocci; done)
else
	rev=$(topic_branch "$TARGET") rules=$(conf_get "$(topic_dir "$TARGET")/topic.conf" cocci)
fi
o=$WORK/build/coccicheck
mkdir -p "$o"

# The F: directories of the topics whose rules run (files count by dir).
dirs_of() {
	awk -v b="topic/$1" '/^$/ { if (hit) exit; f = "" } /^T:/ && $4 == b { hit = 1 } /^F:/ { f = f $2 "\n" }
		END { if (hit) printf "%s", f }' "$TOP/MAINTAINERS.local" |
		grep -v '^arch/' | sed -e 's|/$||' -e '/\.[ch]$/s|/[^/]*$||' | sort -u
}

# coccicheck REV RULE MODE: run it, print the findings (report) or diff.
coccicheck() {
	local r=$1 rule=$2 mode=$3 d
	begin_tree_op "coccicheck: checkout $r"
	kgit checkout -q --detach "$r"
	for d in $dirs; do
		make -s -C "$KSRC" O="$o" ARCH=arm64 coccicheck COCCI="$TOP/$rule" MODE="$mode" M="$d" 2>&1 |
			grep -v -e '^Please check for false positives' -e '^When using "patch" mode' -e '^$' \
				-e '^/usr/bin/spatch ' -e '^coccicheck failed' || true
	done
	end_tree_op
}

bad=0 summary=
for rule in $rules; do
	[ -f "$TOP/$rule" ] || gate_fail "$rule does not exist: write the topic's rule or fix topic.conf"
	t=$(basename "$rule" .cocci)
	dirs=$(dirs_of "$t")
	tip_r=$(coccicheck "$rev" "$rule" report | grep -E '^[^ ]+:[0-9]+:' || true)
	tip_p=$(coccicheck "$rev" "$rule" patch | grep -E '^[-+]' | grep -v -E '^(\+\+\+|---) ' || true)
	base_r=$(coccicheck "$base" "$rule" report | grep -E '^[^ ]+:[0-9]+:' || true)
	nt=$(grep -c . <<<"$tip_r" || true) np=$(grep -c . <<<"$tip_p" || true) nb=$(grep -c . <<<"$base_r" || true)
	[ -n "$tip_r" ] && echo "$tip_r" | sed "s|^|$rule at $rev: |"
	[ -n "$tip_p" ] && echo "$rule at $rev proposes $np changed lines"
	if [ "$nt$np" != 00 ]; then bad=$((bad + 1))
	elif [ "$(kgit rev-parse "$rev^{tree}")" != "$(kgit rev-parse "$base^{tree}")" ] && [ "$nb" = 0 ] &&
		[ "$TARGET" != integration ]; then
		echo "$rule finds nothing at the base either: the rule has no teeth"; bad=$((bad + 1))
	fi
	summary="$summary${summary:+; }$rule: $nt reports + $np diff lines at tip, $nb reports at base"
done

# The kernel's own collection, on the C files the target changes.
files=$(kgit diff --name-only --diff-filter=AM "$base..$rev" -- '*.c' | tr '\n' ' ')
new=0
if [ -n "$files" ]; then
	collection() {
		local r=$1 s
		begin_tree_op "coccicheck: checkout $r"
		kgit checkout -q --detach "$r"
		for s in "$KSRC"/scripts/coccinelle/*/*.cocci; do
			# shellcheck disable=SC2086 # the file list
			(cd "$KSRC" && spatch -D report --no-show-diff --very-quiet --cocci-file "$s" $(for f in $files; do [ -f "$f" ] && echo "$f"; done) 2>/dev/null) |
				sed -E -n "s#^([^:]+):[0-9]+:[0-9-]+: (.*)#$(basename "$s"): \\1: \\2#p" || true
		done | sort
		end_tree_op
	}
	tip_c=$(collection "$rev") base_c=$(collection "$base")
	added=$(comm -23 <(echo "$tip_c") <(echo "$base_c") | grep -v '^$' || true)
	[ -n "$added" ] && echo "$added" | sed 's/^/new finding: /'
	new=$(grep -c . <<<"$added" || true)
fi
kgit checkout -q --detach "$base"
summary="$summary; scripts/coccinelle: $new new findings in $(wc -w <<<"$files") changed C files"
[ "$bad" = 0 ] && [ "$new" = 0 ] && gate_pass "$summary"
gate_fail "$summary"
