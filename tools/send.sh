#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make send TOPIC=x [VERSION=n]: topic x as the mail a maintainer gets,
# written by Debian's b4 (b4 send -o), never sent: the cover letter and one
# message per patch, threaded, subjects "[PATCH RFC v<n> i/m]" (RFC while
# nothing was tested on silicon; PREFIXES= sets others), base-commit, To/Cc
# from the tree's own scripts/get_maintainer.pl over its MAINTAINERS (b4
# prep --auto-to-cc) and the topic's lists in MAINTAINERS.local, and, when
# revision n-1 was written here before, git range-diff against it at the
# end of the cover letter. A topic stacked on another names the tree's
# base and the other topic's patches (prerequisite-patch-id). Written to
# $WORK/send/<topic>-v<n>/, from branch send/<topic> in $KSRC.
#
# The mail carries the identity of whoever runs this: SERIES_AUTHOR="Name
# <address>", else git's user.name and user.email. The topic branches are
# authored by a placeholder, for SHAs that are the same everywhere; its
# commits (author and Signed-off-by) take the poster's identity here, and
# an identity in a reserved domain (.example, .invalid, .test, .localhost,
# example.com/net/org), the placeholder's among them, is refused: the
# kernel takes no anonymous contributions.
. "$(dirname "$0")/lib.sh"
need b4 b4

topic=${1:?usage: send.sh TOPIC}
version=${VERSION:-3}
[[ $version =~ ^[1-9][0-9]*$ ]] || die "VERSION=$version is not a revision number such as 3"
dir=$(topic_dir "$topic")
branch=$(topic_branch "$topic")
base=$(topic_base_rev "$topic")
topic_has_commits "$topic" "to send"
[ -f "$dir/cover-letter" ] || die "no cover letter: write $TOPICS_REL/$topic/cover-letter (subject line, blank line, body)"

# reserved ADDRESS: whether ADDRESS is in a domain reserved for examples
# and tests (RFC 2606, RFC 6761), where nobody reads mail.
reserved() {
	[[ ${1,,} =~ @(.+\.)?(example|invalid|test|localhost)$ || ${1,,} =~ @(.+\.)?example\.(com|net|org)$ ]]
}

how="set SERIES_AUTHOR='Your Name <you@your.domain>', or git config --global user.name and user.email"
if [ -n "${SERIES_AUTHOR:-}" ]; then
	[[ $SERIES_AUTHOR =~ ^([^<>]*[^<>[:space:]])[[:space:]]*\<([^<>@[:space:]]+@[^<>[:space:]]+)\>$ ]] ||
		die "SERIES_AUTHOR='$SERIES_AUTHOR' is not 'Name <address>'"
	name=${BASH_REMATCH[1]} email=${BASH_REMATCH[2]}
else
	name=$(git config user.name || true) email=$(git config user.email || true)
	[ -n "$name" ] && [ -n "$email" ] || die "no identity to post under: $how"
fi
reserved "$email" &&
	die "$name <$email> is in a reserved domain, as the topics' placeholder author is: mail needs a real identity ($how)"
me="$name <$email>"

# b4 and git in the send worktree run as the poster. b4 send -o writes
# and sends nothing, but in a kernel tree without an SMTP server set it
# takes the web endpoint, which demands signed mail: name one.
export GIT_CONFIG_COUNT=3 GIT_CONFIG_KEY_0=user.name GIT_CONFIG_VALUE_0=$name \
	GIT_CONFIG_KEY_1=user.email GIT_CONFIG_VALUE_1=$email \
	GIT_CONFIG_KEY_2=sendemail.smtpserver GIT_CONFIG_VALUE_2=localhost
export GIT_COMMITTER_NAME=$name GIT_COMMITTER_EMAIL=$email
unset GIT_COMMITTER_DATE

out=$WORK/send/$topic-v$version
wt=$WORK/send/worktree-$topic
take_lock
kgit worktree remove --force "$wt" 2>/dev/null || rm -rf "$wt"
kgit worktree prune
rm -rf "$out"
mkdir -p "$out"
trap 'kgit worktree remove --force "$wt" 2>/dev/null || true' EXIT
kgit worktree add -q --detach "$wt" "$base"
wgit() { git -C "$wt" "$@"; }

# The topic's commits again, as the poster: the placeholder's authorship
# and Signed-off-by become the poster's; others' (credited work) stay.
step "send: $topic as $me"
wgit checkout -q -B "send/$topic"
for c in $(kgit rev-list --reverse "$base..$branch"); do
	wgit cherry-pick --allow-empty "$c" >/dev/null || die "cherry-pick of $(kgit log -1 --format='%h %s' "$c") failed in $wt"
	author=$(kgit log -1 --format='%an <%ae>' "$c")
	reserved "$(kgit log -1 --format=%ae "$c")" || continue
	kgit log -1 --format=%B "$c" | awk -v old="Signed-off-by: $author" -v new="Signed-off-by: $me" \
		'$0 == old { $0 = new } { print }' >"$out/.msg"
	wgit commit -q --amend --allow-empty --author="$me" -F "$out/.msg"
done
rm -f "$out/.msg"

# The previous revision written here, when there is one: the cover letter
# ends with git range-diff against it, as reviewers of a reroll expect.
# Each run records its patches under refs/exynos-gki/sent/ in $KSRC.
sent=refs/exynos-gki/sent/$topic
cover=$out/.cover-letter
cp "$dir/cover-letter" "$cover"
prev=$((version - 1))
if kgit rev-parse -q --verify "$sent-v$prev" >/dev/null; then
	step "send: range-diff against v$prev"
	{
		printf '\nChanges in v%s: git range-diff against v%s\n\n' "$version" "$prev"
		wgit range-diff --no-color "$sent-v$prev-base..$sent-v$prev" "$base..HEAD" | sed 's/^/  /'
		# Not the last paragraph: git would read "17: ..." lines as trailers.
		printf '\n"=" marks a patch unchanged since v%s, "!" one changed, with what\nchanged below it.\n' "$prev"
	} >>"$cover" || die "git range-diff against v$prev failed"
fi

# b4's own series branch: the cover letter (b4 keeps it as an empty commit
# at the base), revision, prefixes, recipients.
step "send: b4 prep (revision $version, prefixes ${PREFIXES-RFC}; To/Cc by get_maintainer.pl)"
(
	cd "$wt"
	b4 prep -e "$base" >/dev/null
	EDITOR="cp $cover" b4 prep --edit-cover >/dev/null
	b4 prep --force-revision "$version" >/dev/null
	# shellcheck disable=SC2086 # PREFIXES is a list
	[ -z "${PREFIXES-RFC}" ] || b4 prep --set-prefixes ${PREFIXES-RFC} >/dev/null
	b4 prep --auto-to-cc >/dev/null
) || die "b4 prep failed in $wt (above)"

# The topic's entry in MAINTAINERS.local: its lists, and owners outside the
# reserved domains.
cc=$(cd "$wt" && kgit diff --name-only "$base" "$branch" | sed 's/^/-f /' |
	xargs perl scripts/get_maintainer.pl --mpath "$TOP/MAINTAINERS.local" --no-git --no-git-fallback \
		--no-rolestats | while read -r a; do a=${a##*<} && a=${a%>} && { reserved "$a" || echo "$a"; }; done | sort -u)
step "send: b4 send -o $out"
# shellcheck disable=SC2086 # one address per word
(cd "$wt" && b4 send -o "$out" --no-sign ${cc:+--cc $cc}) >"$out/.b4.log" 2>&1 ||
	{ cat "$out/.b4.log" >&2; die "b4 send failed (above)"; }
rm -f "$out/.b4.log" "$cover"
# A topic stacked on another is based on that topic's tip, which no public
# tree has: its cover letter names the tree's base instead, and the
# patches that go first by their patch-ids, as git format-patch --base
# writes them (the kernel test robot applies those first).
if [ "$(conf_get "$dir/topic.conf" base)" != base ]; then
	kgit format-patch --stdout --base="$(base_tag)" "$base..$branch" |
		grep -E '^(base-commit|prerequisite-patch-id): ' | awk '!seen[$0]++' >"$out/.deps"
	c=$(echo "$out"/0000-*.eml)
	[ "$(grep -c '^base-commit: ' "$c")" = 1 ] || die "$c: b4 wrote no single base-commit line to replace"
	awk 'NR == FNR { deps = deps $0 "\n"; next } /^base-commit: / { printf "%s", deps; next } { print }' \
		"$out/.deps" "$c" >"$c.new" && mv "$c.new" "$c"
	rm -f "$out/.deps"
fi
# This revision's patches (after b4's cover letter commit), for the next.
first=$(wgit rev-list --reverse "$base..HEAD" | sed -n 1p)
[ -z "$(wgit diff "$first^" "$first")" ] || die "b4's branch does not start with its cover letter commit: $(wgit log -1 --oneline "$first")"
kgit update-ref "$sent-v$version-base" "$first"
kgit update-ref "$sent-v$version" "$(wgit rev-parse HEAD)"
n=$(find "$out" -maxdepth 1 -name '*.eml' | wc -l)
printf 'send: %s: %d messages (cover letter and %d patches) in %s, as %s, To: %s\n' "$topic" "$n" $((n - 1)) \
	"$out" "$me" "$(grep -h -m1 '^To:' "$out"/0000-*.eml | cut -c5- | cut -c1-120)"
