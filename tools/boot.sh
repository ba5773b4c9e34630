#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tools/boot.sh REV CONFIG: build (tools/build.sh, incremental), then boot the
# Image in QEMU virt with the guest agent (boot/agent/) as /init and the staged modules, and
# judge the console: KTAP results, panics, oopses, warnings, timeouts.
#   BOOT_TIMEOUT  seconds before QEMU is killed (default 120)
#   BOOT_APPEND   extra kernel command line
#   QEMU_EXTRA    extra qemu-system-aarch64 arguments (word-split), e.g. -dtb
# shellcheck source=tools/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=tools/kbuild.sh
. "$TOP/tools/kbuild.sh"

[ $# -eq 2 ] || die "usage: tools/boot.sh REV CONFIG (CONFIG: builtin, modular or gki)"
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
log=$LOGDIR/boot-$(kb_name "$rev")-$cfg.log
mkdir -p "$WORK/boot-results"
find "$WORK/boot-results" -type f -mtime +30 -delete	# unused for 30 days
step "initramfs: /init + $(find "$o/staging/lib/modules/$(kb_release "$o")" -name '*.ko' | wc -l) modules for $(kb_release "$o")"
kb_initramfs "$o" || die "no initramfs for $o (above)"

# A boot that passed is not repeated for the same initramfs stamp (kernel
# build, /init), command line, timeout and QEMU; QEMU_EXTRA may name files
# whose content the key cannot see, so it always boots.
key=$( { cat "$o/qemu/stamp" "$TOP/tools/boot.sh"; printf '%s\n' "$timeout_s" "${BOOT_APPEND:-}"; tool_versions; } |
	sha256sum | cut -c1-40)
res=$WORK/boot-results/$key
if [ -z "${QEMU_EXTRA:-}" ] && [ -f "$res.verdict" ] && [ -f "$res.log" ]; then
	cp "$res.log" "$log" && touch "$res.verdict" "$res.log"
	kb_ktap "$log"
	echo "$(cat "$res.verdict") (cached: this kernel and /init passed with this command line; console: $log)"
	exit 0
fi

step "qemu: virt, cortex-a57, 512 MiB, timeout ${timeout_s}s (console: $log)"
# shellcheck disable=SC2086 # QEMU_EXTRA is a list of arguments
kb_boot "$o" "$log" "$timeout_s" "${BOOT_APPEND:-}" ${QEMU_EXTRA:-}

kb_ktap "$log"
case $KB_VERDICT in
PASS\ *)
	read -r _ passed total <<<"$KB_VERDICT"
	printf 'boot: PASS %s %s %d/%d %ss\n' "$rev" "$cfg" "$passed" "$total" "$KB_SECS" | tee "$res.verdict.new"
	if [ -z "${QEMU_EXTRA:-}" ]; then
		cp "$log" "$res.log" && mv "$res.verdict.new" "$res.verdict"
	fi
	rm -f "$res.verdict.new"
	;;
*)
	if [ -s "$log.qemu" ]; then
		echo "--- qemu's own messages ($log.qemu):" >&2
		cat "$log.qemu" >&2
	fi
	printf 'boot: FAIL %s %s %ss: %s (console: %s)\n' "$rev" "$cfg" "$KB_SECS" "${KB_VERDICT#FAIL }" "$log"
	exit 1
	;;
esac
