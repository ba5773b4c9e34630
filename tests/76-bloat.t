#!/usr/bin/env bash
# tools/bloat.sh: the base and integration built in, compared with the
# kernel's scripts/bloat-o-meter and by the sections kept after boot and
# freed with init memory. The series moves init tables into memory kept
# after boot, so the freed part must shrink and the kept part grow. Uses
# the WORK and builds of tests/70-boot.t and tests/75-equiv.t.
. "$(dirname "$0")/lib.sh"
scratch_checkout
use_boot_work
run_tool "$SCRATCH/tools/bloat.sh"
echo "$out" | grep '^bloat:' | diag
check "bloat-o-meter runs on the two built-in kernels and gives its total" eval \
	'passed && grep -qE "^    Total: Before=[0-9]+, After=[0-9]+" <<<"$out"'
kept() { sed -n "s/.*\"$1\":\\[\\([0-9]*\\),\\([0-9]*\\)\\].*/\\1 \\2/p" "$WORK/bloat.json"; }
check "the series keeps more after boot and frees less with init memory" eval \
	'read -r ka kb <<<"$(kept kept)" && read -r fa fb <<<"$(kept freed)" &&
	[ "$kb" -gt "$ka" ] && [ "$fb" -lt "$fa" ]'
done_testing
