#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make integration: rebuild branch 'integration' from scratch as the base
# plus a --no-ff merge of every topic in topics/merge-order, replaying the
# conflict resolutions recorded in topics/rerere/ (git rerere's cache).
# The last commit adds a manifest of what was merged.
#
# integration.sh --resolve TOPIC: record a resolution for the merge of TOPIC
# (run once to get the conflict in the tree, fix the files, run again).
. "$(dirname "$0")/lib.sh"

need git git flock util-linux
RRCACHE=$TOPICS/rerere
MANIFEST=exynos-gki.manifest
export GIT_AUTHOR_NAME=$GIT_COMMITTER_NAME GIT_AUTHOR_EMAIL=$GIT_COMMITTER_EMAIL
export GIT_AUTHOR_DATE=$BASE_DATE GIT_COMMITTER_DATE=$BASE_DATE
take_lock

load_rerere() {
	rm -rf "$KSRC/.git/rr-cache"
	mkdir -p "$KSRC/.git/rr-cache"
	[ -d "$RRCACHE" ] && cp -R "$RRCACHE/." "$KSRC/.git/rr-cache/"
	return 0
}

# merge_topic TOPIC: merge it into HEAD. 0 = merged (or nothing to merge),
# 1 = conflict left in the tree for the caller.
merge_topic() {
	local t=$1 branch tip base unresolved
	branch=$(topic_branch "$t")
	tip=$(kgit rev-parse -q --verify "refs/heads/$branch") ||
		die "branch $branch does not exist: run 'make topics' first"
	base=$(topic_base_rev "$t")
	if [ "$(kgit rev-parse "$base^{commit}")" = "$tip" ]; then
		printf '  %-8s no commits, nothing to merge\n' "$t"
		return 0
	fi
	if kgit -c rerere.enabled=true -c rerere.autoupdate=true merge -q --no-ff --no-edit \
		-m "Merge branch '$branch' into integration" \
		-m "$(kgit log --reverse --format='  %h %s' "$base..$tip")" "$tip" >"$LOGDIR/merge-$t.log" 2>&1; then
		printf '  %-8s merged %s\n' "$t" "${tip:0:12}"
		return 0
	fi
	unresolved=$(kgit diff --name-only --diff-filter=U)
	if [ -z "$unresolved" ] && kgit rev-parse -q --verify MERGE_HEAD >/dev/null; then
		kgit commit -q --no-edit --no-verify
		printf '  %-8s merged %s, recorded resolution replayed for: %s\n' "$t" "${tip:0:12}" \
			"$(sed -n "s/^\(Resolved\|Staged\) '\(.*\)' using previous resolution.*/\2/p" "$LOGDIR/merge-$t.log" | tr '\n' ' ')"
		return 0
	fi
	return 1
}

# Tell the user which files conflict and which commits on each side did it.
report_conflict() {
	local t=$1 f base tip
	base=$(topic_base_rev "$t")
	tip=$(kgit rev-parse "refs/heads/$(topic_branch "$t")")
	printf 'error: merging topic %s into integration conflicts, and %s/rerere/ has no resolution for it\n' "$t" "$TOPICS_REL" >&2
	for f in $(kgit diff --name-only --diff-filter=U); do
		printf '  %s\n' "$f" >&2
		kgit log --format='    integration: %h %s' "$base..HEAD" -- "$f" | grep -v ' Merge branch ' >&2 || true
		kgit log --format="    $t: %h %s" "$base..$tip" -- "$f" >&2
	done
	printf '  record a resolution with: make resolve TOPIC=%s\n' "$t" >&2
}

# Merge the topics up to and including $1 (all when empty); on a conflict
# set conflict_topic and return 1.
merge_all() {
	local stop=${1:-} t
	kgit checkout -q --detach "$(base_tag)"
	for t in $(topic_list); do
		merge_topic "$t" || { conflict_topic=$t; return 1; }
		[ "$t" = "$stop" ] && return 0
	done
	return 0
}

if [ "${1:-}" = --resolve ]; then
	topic=${2:?usage: integration.sh --resolve TOPIC}
	topic_dir "$topic" >/dev/null
	if [ "$(cat "$STATE/resolving" 2>/dev/null)" = "$topic" ]; then
		# shellcheck disable=SC2046 # one argument per unmerged path
		if kgit grep -q -e '^<<<<<<< ' -e '^>>>>>>> ' -- $(kgit diff --name-only --diff-filter=U) 2>/dev/null; then
			die "conflict markers are still in $KSRC ($(kgit diff --name-only --diff-filter=U | tr '\n' ' ')): edit them out, then run 'make resolve TOPIC=$topic' again"
		fi
		kgit -c rerere.enabled=true rerere
		mkdir -p "$RRCACHE"
		cp -R "$KSRC/.git/rr-cache/." "$RRCACHE/"
		kgit merge --abort
		kgit checkout -q --detach "$(base_tag)"
		rm -f "$STATE/resolving"
		printf 'resolve: recorded in %s/rerere/; commit it, then run make integration\n' "$TOPICS_REL"
		exit 0
	fi
	require_clean_tree
	load_rerere
	if merge_all "$topic"; then
		kgit checkout -q --detach "$(base_tag)"
		echo "resolve: merging $topic needs no new resolution"
		exit 0
	fi
	echo "$topic" >"$STATE/resolving"
	printf 'resolve: the conflict is in %s:\n' "$KSRC"
	kgit diff --name-only --diff-filter=U | sed 's/^/  /'
	printf 'edit those files to the merged result, then run: make resolve TOPIC=%s\n' "$topic"
	exit 0
fi

[ -f "$STATE/resolving" ] &&
	die "a resolution for topic $(cat "$STATE/resolving") is being recorded in $KSRC: finish it with 'make resolve TOPIC=$(cat "$STATE/resolving")', or drop it with 'git -C $KSRC merge --abort; rm $STATE/resolving'"
require_clean_tree

# Same topic tips, merge order and recorded resolutions: same branch.
key=$({ kgit rev-parse "$(base_tag)^{commit}"
	for t in $(topic_list); do echo "$t $(kgit rev-parse -q --verify "refs/heads/$(topic_branch "$t")")"; done
	[ -d "$RRCACHE" ] && find "$RRCACHE" -type f | LC_ALL=C sort | xargs -r cat
	cat "$0"; } | sha256sum | cut -d' ' -f1)
if [ "$(cat "$STATE/integration.key" 2>/dev/null)" = "$key" ] &&
	kgit rev-parse -q --verify refs/heads/integration >/dev/null; then
	printf 'integration: %s (up to date)\n' "$(kgit rev-parse --short=12 integration)"
	exit 0
fi

step "integration: merging $(topic_list | tr '\n' ' ')"
begin_tree_op "make integration"
load_rerere
if ! merge_all; then
	report_conflict "$conflict_topic"
	kgit merge --abort
	kgit checkout -q --detach "$(base_tag)"
	end_tree_op
	exit 1
fi

{
	echo "# exynos-gki integration manifest: the topics merged, in order."
	echo "# topic	commits	tip	subject of tip"
	for t in $(topic_list); do
		b=$(topic_branch "$t"); base=$(topic_base_rev "$t")
		printf '%s\t%s\t%s\t%s\n' "$t" "$(kgit rev-list --count "$base..$b")" \
			"$(kgit rev-parse "$b")" "$(kgit log -1 --format=%s "$b")"
	done
} >"$KSRC/$MANIFEST"
kgit add -f "$MANIFEST"
kgit commit -q --no-verify -m "integration: add the manifest of merged topics" \
	-m "$(grep -v '^#' "$KSRC/$MANIFEST")"
kgit update-ref -m "make integration" refs/heads/integration HEAD
kgit checkout -q --detach "$(base_tag)"
end_tree_op
echo "$key" >"$STATE/integration.key"
printf 'integration: %s\n' "$(kgit rev-parse --short=12 integration)"
