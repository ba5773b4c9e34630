#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make range-diff BASE=6.12 [TOPIC=x]: what porting each topic from 6.1 to
# BASE changed, as git range-diff between the two versions of the topic
# branch, written to topics/<BASE>/<topic>/range-diff-6.1 for the
# maintainer who knows the 6.1 series. Both trees must have their topics
# built (make topics, and make topics BASE=...). The 6.1 commits are read
# from the 6.1 tree's object store for this one command (alternates in the
# environment), so neither tree refers to the other afterwards.
. "$(dirname "$0")/lib.sh"

[ "$BASE" != 6.1 ] || die "range-diff compares a port with 6.1: give the port's base, e.g. BASE=6.12"
old_work=$(dirname "$WORK")
old_ksrc=$old_work/linux
[ -d "$old_ksrc/.git" ] || die "no 6.1 tree in $old_ksrc: run 'make tree topics' (BASE=6.1) first"
# old_range TOPIC: the topic's commits in the 6.1 tree, as a SHA range.
old_range() {
	# shellcheck disable=SC2016 # expanded by the 6.1 shell
	BASE=6.1 WORK=$old_work bash -c '. "$0/tools/lib.sh"
		echo "$(kgit rev-parse "$(topic_base_rev "$1")")..$(kgit rev-parse "$(topic_branch "$1")")"' "$TOP" "$1"
}

for topic in ${1:-$(topic_list)}; do
	[ -f "$TOP/topics/$topic/topic.conf" ] || { echo "range-diff: $topic: not a 6.1 topic, skipped"; continue; }
	new=$(topic_base_rev "$topic")..$(topic_branch "$topic")
	old=$(old_range "$topic") || die "topic $topic is not built in $old_ksrc: run 'make topics' there first"
	out=$TOPICS/$topic/range-diff-6.1
	if [ "$(kgit rev-list --count "$new")" = 0 ] && [ "${old%%..*}" = "${old#*..}" ]; then
		rm -f "$out"
		echo "range-diff: $topic: no commits on either base"
		continue
	fi
	# A fixed abbreviation: the same output whatever else the repository holds.
	GIT_ALTERNATE_OBJECT_DIRECTORIES=$old_ksrc/.git/objects \
		kgit -c core.abbrev=7 range-diff --no-color "$old" "$(kgit rev-parse "${new%%..*}")..$(kgit rev-parse "${new#*..}")" >"$out.tmp" ||
		{ rm -f "$out.tmp"; die "git range-diff failed for topic $topic"; }
	mv "$out.tmp" "$out"
	printf 'range-diff: %s: %s lines in %s\n' "$topic" "$(wc -l <"$out")" "${out#"$TOP/"}"
done
