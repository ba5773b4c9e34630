#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tools/cocci-exports.sh TOPIC [REV]: the exports TOPIC's modules need
# between each other, as a patch on stdout (empty when REV has them all),
# made by coccinelle/exports.cocci over the topic's 'exports' directory at
# REV (default: the topic's tip). Which object is in which module is what
# kbuild makes of that directory's Makefile at REV for the topic tip's
# modular .config. The tree and the checkout are left as they were.
#   topic.conf: exports = DIRECTORY NAMESPACE
. "$(dirname "$0")/lib.sh"
. "$TOP/tools/kbuild.sh"

[ $# -ge 1 ] && [ $# -le 2 ] || die "usage: tools/cocci-exports.sh TOPIC [REV]"
topic=$1
conf=$(topic_dir "$topic")/topic.conf
read -r dir ns <<<"$(conf_get "$conf" exports "")"
[ -n "$ns" ] || die "${conf#"$TOP/"} has no 'exports = DIRECTORY NAMESPACE' line"
tip=$(topic_branch "$topic")
rev=${2:-$tip}
kgit rev-parse -q --verify "$rev^{commit}" >/dev/null || die "no revision $rev in $KSRC (run 'make topics')"
need spatch coccinelle
rule=$TOP/coccinelle/exports.cocci
start=$SECONDS

# The modules: the topic tip's modular .config (configured in its own
# build directory, kept for the next run), read by kbuild's Makefile code.
take_lock
require_clean_tree
o=$WORK/build/exports-$topic
kb_fragments "$tip" modular
begin_tree_op "cocci-exports: configure $tip"
kgit checkout -q --detach "$tip"
kb_configure "$o" "$tip" "${KB_FRAGMENTS[@]}" >"$LOGDIR/exports-$topic-config.log" 2>&1 || {
	kgit checkout -q --detach "$(base_tag)"
	end_tree_op
	die "cannot configure $tip modular (log: $LOGDIR/exports-$topic-config.log)"
}
kgit checkout -q --detach "$(base_tag)"
end_tree_op

s=$(mktemp -d "$WORK/exports.XXXXXX")
trap 'rm -rf "$s"' EXIT
mkdir -p "$s/a"
kgit archive "$rev" "$dir" scripts/Kbuild.include scripts/Makefile.lib | tar -x -C "$s/a"
make -s -f "$TOP/checks/kconfig-matrix.mk" srctree="$s/a" CONFIG="$o/.config" obj="$dir" |
	awk '$1 == "module" { print $2, $3 }' >"$s/modmap"
files=$(awk '{ sub(/\.o$/, ".c", $2); print $2 }' "$s/modmap" | sort -u)
[ -n "$files" ] || die "kbuild builds no module in $dir with $o/.config"
nmod=$(cut -d' ' -f1 "$s/modmap" | sort -u | wc -l)

# Pass 1, all files in one run (the rule keeps what it saw across them).
# shellcheck disable=SC2086 # one argument per file
(cd "$s/a" && spatch --very-quiet --no-includes --include-headers -D scan -D ns="$ns" \
	-D modmap="$s/modmap" --cocci-file "$rule" $files) >"$s/found" 2>"$s/err" ||
	die "spatch -D scan failed at $rev: $(head -c 500 "$s/err")"
{ grep "^nolicense " "$s/found" || true; } | sed 's/^nolicense /cocci-exports: cannot add MODULE_IMPORT_NS(), no MODULE_LICENSE() in /' >&2

# Pass 2, per file, with what pass 1 found there.
cp -a "$s/a" "$s/b"
list() { awk -v k="$1" -v f="$2" '$1 == k && $2 == f { printf "%s%s", sep, $3; sep = "," }' "$s/found"; }
for f in $(awk '$1 != "nolicense" { print $2 }' "$s/found" | sort -u); do
	ex=$(list export "$f") un=$(list uninit "$f")
	imp=
	if grep -qxF "import $f" "$s/found"; then imp="-D importer"; fi
	# shellcheck disable=SC2086 # $imp is an option or nothing
	(cd "$s/b" && spatch --very-quiet --no-includes --include-headers --in-place -D patch -D ns="$ns" \
		-D exports="${ex:--}" -D uninit="${un:--}" $imp --cocci-file "$rule" "$f") >"$s/err" 2>&1 ||
		die "spatch -D patch failed on $f at $rev: $(head -c 500 "$s/err")"
done
(cd "$s" && git diff --no-index --no-prefix a b) || true
printf 'cocci-exports: %s at %s: %d modules, %d exports, %d imports, %d __init dropped, %ds\n' "$dir" \
	"$(kgit rev-parse --short "$rev")" "$nmod" "$(grep -c '^export ' "$s/found")" \
	"$(grep -c '^import ' "$s/found")" "$(grep -c '^uninit ' "$s/found")" $((SECONDS - start)) >&2
