#!/usr/bin/env bash
# boot/regimg.c, the register image tool of the equivalence suite, on
# small descriptions: what it writes, and each malformed line refused
# with the file, the line and what it wants.
. "$(dirname "$0")/lib.sh"
rdir=$(mktemp -d "$TEST_ROOT/regimg.XXXXXX")
trap 'rm -rf "$rdir"' EXIT
gcc -O2 -Wall -Werror -o "$rdir/regimg" "$REPO/boot/regimg.c"
check "regimg builds with -Wall -Werror" test -x "$rdir/regimg"

# regimg DESCRIPTION-LINES...: run it on a description made of the lines.
regimg() {
	printf '%s\n' "$@" >"$rdir/t.regs"
	rm -rf "$rdir/out" && mkdir "$rdir/out"
	run_tool "$rdir/regimg" "$rdir/t.regs" "$rdir/out"
}

regimg "block top 0x5f030000" "0x0 0x12345678" "0x8 bcd 42   # a comment"
check "a plain value and a BCD value land at their offsets, little-endian" eval \
	'passed && test "$(od -An -tx4 -v "$rdir/out"/* | tr -s " " | sed "s/^ //")" = "12345678 00000000 00000042"'

regimg "0x0 0x1"
check "a register before the first block is refused" eval 'failed && has "t.regs:1" && has "before the first"'
regimg "block top 0x5f030000" "0x2 0x1"
check "an offset that is not 32-bit aligned is refused" eval 'failed && has "t.regs:2" && has "not 32-bit aligned"'
regimg "block top 0x5f030000" "0x0 pll35xx 250 3 0 0x10"
check "a PLL word takes extra bits ORed in (FSD's mux bit in PLL_CON0)" eval \
	'passed && test "$(od -An -tx4 -v "$rdir/out"/* | tr -d " ")" = "a0fa0310"'
regimg "block top 0x5f030000" "0x0 pll35xx 46 1 1 0x10 extra"
check "a seventh field is refused, not ignored" eval 'failed && has "t.regs:2" && has "more than six fields"'
regimg "block top 0x5f030000" "0x0 pll35xx 46 1 1 nonsense"
check "extra PLL bits that are no number are refused" eval 'failed && has "t.regs:2"'
regimg "block top 0x5f030000" "0x0 0x1 0x2"
check "three fields that are no known form are refused, naming the forms" eval 'failed && has "want: OFFSET VALUE"'
regimg "window 0x50000000 0x10000000" "block top 0x120e0000" "0x0 0x1"
check "under a window, a real address is seeded at base + address modulo size" eval \
	'passed && has "addr=0x520e0000"'
regimg "block top 0x5f030000" "window 0x50000000 0x10000000"
check "a window after the first block is refused" eval 'failed && has "t.regs:2" && has "before the first block"'
regimg "window 0x50000000 0x3000000"
check "a window size that is not a power of two is refused" eval 'failed && has "not a power of two"'
done_testing
