#!/usr/bin/env bash
# make send: a topic as the thread b4 writes, under the identity of whoever
# runs it, never the placeholder; taken back as a maintainer would (b4 am,
# git am onto the base), it gives the topic's tree, and every patch passes
# checkpatch --strict as b4's prep check runs it.
. "$(dirname "$0")/lib.sh"
scratch_checkout
fresh_work send
run_tool "$T/topics.sh"
# No identity of the machine's user leaks in.
export HOME=$TEST_ROOT/send-home GIT_CONFIG_NOSYSTEM=1
mkdir -p "$HOME"
unset SERIES_AUTHOR

run_tool make -C "$SCRATCH" send TOPIC=clk
check "without an identity, make send refuses and says how to set one" eval \
	'failed && has "no identity to post under: set SERIES_AUTHOR="'
SERIES_AUTHOR="Seed 18746f80 maintainers <maintainers@users.noreply.a-seed-18746f80.example>" run_tool make -C "$SCRATCH" send TOPIC=clk
check "the topics' placeholder identity is refused" eval \
	'failed && has "is in a reserved domain, as the topics'"'"' placeholder author is"'

me="Ada Poster <ada.poster@posting.dev>"
SERIES_AUTHOR=$me run_tool make -C "$SCRATCH" send TOPIC=clk
out_dir=$WORK/send/clk-v3
n=$(git -C "$KSRC" rev-list --count "$(cat "$KSRC/.git/exynos-gki/base-tag")..topic/clk")
check "a real identity gives the cover letter and one message per patch" eval \
	'passed && test "$(ls "$out_dir"/*.eml | wc -l)" = $((n + 1))'
check "subjects are [PATCH RFC v3 i/n], the cover letter's from topics/clk/cover-letter" eval \
	'grep -qE "^Subject: \[PATCH RFC v3 0+/$n\] clk: samsung: let the arm64 Exynos clock" "$out_dir"/0000-*.eml &&
	grep -qE "^Subject: \[PATCH RFC v3 0*1/$n\]" "$out_dir"/0001-*.eml'
check "every message is from the poster, threaded under the cover letter, and no placeholder is left" eval \
	'test "$(grep -l "^From: $me" "$out_dir"/*.eml | wc -l)" = $((n + 1)) &&
	test "$(grep -l "^In-Reply-To: " "$out_dir"/*.eml | wc -l)" = "$n" &&
	! grep -l "a-seed-18746f80" "$out_dir"/*.eml && grep -q "^Signed-off-by: $me" "$out_dir"/0001-*.eml'
# headers FILE: the mail's header block.
headers() { sed '/^$/q' "$1"; }
check "To/Cc come from get_maintainer.pl: the Samsung clock maintainers and lists" eval \
	'headers "$out_dir"/0000-*.eml | grep -q "Sylwester Nawrocki" &&
	headers "$out_dir"/0000-*.eml | grep -q "linux-samsung-soc@vger.kernel.org" &&
	headers "$out_dir"/0000-*.eml | grep -q "linux-clk@vger.kernel.org"'
base=$(git -C "$KSRC" rev-parse "$(cat "$KSRC/.git/exynos-gki/base-tag")^{commit}")
check "the cover letter names the base commit" grep -q "^base-commit: $base" "$out_dir"/0000-*.eml

# A stacked topic (soc on pinctrl) is based on a tip no public tree has:
# its cover letter names the tree's base, and pinctrl's patches by their
# patch-ids, in the order they apply.
SERIES_AUTHOR=$me run_tool make -C "$SCRATCH" send TOPIC=soc
want=$(for c in $(kgit rev-list --reverse "$base..topic/pinctrl"); do kgit show "$c" | git patch-id --stable | cut -d' ' -f1; done)
check "a stacked topic names the tree's base, and the topic below it patch by patch (prerequisite-patch-id)" eval \
	'passed && grep -q "^base-commit: $base" "$WORK"/send/soc-v3/0000-*.eml && test -n "$want" &&
	test "$(sed -n "s/^prerequisite-patch-id: //p" "$WORK"/send/soc-v3/0000-*.eml)" = "$want"'

# As a maintainer takes it: the thread as one mbox, b4 am, git am.
am=$TEST_ROOT/send-am
rm -rf "$am" && mkdir -p "$am"
for f in "$out_dir"/*.eml; do printf 'From mboxrd@z Thu Jan  1 00:00:00 1970\n'; cat "$f"; echo; done >"$am/thread.mbox"
# b4 am, like git am, wants to know who applies.
(cd "$am" && GIT_CONFIG_COUNT=2 GIT_CONFIG_KEY_0=user.name GIT_CONFIG_VALUE_0=Maintainer \
	GIT_CONFIG_KEY_1=user.email GIT_CONFIG_VALUE_1=m@maintainer.dev b4 am -m - -o "$am" <"$am/thread.mbox") >"$am/b4.log" 2>&1
git -C "$KSRC" worktree add -q --detach "$am/tree" "$base"
git -C "$am/tree" -c user.name=m -c user.email=m@maintainer.dev am -q "$am"/*.mbx >>"$am/b4.log" 2>&1
check "b4 am and git am onto the base give the topic's tree" eval \
	'test "$(git -C "$am/tree" rev-parse HEAD^{tree})" = "$(git -C "$KSRC" rev-parse topic/clk^{tree})" || { diag <"$am/b4.log"; false; }'
git -C "$KSRC" worktree remove --force "$am/tree"

ignore=$(awk '!/^#/ && NF { printf "%s%s", sep, $1; sep = "," }' "$SCRATCH/topics/clk/checkpatch.profile")
bad=0
for f in "$out_dir"/*.eml; do
	[[ $f != */0000-* ]] || continue
	# From $am, as the checkpatch gate runs it: checkpatch leaves its cache
	# of CamelCase names in the current directory.
	(cd "$am" && GIT_DIR=$KSRC/.git perl "$KSRC/scripts/checkpatch.pl" --root="$KSRC" --strict -q --no-summary \
		--ignore "$ignore" "$f") >"$am/cp.log" 2>&1 ||
		{ bad=$((bad + 1)); diag <"$am/cp.log"; }
done
check "every patch message passes checkpatch --strict (the topic's profile ignored)" test "$bad" = 0
check "the first revision written carries no range-diff" eval '! grep -q "git range-diff against" "$out_dir"/0000-*.eml'

# A reroll: the last commit's message reworded, then version 4. Its cover
# letter ends with git range-diff against version 3, naming that commit.
kgit checkout -q topic/clk
kgit -c user.name="Test Author" -c user.email=test@invalid commit -q --amend \
	-m "$(kgit log -1 --format=%B | sed '3s/.*/Reworded for version 4./')"
kgit checkout -q --detach "$base"
SERIES_AUTHOR=$me VERSION=4 run_tool make -C "$SCRATCH" send TOPIC=clk
last=$(kgit log -1 --format=%s topic/clk)
check "version 4's cover letter ends with the range-diff against version 3, the reworded commit marked changed" eval \
	'passed && grep -q "^Subject: \[PATCH RFC v4 0*/$n\]" "$WORK"/send/clk-v4/0000-*.eml &&
	grep -q "^Changes in v4: git range-diff against v3" "$WORK"/send/clk-v4/0000-*.eml &&
	grep -qE "^ +$n: +[0-9a-f]+ ! +$n: +[0-9a-f]+ ${last:0:40}" "$WORK"/send/clk-v4/0000-*.eml &&
	grep -q "Reworded for version 4." "$WORK"/send/clk-v4/0000-*.eml'
check "the kernel tree is left clean" tree_clean
done_testing
