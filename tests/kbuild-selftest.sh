#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Offline checks of tools/kbuild.sh: the console verdict and the option
# check, on made-up inputs. No kernel tree, build or QEMU needed: seconds.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# kbuild.sh wants lib.sh's WORK/TOP; point WORK at scratch space.
# shellcheck source=tools/lib.sh
export WORK=$tmp/work
. "$TOP/tools/lib.sh"
# shellcheck source=tools/kbuild.sh
. "$TOP/tools/kbuild.sh"
set +e
fails=0

# expect_verdict NAME RC WANT TEXT: TEXT (printf %b escapes) is the console,
# WANT a prefix of the verdict.
expect_verdict() {
	local got
	printf '%b' "$4" >"$tmp/console"
	got=$(kb_verdict "$tmp/console" "$2")
	if [ "${got#"$3"}" = "$got" ]; then
		printf 'FAIL %s: want "%s...", got "%s"\n' "$1" "$3" "$got"
		fails=$((fails + 1))
	else
		printf 'ok   %s\n' "$1"
	fi
}

ok2='KTAP version 1\r\n1..2\r\nok 1 mount proc\r\nok 2 load rtc-s3c\r\n'
expect_verdict "clean boot, CRLF" 0 "PASS 2 2" "Booting Linux\r\n$ok2"
expect_verdict "empty plan" 0 "PASS 0 0" 'KTAP version 1\n1..0\n'
expect_verdict "not ok" 0 "FAIL line 4: not ok 2" 'KTAP version 1\n1..2\nok 1 a\nnot ok 2 b # EPERM\n'
for pat in "Kernel panic - not syncing: x" "Internal error: Oops: 96000004" "BUG: sleeping function" \
	"WARNING: CPU: 0 PID: 1 at drivers/clk/clk.c:1" "rtc_s3c: Unknown symbol foo (err -2)" \
	"Section mismatch in reference"; do
	expect_verdict "pattern '$pat'" 0 "FAIL line 2: $pat" "Booting\n$pat\n$ok2"
done
# The first offending line names the cause, even when a later 'not ok' follows.
expect_verdict "first offender wins" 0 "FAIL line 1: WARNING: first" 'WARNING: first\nKTAP version 1\n1..1\nnot ok 1 x\n'
expect_verdict "no plan" 0 "FAIL no KTAP plan" 'Booting\nRun /init\n'
expect_verdict "short" 0 "FAIL the plan says 3 results, /init reported 1" 'KTAP version 1\n1..3\nok 1 a\n'
expect_verdict "timeout" 124 "FAIL timeout; last console line: ok 2" "$ok2"
expect_verdict "empty console" 124 "FAIL timeout; the console stayed empty" ''
expect_verdict "qemu error" 1 "FAIL qemu exited with status 1" "$ok2"

# The option check: the last fragment naming an option is the one asking.
printf 'CONFIG_A=y\nCONFIG_B=m\n# CONFIG_C is not set\nCONFIG_D=y\nCONFIG_S="x"\n' >"$tmp/f1.config"
printf 'CONFIG_B=y\n' >"$tmp/f2.config"
printf 'CONFIG_A=y\nCONFIG_B=y\nCONFIG_S="x"\n# CONFIG_D is not set\n' >"$tmp/.config"
kb_check_config "$tmp/.config" "$tmp/f1.config" "$tmp/f2.config" 2>"$tmp/err"
rc=$?
if [ $rc -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
	grep -q "^config: CONFIG_D: $tmp/f1.config:4 asks for y, olddefconfig gave n (is not set)$" "$tmp/err"; then
	echo "ok   option check names option, fragment:line, both values"
else
	echo "FAIL option check (rc $rc):"
	cat "$tmp/err"
	fails=$((fails + 1))
fi
printf 'CONFIG_D=y\n' >>"$tmp/.config"
sed -i '/^# CONFIG_D is not set/d' "$tmp/.config"
if kb_check_config "$tmp/.config" "$tmp/f1.config" "$tmp/f2.config" 2>"$tmp/err"; then
	echo "ok   option check passes when all is as asked"
else
	echo "FAIL option check on a matching .config:"
	cat "$tmp/err"
	fails=$((fails + 1))
fi

if [ "$(kb_name topic/clk-modular)" = topic-clk-modular ]; then
	echo "ok   kb_name"
else
	echo "FAIL kb_name: $(kb_name topic/clk-modular)"
	fails=$((fails + 1))
fi

# Topic fragments count only for revisions that contain the topic branch.
(
	set -e
	TOP=$tmp/top KSRC=$tmp/linux KB_CONFIGS=$tmp/top/boot/configs
	mkdir -p "$KB_CONFIGS" "$TOP/topics/foo" "$TOP/topics/bar" "$KSRC"
	touch "$KB_CONFIGS/virt.config" "$KB_CONFIGS/modular.config"
	printf '# order\nfoo\nbar\n' >"$TOP/topics/merge-order"
	touch "$TOP/topics/foo/topic.conf" "$TOP/topics/foo/modular.config"
	touch "$TOP/topics/bar/topic.conf" "$TOP/topics/bar/modular.config"
	git -C "$KSRC" init -q -b base
	git -C "$KSRC" -c user.name=t -c user.email=t@t commit -q --allow-empty -m base
	git -C "$KSRC" branch topic/foo
	git -C "$KSRC" checkout -q topic/foo
	git -C "$KSRC" -c user.name=t -c user.email=t@t commit -q --allow-empty -m foo
	# bar has no branch yet: never included.
	kb_fragments base modular
	[ "${#KB_FRAGMENTS[@]}" -eq 2 ]
	kb_fragments topic/foo modular
	[ "${#KB_FRAGMENTS[@]}" -eq 3 ] && [ "${KB_FRAGMENTS[2]}" = "$TOP/topics/foo/modular.config" ]
	EXTRA_FRAGMENT=$TOP/topics/bar/modular.config kb_fragments base modular
	[ "${#KB_FRAGMENTS[@]}" -eq 3 ] && [ "${KB_FRAGMENTS[2]}" = "$TOP/topics/bar/modular.config" ]
) >"$tmp/err" 2>&1
if [ $? -eq 0 ]; then
	echo "ok   topic fragments follow the built revision"
else
	echo "FAIL topic fragments:"
	cat "$tmp/err"
	fails=$((fails + 1))
fi

if [ $fails -ne 0 ]; then
	echo "kbuild-selftest: FAIL ($fails)"
	exit 1
fi
echo "kbuild-selftest: PASS"
