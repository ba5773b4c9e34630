#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tools/build.sh REV CONFIG: check REV out (detached) in $KSRC and build an
# arm64 Image and modules for QEMU virt out of tree in
# $WORK/build/<rev>-<CONFIG>, then stage the modules with depmod.
#   CONFIG          builtin | modular | gki (any boot/configs/<CONFIG>.config but virt)
#   EXTRA_FRAGMENT  extra config fragment(s), merged last (tests)
#   KB_BOARD_FRAGMENT  the drivers of whole boards (tools/board-config.sh),
#                   built in $WORK/build/<rev>-<CONFIG>-board
# shellcheck source=tools/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=tools/kbuild.sh
. "$TOP/tools/kbuild.sh"

[ $# -eq 2 ] || die "usage: tools/build.sh REV CONFIG (CONFIG: builtin, modular or gki)"
rev=$1 cfg=$2
kb_check_config_name "$cfg"
need make make ${KB_CROSS}gcc gcc-aarch64-linux-gnu flock util-linux \
	bison bison flex flex bc bc

start=$SECONDS
o=$(kb_outdir "$rev" "$cfg")
log=$LOGDIR/build-${BUILD_NAME:-$(kb_name "$rev")}-$cfg${KB_BOARD_FRAGMENT:+-board}.log

take_lock
sha=$(kb_rev "$rev")

# fail WHAT [notail]: the summary line, after the log's tail unless the
# caller printed something better already.
fail() {
	if [ $# -lt 2 ]; then
		printf '%s\n' "--- last 40 lines of $log:" >&2
		tail -n 40 "$log" >&2
	fi
	printf 'build: FAIL %s %s %ds: %s (log: %s)\n' "$rev" "$cfg" $((SECONDS - start)) "$1" "$log"
	exit 1
}

kb_fragments "$sha" "$cfg"
# A build directory last built from this very tree, configuration inputs,
# toolchain and build tools is what make would leave it as, and kbuild's
# no-op alone takes seconds: it is used as it is, its log too. Otherwise a
# kept build of the same stamp comes back as a copy (kb_restore).
tree=$(kgit rev-parse "$sha^{tree}")
stamp=$( {
	echo "$tree"
	kb_config_stamp "$sha" "${KB_FRAGMENTS[@]}"
	cat "$TOP/tools/build.sh" "$TOP/tools/kbuild.sh"
} | sha256sum | cut -c1-40)
if [ "$(cat "$o/.kb-build-stamp" 2>/dev/null)" = "$stamp" ] && [ -f "$log" ] && [ -d "$o/staging" ] &&
	[ -f "$o/arch/arm64/boot/Image" ]; then
	printf 'build: PASS %s %s %d modules %ds, unchanged since its last build (log: %s)\n' "$rev" "$cfg" \
		"$(find "$o/staging" -name '*.ko' | wc -l)" $((SECONDS - start)) "$log"
	exit 0
fi
if kb_restore "$o" "$cfg" "$stamp" "$tree"; then
	cp "$o/.kb-build.log" "$log"
	printf 'build: PASS %s %s %d modules %ds, kept from an earlier build (log: %s)\n' "$rev" "$cfg" \
		"$(find "$o/staging" -name '*.ko' | wc -l)" $((SECONDS - start)) "$log"
	exit 0
fi
rm -f "$o/.kb-build-stamp"

# Only a build checks REV out (a build kept or unchanged leaves $KSRC as it
# is): kb_incremental below dates what differs from the directory's tree.
require_clean_tree
begin_tree_op "build.sh: checkout $rev"
kgit checkout -q --detach "$sha"
end_tree_op

: >"$log"
printf '# tools/build.sh %s %s at %s\n' "$rev" "$cfg" "$sha" >>"$log"
# The first build of a configuration under a name starts from a copy of
# the finished build directory of another configuration under that name:
# kbuild then recompiles only what the configuration change reaches, as
# it does when one directory is reconfigured.
if [ ! -e "$o/.config" ]; then
	for seed in "$KB_CONFIGS"/*.config; do
		seed=${seed##*/} seed=${seed%.config}
		case $seed in virt | "$cfg") continue ;; esac
		seed=$(kb_outdir "$rev" "$seed")
		[ -f "$seed/.kb-build-stamp" ] || continue
		step "seed $o from $seed"
		rm -rf "$o.seed"
		{ cp -a "$seed" "$o.seed" && rm -rf "$o" && mv "$o.seed" "$o"; } >>"$log" 2>&1 || fail "copy of $seed"
		rm -f "$o/.kb-build-stamp" "$o/.kb-config-stamp"
		break
	done
fi
kb_incremental "$o" "$tree"
step "config: allnoconfig + ${KB_FRAGMENTS[*]#"$TOP/"}"
if ! kb_configure "$o" "$sha" "${KB_FRAGMENTS[@]}" >>"$log" 2>&1; then
	bad=$(grep '^config: CONFIG_' "$log" || true)
	[ -n "$bad" ] || fail "config (kconfig failed)"
	printf '%s\n' "$bad" >&2
	fail "config: $(printf '%s\n' "$bad" | wc -l) requested option(s) not in the final .config (above)" notail
fi

step "make Image modules (-j$(nproc), log: $log)"
kb_make "$o" -j"$(nproc)" Image modules 2>&1 | kb_progress "$log" || fail "make"

step "modules_install + depmod"
staging=$o/staging
rel=$(kb_release "$o")
rm -rf "$staging"
# depmod runs below, with its warnings made fatal.
kb_make "$o" INSTALL_MOD_PATH="$staging" DEPMOD=true modules_install >>"$log" 2>&1 ||
	fail "modules_install"
# A tree without modules installs nothing: /init still wants modules.dep.
mkdir -p "$staging/lib/modules/$rel"
kb_depmod -b "$staging" -e -F "$o/System.map" "$rel" >>"$log" 2>"$o/depmod.err" || fail "depmod"
if [ -s "$o/depmod.err" ]; then
	cat "$o/depmod.err" >>"$log"
	cat "$o/depmod.err" >&2
	fail "depmod warnings (above)"
fi

nmod=$(find "$staging/lib/modules/$rel" -name '*.ko' | wc -l)
echo "$stamp" >"$o/.kb-build-stamp"
kb_built "$o" "$tree"
cp "$log" "$o/.kb-build.log"
# A branch or tag (not a bare commit of a walk) is a start point to keep.
named=named
[[ ! $rev =~ ^[0-9a-f]{7,40}$ ]] || named=
kb_keep "$o" "$cfg" "$stamp" $named || echo "build: could not keep a copy of $o (disk full?); going on" >&2
printf 'build: PASS %s %s %d modules %ds\n' "$rev" "$cfg" "$nmod" $((SECONDS - start))
