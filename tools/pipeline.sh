#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make: the main job. Import the tree, build the topics and the
# integration branch, check defconfig equivalence, then build and boot
# integration in QEMU with the drivers built in and as modules, and prove
# the modules equivalent to the built-in base (tools/equiv.sh). Prints one
# line per step and a summary; writes $WORK/summary.json for bots.
. "$(dirname "$0")/lib.sh"

steps=(
	"tree|$TOP/tools/tree.sh"
	"topics|$TOP/tools/topics.sh"
	"integration|$TOP/tools/integration.sh"
	"check|$TOP/tools/check.sh"
	"boot-builtin|$TOP/tools/boot.sh integration builtin"
	"boot-modular|$TOP/tools/boot.sh integration modular"
	"equiv|$TOP/tools/equiv.sh"
)

take_lock
results=() json=() failed=
for s in "${steps[@]}"; do
	name=${s%%|*} cmd=${s#*|}
	if [ -n "$failed" ]; then
		results+=("$(printf '%-14s SKIP   (after %s failed)' "$name" "$failed")")
		json+=("{\"step\":\"$name\",\"result\":\"SKIP\",\"seconds\":0}")
		continue
	fi
	step "$name"
	start=$(date +%s)
	# Each step's own output goes to the terminal and to its log.
	if $cmd 2>&1 | tee "$LOGDIR/step-$name.log"; then r=PASS; else r=FAIL; failed=$name; fi
	secs=$(($(date +%s) - start))
	results+=("$(printf '%-14s %-6s %4ss  %s' "$name" "$r" "$secs" "$(tail -n1 "$LOGDIR/step-$name.log")")")
	json+=("{\"step\":\"$name\",\"result\":\"$r\",\"seconds\":$secs,\"log\":\"$LOGDIR/step-$name.log\"}")
done

echo
echo "exynos-gki summary (WORK=$WORK)"
printf '%s\n' "${results[@]}"
(IFS=,; echo "[${json[*]}]") >"$WORK/summary.json"
echo "JSON: $WORK/summary.json"
[ -z "$failed" ]
