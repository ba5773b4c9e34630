#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# coccicheck gate, through the kernel's own 'make coccicheck':
#  1. The topic's rule (topic.conf 'cocci') in MODE=report and MODE=patch
#     over the topic's F: directories: nothing at the topic tip (the topic
#     is a fixed point of its rule) and, when the topic changes C files
#     there, findings at the base (the rule has teeth). A topic that changes
#     no C file has the base's code: both must be clean, and the rule's
#     teeth are shown by the seeded defect in tests/80-gates-build.t.
#  2. The kernel's scripts/coccinelle collection on the C files the topic
#     touches: no finding that the base does not have.
. "$(dirname "$0")/lib.sh"
need spatch coccinelle
take_lock
require_clean_tree

base=$(base_tag)
if [ "$TARGET" = integration ]; then rev=integration topics=$(topic_list)
else rev=$(topic_branch "$TARGET") topics=$TARGET; fi
o=$WORK/build/coccicheck
cache=$WORK/coccicheck-cache
mkdir -p "$o" "$cache"

# The F: directories of the topics whose rules run (files count by dir).
dirs_of() {
	awk -v b="topic/$1" '/^$/ { if (hit) exit; f = "" } /^T:/ && $4 == b { hit = 1 } /^F:/ { f = f $2 "\n" }
		END { if (hit) printf "%s", f }' "$TOP/MAINTAINERS.local" |
		sed -e '\|^arch/|d' -e 's|/$||' -e '/\.[ch]$/s|/[^/]*$||' | sort -u
}

# coccicheck REV RULE MODE: the findings (report) or diff (patch) of the
# rule over $dirs at REV. Cached by rule, directory tree and mode.
coccicheck() {
	local r=$1 rule=$2 mode=$3 d key
	for d in $dirs; do
		key=$(printf '%s %s %s' "$(sha256sum <"$TOP/$rule")" "$(kgit rev-parse "$r:$d")" "$mode" | sha256sum | cut -c1-32)
		if [ ! -f "$cache/$key" ]; then
			begin_tree_op "coccicheck: checkout $r"
			kgit checkout -q --detach "$r"
			make -s -C "$KSRC" O="$o" ARCH=arm64 coccicheck COCCI="$TOP/$rule" MODE="$mode" M="$KSRC/$d" \
				>"$cache/$key.tmp" 2>&1 || { cat "$cache/$key.tmp" >&2; gate_fail "make coccicheck failed at $r on $d"; }
			end_tree_op
			grep -v -e '^Please check for false positives' -e '^When using "patch" mode' -e '^$' \
				-e '^/usr/bin/spatch ' "$cache/$key.tmp" | sed "s|$KSRC/||g" >"$cache/$key" || true
		fi
		cat "$cache/$key"
	done
}

bad=0 summary=
for t in $topics; do
	rule=$(conf_get "$TOP/topics/$t/topic.conf" cocci)
	[ -f "$TOP/$rule" ] || gate_fail "$rule does not exist: write the topic's rule or fix topics/$t/topic.conf"
	dirs=$(dirs_of "$t")
	[ -n "$dirs" ] || gate_fail "MAINTAINERS.local gives topic $t no source directory to check"
	tip_r=$(coccicheck "$rev" "$rule" report | grep -E '^[^ ]+:[0-9]+:' || true)
	tip_p=$(coccicheck "$rev" "$rule" patch | grep -E '^[-+]' | grep -v -E '^(\+\+\+|---) ' || true)
	base_r=$(coccicheck "$base" "$rule" report | grep -E '^[^ ]+:[0-9]+:' || true)
	nt=$(grep -c . <<<"$tip_r" || true) np=$(grep -c . <<<"$tip_p" || true) nb=$(grep -c . <<<"$base_r" || true)
	[ -n "$tip_r" ] && echo "$tip_r" | sed "s|^|$rule at $rev: |"
	[ -n "$tip_p" ] && echo "$rule at $rev proposes $np changed lines"
	# A clean base is allowed only where topic.conf says why (cocci-clean-base).
	clean=$(conf_get "$TOP/topics/$t/topic.conf" cocci-clean-base "")
	if [ "$nt$np" != 00 ]; then bad=$((bad + 1))
	elif [ "$nb" = 0 ] && [ "$TARGET" != integration ] && [ -z "$clean" ] &&
		[ -n "$(kgit diff --name-only "$base..$rev" -- $(for d in $dirs; do echo "$d/*.c"; done))" ]; then
		echo "$rule finds nothing at the base, yet the topic changes C files under $dirs: the rule has no teeth" \
			"(or say why the base is clean: 'cocci-clean-base =' in topics/$t/topic.conf)"
		bad=$((bad + 1))
	fi
	summary="$summary${summary:+; }$rule: $nt reports + $np diff lines at tip, $nb reports at base${clean:+ (clean base: $clean)}"
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
