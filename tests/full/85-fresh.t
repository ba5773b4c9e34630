#!/usr/bin/env bash
# 'make deps' brings everything the pipeline runs: the fresh-machine check
# passes on this checkout, and fails, naming QEMU and the ROM, when QEMU is
# started with its default network card again (the ipxe-qemu ROM that
# 'make deps' does not install). It boots the kernel tests/70-boot.t built.
. "$(dirname "$0")/../lib.sh"
scratch_checkout
export WORK=$TEST_ROOT/fresh
mkdir -p "$WORK"
export FRESH_BUILD=$TEST_ROOT/boot/build/integration-modular
if [ ! -f "$FRESH_BUILD/qemu/initramfs.cpio" ]; then
	echo "1..0 # SKIP no booted build in $FRESH_BUILD: tests/70-boot.t makes it"
	exit 0
fi

run_tool "$T/fresh-check.sh"
echo "$out" | grep -E '^(probe|fresh-check):' | diag
check "a fresh Debian system with 'make deps' runs every program the pipeline starts" eval \
	'passed && has "fresh-check: PASS" && ! has "probe: FAIL"'

sed -i 's/ -nic none)/)/' "$SCRATCH/tools/kbuild.sh"
FRESH_PROBES="qemu-dtb qemu-boot" run_tool "$T/fresh-check.sh"
check "without -nic none the check fails, naming QEMU and the ROM it lacks" eval \
	'failed && has "probe: FAIL qemu-boot" && has "qemu-system-aarch64 needs the ROM file efi-virtio.rom" &&
	 has "fresh-check: FAIL"'
check "the fresh system is removed after each run" test ! -e "$WORK/fresh/root"
done_testing
