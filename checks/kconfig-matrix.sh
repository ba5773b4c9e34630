#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# kconfig-matrix gate: the two gate configurations are two points of a
# space that allmodconfig, randconfig and every distribution walk through.
# Every assignment of the axes in checks/kconfig-matrix.spec (the symbols
# the series makes tristate, crossed with the bools that select or sit
# below them) is evaluated with the tree's own Kconfig code
# (checks/kconfig-matrix.c), on arm64 allnoconfig plus ARCH_EXYNOS,
# COMPILE_TEST, MODULES and SOC_SAMSUNG. Each distinct result must hold:
#  1. no object kbuild should build is left out: a bool y below an option
#     that is m puts its object in obj-y of a directory that only obj-m
#     reaches, and it is silently not built. (A bool y below an m is not
#     wrong as such: EXYNOS_ASV_ARM adds an object to a composite module.
#     The evaluator lists them in matrix.txt; kbuild's placement decides.)
#  2. link: no built-in object of these directories uses a symbol that
#     only a module of the same result defines (vmlinux would not link).
#     Which object goes where is kbuild's own decision
#     (checks/kconfig-matrix.mk); the symbols are read from the objects
#     of two real builds (the result with the most built-in objects, and
#     the one with the most modules);
#  3. MCT: the Exynos MCT is built in whenever an Exynos platform is (on
#     Exynos the architected timer counts with the MCT's counter, which
#     the MCT driver starts at time_init() and on resume), and the tick
#     clock ("fin_pll") that a DTB of the tree gives an MCT node comes
#     from a built-in driver: the MCT reads its rate at time_init(),
#     before any module loads. Its bus clock ("mct") may come from a
#     module: the MCT enables it once its provider has probed.
#  4. pin control: a result that builds the SoC data of a board's pin
#     controller with PMU pad retention (found from the sources and the
#     tree's DTBs) builds the PMU driver as well, or that pin controller
#     would not probe.
#  5. allmodconfig compiles every object of these directories that it
#     compiled at the base.
# arm64 allmodconfig is checked the same way, as one more result. Its
# values of the axes and the MCT, on the minimal base, are also built and
# linked (vmlinux and modules). It names the first assignment that fails
# each check.
. "$(dirname "$0")/lib.sh"
. "$TOP/tools/kbuild.sh"

need make make gcc gcc aarch64-linux-gnu-gcc gcc-aarch64-linux-gnu \
	aarch64-linux-gnu-nm binutils-aarch64-linux-gnu dtc device-tree-compiler \
	flex flex bison bison
take_lock
require_clean_tree

if [ "$TARGET" = integration ]; then rev=integration; else rev=$(topic_branch "$TARGET"); fi
range=$(target_range)
kgit diff --quiet "${range%%..*}" "${range#*..}" -- '*Kconfig*' &&
	gate_skip "$TARGET changes no Kconfig file"
# The axes: a base other than 6.1 may name its own (topics/<base>/).
SPEC=$TOPICS/kconfig-matrix.spec
[ -f "$SPEC" ] || SPEC=$TOP/checks/kconfig-matrix.spec
DIRS="drivers/clk/samsung drivers/pinctrl/samsung drivers/soc/samsung"
out=$WORK/kconfig-matrix
o=$WORK/build/kconfig-matrix
rm -rf "$out"
mkdir -p "$out/results" "$out/place" "$out/syms"

begin_tree_op "kconfig-matrix gate"
trap 'kgit checkout -q --detach "$(base_tag)"; end_tree_op' EXIT
kgit checkout -q --detach "$rev"
tree=$(kgit rev-parse "$rev^{tree}")

# -- the Kconfig part: evaluation and placement ---------------------------
# It depends only on the kconfig inputs, the Makefiles that place the
# objects and the spec: kept under their hash, so that a change to C files
# alone does not evaluate and place again.
PLACE_DIRS="drivers drivers/clk drivers/pinctrl drivers/soc $DIRS"
# shellcheck disable=SC2046 # one path per directory
stage_key=$(result_key "$(kb_kconfig_inputs "$rev"
	kgit ls-tree -r "$rev" -- scripts/Makefile.lib scripts/Kbuild.include $(printf '%s/Makefile\n' $PLACE_DIRS))")
# first_of NNN: the first assignment that gives result NNN.
first_of() { awk -v r="$1" '$1 == "result" && $2 == r { print $4 }' "$out/matrix.txt"; }
evaluate_and_place() {
	# the evaluator, linked against the tree's own Kconfig objects
	step "kconfig-matrix: evaluating $(grep -c '^[A-Z]' "$SPEC") axes at $rev"
	printf 'CONFIG_%s=y\n' ARCH_EXYNOS COMPILE_TEST MODULES SOC_SAMSUNG >"$out/base.fragment"
	kb_make "$o" -s KCONFIG_ALLCONFIG="$out/base.fragment" allnoconfig >"$out/allnoconfig.log" 2>&1 ||
		gate_fail "allnoconfig failed at $rev, see $out/allnoconfig.log"
	kb_lkc_tool "$o" "$TOP/checks/kconfig-matrix.c" "$out/kconfig-matrix" 2>"$out/cc.log" ||
		gate_fail "checks/kconfig-matrix.c does not build against $rev's scripts/kconfig, see $out/cc.log"
	# evaluate BASE.config SPEC OUTDIR: run the evaluator in the environment
	# the top Makefile gives Kconfig's macros.
	evaluate() {
		kb_kconfig_env "$out/kconfig-matrix" Kconfig "$@" 2>"$out/matrix.log" ||
			gate_fail "the evaluator failed at $rev: $(tail -n1 "$out/matrix.log")"
	}
	evaluate "$o/.config" "$SPEC" "$out/results" >"$out/matrix.txt"
	read -r _ nassign _ ndistinct < <(grep '^assignments ' "$out/matrix.txt")
	# arm64 allmodconfig, what build bots try first, is one more result,
	# "allmod": the same symbols watched, no axes.
	kb_make "$o-allmod" -s allmodconfig >"$out/allmodconfig.log" 2>&1 ||
		gate_fail "allmodconfig failed at $rev, see $out/allmodconfig.log"
	mkdir -p "$out/allmod"
	grep '^watch' "$SPEC" >"$out/allmod.spec"
	evaluate "$o-allmod/.config" "$out/allmod.spec" "$out/allmod" >"$out/allmod.txt"
	cp "$o-allmod/.config" "$out/allmod.config"
	sed -e 's/^result 000 1 /result allmod 1 allmodconfig/' -e 's/^bool-under-m 000 /bool-under-m allmod /' \
		-e '/^assignments /d' "$out/allmod.txt" >>"$out/matrix.txt"
	mv "$out/allmod/000.config" "$out/results/allmod.config"

	# where kbuild puts each object, per result
	step "kconfig-matrix: $ndistinct distinct results of $nassign assignments; placing objects"
	# shellcheck disable=SC2317 # run through xargs
	place() {
		local cfg=$1 d
		for d in $PLACE_DIRS; do
			make -s -f "$TOP/checks/kconfig-matrix.mk" srctree="$KSRC" CONFIG="$cfg" obj="$d" || return
		done | awk -v dirs="$DIRS" '
			# A directory is built as far as its parent reaches it (y or m).
			$1 == "dir-y" || $1 == "dir-m" { reach[$2] = substr($1, 5) }
			$1 == "builtin" { obj[$2] = "builtin"; dir[$2] = $2; sub("/[^/]*$", "", dir[$2]) }
			$1 == "module" { obj[$3] = "module " $2; dir[$3] = $3; sub("/[^/]*$", "", dir[$3]) }
			END {
				reach["drivers"] = "y"
				for (o in obj) {
					d = dir[o]; r = "y"
					for (p = d; p != "drivers"; sub("/[^/]*$", "", p))
						if (!(p in reach)) r = "n"; else if (reach[p] == "m") r = (r == "n" ? "n" : "m")
					if (r == "n") continue
					if (obj[o] == "builtin" && r == "m") print "unbuilt", o
					else print obj[o], o
				}
			}' | sort
	}
	export -f place
	export KSRC TOP DIRS PLACE_DIRS
	# Both cores: one result per process; a result that cannot be placed
	# leaves no file behind.
	find "$out/results" -name '*.config' -print0 | xargs -0 -r -n1 -P "$(nproc)" bash -c \
		'set -o pipefail; r=$(basename "$1" .config); place "$1" >"$0/place/$r.tmp" && mv "$0/place/$r.tmp" "$0/place/$r"' "$out"
	for cfg in "$out"/results/*.config; do
		[ -f "$out/place/$(basename "$cfg" .config)" ] || gate_fail "kbuild could not place the objects of $cfg"
	done
	# arm64 allmodconfig at the base, placed the same way: what build
	# tests compiled of these directories before the series.
	kgit checkout -q --detach "$(base_tag)"
	kb_make "$o-allmod-base" -s allmodconfig >"$out/allmodconfig-base.log" 2>&1 ||
		gate_fail "allmodconfig failed at the base, see $out/allmodconfig-base.log"
	place "$o-allmod-base/.config" >"$out/place-allmod-base" || gate_fail "kbuild could not place the objects of the base's allmodconfig"
	kgit checkout -q --detach "$rev"
}
if [ -f "$RESULTS/$stage_key" ]; then
	tar -C "$out" -xf "$RESULTS/$stage_key"
	read -r _ nassign _ ndistinct < <(grep '^assignments ' "$out/matrix.txt")
	step "kconfig-matrix: $ndistinct distinct results of $nassign assignments, placed (kconfig inputs unchanged)"
else
	evaluate_and_place
	tar -C "$out" -cf - base.fragment allmod.config matrix.txt results place place-allmod-base | result_put "$stage_key"
fi

# -- the symbols of every object, from two real builds --------------------
most() { grep -c "^$1 " "$out"/place/[0-9]* | sort -t: -k2 -n | tail -n1 | sed 's#.*/\([0-9]*\):.*#\1#' || true; }
# use_config CONFIG O: CONFIG as O's .config, through olddefconfig.
use_config() { cp "$1" "$2/.config" && kb_make "$2" -s olddefconfig; }
build_syms() {
	local r=$1 form=$2 bo=$o-$2 f
	mkdir -p "$bo"
	kb_incremental "$bo" "$tree"
	kb_keep_config "$bo" use_config "$out/results/$r.config" "$bo" >"$out/build-$form.log" 2>&1 || return
	# The evaluator must agree with conf itself on what a .config means.
	if ! cmp -s <(grep '^CONFIG_' "$out/results/$r.config") <(grep '^CONFIG_' "$bo/.config"); then
		echo "evaluator and olddefconfig disagree on result $r:" >&2
		diff <(grep '^CONFIG_' "$out/results/$r.config") <(grep '^CONFIG_' "$bo/.config") | sed -n 1,10p >&2
		return 1
	fi
	# The built-in one also builds the DTBs, for the MCT check.
	# shellcheck disable=SC2046 # one target per directory
	kb_make "$bo" -j"$(nproc)" $(for d in $DIRS; do echo "$d/"; done) \
		$([ "$form" = builtin ] && echo dtbs) >>"$out/build-$form.log" 2>&1 || return
	kb_built "$bo" "$tree"
	for f in $(awk '{ print $NF }' "$out/place/$r"); do
		[ -f "$bo/$f" ] || continue
		${KB_CROSS}nm -g "$bo/$f" | awk -v o="$f" 'NF == 2 && $1 == "U" { print "U", $2, o } NF == 3 { print "D", $3, o }'
	done >"$out/syms/$form"
}
ry=$(most builtin) rm_=$(most module)
step "kconfig-matrix: building result $ry (most built in) and $rm_ (most modules) for their symbols"
build_syms "$ry" builtin || gate_fail "result $ry ($(first_of "$ry")) does not configure or build, see $out/build-builtin.log"
build_syms "$rm_" module || gate_fail "result $rm_ ($(first_of "$rm_")) does not configure or build, see $out/build-module.log"

# -- the MCT's clock providers, from the tree's DTBs ----------------------
mct_compat=$(kb_mct_compatibles "$rev" | tr '\n' ' ')
: >"$out/mct-clocks"
# Board DTBs sit one or two levels down (exynos/google/gs101-oriole.dtb).
mapfile -t dtbs < <(find "$o-builtin/arch/arm64/boot/dts" -name '*.dtb' | sort)
for dtb in "${dtbs[@]}"; do
	dtc -q -I dtb -O dts "$dtb" | awk -v dtb="${dtb#"$o-builtin/arch/arm64/boot/dts/"}" -v mct="$mct_compat" '
		function num(s,   n, i, d) { gsub(/[<>;]/, "", s); if (s !~ /^0x/) return s + 0
			s = tolower(substr(s, 3)); n = 0
			for (i = 1; i <= length(s); i++) { d = index("0123456789abcdef", substr(s, i, 1)) - 1; n = n * 16 + d }
			return n }
		function cells(s,   a, n, i) { n = split(s, a, " "); for (i = 1; i <= n; i++) c[i] = num(a[i]); return n }
		/{$/ { depth++; compat[depth] = ""; ph[depth] = ""; cc[depth] = 0; clk[depth] = ""; cn[depth] = "" }
		/^[ \t]*compatible = / { compat[depth] = $0; gsub(/\\0/, "\", \"", compat[depth]) }
		/^[ \t]*phandle = / { ph[depth] = $3 }
		/^[ \t]*#clock-cells = / { cc[depth] = $3 }
		/^[ \t]*clocks = / { clk[depth] = $0; sub(/.*= /, "", clk[depth]) }
		/^[ \t]*clock-names = / { cn[depth] = $0; sub(/.*= /, "", cn[depth]); gsub(/[";]/, "", cn[depth]); gsub(/\\0/, " ", cn[depth]) }
		/^[ \t]*};$/ {
			if (ph[depth] != "") { p = num(ph[depth]); pc[p] = compat[depth]; pcells[p] = num(cc[depth]) }
			is_mct = 0; split(mct, m, " ")
			for (i in m) if (index(compat[depth], "\"" m[i] "\"")) is_mct = 1
			if (is_mct && clk[depth] != "") { mctclk[++nm] = clk[depth]; mctcn[nm] = cn[depth] }
			depth--
		}
		END {
			for (j = 1; j <= nm; j++) {
				n = cells(mctclk[j]); gsub(/[<>;]/, "", mctclk[j]); split(mctcn[j], name, /[ ,]+/)
				for (i = 1; i <= n; i += 1 + pcells[c[i]]) {
					k++
					if (name[k] != "fin_pll") continue
					s = pc[c[i]]; sub(/.*compatible = /, "", s); gsub(/[";]/, "", s); gsub(/, /, " ", s)
					print dtb, s
				}
				k = 0
			}
		}'
done | sort -u >"$out/mct-clocks"
# provider_obj COMPATIBLE...: the object of the clock driver that matches.
provider_obj() {
	local c f
	for c in "$@"; do
		f=$(grep -rlE --include='*.c' "(CLK_OF_DECLARE[A-Z_]*\([^,]*, *|\.compatible *= *)\"$c\"" "$KSRC/drivers/clk" | sed -n 1p)
		[ -n "$f" ] && { f=${f#"$KSRC/"}; echo "${f%.c}.o"; return; }
	done
	echo "?"
}
# dtb_option DTB: the option under which arch/arm64/boot/dts builds DTB
# (the Makefile of its own directory names it).
dtb_option() {
	awk -v want="${1##*/}" '
		{ line = $0
		  while (line ~ /\\$/ && (getline nx) > 0) line = substr(line, 1, length(line) - 1) " " nx
		  if (line !~ /^dtb-\$\(CONFIG_/) next
		  opt = line; sub(/^dtb-\$\(/, "", opt); sub(/\).*/, "", opt)
		  n = split(line, w, /[ \t]+/)
		  for (i = 1; i <= n; i++) if (w[i] == want) { print opt; exit } }' \
		"$KSRC/arch/arm64/boot/dts/$(dirname "$1")/Makefile"
}
while read -r dtb compats; do
	echo "$dtb $(dtb_option "$dtb") $(provider_obj $compats) $compats"
done <"$out/mct-clocks" >"$out/mct-providers"
nmct=$(wc -l <"$out/mct-providers")
# A check that found nothing to check must not pass.
[ "$nmct" -gt 0 ] || gate_fail "no MCT node with a fin_pll clock in the DTBs of $rev: the DTB reader is broken"
! awk 'NF < 4 || $3 == "?"' "$out/mct-providers" | grep . ||
	gate_fail "the MCT clocks above have no board option or no clock driver (see $out/mct-providers)"

# -- the pin controllers whose pad retention needs the PMU driver ---------
# From the sources: the retention data whose init is exynos_retention_init()
# (it asks the PMU driver for the PMU's registers), through the SoC data
# that point at it, to the compatibles of the match table; then the DTBs
# that have such a pin controller. Each line: DTB, its board option, the
# object with the SoC data, the compatible.
pmu_pinctrl_compatibles() {
	awk '
		/^[a-z].*struct [a-z_0-9]+ [a-z_0-9]+(\[\])? .*=/ { name = $0; sub(/ *(\[\])? *(__[a-z]+ *)?=.*/, "", name); sub(/.* /, "", name) }
		/\.init[ \t]*= exynos_retention_init,/ { pmu[name] = 1 }
		/\.retention_data[ \t]*= &/ { v = $NF; gsub(/[&,]/, "", v); if (v in pmu) pmu[name] = 1 }
		/\.ctrl[ \t]*= / { v = $NF; gsub(/,/, "", v); if (v in pmu) { pmu[name] = 1; obj[name] = FILENAME } }
		/\.compatible = "/ { c = $0; sub(/.*\.compatible = "/, "", c); sub(/".*/, "", c) }
		/\.data = &/ { v = $0; sub(/.*\.data = &/, "", v); sub(/[ },].*/, "", v); data[c] = v }
		END { for (c in data) if (data[c] in obj) { o = obj[data[c]]; sub(/\.c$/, ".o", o); print c, o } }' "$@" | sort
}
(cd "$KSRC" && pmu_pinctrl_compatibles drivers/pinctrl/samsung/*.c) >"$out/pmu-pinctrl-compatibles"
[ -s "$out/pmu-pinctrl-compatibles" ] ||
	gate_fail "no pin controller with PMU pad retention found in drivers/pinctrl/samsung at $rev: the source reader is broken"
pmu_obj=$(cd "$KSRC" && grep -l '^struct regmap \*exynos_get_pmu_regmap(void)' drivers/soc/samsung/*.c | sed 's/\.c$/.o/')
[ -n "$pmu_obj" ] || gate_fail "no definition of exynos_get_pmu_regmap() in drivers/soc/samsung at $rev"
for dtb in "${dtbs[@]}"; do
	d=${dtb#"$o-builtin/arch/arm64/boot/dts/"}
	dtc -q -I dtb -O dts "$dtb" | grep -o 'compatible = "[^;]*' | tr -d '"' | sed 's/compatible = //; s/\\0/ /g' | tr ' ' '\n' |
		sort -u | while read -r c; do
			awk -v c="$c" -v d="$d" -v opt="$(dtb_option "$d")" '$1 == c { print d, opt, $2, c }' "$out/pmu-pinctrl-compatibles"
		done
done | sort -u >"$out/pmu-pinctrl"
npin=$(wc -l <"$out/pmu-pinctrl")
[ "$npin" -gt 0 ] || gate_fail "no DTB of $rev has a pin controller with PMU pad retention: the DTB reader is broken"
step "kconfig-matrix: checking $ndistinct results ($nmct MCT tick clocks, $npin pin controllers with PMU retention in ${#dtbs[@]} DTBs)"

# -- the checks, per result -----------------------------------------------
# One pass over every result (a process per result cost seconds for a
# thousand of them): each result's .config, then its placement.
#  - unbuilt: the placement's own verdict.
#  - link: an object's symbols come from the build that built it the way
#    this result does (the other build when it has none). A symbol that no
#    object of these directories defines is the rest of the kernel's.
#    vmlinux must not use what only a module defines. A symbol whose object
#    the result does not build at all is not reported: such references sit
#    under the same #if as their object (a stub when it is off), which one
#    object file cannot show.
#  - mct: the MCT is built in, and the tick clock of each board of the
#    platforms this result enables comes from a built-in object; the
#    placement covers drivers/clk itself too (fixed-clock).
#  - pinctrl: where a result builds the SoC data of a board's pin
#    controller with PMU pad retention, it builds the PMU driver too
#    (without it exynos_retention_init() gets -ENODEV and the pin
#    controller does not probe). Pin control switched off altogether is a
#    choice, not a hazard: it is not reported.
findings=$out/findings
args=()
for p in "$out"/place/*; do args+=("$out/results/${p##*/}.config" "$p"); done
awk '
	function flush(   o, w, d, u, n, i, s, a, inkernel, inmod, seen, j) {
		for (o in where) {
			w = where[o]; if (w == "unbuilt") continue
			d = (w == "builtin") ? (o in b ? bdef[o] : mdef[o]) : (o in m ? mdef[o] : bdef[o])
			n = split(d, a, " ")
			for (i = 1; i <= n; i++) { if (w == "builtin") inkernel[a[i]] = 1; else inmod[a[i]] = w }
		}
		for (o in where) {
			if (where[o] != "builtin") continue
			u = (o in b) ? bund[o] : mund[o]
			n = split(u, a, " ")
			for (i = 1; i <= n; i++) {
				s = a[i]
				if ((s in owner) && !(s in inkernel) && (s in inmod))
					seen["link " r " vmlinux (" o ") needs " s ", which only " inmod[s] " defines"] = 1
			}
		}
		for (s in seen) print s
		if (!mct)
			print "mct", r, "the Exynos MCT is not built in, but ARCH_EXYNOS is: nothing starts the counter the architected timer counts with"
		for (j = 1; j <= np; j++)
			if ((pdtbopt[j] in on) && !(pobj[j] in built))
				print "mct", r, pdtb[j] " gives the MCT its tick clock from " pcompat[j] " in " pobj[j] ", which is not built in"
		for (j = 1; j <= nq; j++)
			if ((qdtbopt[j] in on) && (qobj[j] in where) && where[qobj[j]] != "unbuilt" && !((pmuobj in where) && where[pmuobj] != "unbuilt"))
				print "pinctrl", r, qdtb[j] ": pin controller " qcompat[j] " (" qobj[j] ") needs the PMU driver for pad retention, and " pmuobj " is not built: the pin controller fails to probe"
	}
	FILENAME ~ /syms\/builtin$/ { b[$3] = 1; if ($1 == "D") { bdef[$3] = bdef[$3] " " $2; owner[$2] = 1 } else bund[$3] = bund[$3] " " $2; next }
	FILENAME ~ /syms\/module$/ { m[$3] = 1; if ($1 == "D") { mdef[$3] = mdef[$3] " " $2; owner[$2] = 1 } else mund[$3] = mund[$3] " " $2; next }
	FILENAME ~ /mct-providers$/ { np++; pdtb[np] = $1; pdtbopt[np] = $2; pobj[np] = $3; pcompat[np] = $4; next }
	FILENAME ~ /pmu-pinctrl$/ { nq++; qdtb[nq] = $1; qdtbopt[nq] = $2; qobj[nq] = $3; qcompat[nq] = $4; next }
	FILENAME ~ /\.config$/ {
		if (FNR == 1) {
			if (r != "") flush()
			r = FILENAME; sub(/.*\//, "", r); sub(/\.config$/, "", r)
			split("", on); split("", where); split("", built); mct = 0
		}
		if ($0 == "CONFIG_CLKSRC_EXYNOS_MCT=y") mct = 1
		if (sub(/=y$/, "")) on[$0] = 1
		next
	}
	{ where[$NF] = ($1 == "module" ? $2 : $1) }
	$1 == "builtin" { built[$2] = 1 }
	$1 == "unbuilt" { print "unbuilt", r, $2 }
	END { if (r != "") flush() }' pmuobj="$pmu_obj" "$out/syms/builtin" "$out/syms/module" "$out/mct-providers" "$out/pmu-pinctrl" \
	"${args[@]}" >"$findings"

# -- allmodconfig compiles what it compiled at the base -------------------
# Build tests start from allmodconfig: an object of these directories it
# compiled at the base and no longer compiles is coverage lost (a file
# the series deletes is not).
awk '$1 != "unbuilt" { print $NF }' "$out/place/allmod" | sort >"$out/allmod-objects"
awk '$1 != "unbuilt" { print $NF }' "$out/place-allmod-base" | sort | comm -23 - "$out/allmod-objects" |
	while read -r obj; do
		[ -f "$KSRC/${obj%.o}.c" ] && echo "allmod allmod $obj was compiled by arm64 allmodconfig at the base and is not any more"
	done >>"$findings"

# -- allmodconfig, narrowed, linked ---------------------------------------
# The axes' symbols and the MCT as arm64 allmodconfig sets them, on the
# minimal base above (everything else off, as allnoconfig leaves it), built
# and linked, vmlinux and modules: what a build bot's allmodconfig links of
# these directories, without its hours of other drivers. The link model
# above predicts this; here the linker says it.
step "kconfig-matrix: allmodconfig narrowed to the axes, built and linked"
{
	cat "$out/base.fragment"
	for sym in $(grep -vE '^(#|watch|$)' "$SPEC" | awk '{ print $1 }' | tr ',' ' ') CLKSRC_EXYNOS_MCT; do
		grep -E "^(# )?CONFIG_${sym}[= ]" "$out/allmod.config" || true
	done
} >"$out/allmod-narrow.fragment"
# Targets with and without the clk topic's timekeeping.h alternate here:
# each starts from the kept link build nearest its tree.
mkdir -p "$o-link"
link_stamp=$(cat <(echo "$tree") "$out/allmod-narrow.fragment" "$TOP/tools/kbuild.sh" | sha256sum | cut -c1-40)
kb_restore "$o-link" kconfig-matrix-link "$link_stamp" "$tree" || true
kb_incremental "$o-link" "$tree"
kb_keep_config "$o-link" kb_make "$o-link" -s KCONFIG_ALLCONFIG="$out/allmod-narrow.fragment" allnoconfig >"$out/link.log" 2>&1 ||
	gate_fail "the narrowed allmodconfig does not configure at $rev, see $out/link.log"
# What the minimal base cannot give its allmodconfig value (unmet
# dependencies): said, not hidden.
grep '^CONFIG_' "$out/allmod-narrow.fragment" | while read -r line; do
	grep -qx -- "$line" "$o-link/.config" || echo "kconfig-matrix: narrowed allmodconfig: ${line%%=*} is not ${line#*=} here"
done
if kb_make "$o-link" -j"$(nproc)" vmlinux modules >>"$out/link.log" 2>&1; then
	kb_built "$o-link" "$tree"
	kb_keep "$o-link" kconfig-matrix-link "$link_stamp" || true
else
	grep -E "undefined reference to|ERROR: modpost: .* undefined" "$out/link.log" |
		sed -E 's/.*(undefined reference to `([^'"'"']+)).*/vmlinux: undefined reference to \2/; s/^ERROR: modpost: //' |
		sort -u | head -n 5 | sed 's/^/linked allmod /' >>"$findings"
	grep -q '^linked ' "$findings" ||
		gate_fail "the narrowed allmodconfig does not build at $rev, see $out/link.log"
fi

# -- report: each kind once, with the first assignment that shows it -------
nfind=0
for kind in unbuilt link mct pinctrl allmod linked; do
	n=$(grep -c "^$kind " "$findings" || true)
	[ "$n" = 0 ] && continue
	nfind=$((nfind + n))
	grep "^$kind " "$findings" | sed -E 's/^[a-z-]+ [^ ]+ //' | sort | uniq -c | sort -rn | sed -n 1,5p |
		while read -r count what; do
			r=$(grep -F -m1 -- "$what" "$findings" | cut -d' ' -f2)
			echo "$kind: $what"
			echo "    in $count of $ndistinct results; first: $(first_of "$r")"
		done
done
summary="$nassign assignments ($ndistinct distinct results) and allmodconfig (also linked, narrowed), $nmct MCT tick clocks and $npin pin controllers with PMU retention from the DTBs"
[ "$nfind" = 0 ] && gate_pass "$summary: no unbuilt object, no link, MCT or pin control hazard, allmodconfig compiles what it did"
gate_fail "$summary: $nfind findings (above; all in $findings)"
