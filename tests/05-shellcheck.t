#!/usr/bin/env bash
# ShellCheck, at warning level, finds nothing in the project's shell code;
# and it does find a seeded defect in a copy, so this test can fail.
# Tests read variables that run_tool sets and use others in eval strings,
# which shellcheck cannot follow: SC2034 and SC2154 are off for them.
. "$(dirname "$0")/lib.sh"
cd "$REPO" || exit 1

# lint FILE...: shellcheck as this project runs it.
lint() {
	local t=() s=() f
	for f in "$@"; do case $f in *.t | */tests/lib.sh | tests/lib.sh) t+=("$f") ;; *) s+=("$f") ;; esac; done
	out=$( { [ ${#s[@]} = 0 ] || shellcheck -x -S warning "${s[@]}"
		[ ${#t[@]} = 0 ] || shellcheck -x -S warning -e SC2034,SC2154 "${t[@]}"; } 2>&1)
	rc=$?
	[ -z "$out" ] || rc=1
}

lint tools/*.sh checks/*.sh tests/*.t tests/full/*.t tests/lib.sh tests/run .ci/run
check "shellcheck: no warning in tools/, checks/, tests/ and .ci/run" eval 'passed'

tmp=$(mktemp -d "$TEST_ROOT/shellcheck.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cp tools/check.sh "$tmp/check.sh"
sed -i 's/^take_lock$/take_lock\nrm -rf $WORK\/$(basename $1)/' "$tmp/check.sh"
lint "$tmp/check.sh"
check "shellcheck: a seeded unquoted expansion is found and named" eval 'failed && has "SC2046"'
done_testing
