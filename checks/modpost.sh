#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# modpost gate: the target's tip built in the modular configuration, where
# boot/configs/virt.config turns SECTION_MISMATCH_WARN_ONLY off: 0 section
# mismatches, 0 undefined symbols, 0 namespace imports missing. Also flags
# __refdata/__ref in the sources of objects built as modules, since those
# annotations hide init references from modpost.
. "$(dirname "$0")/lib.sh"
. "$TOP/tools/kbuild.sh"

skip_unless_built
if [ "$TARGET" = integration ]; then rev=integration; else rev=$(topic_branch "$TARGET"); fi
o=$(kb_outdir "$rev" modular)
log=$LOGDIR/build-$BUILD_NAME-modular.log
built=yes
"$TOP/tools/build.sh" "$rev" modular || built=no

mismatch=$(grep -c 'Section mismatch in reference' "$log" || true)
undefined=$(grep -cE '^(ERROR|WARNING): modpost: "[^"]+" \[.*\] undefined!' "$log" || true)
namespace=$(grep -cE 'modpost: module .* uses symbol .* from namespace .*, but does not import it' "$log" || true)
grep -E 'Section mismatch in reference|modpost: .*(undefined!|does not import it)' "$log" | sort -u | head -n 30 || true

# Sources of the modules the build made, in the directories this target
# touches: __ref/__refdata there silences exactly what this gate checks.
refs=0
if [ -d "$o" ]; then
	range=$(target_range)
	dirs=$(kgit diff --name-only "$range" -- '*.c' '*.h' 'Makefile' 'Kconfig' | xargs -r -n1 dirname | sort -u)
	for d in $dirs; do
		for mod in "$o/$d"/*.mod; do
			[ -f "$mod" ] || continue
			for obj in $(cat "$mod"); do
				src=${obj%.o}.c
				kgit cat-file -e "$rev:$src" 2>/dev/null || continue
				hits=$(kgit grep -n -E '\b__ref(data)?\b' "$rev" -- "$src" | sed "s/^$rev://" || true)
				[ -n "$hits" ] || continue
				echo "$hits" | sed 's/$/  (__ref in a module source hides init references)/'
				refs=$((refs + $(wc -l <<<"$hits")))
			done
		done
	done
fi

summary="$mismatch section mismatches, $undefined undefined, $namespace missing namespace imports, $refs __ref in modules ($rev modular)"
# With WARN_ONLY off every modpost finding stops the build, so a build that
# passed had none; a failed build with no finding failed for another reason.
[ "$built" = yes ] && [ "$mismatch$undefined$namespace$refs" = 0000 ] && gate_pass "$summary"
[ "$mismatch$undefined$namespace" = 000 ] && [ "$built" = no ] && summary="the build failed before modpost (see $log); $summary"
gate_fail "$summary"
