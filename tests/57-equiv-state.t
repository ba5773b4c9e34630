#!/usr/bin/env bash
# The equivalence state parser and comparison (tools/equiv-state.sh) on a
# recorded console log, in milliseconds: sections, clock parents from the
# indentation, consumers on lines of their own, kernel messages in between
# ignored; differences matched against expectations, each counted.
. "$(dirname "$0")/lib.sh"
# shellcheck source=tools/equiv-state.sh
. "$REPO/tools/equiv-state.sh"
tmp=$(mktemp -d "$TEST_ROOT/equiv-state.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fx=$REPO/tests/fixtures

eq_state "$fx/equiv-console.log" >"$tmp/a"
check "the recorded console gives the recorded state, line for line" diff -u "$fx/equiv-console.state" "$tmp/a"
check "a clock's parent is the clock one indentation step up, wherever it was printed" \
	grep -qx 'clk gout_rtc_pclk parent=oscclk rate=26000000 accuracy=0 phase=0 duty=50000' "$tmp/a"
check "a second consumer line belongs to the clock above it, past a kernel message" \
	grep -qx 'clkuser gout_rtc_pclk deviceless no_connection_id' "$tmp/a"

# The series' state: CMU_FSYS now bound (expected), a clock at another rate
# (not).
sed -e 's/^dev clock-controller@6e0000 unbound /dev clock-controller@6e0000 bound /' \
	-e 's/^clk gout_rtc_pclk parent=oscclk rate=26000000 /clk gout_rtc_pclk parent=oscclk rate=13000000 /' \
	"$tmp/a" | LC_ALL=C sort >"$tmp/b"
printf '%s\n' '# comment' '' '+ dev clock-controller@* bound *-cmu   | the series binds it' >"$tmp/expected"
# shellcheck disable=SC2034 # read in the check below
counts=$(eq_compare "$tmp/a" "$tmp/b" "$tmp/diff" "$tmp/expected")
check "one expected and three unexpected differences are counted" eval '[ "$counts" = "1 3" ] || { echo "# got $counts"; false; }'
check "the unexpected ones are listed, '-' for the baseline and '+' for the series" eval \
	'grep -qx -- "- dev clock-controller@6e0000 unbound exynos850-cmu" "$tmp/diff" &&
	grep -qx -- "- clk gout_rtc_pclk parent=oscclk rate=26000000 accuracy=0 phase=0 duty=50000" "$tmp/diff" &&
	grep -qx -- "+ clk gout_rtc_pclk parent=oscclk rate=13000000 accuracy=0 phase=0 duty=50000" "$tmp/diff" &&
	[ "$(wc -l <"$tmp/diff")" = 3 ]'
check "the same state twice has no difference" eval '[ "$(eq_compare "$tmp/a" "$tmp/a" "$tmp/diff" "$tmp/expected")" = "0 0" ]'
# Global GPIO numbers depend on the order the pin controllers probe: a
# range compares by its width.
printf '%s\n' '# equiv-begin pinctrl' '#= p gpio-ranges: 0: gph0 GPIOS [518 - 523] PINS [0 - 5]' '# equiv-end pinctrl' >"$tmp/g1.log"
sed 's/518 - 523/599 - 604/' "$tmp/g1.log" >"$tmp/g2.log"
check "a gpio range moved to other global numbers is the same state, its width kept" eval \
	'[ "$(eq_state "$tmp/g1.log")" = "$(eq_state "$tmp/g2.log")" ] &&
	[ "$(eq_state "$tmp/g1.log")" = "pinctrl p gpio-ranges: 0: gph0 GPIOS 6 PINS [0 - 5]" ]'
# A bus clock taken at time_init() (consumer: the DT node) and the same
# clock taken by the platform driver (consumer: the device) are one line;
# a series whose MCT driver never takes it differs.
printf '%s\n' '# equiv-begin clk' '#= pclk_mct 1 1 0 100000000 0 0 50000 Y timer@1c0000 mct' '# equiv-end clk' >"$tmp/m1.log"
printf '%s\n' '#~ devname 501c0000.timer timer@1c0000' '# equiv-begin clk' \
	'#= pclk_mct 1 1 0 100000000 0 0 50000 Y 501c0000.timer mct' '# equiv-end clk' >"$tmp/m2.log"
check "a clock consumer named by its device is named by its DT node" eval \
	'[ "$(eq_state "$tmp/m1.log")" = "$(eq_state "$tmp/m2.log")" ] &&
	eq_state "$tmp/m2.log" | grep -qx "clkuser pclk_mct timer@1c0000 mct"'
eq_state "$tmp/m1.log" >"$tmp/m1"
printf '%s\n' '# equiv-begin clk' '#= pclk_mct 1 1 0 100000000 0 0 50000 Y' '# equiv-end clk' >"$tmp/m3.log"
eq_state "$tmp/m3.log" >"$tmp/m3"
check "the MCT's bus clock never taken on the series is unexpected under the project's expectations" eval \
	'[ "$(eq_compare "$tmp/m1" "$tmp/m3" "$tmp/diff" "$REPO/boot/equiv/expected-differences")" = "0 1" ] &&
	grep -qx -- "- clkuser pclk_mct timer@1c0000 mct" "$tmp/diff"'
done_testing
