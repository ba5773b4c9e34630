#!/usr/bin/env bash
# The helpers the gates share, on small inputs: no kernel needed.
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d "$TEST_ROOT/gate-lib.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export WORK=$tmp/work

# As a gate sources it: $0 names the gate, the argument the target.
# shellcheck disable=SC2016 # expanded by the inner shell
lib='. "$1/checks/lib.sh" integration'
printf 'a.c: warning: x\na.c: warning: x\nb.c: warning: y\n' >"$tmp/tip"
printf 'a.c: warning: x\nb.c: warning: y\n' >"$tmp/base"
out=$(bash -c "$lib"' && new_findings "$2" "$3"' checks/sparse.sh "$REPO" "$tmp/tip" "$tmp/base" 2>&1)
check "new_findings: a warning that occurs more often at the tip is new" eval '[ "$out" = "a.c: warning: x" ]'
out=$(bash -c "$lib"' && new_findings "$2" "$2"' checks/sparse.sh "$REPO" "$tmp/tip" 2>&1)
check "new_findings: the same findings are nothing new" eval '[ -z "$out" ]'

out=$(bash -c "$lib"' && k=$(result_key a b) && echo v1 | result_put "$k" && result_get "$k" &&
	k2=$(result_key a c) && { result_get "$k2" || echo none; }' checks/sparse.sh "$REPO" 2>&1)
check "results: stored under their inputs, another input finds nothing" eval '[ "$out" = "v1
none" ]'
done_testing
