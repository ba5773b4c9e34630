#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make check [TOPIC=x]: run every gate in checks/ on every topic and on the
# integration branch (or on one topic). One line per gate and target, full
# logs in $WORK/logs/check-<gate>-<target>.log, JSON in $WORK/check.json.
# A result is reused while its inputs (the gate's code, the target's
# commits, the topic's files) are unchanged.
. "$(dirname "$0")/lib.sh"

GATES=${GATES:-checkpatch scope provenance kconfig kconfig-matrix coccicheck exports sparse modpost bisect arm32}
GATES=${GATES//,/ } # commas too, for a command line that is word-split
take_lock
targets=${1:-"$(topic_list | tr '\n' ' ')integration"}
cache=$WORK/check-cache
mkdir -p "$cache"

# input_key GATE TARGET: everything the gate's verdict depends on.
input_key() {
	local gate=$1 target=$2 dirs d b
	if [ "$target" = integration ]; then dirs=$TOPICS; else dirs=$TOPICS/$target; fi
	{
		# The gate's files (checks/<gate>.sh and its helpers <gate>.*).
		cat "$TOP/checks/$gate".* "$TOP/checks/lib.sh" "$TOP"/tools/*.sh "$TOP/MAINTAINERS.local"
		tool_versions
		# (not the topics of the other bases, under topics/<version>/),
		# and the base's own files beside its topic folders (merge
		# order, Kconfig matrix spec), which every topic's gates read.
		{
			for d in "$dirs" "$TOP/boot/configs" "$TOP/coccinelle"; do
				[ -d "$d" ] && find "$d" -path "$TOPICS/[0-9]*" -prune -o \( -type f -o -type l \) -print
			done
			find "$TOPICS" -maxdepth 1 -type f
		} | LC_ALL=C sort -u | xargs -r cat
		kgit rev-parse "$(base_tag)"
		if [ "$target" = integration ]; then b=integration; else b=$(topic_branch "$target"); fi
		kgit rev-parse -q --verify "$b" || echo "no branch $b"
	} | sha256sum | cut -d' ' -f1
}

# run_gate GATE TARGET LOG VERDICT: run the gate; VERDICT gets its one
# JSON verdict line. A gate that wrote none, or more than one, or whose
# exit status disagrees with it, has failed whatever it printed.
run_gate() {
	local gate=$1 target=$2 log=$3 verdict=$4 rc=0 r n why
	rm -f "$verdict"
	GATE_JSON=$verdict "$TOP/checks/$gate.sh" "$target" >"$log" 2>&1 || rc=$?
	touch "$verdict"
	n=$(wc -l <"$verdict")
	r=$(sed -n 's/.*"result":"\(PASS\|FAIL\|SKIP\)".*/\1/p' "$verdict" | tail -n1)
	case "$n:$r:$rc" in
	1:PASS:0 | 1:SKIP:0 | 1:FAIL:1) return 0 ;;
	0::*) why="gate died (exit status $rc) without a verdict: $(tail -n1 "$log")" ;;
	1:*) why="exit status $rc disagrees with its verdict $r" ;;
	*) why="$n verdicts: $(sed -n 's/.*"summary":"\(.*\)"}$/\1/p' "$verdict" | paste -sd'|' -)" ;;
	esac
	printf '{"gate":"%s","target":"%s","result":"FAIL","summary":%s}\n' "$gate" "$target" "$(json_str "$why")" >"$verdict"
}

printf '%-14s %-12s %-5s %7s  %s\n' GATE TARGET RESULT SECONDS SUMMARY
json=() failed=0
for target in $targets; do
	for gate in $GATES; do
		[ -x "$TOP/checks/$gate.sh" ] || continue
		log=$LOGDIR/check-$gate-$target.log
		verdict=$cache/$gate-$target.json
		key=$(input_key "$gate" "$target")
		start=$EPOCHREALTIME
		if [ -f "$cache/$gate-$target.key" ] && [ -f "$verdict" ] && [ "$(cat "$cache/$gate-$target.key")" = "$key" ]; then
			cached=true
			cp "$cache/$gate-$target.log" "$log"
		else
			cached=false
			rm -f "$cache/$gate-$target.key"
			run_gate "$gate" "$target" "$log" "$verdict"
		fi
		secs=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
		line=$(cat "$verdict")
		result=$(sed -n 's/.*"result":"\([A-Z]*\)".*/\1/p' <<<"$line")
		summary=$(sed -e 's/.*"summary":"\(.*\)"}$/\1/' -e 's/\\\(["\\]\)/\1/g' <<<"$line")
		if [ "$cached" = false ] && [ "$result" != FAIL ]; then
			cp "$log" "$cache/$gate-$target.log"
			echo "$key" >"$cache/$gate-$target.key"
		fi
		[ "$result" = FAIL ] && failed=$((failed + 1))
		printf '%-14s %-12s %-5s %6ss  %s%s\n' "$gate" "$target" "$result" "$secs" "$summary" \
			"$([ "$cached" = true ] && echo ' (cached)')"
		if [ "$result" = FAIL ]; then
			{ grep -v "^$gate: " "$log" || true; } | head -n 15 | sed 's/^/      /'
		fi
		json+=("${line%\}},\"seconds\":$secs,\"cached\":$cached,\"log\":$(json_str "$log")}")
	done
done
(IFS=,; echo "[${json[*]}]") >"$WORK/check.json"
echo "JSON: $WORK/check.json"
[ "$failed" = 0 ] && echo "check: PASS" || { echo "check: FAIL ($failed gate results failed; logs in $LOGDIR)"; exit 1; }
