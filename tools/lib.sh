# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Shared helpers for the exynos-gki tools. Sourced, never run.
set -euo pipefail
# A die() inside $(...) must stop the caller, not just the subshell.
shopt -s inherit_errexit

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WORK=${WORK:-/var/cache/exynos-gki}
# The kernel the topics apply to: Debian's linux-source-$BASE. The first
# base, 6.1, has the top of WORK and topics/; another has its own
# WORK/base-<version> and topics/<version>/, with the same layout.
export BASE=${BASE:-6.1}
[[ $BASE =~ ^[0-9]+\.[0-9]+$ ]] ||
	{ echo "error: BASE=$BASE is not a kernel version such as 6.1 or 6.12" >&2; exit 1; }
TOPICS=$TOP/topics
if [ "$BASE" != 6.1 ]; then
	TOPICS=$TOP/topics/$BASE
	[ -d "$TOPICS" ] || { echo "error: no topics for BASE=$BASE: $TOPICS does not exist" >&2; exit 1; }
	# A WORK that is already this base's (a tool started by another
	# tool) says so in a marker file.
	if [ "$(cat "$WORK/.exynos-gki-base" 2>/dev/null)" != "$BASE" ]; then
		WORK=$WORK/base-$BASE
		mkdir -p "$WORK" 2>/dev/null && echo "$BASE" >"$WORK/.exynos-gki-base"
	fi
fi
TOPICS_REL=${TOPICS#"$TOP"/}
WORK=$(mkdir -p "$WORK" 2>/dev/null && cd "$WORK" && pwd) ||
	{ echo "error: cannot create WORK=${WORK:-}: pick a writable directory with WORK=" >&2; exit 1; }
KSRC=$WORK/linux
TARBALL=${TARBALL:-/usr/src/linux-source-$BASE.tar.xz}
LOGDIR=$WORK/logs
STATE=$KSRC/.git/exynos-gki
mkdir -p "$LOGDIR"

# One identity and one clock for everything the tools commit, so that the
# same inputs give the same SHAs on every machine.
export GIT_COMMITTER_NAME="exynos-gki tools"
export GIT_COMMITTER_EMAIL="exynos-gki@invalid"
export BASE_DATE="2025-01-01T00:00:00+0000"
export TZ=UTC LC_ALL=C

die()  { printf 'error: %s\n' "$*" >&2; exit 1; }
warn() { printf 'warning: %s\n' "$*" >&2; }
step() { printf '==> %s\n' "$*" >&2; }
# json_str TEXT: TEXT as a JSON string, quotes included.
json_str() {
	local s=${1//\\/\\\\}
	s=${s//\"/\\\"} s=${s//$'\t'/\\t} s=${s//$'\n'/\\n}
	s=${s//[$'\001'-$'\037']/}
	printf '"%s"' "$s"
}

# What a tool does with git must not depend on the user's ~/.gitconfig
# (signatures, prefixes, autocrlf, gpgsign ...) or /etc/gitconfig.
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
kgit() { git -C "$KSRC" -c core.autocrlf=false -c gc.auto=0 -c maintenance.auto=false -c advice.detachedHead=false "$@"; }

# need CMD PACKAGE...: fail naming the Debian package when a tool is missing.
need() {
	while [ $# -ge 2 ]; do
		command -v "$1" >/dev/null 2>&1 ||
			die "'$1' not found: install Debian package '$2' (run 'make deps')"
		shift 2
	done
}

# conf_get FILE KEY [DEFAULT]: read 'key = value' lines; '#' starts a comment.
conf_get() {
	local v
	v=$(sed -n "s/^[[:space:]]*$2[[:space:]]*=[[:space:]]*\\([^#]*\\).*/\\1/p" "$1" | tail -n1)
	v=${v%"${v##*[![:space:]]}"}
	if [ -n "$v" ]; then printf '%s\n' "$v"
	elif [ $# -ge 3 ]; then printf '%s\n' "$3"
	else die "$1: no '$2 = ...' line"
	fi
}

# Topics in merge order, from topics/merge-order.
topic_list() {
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$TOPICS/merge-order" | awk '{print $1}'
}

topic_dir() {
	[ -f "$TOPICS/$1/topic.conf" ] ||
		die "unknown topic '$1': $TOPICS_REL/$1/topic.conf does not exist (known: $(topic_list | tr '\n' ' '))"
	printf '%s\n' "$TOPICS/$1"
}

topic_branch() { conf_get "$(topic_dir "$1")/topic.conf" branch "topic/$1"; }

# The git revision a topic's base names: 'base' is the imported tree,
# anything else is another topic.
topic_base_rev() {
	local b
	b=$(conf_get "$(topic_dir "$1")/topic.conf" base base)
	if [ "$b" = base ]; then base_tag; else topic_branch "$b"; fi
}

# topic_has_commits TOPIC NOTHING: dies when the topic's branch is not
# built, or adds no commit to its base ("there is nothing NOTHING").
topic_has_commits() {
	local branch base
	branch=$(topic_branch "$1") base=$(topic_base_rev "$1")
	kgit rev-parse -q --verify "refs/heads/$branch" >/dev/null ||
		die "branch $branch does not exist in $KSRC: run 'make topics' first"
	[ "$(kgit rev-list --count "$base..$branch")" -gt 0 ] ||
		die "topic $1 has no commits on top of its base: there is nothing $2"
}

# Patch files of a topic, in series order, one path per line.
topic_patches() {
	local d p
	d=$(topic_dir "$1")
	[ -f "$d/series" ] || die "$d/series is missing: list the topic's patches there, one per line (an empty file for none)"
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$d/series" | while read -r p; do
		[ -f "$d/$p" ] || die "$TOPICS_REL/$1/series names '$p', which is not in $TOPICS_REL/$1/: add the file or remove the line"
		printf '%s\n' "$d/$p"
	done
}

# tool_versions: the Debian packages whose versions decide a result.
tool_versions() {
	# The cross C libraries too: with one, kconfig sets CC_CAN_LINK, and
	# every .config of that architecture changes.
	dpkg-query -W -f '${Package} ${Version}\n' git gcc gcc-aarch64-linux-gnu \
		gcc-arm-linux-gnueabihf libc6-dev-arm64-cross libc6-dev-armhf-cross \
		sparse coccinelle device-tree-compiler qemu-system-arm 2>/dev/null || true
}

base_tag() {
	[ -f "$STATE/base-tag" ] || die "no kernel tree in $KSRC: run 'make tree' first"
	cat "$STATE/base-tag"
}

# Serialise runs on one WORK. flock is released by the kernel when the
# holder dies, so a killed run never leaves a stale lock behind.
take_lock() {
	[ "${EXYNOS_GKI_LOCKED:-}" = "$WORK" ] && return 0
	exec 9>"$WORK/.lock"
	if ! flock -n 9; then
		die "another exynos-gki run is using $WORK (pid $(cat "$WORK/.lock.pid" 2>/dev/null || echo '?')): wait for it to finish, or use another WORK="
	fi
	echo $$ >"$WORK/.lock.pid"
	export EXYNOS_GKI_LOCKED=$WORK
}

# tree_changes: git status of the kernel tree, ignored files included,
# less the files listed as modified whose content is as committed. git
# status takes a symlink for modified, without reading it, when the
# link's mtime changes while status runs (through a hard link of another
# tree); git diff compares the content.
tree_changes() {
	local s
	s=$(kgit status --porcelain --untracked-files=all --ignored=matching) || return
	{ kgit diff --name-only | sed 's/^/changed /'; printf '%s\n' "$s"; } |
		awk '/^changed / { c[substr($0, 9)] = 1; next }
			/^ M / && !(substr($0, 4) in c) { next }
			NF'
}

# The kernel tree must hold nothing that a checkout could destroy. A tree
# left half-done by a killed run of ours (the 'running' marker, and we
# hold the WORK lock) is put back to its last commit first.
require_clean_tree() {
	local dirty
	[ -d "$KSRC/.git" ] || die "no kernel tree in $KSRC: run 'make tree' first"
	if [ -f "$STATE/running" ]; then
		warn "recovering from an interrupted run ($(cat "$STATE/running")): resetting the kernel tree"
		rm -f "$KSRC/.git/index.lock"
		kgit am --abort >/dev/null 2>&1 || true
		kgit merge --abort >/dev/null 2>&1 || true
		kgit reset -q --hard
		kgit clean -qfdx
		rm -f "$STATE/running"
	fi
	if [ -d "$KSRC/.git/rebase-apply" ] || [ -f "$KSRC/.git/MERGE_HEAD" ]; then
		die "$KSRC has a git am or merge in progress that exynos-gki did not start: finish it, or run 'git -C $KSRC am --abort' (or 'merge --abort')"
	fi
	dirty=$(tree_changes | head -n 20)
	if [ -n "$dirty" ]; then
		printf '%s\n' "$dirty" >&2
		die "kernel tree $KSRC has local changes (listed above): commit them to a branch, or discard them with 'git -C $KSRC reset --hard && git -C $KSRC clean -fdx'"
	fi
}

# Mark the tree as being modified by us, so that a killed run can be
# told apart from a user's own work and recovered on the next run.
begin_tree_op() { echo "$1 (pid $$)" >"$STATE/running"; }
end_tree_op() { rm -f "$STATE/running"; }
