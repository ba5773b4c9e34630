#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make check [TOPIC=x]: run every gate in checks/ on every topic and on the
# integration branch (or on one topic). One line per gate and target, full
# logs in $WORK/logs/check-<gate>-<target>.log, JSON in $WORK/check.json.
# A result is reused while its inputs (the gate's code, the target's
# commits, the topic's files) are unchanged.
. "$(dirname "$0")/lib.sh"

GATES=${GATES:-checkpatch scope provenance kconfig kconfig-matrix coccicheck sparse modpost bisect arm32}
take_lock
targets=${1:-"$(topic_list | tr '\n' ' ')integration"}
cache=$WORK/check-cache
mkdir -p "$cache"

# input_key GATE TARGET: everything the gate's verdict depends on.
input_key() {
	local gate=$1 target=$2 dirs d b
	if [ "$target" = integration ]; then dirs=$TOP/topics; else dirs=$TOP/topics/$target; fi
	{
		# The gate's files (checks/<gate>.sh and its helpers <gate>.*).
		cat "$TOP/checks/$gate".* "$TOP/checks/lib.sh" "$TOP"/tools/*.sh "$TOP/MAINTAINERS.local"
		tool_versions
		for d in "$dirs" "$TOP/boot/configs" "$TOP/coccinelle"; do
			[ -d "$d" ] && find "$d" \( -type f -o -type l \)
		done | LC_ALL=C sort | xargs -r cat
		kgit rev-parse "$(base_tag)"
		if [ "$target" = integration ]; then b=integration; else b=$(topic_branch "$target"); fi
		kgit rev-parse -q --verify "$b" || echo "no branch $b"
	} | sha256sum | cut -d' ' -f1
}

printf '%-14s %-12s %-5s %7s  %s\n' GATE TARGET RESULT SECONDS SUMMARY
json=() failed=0
for target in $targets; do
	for gate in $GATES; do
		[ -x "$TOP/checks/$gate.sh" ] || continue
		log=$LOGDIR/check-$gate-$target.log
		key=$(input_key "$gate" "$target")
		start=$(date +%s.%N)
		if [ -f "$cache/$gate-$target.key" ] && [ "$(cat "$cache/$gate-$target.key")" = "$key" ]; then
			line=$(tail -n1 "$cache/$gate-$target.log") how=cached
			cp "$cache/$gate-$target.log" "$log"
		else
			"$TOP/checks/$gate.sh" "$target" >"$log" 2>&1 || true
			line=$(tail -n1 "$log") how=ran
			rm -f "$cache/$gate-$target.key"
			case $line in "$gate: PASS"*|"$gate: SKIP"*)
				cp "$log" "$cache/$gate-$target.log"; echo "$key" >"$cache/$gate-$target.key" ;;
			esac
		fi
		secs=$(printf '%.1f' "$(echo "$(date +%s.%N) - $start" | bc)")
		result=$(sed -n "s/^$gate: \(PASS\|FAIL\|SKIP\) .*/\1/p" <<<"$line")
		summary=${line#"$gate: $result "}
		[ -n "$result" ] || { result=FAIL summary="gate died: $(tail -n1 "$log")"; }
		[ "$result" = FAIL ] && failed=$((failed + 1))
		printf '%-14s %-12s %-5s %6ss  %s%s\n' "$gate" "$target" "$result" "$secs" "$summary" \
			"$([ "$how" = cached ] && echo ' (cached)')"
		[ "$result" = FAIL ] && grep -v "^$gate: " "$log" | head -n 15 | sed 's/^/      /'
		json+=("$(printf '{"gate":"%s","target":"%s","result":"%s","seconds":%s,"cached":%s,"summary":"%s","log":"%s"}' \
			"$gate" "$target" "$result" "$secs" "$([ "$how" = cached ] && echo true || echo false)" \
			"$(sed 's/[\\"]/\\&/g' <<<"$summary")" "$log")")
	done
done
(IFS=,; echo "[${json[*]}]") >"$WORK/check.json"
echo "JSON: $WORK/check.json"
[ "$failed" = 0 ] && echo "check: PASS" || { echo "check: FAIL ($failed gate results failed; logs in $LOGDIR)"; exit 1; }
