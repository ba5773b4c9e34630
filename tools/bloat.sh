#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tools/bloat.sh [REV]: what the series costs a kernel with the Samsung
# drivers built in. Builds the base and REV (default integration) in the
# builtin configuration (tools/build.sh) and prints
#  - scripts/bloat-o-meter between the two vmlinux files (symbol sizes:
#    the code and tables the series adds);
#  - the sizes of the sections that stay after boot and of those freed
#    with init memory: the tables that no longer are __initconst/__initdata
#    move from the second kind to the first.
# Also writes $WORK/bloat.json.
# shellcheck source=tools/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=tools/kbuild.sh
. "$TOP/tools/kbuild.sh"

need "${KB_CROSS}size" binutils-aarch64-linux-gnu "${KB_CROSS}nm" binutils-aarch64-linux-gnu
rev_b=${1:-integration}
rev_a=$(base_tag)
take_lock
for r in "$rev_a" "$rev_b"; do
	"$TOP/tools/build.sh" "$r" builtin >"$LOGDIR/bloat-build-$(kb_name "$r").log" 2>&1 ||
		die "$r builtin does not build: $LOGDIR/bloat-build-$(kb_name "$r").log"
done
va=$(kb_outdir "$rev_a" builtin)/vmlinux vb=$(kb_outdir "$rev_b" builtin)/vmlinux

echo "bloat: $rev_a builtin -> $rev_b builtin (scripts/bloat-o-meter, largest changes)"
# It runs ${CROSS_COMPILE}nm.
CROSS_COMPILE=$KB_CROSS "$KSRC/scripts/bloat-o-meter" "$va" "$vb" >"$LOGDIR/bloat-o-meter.txt" ||
	die "scripts/bloat-o-meter failed (above)"
sed -n '1,12p' "$LOGDIR/bloat-o-meter.txt" | sed 's/^/    /'
echo "    ... (all: $LOGDIR/bloat-o-meter.txt)"
tail -n1 "$LOGDIR/bloat-o-meter.txt" | sed 's/^/    /'

# kept/freed VMLINUX: the bytes of the sections kept after boot, and of
# the init sections freed by free_initmem().
sections() {
	"${KB_CROSS}size" -A "$1" | awk '
		$1 ~ /^\.init\./ { freed += $2; next }
		$1 ~ /^\.(head\.text|text|rodata|data|data\.\.ro_after_init|bss)$/ { kept += $2 }
		END { print kept + 0, freed + 0 }'
}
read -r ka fa <<<"$(sections "$va")"
read -r kb fb <<<"$(sections "$vb")"
printf 'bloat: kept after boot %d -> %d bytes (%+d); freed with init memory %d -> %d bytes (%+d)\n' \
	"$ka" "$kb" $((kb - ka)) "$fa" "$fb" $((fb - fa))
printf '{"a":"%s builtin","b":"%s builtin","bloat_o_meter":"%s","kept":[%d,%d],"freed":[%d,%d]}\n' \
	"$rev_a" "$rev_b" "$(tail -n1 "$LOGDIR/bloat-o-meter.txt")" "$ka" "$kb" "$fa" "$fb" >"$WORK/bloat.json"
