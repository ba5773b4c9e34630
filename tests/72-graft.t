#!/usr/bin/env bash
# boot/graft.c: the SoC nodes of the kernel's own arm64 Exynos and FSD
# board DTBs, grafted into QEMU virt's DT: every board grafts, each moved
# register block is listed, references stay consistent, what cannot be
# placed is named with the reason, and the integration kernel boots on a
# grafted Exynos850 board with its modules loaded. Uses the tree and the
# builds of tests/70-boot.t.
. "$(dirname "$0")/lib.sh"
scratch_checkout
use_boot_work
G=$TEST_ROOT/graft
mkdir -p "$G"
rm -f "$G/graft"
gcc -O2 -Wall -Wextra -Werror -o "$G/graft" "$SCRATCH/boot/graft.c" -lfdt
check "boot/graft.c compiles without a warning" test -x "$G/graft"

# The board DTBs as the tree builds them (the series changes no DTS).
D=$WORK/build/dtbs
make -s -C "$KSRC" O="$D" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- defconfig >"$G/dtbs.log" 2>&1 &&
	make -s -C "$KSRC" O="$D" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- -j2 dtbs >>"$G/dtbs.log" 2>&1
check "the board DTBs build" test -f "$D/arch/arm64/boot/dts/tesla/fsd-evb.dtb"
D=$D/arch/arm64/boot/dts
qemu-system-aarch64 -M virt,dumpdtb="$G/virt.dtb" -cpu cortex-a57 -m 512 -nographic -no-reboot -nic none 2>/dev/null
# The compatibles of the series' modules, as equiv.sh takes them.
bash -c '. "$1/tools/lib.sh" && . "$1/tools/kbuild.sh" && kb_samsung_compatibles "$WORK/build/integration-modular" "$(base_tag)"' \
	sh "$SCRATCH" >"$G/compat"
check "the modules name their compatibles" eval 'grep -qx "samsung,exynos850-cmu-top" "$G/compat" && grep -qx "tesla,fsd-pinctrl" "$G/compat"'

for b in exynos/exynos5433-tm2 exynos/exynos850-e850-96 exynos/exynos7-espresso \
	exynos/exynos7885-jackpotlte exynos/exynosautov9-sadk tesla/fsd-evb; do
	n=${b#*/}
	run_tool sh -c '"$1" "$2" "$3" "$4" "$5" >"$6" 2>"$7"' - "$G/graft" "$G/virt.dtb" "$D/$b.dtb" "$G/compat" "$G/$n.dtb" "$G/$n.tab" "$G/$n.log"
	dtc -I dtb -O dts -o "$G/$n.dts" "$G/$n.dtb" 2>"$G/$n.dtc"
	check "$n: grafted, every clock controller moved into the window, no dangling phandle" eval \
		'passed && ! grep -q "^graft: not grafted" <<<"$out" &&
		[ "$(grep -c "clock-controller@" "$G/$n.tab")" -ge 3 ] &&
		! grep -qE "phandle_references|clocks_property" "$G/$n.dtc" &&
		grep -qE "^/soc@?[0-9]*/(clock-controller|pinctrl)@1[0-9a-f]+ +0x01[0-9a-f]{7} 0x5[0-9a-f]{7}$" "$G/$n.tab"'
done
check "a device whose clock comes from outside the graft (a PMIC on I2C) is disabled, saying why" eval \
	'grep -q "^graft: disabled: /soc@0/rtc@10590000 clocks: refers to /soc@0/i2c@13660000/pmic@66/clocks" "$G/exynos7-espresso.log" &&
	awk "/rtc@590000 \\{/ { on = 1 } on && /status = \"disabled\"/ { ok = 1 } on && /\\};/ { on = 0 } END { exit !ok }" "$G/exynos7-espresso.dts" &&
	! grep -q "s2mps13-clk" "$G/exynos7-espresso.dts"'
check "every grafted clock controller gets a consumer clock, taking a clock the board uses or clock 1" eval \
	'[ "$(grep -c "^graft: consumer: consumer-clock-controller@" "$G/fsd-evb.log")" = "$(grep -c "clock-controller@" "$G/fsd-evb.tab")" ] &&
	grep -q "consumer-clock-controller@14010000 takes clock 5 of /soc@0/clock-controller@14010000, as does /soc@0/dma-controller@14280000" "$G/fsd-evb.log" &&
	grep -q "consumer-clock-controller@16810000 takes clock 1 .*no node of the board uses it" "$G/fsd-evb.log" &&
	grep -A6 "consumer-clock-controller@14010000 {" "$G/fsd-evb.dts" | grep -q "fixed-factor-clock"'
check "QEMU's own timer node comes first, before the board's timers (the kernel sets them up in DT order)" eval \
	'[ "$(fdtget -l "$G/exynos850-e850-96.dtb" / | head -n 1)" = timer ] &&
	[ "$(fdtget -t x "$G/exynos850-e850-96.dtb" /timer interrupts)" = "$(fdtget -t x "$G/virt.dtb" /timer interrupts)" ]'
check "the pinctrl aliases point at the grafted nodes" eval \
	'grep -qE "pinctrl0 = \"/soc@50000000/pinctrl@1850000\"" "$G/exynos850-e850-96.dts"'
# spis DTS: the SPI numbers of the interrupts in the grafted container.
spis() {
	awk '/^\tsoc@50000000 \{/ { on = 1 } on && /^\t\};/ { on = 0 }
		on && /\tinterrupts = </ {
			sub(/.*</, ""); sub(/>.*/, ""); n = split($0, c, " ")
			for (i = 1; i + 2 <= n; i += 3) if (c[i] == "0x00") print c[i + 1]
		}' "$1" | while read -r h; do echo $((h)); done
}
check "interrupts of the grafted nodes are free SPIs of QEMU's GIC" eval \
	'spis "$G/exynos850-e850-96.dts" >"$G/spis" && [ -s "$G/spis" ] &&
	awk "\$1 < 48 || (\$1 > 111 && \$1 < 176) || \$1 > 223 { bad = 1 } END { exit bad }" "$G/spis"'

# A window too small for the board: the nodes that collide are named.
run_tool "$G/graft" -w 5f000000:1000000 "$G/virt.dtb" "$D/exynos/exynos850-e850-96.dtb" "$G/compat" "$G/small.dtb"
check "a node that cannot be placed is named with the reason" eval \
	'has "graft: not grafted: /soc@0/clock-controller@12000000: its registers at 0x12000000 would overlap those of /soc@0/chipid@10000000"'
run_tool "$G/graft" -s 48-50 "$G/virt.dtb" "$D/exynos/exynos850-e850-96.dtb" "$G/compat" "$G/few.dtb"
check "too few free SPIs: refused, saying so" eval 'failed && has "more SPIs than the 3 free ones"'
run_tool "$G/graft" "$G/virt.dtb" "$G/compat" "$G/compat" "$G/x.dtb"
check "a board file that is no DTB is refused, naming it" eval "failed && has '$G/compat: not a DTB'"

# The integration kernel on the grafted board, registers all zero.
QEMU_EXTRA="-dtb $G/exynos850-e850-96.dtb" run_tool "$T/boot.sh" integration modular
check "integration modular boots on the grafted Exynos850 board, every module loaded" eval \
	'passed && has "boot: PASS integration modular" &&
	grep -q "s3c-rtc 51a30000.rtc: registered as rtc" "$WORK/logs/boot-integration-modular.log"'
done_testing
