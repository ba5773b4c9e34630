#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make tree: import Debian's linux-source-$BASE tarball into $WORK/linux as a
# git repository with one deterministic baseline commit and a version tag.
. "$(dirname "$0")/lib.sh"

need git git tar tar xz xz-utils flock util-linux
[ -r "$TARBALL" ] || die "$TARBALL not found: install Debian package 'linux-source-$BASE' (run 'make deps')"
take_lock

stamp=$(stat -c '%s %Y' "$TARBALL")

if [ -e "$KSRC" ]; then
	if [ ! -f "$STATE/tarball" ]; then
		die "$KSRC exists but is not a tree imported by 'make tree': move it away, or pick another WORK="
	fi
	if [ "$(cat "$STATE/tarball")" != "$stamp" ]; then
		die "$TARBALL changed since $KSRC was imported from it: remove $KSRC (its branches are rebuilt from topics/) and run 'make tree' again"
	fi
	tag=$(base_tag)
	kgit rev-parse -q --verify "refs/tags/$tag" >/dev/null ||
		die "$KSRC lost its base tag '$tag': remove $KSRC and run 'make tree' again"
	printf 'tree: %s at %s (up to date)\n' "$tag" "$(kgit rev-parse --short=12 "$tag^{commit}")"
	exit 0
fi

# Unpack and commit in a scratch directory; only a finished import is
# renamed into place, so an interrupted run leaves nothing half-made.
tmp=$WORK/linux.import
rm -rf "$tmp"
mkdir -p "$tmp"
step "unpacking $TARBALL"
tar -xJf "$TARBALL" -C "$tmp"
src=$(find "$tmp" -mindepth 1 -maxdepth 1 -type d | head -n1)
[ -f "$src/Makefile" ] || die "$TARBALL does not hold a kernel tree"

kver=$(make -s -C "$src" kernelversion 2>/dev/null)
pver=$(dpkg-query -W -f '${Version}' "linux-source-$BASE" 2>/dev/null || true)
# A git tag name cannot hold the "~" of a backport version.
tag="v$kver${pver:+-debian-${pver#*-}}" tag=${tag//\~/_}

step "importing $kver (Debian ${pver:-unknown}) as a git repository"
git -C "$src" init -q -b import
# No background gc: it would inherit the WORK lock and outlive this run.
git -C "$src" config gc.auto 0
git -C "$src" config maintenance.auto false
git -C "$src" config rerere.enabled true
# Debian's top-level .gitignore ignores every top-level file; the tree is
# imported as shipped, so add with --force rather than edit the file.
git -C "$src" -c core.autocrlf=false add -f -A .
GIT_AUTHOR_NAME="Debian linux-source-$BASE" GIT_AUTHOR_EMAIL="debian-kernel@lists.debian.org" \
GIT_AUTHOR_DATE="$BASE_DATE" GIT_COMMITTER_DATE="$BASE_DATE" \
	git -C "$src" commit -q --no-verify -m "Import Linux $kver from Debian linux-source-$BASE ${pver}" \
	-m "Unpacked from $(basename "$TARBALL") as shipped, Debian patches applied."
git -C "$src" tag "$tag"
mkdir -p "$src/.git/exynos-gki"
echo "$tag" >"$src/.git/exynos-gki/base-tag"
echo "$stamp" >"$src/.git/exynos-gki/tarball"
mv "$src" "$KSRC"
rm -rf "$tmp"
printf 'tree: %s at %s (imported into %s)\n' "$tag" "$(kgit rev-parse --short=12 HEAD)" "$KSRC"
