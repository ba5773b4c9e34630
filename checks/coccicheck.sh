#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# coccicheck gate, through the kernel's own 'make coccicheck':
#  1. The topic's rule (topic.conf 'cocci') in MODE=report and MODE=patch
#     over the topic's F: directories: nothing at the topic tip (the topic
#     is a fixed point of its rule) and, when the topic changes C files
#     there, findings at the base (the rule has teeth). A topic that changes
#     no C file has the base's code: both must be clean, and the rule's
#     teeth are shown by the seeded defect in tests/80-gates-build.t.
#  2. The kernel's scripts/coccinelle collection on the C files the topic
#     touches: no finding that the base does not have.
. "$(dirname "$0")/lib.sh"
need spatch coccinelle
take_lock
require_clean_tree

base=$(base_tag)
if [ "$TARGET" = integration ]; then rev=integration topics=$(topic_list)
else rev=$(topic_branch "$TARGET") topics=$TARGET; fi
o=$WORK/build/coccicheck
cache=$WORK/coccicheck-cache
mkdir -p "$o" "$cache"

# The F: directories of the topics whose rules run (files count by dir).
dirs_of() {
	awk -v b="$(topic_branch "$1")" '/^$/ { if (hit) exit; f = "" } /^T:/ && $4 == b { hit = 1 } /^F:/ { f = f $2 "\n" }
		END { if (hit) printf "%s", f }' "$TOP/MAINTAINERS.local" |
		sed -e '\|^arch/|d' -e 's|/$||' -e '/\.[ch]$/s|/[^/]*$||' | sort -u
}

# coccicheck REV RULE MODE: the findings (report) or diff (patch) of the
# rule over $dirs at REV. Cached by rule, directory tree and mode. Returns
# non-zero when spatch fails: the caller fails the gate (not from inside a
# command substitution, where the exit would only end the subshell).
coccicheck() {
	local r=$1 rule=$2 mode=$3 d key
	for d in $dirs; do
		key=$(printf '%s %s %s' "$(sha256sum <"$TOP/$rule")" "$(kgit rev-parse "$r:$d")" "$mode" | sha256sum | cut -c1-32)
		if [ ! -f "$cache/$key" ]; then
			begin_tree_op "coccicheck: checkout $r"
			kgit checkout -q --detach "$r"
			make -s -C "$KSRC" O="$o" ARCH=arm64 coccicheck COCCI="$TOP/$rule" MODE="$mode" M="$KSRC/$d" \
				>"$cache/$key.tmp" 2>&1 || { cat "$cache/$key.tmp" >&2; echo "make coccicheck failed at $r on $d" >&2; return 1; }
			end_tree_op
			grep -v -e '^Please check for false positives' -e '^When using "patch" mode' -e '^$' \
				-e '^/usr/bin/spatch ' "$cache/$key.tmp" | sed "s|$KSRC/||g" >"$cache/$key" || true
		fi
		cat "$cache/$key"
	done
}

bad=0 summary=
for t in $topics; do
	rule=$(conf_get "$TOP/topics/$t/topic.conf" cocci)
	[ -f "$TOP/$rule" ] || gate_fail "$rule does not exist: write the topic's rule or fix topics/$t/topic.conf"
	dirs=$(dirs_of "$t")
	[ -n "$dirs" ] || gate_fail "MAINTAINERS.local gives topic $t no source directory to check"
	t0=$SECONDS
	for run in "$rev report tip_r" "$rev patch tip_p" "$base report base_r"; do
		read -r r mode v <<<"$run"
		coccicheck "$r" "$rule" "$mode" >"$o/$v" || gate_fail "$rule: make coccicheck MODE=$mode failed at $r (above)"
	done
	tip_r=$(grep -E '^[^ ]+:[0-9]+:' "$o/tip_r" || true)
	tip_p=$(grep -E '^[-+]' "$o/tip_p" | grep -v -E '^(\+\+\+|---) ' || true)
	base_r=$(grep -E '^[^ ]+:[0-9]+:' "$o/base_r" || true)
	nt=$(grep -c . <<<"$tip_r" || true) np=$(grep -c . <<<"$tip_p" || true) nb=$(grep -c . <<<"$base_r" || true)
	[ -n "$tip_r" ] && echo "$tip_r" | sed "s|^|$rule at $rev: |"
	[ -n "$tip_p" ] && echo "$rule at $rev proposes $np changed lines"
	# A clean base is allowed only where topic.conf says why (cocci-clean-base).
	clean=$(conf_get "$TOP/topics/$t/topic.conf" cocci-clean-base "")
	# shellcheck disable=SC2046 # one pathspec per directory
	if [ "$nt$np" != 00 ]; then bad=$((bad + 1))
	elif [ "$nb" = 0 ] && [ "$TARGET" != integration ] && [ -z "$clean" ] &&
		[ -n "$(kgit diff --name-only "$base..$rev" -- $(for d in $dirs; do echo "$d/*.c"; done))" ]; then
		echo "$rule finds nothing at the base, yet the topic changes C files under $dirs: the rule has no teeth" \
			"(or say why the base is clean: 'cocci-clean-base =' in topics/$t/topic.conf)"
		bad=$((bad + 1))
	fi
	summary="$summary${summary:+; }$rule: $nt reports + $np diff lines at tip, $nb reports at base${clean:+ (clean base: $clean)}, $((SECONDS - t0))s"
done

# The kernel's own collection (the scripts of the base), on the C files the
# target changes, with each script's own '// Options:' as scripts/coccicheck
# gives them, one spatch per script over the files it has not seen, on
# every core. Results are cached per script and file (keyed by the script,
# the file and the headers beside it, for local includes), so a base file,
# or a file another target shares, is read once. Scripts written in OCaml
# need an OCaml compiler at run time, which spatch lacks here: they are
# listed as skipped, not silently dropped.
files=$(kgit diff --name-only --diff-filter=AM "$base..$rev" -- '*.c' | tr '\n' ' ')
# "blob path" of each script
scripts=$(kgit ls-tree -r "$base" -- scripts/coccinelle | awk '$4 ~ /\.cocci$/ { print $3, $4 }')
ccache=$WORK/coccicheck-cache/collection
mkdir -p "$ccache"

# cocci_batch KSRC CACHE SCRIPT KEY:FILE...: one spatch of SCRIPT over the
# FILEs; each file's findings ("script: file: message") go to CACHE/KEY.
cocci_batch() {
	local k=$1 c=$2 s=$3 kf opt out
	shift 3
	opt=$(sed -n 's|^// Options:||p' "$k/$s" | head -n1)
	out=$c/batch.$$.out
	# shellcheck disable=SC2086 # the script's options are a word list
	(cd "$k" && spatch -D report --no-show-diff --very-quiet $opt --cocci-file "$s" "${@#*:}") >"$out" 2>"$out.err" || {
		echo "spatch failed: $s on ${*#*:}: $(head -c 300 "$out.err")" >&2
		rm -f "$out" "$out.err"
		return 255
	}
	for kf; do
		sed -E -n "s#^(${kf#*:}):[0-9]+:[0-9-]+: (.*)#${s##*/}: \1: \2#p" "$out" >"$c/${kf%%:*}.tmp"
		mv "$c/${kf%%:*}.tmp" "$c/${kf%%:*}"
	done
	rm -f "$out" "$out.err"
}
export -f cocci_batch
skipped=$(kgit grep -l -E '^@[^@]*script:ocaml' "$base" -- scripts/coccinelle | sed "s|^$base:||" || true)

# collection REV: the findings at REV, sorted.
collection() {
	local r=$1 f s sblob key jobs
	begin_tree_op "coccicheck: checkout $r"
	kgit checkout -q --detach "$r"
	end_tree_op
	: >"$o/collection.keys"
	declare -A fb hd
	for f in $files; do
		fb[$f]=$(kgit rev-parse -q --verify "$r:$f") || continue
		hd[$f]=$(kgit ls-tree "$r" -- "$(dirname "$f")/" | grep '\.h$' | sha256sum | cut -c1-32)
	done
	while read -r sblob s; do
		grep -qxF "$s" <<<"$skipped" && continue
		jobs=
		for f in "${!fb[@]}"; do
			key=$(printf '%s %s %s %s' "$sblob" "$f" "${fb[$f]}" "${hd[$f]}" | sha256sum | cut -c1-32)
			echo "$key" >>"$o/collection.keys"
			[ -f "$ccache/$key" ] || jobs+=" $key:$f"
		done
		[ -z "$jobs" ] || echo "$s$jobs"
	done <<<"$scripts" >"$o/collection.jobs"
	# shellcheck disable=SC2016 # expanded by the job's shell
	xargs -r -P "$(nproc)" -L 1 bash -c 'cocci_batch "$@"' _ "$KSRC" "$ccache" \
		<"$o/collection.jobs" 2>"$o/collection.err" || true
	if [ -s "$o/collection.err" ]; then
		cat "$o/collection.err" >&2
		return 1
	fi
	sort -u "$o/collection.keys" | sed "s|^|$ccache/|" | xargs -r cat | sort
}
new=0 t0=$SECONDS
if [ -n "$files" ]; then
	collection "$rev" >"$o/collection.tip" || gate_fail "the scripts/coccinelle collection failed at $rev (above)"
	collection "$base" >"$o/collection.base" || gate_fail "the scripts/coccinelle collection failed at $base (above)"
	added=$(new_findings "$o/collection.tip" "$o/collection.base")
	[ -n "$added" ] && echo "$added" | sed 's/^/new finding: /'
	new=$(grep -c . <<<"$added" || true)
fi
kgit checkout -q --detach "$base"
summary="$summary; scripts/coccinelle: $new new findings in $(wc -w <<<"$files") changed C files, $((SECONDS - t0))s"
[ -n "$skipped" ] && summary="$summary ($(echo $skipped | wc -w) OCaml scripts skipped: $(echo $skipped | xargs -n1 basename | tr '\n' ' ' | sed 's/ $//'))"
[ "$bad" = 0 ] && [ "$new" = 0 ] && gate_pass "$summary"
gate_fail "$summary"
