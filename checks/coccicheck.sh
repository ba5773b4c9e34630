#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# coccicheck gate:
#  1. The topic's rules (topic.conf 'cocci', one or more) in report and
#     patch mode over the .c and .h files of the topic's F: directories:
#     nothing at the topic tip (the topic is a fixed point of its rules)
#     and, when the topic changes C files there, findings at the base (the
#     rules have teeth). A topic that changes no C file has the base's
#     code: both must be clean, and the rules' teeth are shown by the
#     seeded defects in tests/58 and tests/80. The rules see one file at a
#     time, so each file's result is cached by rule, mode and file content,
#     and spatch runs, as scripts/coccicheck would run it (the rule's own
#     '// Options:'), only on files not seen before, on every core.
#  2. The kernel's scripts/coccinelle collection on the C files the topic
#     touches: no finding that the base does not have (the base is read
#     only by the scripts that find something at the tip).
. "$(dirname "$0")/lib.sh"
need spatch coccinelle
take_lock
require_clean_tree

base=$(base_tag)
if [ "$TARGET" = integration ]; then rev=integration topics=$(topic_list)
else rev=$(topic_branch "$TARGET") topics=$TARGET; fi
o=$WORK/build/coccicheck
cache=$WORK/coccicheck-cache/rules
mkdir -p "$o" "$cache"

# The F: directories and files of the topics whose rules run.
dirs_of() {
	awk -v b="$(topic_branch "$1")" '/^$/ { if (hit) exit; f = "" } /^T:/ && $4 == b { hit = 1 } /^F:/ { f = f $2 "\n" }
		END { if (hit) printf "%s", f }' "$TOP/MAINTAINERS.local" |
		sed -e '\|^arch/|d' -e 's|/$||' | sort -u
}

# topic_rule REV RULE MODE [DEFINES]: fill the cache with the findings
# (report) or diff (patch) of RULE, with spatch's -D options DEFINES, for
# each file of $dirs at REV, and list their keys in $o/rule.keys. Returns
# non-zero when spatch fails: the caller fails the gate (not from inside a
# command substitution, where the exit would only end the subshell).
topic_rule() {
	local r=$1 rule=$2 mode=$3 defs=${4-} rb blob path key todo=()
	rb=$({ cat "$TOP/$rule"; echo "$defs"; declare -f cocci_files; } | sha256sum | cut -c1-32)
	# shellcheck disable=SC2086 # one pathspec per directory
	while read -r _ _ blob path; do
		key=$(printf '%s %s %s %s' "$rb" "$mode" "$blob" "$path" | sha256sum | cut -c1-32)
		echo "$key" >>"$o/rule.keys"
		[ -f "$cache/$key" ] || todo+=("$key:$path")
	done < <(kgit ls-tree -r "$r" -- $dirs | grep -E '\.[ch]$')
	if [ ${#todo[@]} -gt 0 ]; then
		begin_tree_op "coccicheck: checkout $r"
		kgit checkout -q --detach "$r"
		end_tree_op
		# shellcheck disable=SC2016 # expanded by the job's shell
		printf '%s\n' "${todo[@]}" | xargs -r -P "$(nproc)" -n 8 bash -c 'cocci_files "$@"' _ \
			"$KSRC" "$cache" "$TOP/$rule" "$mode" "$defs" 2>"$o/rule.err" || true
		if [ -s "$o/rule.err" ]; then
			cat "$o/rule.err" >&2
			return 1
		fi
	fi
}

# cocci_files KSRC CACHE RULE MODE DEFINES KEY:FILE...: one spatch per
# FILE, its output to CACHE/KEY.
cocci_files() {
	local k=$1 c=$2 rule=$3 mode=$4 defs=$5 kf opt
	shift 5
	opt=$(sed -n 's|^// Options:||p' "$rule" | head -n1)
	for kf; do
		# shellcheck disable=SC2086 # the rule's options and defines are word lists
		(cd "$k" && spatch -D "$mode" $defs --very-quiet $opt --patch . --cocci-file "$rule" "${kf#*:}") >"$c/${kf%%:*}.tmp" 2>"$c/${kf%%:*}.err" || {
			echo "spatch -D $mode failed on ${kf#*:}: $(head -c 300 "$c/${kf%%:*}.err")" >&2
			rm -f "$c/${kf%%:*}.tmp" "$c/${kf%%:*}.err"
			return 255
		}
		rm -f "$c/${kf%%:*}.err"
		mv "$c/${kf%%:*}.tmp" "$c/${kf%%:*}"
	done
}
export -f cocci_files

# defs_of RULE: set defs to the -D options of $defines that RULE declares.
defs_of() {
	local d
	defs=
	for d in $defines; do
		if grep -qx "virtual $d" "$TOP/$1"; then defs="$defs${defs:+ }-D $d"; fi
	done
}

# rule_run REV RULE MODE [DEFINES]: topic_rule's output, from the cache.
rule_run() {
	: >"$o/rule.keys"
	topic_rule "$@" || return
	sed "s|^|$cache/|" "$o/rule.keys" | xargs -r cat
}

bad=0 summary=
for t in $topics; do
	rules=$(conf_get "$TOPICS/$t/topic.conf" cocci)
	# Optional parts of the rules the topic needs ('cocci-defines', each
	# passed as -D to the rules that declare it virtual).
	defines=$(conf_get "$TOPICS/$t/topic.conf" cocci-defines "")
	dirs=$(dirs_of "$t")
	[ -n "$dirs" ] || gate_fail "MAINTAINERS.local gives topic $t no source directory to check"
	nb_all=0
	for rule in $rules; do
		[ -f "$TOP/$rule" ] || gate_fail "$rule does not exist: write the topic's rule or fix $TOPICS_REL/$t/topic.conf"
		defs_of "$rule"
		t0=$SECONDS
		for run in "$rev report tip_r" "$rev patch tip_p" "$base report base_r"; do
			read -r r mode v <<<"$run"
			rule_run "$r" "$rule" "$mode" "$defs" >"$o/$v" || gate_fail "$rule: spatch -D $mode failed at $r (above)"
		done
		tip_r=$(grep -E '^[^ ]+:[0-9]+:' "$o/tip_r" || true)
		tip_p=$(grep -E '^[-+]' "$o/tip_p" | grep -v -E '^(\+\+\+|---) ' || true)
		base_r=$(grep -E '^[^ ]+:[0-9]+:' "$o/base_r" || true)
		nt=$(grep -c . <<<"$tip_r" || true) np=$(grep -c . <<<"$tip_p" || true) nb=$(grep -c . <<<"$base_r" || true)
		[ -n "$tip_r" ] && echo "$tip_r" | sed "s|^|$rule at $rev: |"
		[ -n "$tip_p" ] && echo "$rule at $rev proposes $np changed lines"
		[ "$nt$np" = 00 ] || bad=$((bad + 1))
		nb_all=$((nb_all + nb))
		summary="$summary${summary:+; }$rule${defs:+ ($defs)}: $nt reports + $np diff lines at tip, $nb reports at base, $((SECONDS - t0))s"
	done
	# A clean base is allowed only where topic.conf says why (cocci-clean-base).
	clean=$(conf_get "$TOPICS/$t/topic.conf" cocci-clean-base "")
	# shellcheck disable=SC2046 # one pathspec per directory
	if [ "$nb_all" = 0 ] && [ "$TARGET" != integration ] && [ -z "$clean" ] &&
		[ -n "$(kgit diff --name-only "$base..$rev" -- $(for d in $dirs; do case $d in *.[ch]) echo "$d" ;; *) echo "$d/*.c" ;; esac; done))" ]; then
		echo "the rules of $t find nothing at the base, yet the topic changes C files under $dirs: they have no teeth" \
			"(or say why the base is clean: 'cocci-clean-base =' in $TOPICS_REL/$t/topic.conf)"
		bad=$((bad + 1))
	fi
	[ -n "$clean" ] && summary="$summary (clean base: $clean)"
	# The commits that topic.conf says the rules generate ('cocci-commit =
	# SUBJECT', with "*" where a per-driver split names the driver) are
	# their output, unedited, on the parent of the first (same
	# patch-id): consecutive, and each changing one file.
	gen=$(conf_get "$TOPICS/$t/topic.conf" cocci-commit "")
	[ -n "$gen" ] && [ "$TARGET" != integration ] || continue
	mapfile -t gc < <(commits_by_subject "$t" "$gen")
	[ ${#gc[@]} -gt 0 ] || gate_fail "no commit '$gen' in $t ($TOPICS_REL/$t/topic.conf cocci-commit)"
	first=${gc[0]} last=${gc[-1]} split=""
	[ ${#gc[@]} = 1 ] || split=" (${#gc[@]} commits)"
	for c in "${gc[@]}"; do
		nf=$(kgit diff --name-only "$c^" "$c" | wc -l)
		if [ ${#gc[@]} -gt 1 ] && [ "$nf" != 1 ]; then
			echo "'$(kgit log -1 --format=%s "$c")' changes $nf files: a change split per driver changes one file per commit"
			bad=$((bad + 1))
		fi
	done
	other=$(kgit rev-list --reverse "$first..$last" | grep -vxF -f <(printf '%s\n' "${gc[@]}") | head -n1 || true)
	if [ -n "$other" ]; then
		echo "the commits '$gen' are not consecutive in $t: '$(kgit log -1 --format=%s "$other")' is among them"
		bad=$((bad + 1))
	fi
	: >"$o/gen.diff"
	for rule in $rules; do
		defs_of "$rule"
		rule_run "$first^" "$rule" patch "$defs" >>"$o/gen.diff" || gate_fail "$rule: spatch -D patch failed at $first^ (above)"
	done
	if is_output_of "$first^" "$last" "$o/gen.diff"; then
		summary="$summary; '$gen'$split is their output"
	else
		echo "'$gen'$split is not the unedited output of $rules on the parent of the first ($(grep -c '^[-+][^-+]' "$o/gen.diff" || true) changed lines from the rules)"
		bad=$((bad + 1))
	fi
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

# collection REV [SCRIPT...]: the findings at REV (of the named scripts
# only, by file name, when given), sorted.
collection() {
	local r=$1 only=${2-} f s sblob key jobs
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
		[ -z "$only" ] || grep -qxF "${s##*/}" <<<"$only" || continue
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
	# A script that finds nothing at the tip cannot find anything new.
	hit=$(sed -n 's/^\([^ :]*\.cocci\): .*/\1/p' "$o/collection.tip" | sort -u)
	: >"$o/collection.base"
	if [ -n "$hit" ]; then
		collection "$base" "$hit" >"$o/collection.base" ||
			gate_fail "the scripts/coccinelle collection failed at $base (above)"
	fi
	added=$(new_findings "$o/collection.tip" "$o/collection.base")
	[ -n "$added" ] && echo "$added" | sed 's/^/new finding: /'
	new=$(grep -c . <<<"$added" || true)
fi
kgit checkout -q --detach "$base"
summary="$summary; scripts/coccinelle: $new new findings in $(wc -w <<<"$files") changed C files, $((SECONDS - t0))s"
[ -n "$skipped" ] && summary="$summary ($(echo $skipped | wc -w) OCaml scripts skipped: $(echo $skipped | xargs -n1 basename | tr '\n' ' ' | sed 's/ $//'))"
[ "$bad" = 0 ] && [ "$new" = 0 ] && gate_pass "$summary"
gate_fail "$summary"
