#!/usr/bin/env bash
# make help (tools/pipeline.sh --help) lists every step of the main job and
# every environment knob that tools/ and checks/ read with a default, and
# no knob that nothing reads; a knob added without a line there is named.
. "$(dirname "$0")/lib.sh"
scratch_checkout

# undocumented DIR: the knobs DIR's tools and gates read (${NAME:-...},
# ${NAME:=...}, ${NAME:?...}) that its --help does not list. Not knobs:
# the lock's re-entry marker and /etc/os-release's codename.
undocumented() {
	local help name bad=0
	help=$(WORK=$TEST_ROOT/help "$1/tools/pipeline.sh" --help) || { echo "# --help failed"; return 1; }
	for name in $(grep -ohE '\$\{[A-Z][A-Z0-9_]*:[-=?]' "$1"/tools/*.sh "$1"/checks/*.sh |
		sed -E 's/^\$\{//; s/:.$//' | sort -u); do
		case $name in EXYNOS_GKI_LOCKED | VERSION_CODENAME) continue ;; esac
		grep -qE "(^|[ ,])$name=" <<<"$help" || { echo "# $name is read but not in --help"; bad=1; }
	done
	return $bad
}
# stale: the knobs --help lists that nothing in tools/, checks/ or tests/ reads.
stale() {
	local name bad=0
	for name in $(WORK=$TEST_ROOT/help "$REPO/tools/pipeline.sh" --help | grep -oE '(^|[ ,])[A-Z][A-Z0-9_]+=' | tr -d ' ,='); do
		grep -rqw -- "$name" "$REPO"/tools/*.sh "$REPO"/checks/*.sh "$REPO"/tests/lib.sh "$REPO"/tests/run ||
			{ echo "# $name is in --help but nothing reads it"; bad=1; }
	done
	return $bad
}
steps_listed() {
	local s bad=0 help
	help=$(WORK=$TEST_ROOT/help "$REPO/tools/pipeline.sh" --help)
	for s in $(sed -n '/^steps=(/,/^)/s/^\t"\([a-z-]*\)|.*/\1/p' "$REPO/tools/pipeline.sh"); do
		grep -q "^  $s " <<<"$help" || { echo "# step $s is not listed"; bad=1; }
	done
	return $bad
}

check "--help lists every step of the main job" steps_listed
check "--help lists every environment knob that tools/ and checks/ read" undocumented "$REPO"
check "--help lists no knob that nothing reads" stale
sed -i 's/^timeout_s=\${BOOT_TIMEOUT:-120}$/&\nzz=${ZZ_SEEDED_KNOB:-1}/' "$SCRATCH/tools/boot.sh"
run_tool undocumented "$SCRATCH"
check "a knob read without a line in --help is named" eval '[ "$rc" != 0 ] && has "ZZ_SEEDED_KNOB is read but not in --help"'
done_testing
