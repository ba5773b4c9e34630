#!/usr/bin/env bash
# Two fresh WORK directories, each importing the tarball itself, give the
# same base, topic and integration SHAs; the export round trip of a topic
# is churn-free and brings back what a maintainer changed on the branch.
. "$(dirname "$0")/lib.sh"
scratch_checkout

# The second import runs under a hostile ~/.gitconfig.
hostile=$(hostile_home)
declare -A refs
for w in repro-a repro-b; do
	export WORK=$TEST_ROOT/$w
	rm -rf "$WORK"
	user=()
	[ "$w" = repro-b ] && user=(HOME="$hostile")
	run_tool env "${user[@]}" "$T/tree.sh"
	check "$w: fresh import of the tarball" passed
	run_tool env "${user[@]}" "$T/topics.sh"
	run_tool env "${user[@]}" "$T/integration.sh"
	check "$w: topics and integration build" passed
	refs[$w]=$(all_refs "$WORK/linux")
done
check "identical SHAs for base tag, every topic and integration, whatever ~/.gitconfig says" eval \
	'test "${refs[repro-a]}" = "${refs[repro-b]}" && test "$(echo "${refs[repro-a]}" | wc -l)" -ge 6'
echo "${refs[repro-a]}" | diag
rm -rf "$TEST_ROOT/repro-b"

export WORK=$TEST_ROOT/repro-a
KSRC=$WORK/linux
run_tool "$T/export.sh" clk
check "re-exporting an unchanged branch changes nothing" eval \
	'passed && test -z "$(git -C "$SCRATCH" status --porcelain)"'
first_patch() { sed -n '/^[^#]/{p;q}' "$SCRATCH/topics/$1/series"; }
check "exported patches name their base (format-patch --base), a stacked topic its prerequisites" eval \
	'grep -qx "base-commit: $(kgit rev-parse "$(cat "$KSRC/.git/exynos-gki/base-tag")")" "$SCRATCH/topics/clk/$(first_patch clk)" &&
	[ "$(grep -c "^prerequisite-patch-id: " "$SCRATCH/topics/soc/$(first_patch soc)")" = "$(grep -c "^[^#]" "$SCRATCH/topics/pinctrl/series")" ]'

# A maintainer amends the commit message and adds a commit on the branch.
kgit checkout -q topic/clk
kgit -c user.name="Test Author" -c user.email=test@invalid commit -q --amend \
	-m "$(kgit log -1 --format=%B | sed '3s/.*/Reworded by the maintainer./')"
sed -i '$a # a comment' "$KSRC/drivers/clk/samsung/Makefile"
kgit -c user.name="Test Author" -c user.email=test@invalid commit -q -a \
	-m "clk: samsung: note in the Makefile" -m "Why: a test." -m "Signed-off-by: Test Author <test@invalid>"
edited=$(kgit rev-parse "HEAD^{tree}")
kgit checkout -q --detach "$(cat "$KSRC/.git/exynos-gki/base-tag")"
run_tool "$T/export.sh" clk
check "export writes the new patch and series line" eval 'passed &&
	grep -q "^clk-samsung-note-in-the-Makefile.patch$" "$SCRATCH/topics/clk/series" &&
	git -C "$SCRATCH" status --porcelain | grep -q "^ M topics/clk/.*\.patch$"'
git -C "$SCRATCH" add -A
git -C "$SCRATCH" -c user.name=test -c user.email=test@invalid commit -q -m "export"
kgit branch -q -D topic/clk
run_tool "$T/topics.sh"
check "make topics rebuilds the edited branch from the exported files" eval \
	'passed && test "$(kgit rev-parse topic/clk^{tree})" = "$edited" &&
	 kgit log -1 --format=%B topic/clk~1 | grep -q "Reworded by the maintainer."'
run_tool "$T/export.sh" clk
check "exporting the rebuilt branch again is churn-free" eval \
	'passed && test -z "$(git -C "$SCRATCH" status --porcelain)"'
run_tool "$T/request-pull.sh" clk
check "request-pull refuses a tree on this machine, which nobody else can pull" eval \
	'failed && has "which no maintainer can pull from: push topic/clk to a public tree and give URL="'
LOCAL_URL=1 run_tool "$T/request-pull.sh" clk
check "request-pull names the base, the branch and both commits" eval 'passed &&
	has "The following changes since commit" && has "topic/clk" && has "clk: samsung: note in the Makefile"'
done_testing
