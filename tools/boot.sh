#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tools/boot.sh REV CONFIG: build (tools/build.sh, incremental), then boot the
# Image in QEMU virt with boot/init.c as /init and the staged modules, and
# judge the console: KTAP results, panics, oopses, warnings, timeouts.
#   BOOT_TIMEOUT  seconds before QEMU is killed (default 120)
#   BOOT_APPEND   extra kernel command line
#   QEMU_EXTRA    extra qemu-system-aarch64 arguments (word-split), e.g. -dtb
# shellcheck source=tools/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=tools/kbuild.sh
. "$TOP/tools/kbuild.sh"

[ $# -eq 2 ] || die "usage: tools/boot.sh REV CONFIG (CONFIG: builtin or modular)"
rev=$1 cfg=$2
kb_check_config_name "$cfg"
timeout_s=${BOOT_TIMEOUT:-120}
case $timeout_s in '' | *[!0-9]*) die "BOOT_TIMEOUT must be a number of seconds, not '$timeout_s'" ;; esac
need qemu-system-aarch64 qemu-system-arm cpio cpio timeout coreutils ${KB_CROSS}gcc gcc-aarch64-linux-gnu

# Held across build and boot, so nobody rebuilds O under the running guest.
take_lock
"$TOP/tools/build.sh" "$rev" "$cfg" || {
	printf 'boot: FAIL %s %s: the build failed (above)\n' "$rev" "$cfg"
	exit 1
}

o=$(kb_outdir "$rev" "$cfg")
rel=$(kb_release "$o")
q=$o/qemu
log=$LOGDIR/boot-$(kb_name "$rev")-$cfg.log
rm -rf "$q"
mkdir -p "$q/root/lib/modules"

step "initramfs: /init + $(find "$o/staging/lib/modules/$rel" -name '*.ko' | wc -l) modules for $rel"
kb_build_init "$q/root/init" ||
	die "boot/init.c does not compile (above)"
cp -a "$o/staging/lib/modules/$rel" "$q/root/lib/modules/"
# build and source point into this host's WORK: not for the guest.
rm -f "$q/root/lib/modules/$rel/build" "$q/root/lib/modules/$rel/source"
kb_cpio "$q/root" "$q/initramfs.cpio"

step "qemu: virt, cortex-a57, 512 MiB, timeout ${timeout_s}s (console: $log)"
start=$EPOCHREALTIME
rc=0
kb_qemu_cmd "$KB_QEMU_MACHINE"
# shellcheck disable=SC2086 # QEMU_EXTRA is a list of arguments
timeout -k 5 "$timeout_s" "${KB_QEMU[@]}" -kernel "$o/arch/arm64/boot/Image" -initrd "$q/initramfs.cpio" \
	-append "console=ttyAMA0 panic=-1${BOOT_APPEND:+ $BOOT_APPEND}" ${QEMU_EXTRA:-} \
	</dev/null >"$log" 2>"$q/qemu.err" || rc=$?
secs=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')

kb_ktap "$log"
verdict=$(kb_verdict "$log" "$rc")
case $verdict in
PASS\ *)
	read -r _ passed total <<<"$verdict"
	printf 'boot: PASS %s %s %d/%d %ss\n' "$rev" "$cfg" "$passed" "$total" "$secs"
	;;
*)
	if [ -s "$q/qemu.err" ]; then
		echo "--- qemu's own messages ($q/qemu.err):" >&2
		cat "$q/qemu.err" >&2
	fi
	printf 'boot: FAIL %s %s %ss: %s (console: %s)\n' "$rev" "$cfg" "$secs" "${verdict#FAIL }" "$log"
	exit 1
	;;
esac
