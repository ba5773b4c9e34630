#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make request-pull TOPIC=x: the pull request a subsystem maintainer gets
# for topic/x, against the topic's base. URL= overrides where it is pulled
# from (default: the T: line of MAINTAINERS.local, else the local tree); a
# path on this machine is refused unless LOCAL_URL=1.
. "$(dirname "$0")/lib.sh"

topic=${1:?usage: request-pull.sh TOPIC}
branch=$(topic_branch "$topic")
base=$(topic_base_rev "$topic")
topic_has_commits "$topic" "to pull"
url=$(awk -v b="$branch" '$1 == "T:" && $2 == "git" && $4 == b { print $3; exit }' "$TOP/MAINTAINERS.local")
# A file:// T: line names the default WORK; any other WORK is pulled from
# where it is.
case $url in file://*) [ "$(realpath -q "${url#file://}")" = "$(realpath "$KSRC")" ] || url= ;; esac
url=${URL:-${url:-$KSRC}}
# A path or file:// URL names this machine: nobody else can pull it.
case $url in
*://* | *@*:*) [[ $url != file://* ]] || local_url=1 ;;
*) local_url=1 ;;
esac
[ -z "${local_url:-}" ] || [ -n "${LOCAL_URL:-}" ] ||
	die "$url is on this machine, which no maintainer can pull from: push $branch to a public tree and give URL=https://... (or LOCAL_URL=1 to name the local tree anyway)"
# request-pull looks the branch up at the URL; it is there, so it passes.
kgit request-pull "$base" "$url" "$branch:$branch"
