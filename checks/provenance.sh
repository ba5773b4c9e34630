#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# provenance gate: every commit of a topic has a Signed-off-by matching its
# author, a subject starting with one of the topic's prefixes (topic.conf
# 'prefix', separated by '|'), and a body that says why (at least one
# paragraph besides the tags); neither a commit message nor the topic's
# cover letter names this repository's files or tools, which a reader of
# the kernel tree cannot follow. For integration: each merge names its
# topic's commits, and the last commit adds the manifest of every topic.
. "$(dirname "$0")/lib.sh"

bad=0 n=0
if [ "$TARGET" = integration ]; then
	kgit rev-parse -q --verify refs/heads/integration >/dev/null || gate_fail "no integration branch: run make integration"
	for t in $(topic_list); do
		b=$(topic_branch "$t"); base=$(topic_base_rev "$t")
		kgit show integration:exynos-gki.manifest | grep -q "^$t	[0-9]*	$(kgit rev-parse "$b")	" ||
			{ echo "manifest: no line for $t at $(kgit rev-parse --short "$b")"; bad=$((bad + 1)); }
		[ "$(kgit rev-list --count "$base..$b")" = 0 ] && continue
		m=$(kgit log --merges --format=%H --grep="^Merge branch '$b' into integration" "$(base_tag)..integration" | head -n1)
		n=$((n + 1))
		if [ -z "$m" ]; then
			echo "no merge commit of $b in integration"; bad=$((bad + 1)); continue
		fi
		for c in $(kgit rev-list "$base..$b"); do
			kgit log -1 --format=%b "$m" | grep -qF "$(kgit log -1 --format='%h %s' "$c")" ||
				{ echo "merge ${m:0:12} does not list $(kgit log -1 --format='%h %s' "$c")"; bad=$((bad + 1)); }
		done
	done
	[ "$bad" = 0 ] && gate_pass "$n merges carry their topics' commits; manifest lists $(topic_list | wc -l) topics"
	gate_fail "$bad problems in the integration merges"
fi

# Words of this repository: its directories and files, its name, its make
# targets. Kernel paths (arch/arm64/boot/, tools/testing/) do not match.
repo_words='(^|[^/[:alnum:]_.-])(tests|checks|topics|coccinelle)/|(^|[^/[:alnum:]_.-])boot/(configs|agent|soc|equiv)|(^|[^/[:alnum:]_.-])tools/[[:alnum:]_-]+\.(sh|py)|MAINTAINERS\.local|exynos-gki|\<seeds?\>|range-diff-[0-9]|kconfig-effect\.config|topic\.conf|\<make (equiv|check|boot|build|exynos4210|test|bench)\>'
# repo_words_in WHERE: the lines of stdin that use them, as WHERE<line>: ...
repo_words_in() {
	{ grep -n -E "$repo_words" || true; } | { grep -v -E '^[0-9]+:(From|Signed-off-by|Co-developed-by):' || true; } |
		sed "s|^\([0-9]*\):|$1\1: names this repository, which a reader of the kernel tree cannot follow: |"
}

cover=$(topic_dir "$TARGET")/cover-letter
if [ -f "$cover" ]; then
	hits=$(repo_words_in "${cover#"$TOP/"}:" <"$cover")
	[ -z "$hits" ] || { echo "$hits"; bad=$((bad + $(wc -l <<<"$hits"))); }
fi

prefixes=$(conf_get "$(topic_dir "$TARGET")/topic.conf" prefix)
for c in $(kgit rev-list --reverse "$(target_range)"); do
	n=$((n + 1))
	what="$(kgit log -1 --format='%h %s' "$c")"
	author=$(kgit log -1 --format='%an <%ae>' "$c")
	kgit log -1 --format=%B "$c" | grep -qxF "Signed-off-by: $author" ||
		{ echo "$what: no 'Signed-off-by: $author' (the author)"; bad=$((bad + 1)); }
	subject=$(kgit log -1 --format=%s "$c")
	ok=
	IFS='|' read -ra list <<<"$prefixes"
	for pre in "${list[@]}"; do
		pre=${pre# }; pre=${pre% }
		[ "${subject#"$pre"}" != "$subject" ] && ok=1
	done
	[ -n "$ok" ] || { echo "$what: subject does not start with one of: $prefixes"; bad=$((bad + 1)); }
	words=$(kgit log -1 --format=%b "$c" | grep -v -E '^[A-Za-z-]+: ' | wc -w)
	[ "$words" -ge 10 ] || { echo "$what: the body does not say why ($words words besides the tags)"; bad=$((bad + 1)); }
	hits=$(kgit log -1 --format=%B "$c" | repo_words_in "$what: message line ")
	[ -z "$hits" ] || { echo "$hits"; bad=$((bad + $(wc -l <<<"$hits"))); }
done
[ "$bad" = 0 ] && gate_pass "$n commits signed off by their authors, prefixed and explained; no word of this repository in them or the cover letter"
gate_fail "$bad problems in $n commits"
