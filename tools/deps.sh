#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make deps: install the Debian packages the pipeline uses. Idempotent:
# when everything is installed it only says so. Not root: print the line.
set -euo pipefail

packages="git make gcc libc6-dev linux-source-6.1 linux-source-6.12 xz-utils
	gcc-aarch64-linux-gnu libc6-dev-arm64-cross gcc-arm-linux-gnueabihf libc6-dev-armhf-cross
	bc bison flex libssl-dev libelf-dev cpio kmod ccache perl python3
	sparse coccinelle libpython3-dev python3-ply qemu-system-arm device-tree-compiler
	util-linux debootstrap shellcheck libfdt-dev clang-16 lld-16 llvm-16 b4"

missing=
for p in $packages; do
	dpkg-query -W -f '${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
if [ -z "$missing" ]; then
	echo "deps: all $(echo $packages | wc -w) packages installed"
	exit 0
fi
if [ "$(id -u)" != 0 ]; then
	echo "deps: missing:$missing" >&2
	echo "run as root: apt-get install -y$missing" >&2
	exit 1
fi
echo "deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends $missing >/dev/null
echo "deps: installed$missing"
