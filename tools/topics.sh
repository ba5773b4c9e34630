#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make topics [TOPIC=x]: build branch topic/<name> for each topic by applying
# its series with 'git am' on its base. Fixed committer identity and
# committer date = author date, so a series gives the same SHAs everywhere.
# A topic that fails leaves its branch where it was; the others still build.
. "$(dirname "$0")/lib.sh"

need git git flock util-linux
take_lock
require_clean_tree

# Inputs that decide a topic's commits; unchanged inputs mean no work.
topic_key() {
	{ kgit rev-parse "$2^{commit}"; cat "$(topic_dir "$1")/series"; topic_patches "$1" | xargs -r cat; } |
		sha256sum | cut -d' ' -f1
}

# am_failure TOPIC LOG REUSED: explain a failed 'git am' from its output:
# which patch, file and hunk (REUSED patches were not given to it).
am_failure() {
	local topic=$1 log=$2 n patch
	n=$(($(cat "$KSRC/.git/rebase-apply/next" 2>/dev/null || echo 1) + $3))
	patch=$(topic_patches "$topic" | sed -n "${n}p")
	printf 'error: topic %s: patch %s does not apply\n' "$topic" "${patch#"$TOP"/}" >&2
	grep -E '^(error|fatal|Patch failed|Applying)' "$log" | sed 's/^/  /' >&2 || true
	grep -q 'patch failed: ' "$log" &&
		sed -n 's/.*patch failed: \(.*\):\([0-9]*\)$/  file \1, hunk at line \2/p' "$log" >&2
	printf '  fix: rebase the patch onto its base (edit branch %s, then make export TOPIC=%s)\n' \
		"$(topic_branch "$topic")" "$topic" >&2
}

build_topic() {
	local t=$1 branch base key patches log applied start at reused sums want sum commit commits
	local IFS=$'\n' # patch paths are one per line
	branch=$(topic_branch "$t")
	base=$(topic_base_rev "$t")
	kgit rev-parse -q --verify "$base^{commit}" >/dev/null ||
		die "topic $t: its base '$base' does not exist (a base topic must come earlier in $TOPICS_REL/merge-order and build)"
	patches=$(topic_patches "$t") || return 1
	key=$(topic_key "$t" "$base") || return 1
	if [ "$(cat "$STATE/topic-$t.key" 2>/dev/null)" = "$key" ] &&
		kgit rev-parse -q --verify "refs/heads/$branch" >/dev/null; then
		# A branch moved since it was built (work not exported yet) is
		# neither what topics/$t/ says nor to be thrown away.
		[ ! -f "$STATE/topic-$t.sha" ] || [ "$(kgit rev-parse "refs/heads/$branch")" = "$(cat "$STATE/topic-$t.sha")" ] ||
			die "$branch in $KSRC has moved since make topics built it from $TOPICS_REL/$t/: export it (make export TOPIC=$t) or drop it (git -C $KSRC branch -D $branch), then rerun"
		return 0
	fi
	log=$LOGDIR/topics-$t.log
	# A patch applied with fixed identity and dates on the same parent
	# makes the same commit: the patches that begin the series as they
	# began it at the last build are taken from that build, so a patch
	# added, changed or dropped at the end costs one 'git am', not all.
	applied=$STATE/topic-$t.applied
	start=$(kgit rev-parse "$base^{commit}") at=$start reused=0
	sums=
	[ -z "$patches" ] || sums=$(printf '%s\n' "$patches" | xargs -d '\n' sha256sum | cut -d' ' -f1)
	mapfile -t want <<<"$sums"
	if [ "$(sed -n 1p "$applied" 2>/dev/null)" = "$start" ]; then
		while IFS=" " read -r sum commit; do
			if [ "$sum" != "${want[reused]:-}" ] ||
				! kgit cat-file -e "$commit^{commit}" 2>/dev/null; then
				break
			fi
			reused=$((reused + 1)) at=$commit
		done < <(sed 1d "$applied")
	fi
	patches=$(sed -n "$((reused + 1)),\$p" <<<"$patches")
	begin_tree_op "make topics: $t"
	kgit checkout -q --detach "$at"
	: >"$log"
	[ "$reused" = 0 ] || echo "$reused patches as at the last build, up to $at" >>"$log"
	if [ -n "$patches" ] &&
		! kgit am -q --committer-date-is-author-date $patches >>"$log" 2>&1; then
		am_failure "$t" "$log" "$reused"
		kgit am --abort >/dev/null 2>&1 || true
		kgit reset -q --hard
		end_tree_op
		return 1
	fi
	kgit update-ref -m "make topics" "refs/heads/$branch" HEAD
	commits=$(kgit rev-list --reverse "$start..HEAD")
	if [ -n "$sums" ] && [ "$(wc -l <<<"$commits")" = "$(wc -l <<<"$sums")" ]; then
		{ echo "$start"; paste -d' ' <(echo "$sums") <(echo "$commits"); } >"$applied"
	else
		rm -f "$applied"
	fi
	echo "$key" >"$STATE/topic-$t.key"
	kgit rev-parse HEAD >"$STATE/topic-$t.sha"
	end_tree_op
}

topics=${1:-$(topic_list)}
failed=
for t in $topics; do
	step "topic $t"
	# errexit is off inside a tested subshell, so test its status apart.
	set +e
	(set -e; build_topic "$t")
	rc=$?
	set -e
	[ "$rc" = 0 ] || failed="$failed $t"
done
kgit checkout -q --detach "$(base_tag)"

printf '%-10s %-26s %7s  %s\n' TOPIC BASE COMMITS TIP
counts=
for t in $topics; do
	b=$(topic_branch "$t"); base=$(topic_base_rev "$t")
	if tip=$(kgit rev-parse -q --verify "refs/heads/$b"); then
		n=$(kgit rev-list --count "$base..$tip")
		counts="$counts${counts:+, }$t $n"
		note=$(conf_get "$(topic_dir "$t")/topic.conf" note '')
		case " $failed " in *" $t "*) note="FAILED: previous tip kept" ;; esac
		[ "$n" != 0 ] || [ -n "$note" ] || note="no commit"
		printf '%-10s %-26s %7s  %s%s\n' "$t" "$base" "$n" "${tip:0:12}" "${note:+  ($note)}"
	else
		printf '%-10s %-26s %7s  %s\n' "$t" "$base" - "(FAILED: no branch)"
		counts="$counts${counts:+, }$t FAILED"
	fi
done
# The last line is the step's summary in the main job.
echo "topics: $counts commits"
[ -z "$failed" ] || die "topics failed to build:$failed (logs in $LOGDIR/topics-<name>.log)"
