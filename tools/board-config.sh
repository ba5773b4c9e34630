#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tools/board-config.sh REV OUT DTB...: the configuration fragment that
# builds the drivers of the boards' own devices, as arm64 defconfig
# builds them, derived rather than typed:
#  1. the compatibles of every enabled node of each DTB that is memory
#     mapped (its parent has "ranges") or the root's: a device on an I2C,
#     SPI or serial bus has no model behind its controller here;
#  2. the source files of REV whose match tables (.compatible = or
#     *_OF_DECLARE) name one of them;
#  3. the Kconfig symbol of each file, read from its directory's Makefile
#     (obj-$(CONFIG_X) += file.o, or through a composite object); the
#     directories above are left to Kconfig's dependencies;
#  4. those symbols with the values arm64 defconfig gives them, and
#     everything their dependencies need (boot/kconfig-closure.c, the
#     tree's own Kconfig code).
# Symbols the build configurations set themselves (boot/configs, the
# topics' fragments) are left out: the series decides those. OUT gets the
# fragment, and OUT with -gki before .config its GKI-like twin (every
# Samsung/Exynos tristate a module); OUT.drivers "COMPATIBLE SYMBOL" per
# driver found for a node with registers (what graft can place); OUT.log,
# per compatible, which file and symbol, and what could not be placed (no
# driver in the tree, not in defconfig, another platform's).
# shellcheck source=tools/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=tools/kbuild.sh
. "$TOP/tools/kbuild.sh"

need dtc device-tree-compiler gcc gcc
[ $# -ge 3 ] || die "usage: tools/board-config.sh REV OUT DTB..."
rev=$1 outf=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
log=$outf.log
: >"$log"

# 1. Compatibles of the enabled nodes (dtc prints a node's properties
# before its subnodes, so an ancestor's status and ranges are known at
# each close).
for dtb in "$@"; do
	[ -f "$dtb" ] || die "$dtb: no such DTB (build it with make dtbs)"
	dtc -q -I dtb -O dts "$dtb"
done | awk '
	/{$/ { d++; comp[d] = ""; off[d] = off[d - 1]; reg[d] = 0; rng[d] = 0; next }
	/^[[:space:]]*};$/ {
		if (!off[d] && comp[d] != "" && (d <= 2 || rng[d - 1])) {
			s = comp[d]; gsub(/\n/, "\n" reg[d] " ", s); print reg[d] " " s
		}
		d--; next
	}
	/^[[:space:]]*ranges( =|;)/ { rng[d] = 1; next }
	/^[[:space:]]*status = "(disabled|fail)/ { off[d] = 1; next }
	/^[[:space:]]*reg = / { reg[d] = 1; next }
	/^[[:space:]]*compatible = / {
		s = $0; sub(/^[^=]*= /, "", s); sub(/;$/, "", s)
		gsub(/", "/, "\n", s); gsub(/\\0/, "\n", s); gsub(/"/, "", s); comp[d] = s
	}' | LC_ALL=C sort -u >"$tmp/nodes"
# "1 COMPAT" for a node with registers (graft places those), "0 COMPAT" else.
cut -d' ' -f2 "$tmp/nodes" | LC_ALL=C sort -u >"$tmp/compat"
echo "board-config: $(wc -l <"$tmp/compat") compatibles of enabled memory-mapped or root nodes in $# DTB(s)" >>"$log"

# 2. Every match-table compatible of the tree's drivers: "path compat".
kgit grep -o -E '(\.compatible[[:space:]]*=[[:space:]]*|OF_DECLARE[_A-Z]*\([^,]+,[[:space:]]*)"[^"]+"' \
	"$rev" -- 'drivers/*.c' 'sound/*.c' |
	sed -E 's/^[^:]+:([^:]+):.*"([^"]+)"$/\1 \2/' | LC_ALL=C sort -u >"$tmp/table"
awk 'NR == FNR { want[$0] = 1; next } ($2 in want) { print }' "$tmp/compat" "$tmp/table" >"$tmp/hits"
awk 'NR == FNR { hit[$2] = 1; next } !($0 in hit) { print "board-config: no driver in the tree matches " $0 }' \
	"$tmp/hits" "$tmp/compat" >>"$log"

# 3. makefile_symbols DIR OBJ: the CONFIG_ symbols that put OBJ (a .o
# name in DIR) in the build: directly, or through one composite object.
makefile() { kgit show "$rev:$1/Makefile" 2>/dev/null | sed -e ':a' -e '/\\$/N; s/\\\n/ /; ta'; }
makefile_symbols() {
	local dir=$1 obj=$2 comp
	makefile "$dir" | awk -v o="$obj" '
		{ for (i = 3; i <= NF; i++) if ($i == o) { print $1; next } }
		$2 !~ /=/ { for (i = 2; i <= NF; i++) if ($i == o) { print $1; next } }' |
		while read -r lhs; do
			case $lhs in
			obj-\$\(CONFIG_*\)*) sed -E 's/^obj-\$\(CONFIG_([A-Za-z0-9_]+)\).*/\1/' <<<"$lhs" ;;
			*-\$\(CONFIG_*\)*)
				sed -E 's/.*-\$\(CONFIG_([A-Za-z0-9_]+)\).*/\1/' <<<"$lhs"
				comp=$(sed -E 's/-\$\(CONFIG_.*//' <<<"$lhs")
				[ "$comp.o" = "$obj" ] || makefile_symbols "$dir" "$comp.o"
				;;
			*-y | *-objs | *-y+ | *-objs+)
				comp=${lhs%+}
				comp=${comp%-y} comp=${comp%-objs}
				[ "$comp.o" = "$obj" ] || makefile_symbols "$dir" "$comp.o"
				;;
			esac
		done
}
while read -r path c; do
	# Of alternatives (a file listed under two symbols) the first.
	sym=$(makefile_symbols "${path%/*}" "$(basename "$path" .c).o" | sed -n 1p)
	if [ -z "$sym" ]; then
		echo "board-config: $c: $path is built by no CONFIG_ symbol of its Makefile" >>"$log"
	else
		echo "board-config: $c: $path: $sym" >>"$log"
		echo "$sym" >>"$tmp/syms"
		echo "$c $sym" >>"$tmp/drivers"
	fi
done <"$tmp/hits"
[ -s "$tmp/syms" ] || die "no driver of the tree matches the boards' compatibles ($log)"

# 4. The closure, with arm64 defconfig as the reference.
o=$WORK/build/dtbs
[ -f "$o/.config" ] || kb_make "$o" -s defconfig >/dev/null || die "arm64 defconfig failed at $(kgit rev-parse --short HEAD)"
kb_lkc_tool "$o" "$TOP/boot/kconfig-closure.c" "$tmp/closure" 2>"$tmp/cc.log" ||
	die "boot/kconfig-closure.c does not build against the tree's scripts/kconfig: $(cat "$tmp/cc.log")"
# One closure per symbol: a driver whose dependencies need another
# platform (ARCH_*) than the configurations enable matches a generic
# compatible ("simple-bus") for some other SoC, and is left out.
# shellcheck disable=SC2046 # one symbol per argument
kb_kconfig_env "$tmp/closure" Kconfig "$o/.config" $(LC_ALL=C sort -u "$tmp/syms") </dev/null >"$tmp/closures" 2>"$tmp/closure.err" ||
	die "kconfig-closure failed: $(cat "$tmp/closure.err")"
sed 's/^unset /board-config: not in arm64 defconfig: /' "$tmp/closure.err" >>"$log"
grep -h '^CONFIG_ARCH_' "$KB_CONFIGS/virt.config" >"$tmp/arch"
awk -v logf="$log" '
	NR == FNR { arch[$0] = 1; next }
	function flush(  i, f) {
		if (sym == "") return
		f = ""
		for (i = 1; i <= n; i++) if (line[i] ~ /^CONFIG_ARCH_/ && !(line[i] in arch)) f = f " " line[i]
		if (f != "") print "board-config: left out " sym ": it needs" f >>logf
		else for (i = 1; i <= n; i++) print line[i]
	}
	$1 == "closure" { flush(); sym = $2; n = 0; next }
	{ line[++n] = $0 }
	END { flush() }' "$tmp/arch" "$tmp/closures" >"$tmp/closure.out"
# What the configurations set is theirs.
cat "$KB_CONFIGS"/*.config "$TOPICS"/*/*.config 2>/dev/null |
	sed -n -E 's/^(# )?(CONFIG_[A-Za-z0-9_]+)[= ].*/\2/p' | LC_ALL=C sort -u >"$tmp/own"
sed -n 's/^tristate //p' "$tmp/closure.out" | LC_ALL=C sort -u >"$tmp/tristate"
{
	echo "# The drivers of the devices of: $(for f in "$@"; do basename "$f"; done | paste -sd' ')"
	echo "# as arm64 defconfig builds them (tools/board-config.sh at $(kgit rev-parse --short "$rev"))."
	grep -v '^tristate ' "$tmp/closure.out" |
		awk -F= 'NR == FNR { own[$0] = 1; next } !($1 in own)' "$tmp/own" - | LC_ALL=C sort -u
} >"$outf.new"
# Its GKI-like twin (build configuration gki): what a generic kernel for
# many SoCs builds as modules, every Samsung/Exynos tristate of it.
{
	echo "# GKI-like: every Samsung/Exynos tristate below a module."
	awk -F= 'NR == FNR { tri[$0] = 1; next }
		$1 in tri && $1 ~ /EXYNOS|SAMSUNG|S3C|S5P/ && $2 == "y" { print $1 "=m"; next }
		{ print }' "$tmp/tristate" "$outf.new"
} >"${outf%.config}-gki.config"
mv "$outf.new" "$outf"
awk 'NR == FNR { if ($1) reg[$2] = 1; next } ($1 in reg)' "$tmp/nodes" "$tmp/drivers" | LC_ALL=C sort -u >"$outf.drivers"
echo "board-config: $(grep -c '^CONFIG_' "$outf") options in $outf" >>"$log"
