# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The equivalence state, for tools/equiv.sh and its unit test
# (tests/57-equiv-state.t): what a guest's console log says the drivers
# built, and the comparison of two such states against the expected
# differences. No kernel, tree or QEMU needed.

# eq_state LOG: the captured sections of a console log, normalised to
# one sorted "kind key value..." line each. clk_summary's indentation gives
# each clock's parent; counts go to separate clkcnt lines. A consumer is
# named by its DT node: of_clk_get() names it so for a built-in MCT or CMU
# at time_init(), while the same clock taken by its platform driver from a
# module is named by the device ("50040000.timer" for "timer@40000"); the
# agent's "#~ devname DEVICE NODE" lines give the mapping.
eq_state() {
	tr -d '\r' <"$1" | awk '
		/^#~ devname / { node[$3] = $4; next }
		/^# equiv-begin / { sec = $3; hdr = 0; next }
		/^# equiv-end / { sec = ""; next }
		sec == "" || !/^#= / { next }
		{ line = substr($0, 4) }
		sec == "clk" {
			# name enable prepare protect rate accuracy phase duty hw-enable
			# [consumer con_id]; further consumers on lines of their own.
			n = split(line, f, " ")
			if (n == 2 && cur != "") { user[++nuser] = cur " " f[1] " " f[2]; next }
			if (n < 9 || f[2] !~ /^-?[0-9]+$/) next
			match(line, /^ */); lvl = int((RLENGTH - 1) / 3)
			cur = f[1]; par[lvl] = cur
			p = lvl > 0 ? par[lvl - 1] : "-"
			printf "clk %s parent=%s rate=%s accuracy=%s phase=%s duty=%s\n", cur, p, f[5], f[6], f[7], f[8]
			printf "clkcnt %s enable=%s prepare=%s protect=%s hw=%s\n", cur, f[2], f[3], f[4], f[9]
			if (n >= 11) user[++nuser] = cur " " f[10] " " f[11]
			next
		}
		sec == "devices" { print "dev " line; next }
		# An error is state once, however often it is logged: how often
		# a power domain without status bits fails to turn off depends on
		# timing (QEMU Exynos4210 PMU), not on the drivers.
		sec == "kerr" && seen_kerr[line]++ { next }
		# A gpio range keeps its width, not its global numbers: gpiolib
		# hands those out in the order the controllers probe.
		sec == "pinctrl" && match(line, /GPIOS \[[0-9]+ - [0-9]+\]/) {
			split(substr(line, RSTART + 7, RLENGTH - 8), g, " - ")
			line = substr(line, 1, RSTART - 1) "GPIOS " (g[2] - g[1] + 1) substr(line, RSTART + RLENGTH)
		}
		{ print sec " " line }
		END {
			for (i = 1; i <= nuser; i++) {
				split(user[i], u, " ")
				printf "clkuser %s %s %s\n", u[1], u[2] in node ? node[u[2]] : u[2], u[3]
			}
		}
	' | LC_ALL=C sort
}

# eq_compare A B DIFF EXPECTED: diff two states; prints "expected unexpected"
# counts, writes the unexpected lines to DIFF. A line is "- STATE" when only the
# baseline has it, "+ STATE" when only the series has it; the globs of the
# expectations file EXPECTED are matched against that whole line.
eq_compare() {
	local line glob ok n_exp=0 n_unexp=0
	local -a globs=()
	while IFS='|' read -r glob _; do
		glob=${glob%"${glob##*[![:space:]]}"}
		[ -n "$glob" ] && [ "${glob:0:1}" != "#" ] && globs+=("$glob")
	done <"$4"
	: >"$3"
	while IFS= read -r line; do
		ok=
		for glob in "${globs[@]}"; do
			# shellcheck disable=SC2053 # glob match on purpose
			if [[ $line == $glob ]]; then ok=1 && break; fi
		done
		if [ -n "$ok" ]; then
			n_exp=$((n_exp + 1))
		else
			n_unexp=$((n_unexp + 1))
			printf '%s\n' "$line" >>"$3"
		fi
	done < <(LC_ALL=C comm -3 "$1" "$2" | sed -e 's/^\t/+ /' -e 't' -e 's/^/- /')
	echo "$n_exp $n_unexp"
}
