#!/usr/bin/env bash
# tools/kbuild.sh on made-up inputs, in seconds: the console verdict of
# boot.sh, the option check of build.sh, and which topic fragments a
# revision gets. No kernel tree, build or QEMU.
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d "$TEST_ROOT/kbuild.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export WORK=$tmp/work
# shellcheck source=tools/lib.sh
. "$REPO/tools/lib.sh"
# shellcheck source=tools/kbuild.sh
. "$REPO/tools/kbuild.sh"
set +e

# verdict NAME RC WANT TEXT: the verdict on console TEXT (printf %b
# escapes) and qemu status RC starts with WANT.
verdict() {
	local got
	printf '%b' "$4" >"$tmp/console"
	got=$(kb_verdict "$tmp/console" "$2")
	if [ "${got#"$3"}" != "$got" ]; then ok "verdict: $1"; else
		not_ok "verdict: $1"
		echo "# want '$3...', got '$got'"
	fi
}

ok2='KTAP version 1\r\n1..2\r\nok 1 mount proc\r\nok 2 load rtc-s3c\r\n'
verdict "clean boot with CRLF line ends" 0 "PASS 2 2" "Booting Linux\r\n$ok2"
verdict "an empty plan passes" 0 "PASS 0 0" 'KTAP version 1\n1..0\n'
verdict "'not ok' fails, naming the line" 0 "FAIL line 4: not ok 2 b # EPERM" \
	'KTAP version 1\n1..2\nok 1 a\nnot ok 2 b # EPERM\n'
for pat in "Kernel panic - not syncing: x" "Internal error: Oops: 96000004" "BUG: sleeping function" \
	"WARNING: CPU: 0 PID: 1 at drivers/clk/clk.c:1" "rtc_s3c: Unknown symbol foo (err -2)" \
	"Section mismatch in reference"; do
	verdict "'$pat' fails, naming the line" 0 "FAIL line 2: $pat" "Booting\n$pat\n$ok2"
done
verdict "the first offending line is the one named" 0 "FAIL line 1: WARNING: first" \
	'WARNING: first\nKTAP version 1\n1..1\nnot ok 1 x\n'
verdict "no KTAP plan fails" 0 "FAIL no KTAP plan" 'Booting\nRun /init\n'
verdict "fewer results than planned fails" 0 "FAIL the plan says 3 results, /init reported 1" \
	'KTAP version 1\n1..3\nok 1 a\n'
verdict "a timeout fails, naming the last line" 124 "FAIL timeout; last console line: ok 2" "$ok2"
verdict "a timeout with a silent console says so" 124 "FAIL timeout; the console stayed empty" ''
verdict "a qemu error fails" 1 "FAIL qemu exited with status 1" "$ok2"

# The option check: the last fragment naming an option is the one asking.
printf 'CONFIG_A=y\nCONFIG_B=m\n# CONFIG_C is not set\nCONFIG_D=y\nCONFIG_S="x y"\n' >"$tmp/f1.config"
printf 'CONFIG_B=y\n' >"$tmp/f2.config"
printf 'CONFIG_A=y\nCONFIG_B=y\nCONFIG_S="x y"\n# CONFIG_D is not set\n' >"$tmp/.config"
kb_check_config "$tmp/.config" "$tmp/f1.config" "$tmp/f2.config" 2>"$tmp/err"
rc=$?
check "option check: fails naming option, fragment:line and both values" eval \
	'[ $rc = 1 ] && [ "$(wc -l <"$tmp/err")" = 1 ] &&
	grep -qx "config: CONFIG_D: $tmp/f1.config:4 asks for y, olddefconfig gave n (is not set)" "$tmp/err" ||
	{ diag <"$tmp/err"; false; }'
printf 'CONFIG_Z=m\n' >"$tmp/f3.config"
kb_check_config "$tmp/.config" "$tmp/f3.config" 2>"$tmp/err"
check "option check: an option missing from .config is named as such" eval \
	'grep -q "^config: CONFIG_Z: .* asks for m, olddefconfig gave nothing (not in .config" "$tmp/err"'
sed -i 's/^# CONFIG_D is not set/CONFIG_D=y/' "$tmp/.config"
check "option check: passes when all is as asked" kb_check_config "$tmp/.config" "$tmp/f1.config" "$tmp/f2.config"

check "build directory names: slashes become dashes" eval \
	'[ "$(kb_outdir topic/clk modular)" = "$WORK/build/topic-clk-modular" ]'

# Topic fragments count only for revisions that contain the topic branch.
(
	set -e
	TOP=$tmp/top KSRC=$tmp/linux KB_CONFIGS=$tmp/top/boot/configs
	TOPICS=$TOP/topics TOPICS_REL=topics
	mkdir -p "$KB_CONFIGS" "$TOP/topics/foo" "$TOP/topics/bar" "$TOP/topics/baz" "$KSRC"
	touch "$KB_CONFIGS/virt.config" "$KB_CONFIGS/modular.config" "$KB_CONFIGS/builtin.config"
	printf '# order\nfoo\nbar\nbaz\n' >"$TOP/topics/merge-order"
	printf 'fragment = topics/foo/mod.config\n' >"$TOP/topics/foo/topic.conf"
	touch "$TOP/topics/foo/mod.config" "$TOP/topics/foo/builtin.config"
	touch "$TOP/topics/bar/topic.conf" "$TOP/topics/bar/modular.config" "$TOP/topics/baz/topic.conf"
	git -C "$KSRC" init -q -b base
	git -C "$KSRC" -c user.name=t -c user.email=t@t commit -q --allow-empty -m base
	git -C "$KSRC" branch topic/foo
	git -C "$KSRC" checkout -q topic/foo
	git -C "$KSRC" -c user.name=t -c user.email=t@t commit -q --allow-empty -m foo
	# bar has no branch yet, baz no fragment: neither is ever included.
	kb_fragments base modular
	[ "${#KB_FRAGMENTS[@]}" = 2 ]
	kb_fragments topic/foo modular
	[ "${KB_FRAGMENTS[*]:2}" = "$TOP/topics/foo/mod.config" ]
	kb_fragments topic/foo builtin
	[ "${KB_FRAGMENTS[*]:2}" = "$TOP/topics/foo/builtin.config" ]
	EXTRA_FRAGMENT=$TOP/topics/bar/modular.config kb_fragments base modular
	[ "${KB_FRAGMENTS[*]:2}" = "$TOP/topics/bar/modular.config" ]
) >"$tmp/err" 2>&1
rc=$?
check "topic fragments: only those of topics merged into the revision, then EXTRA_FRAGMENT" eval \
	'[ $rc = 0 ] || { diag <"$tmp/err"; false; }'

# Incremental builds by content, with make itself as the judge: a tree of
# two objects, one including a header, built out of tree in O.
(
	set -e
	KSRC=$tmp/src WORK=$tmp/keep
	o=$WORK/build/x-modular
	mkdir -p "$KSRC" "$o"
	cd "$KSRC"
	git init -q -b main
	printf 'int a;\n' >a.c
	printf '#include "h.h"\n' >b.c
	printf '/* v1 */\n' >h.h
	git add . && git -c user.name=t -c user.email=t@t commit -q -m v1
	sed -i 's/v1/v2/' h.h
	git -c user.name=t -c user.email=t@t commit -q -am v2
	t1=$(git rev-parse "HEAD~1^{tree}") t2=$(git rev-parse "HEAD^{tree}")
	printf 'all: a.o b.o\na.o: %s/a.c\n\t@echo built a >>log; touch $@\nb.o: %s/b.c %s/h.h\n\t@echo built b >>log; touch $@\n' \
		"$KSRC" "$KSRC" "$KSRC" >"$o/Makefile"
	# built at v1, then the tree goes to v2 and back: every file is newer.
	git checkout -q --detach HEAD~1
	make -s -C "$o"
	kb_built "$o" "$t1"
	sleep 0.05
	git checkout -q --detach main && sleep 0.05 && git checkout -q --detach HEAD~1
	rm -f "$o/log"
	kb_incremental "$o" "$t1"
	make -s -C "$o"
	[ ! -f "$o/log" ] || { echo "back at v1, make rebuilt: $(cat "$o/log")"; exit 1; }
	kb_built "$o" "$t1"
	git checkout -q --detach main
	kb_incremental "$o" "$t2"
	make -s -C "$o"
	[ "$(cat "$o/log")" = "built b" ] || { echo "at v2, want 'built b', got: $(cat "$o/log")"; exit 1; }
	# no record of a finished build: mtimes alone decide (the header is
	# newer, once the file clock has moved on: it counts in ticks).
	rm -f "$o/log"
	sleep 0.05
	git checkout -q --detach HEAD~1
	kb_incremental "$o" "$t1"
	make -s -C "$o"
	[ "$(cat "$o/log")" = "built b" ] || { echo "unrecorded: want 'built b', got: $(cat "$o/log")"; exit 1; }
) >"$tmp/err" 2>&1
rc=$?
check "incremental builds by content: a round trip of a header rebuilds nothing, a change its users only, and without a record mtimes decide" eval \
	'[ $rc = 0 ] || { diag <"$tmp/err"; false; }'

# Kept builds: the same stamp comes back whole, a new tree starts from the
# nearest kept build, and only BUILD_KEEP of them stay.
(
	set -e
	KSRC=$tmp/src WORK=$tmp/keep KB_KEEP=2
	o=$WORK/build/y-modular
	t1=$(git -C "$KSRC" rev-parse "main~1^{tree}") t2=$(git -C "$KSRC" rev-parse "main^{tree}")
	mkdir -p "$o"
	echo one >"$o/obj" && kb_built "$o" "$t1" && kb_keep "$o" modular s1
	echo two >"$o/obj" && kb_built "$o" "$t2" && kb_keep "$o" modular s2
	kb_restore "$o" modular s1 "$t1"
	[ "$(cat "$o/obj")" = one ] || { echo "restore of s1 gave: $(cat "$o/obj")"; exit 1; }
	rm -rf "$o"
	! kb_restore "$o" modular s3 "$t2"
	[ "$(cat "$o/obj")" = two ] || { echo "nearest to v2 gave: $(cat "$o/obj")"; exit 1; }
	kb_keep "$o" modular s3
	[ "$(ls "$WORK/build/.kept-modular" | sort | tr "\n" " ")" = "s2 s3 " ] ||
		{ echo "kept: $(ls "$WORK/build/.kept-modular")"; exit 1; }
	# a kept build of a tree the repository no longer has is never nearest
	echo 0000000000000000000000000000000000000000 >"$WORK/build/.kept-modular/s2/.kb-tree"
	echo stale >"$WORK/build/.kept-modular/s2/obj"
	rm -rf "$o"
	! kb_restore "$o" modular s4 "$t2"
	[ "$(cat "$o/obj")" = two ] || { echo "an unknown tree was chosen: $(cat "$o/obj")"; exit 1; }
	# a walk of bare commits does not push out the builds of named ones
	kb_keep "$o" modular n1 named
	kb_keep "$o" modular w1 && kb_keep "$o" modular w2 && kb_keep "$o" modular w3
	[ "$(ls "$WORK/build/.kept-modular" | sort | tr "\n" " ")" = "n1 w2 w3 " ] ||
		{ echo "kept after a walk: $(ls "$WORK/build/.kept-modular")"; exit 1; }
	kb_keep "$o" modular n2 named && kb_keep "$o" modular n3 named
	[ "$(ls "$WORK/build/.kept-modular" | sort | tr "\n" " ")" = "n2 n3 w2 w3 " ] ||
		{ echo "kept after named ones: $(ls "$WORK/build/.kept-modular")"; exit 1; }
	KB_KEEP=0
	! kb_restore "$o" modular s1 "$t1"
	[ "$(cat "$o/obj")" = two ]
) >"$tmp/err" 2>&1
rc=$?
check "kept builds: a stamp built before comes back, a new tree starts from the nearest, BUILD_KEEP of named revisions and of bare commits stay" eval \
	'[ $rc = 0 ] || { diag <"$tmp/err"; false; }'

check "the guest agent (boot/agent/) compiles with -static -O2 -Wall -Wextra -Werror" \
	bash -c '. "$1/tools/lib.sh" && . "$1/tools/kbuild.sh" && kb_build_init "$2"' sh "$REPO" "$tmp/init"

done_testing
