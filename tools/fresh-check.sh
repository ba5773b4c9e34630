#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make fresh-check: prove that 'make deps' brings everything the pipeline
# runs. A minimal Debian system (debootstrap --variant=minbase, the suite and
# mirror of this machine's apt sources) gets a copy of this checkout, runs
# 'make deps' in a chroot, and then runs there every external program the
# pipeline starts, with the pipeline's own arguments (taken from
# tools/kbuild.sh where the pipeline keeps them). The QEMU probes boot a
# kernel this machine already built, bind-mounted in read-only.
#   FRESH_BUILD  a build directory that tools/boot.sh has booted (default
#                $WORK/build/integration-modular): its Image, initramfs,
#                staged modules and System.map
#   FRESH_PROBES the probes to run (default all, in this order): qemu-dtb
#                qemu-boot cc-arm64 cc-arm32 cc-host cpio depmod tree dtc
#                kbuild sparse spatch prove python3
# Cached under $WORK/fresh: the debootstrap tarball and the downloaded
# .debs. The system itself is made anew on every run and removed after.
# Every mount lives in a private mount namespace, so a killed run leaves
# none behind; the next run removes what is left of the old system.
# spatch loads libpython3.X.so for the rules' Python scripts: only the -dev
# package has that name, hence libpython3-dev in tools/deps.sh.
# Prints one line per probe and "fresh-check: PASS|FAIL ..." last.
# shellcheck source=tools/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=tools/kbuild.sh
. "$TOP/tools/kbuild.sh"

# probe NAME CMD...: run CMD, one PASS/FAIL line; on failure its output,
# and which program or file was missing when the output says so.
probe() {
	local name=$1 out rc=0 t0=$EPOCHREALTIME miss
	shift
	case " ${FRESH_PROBES:-$name} " in *" $name "*) ;; *) return 0 ;; esac
	NPROBES=$((NPROBES + 1))
	out=$("$@" 2>&1) || rc=$?
	if [ "$rc" = 0 ]; then
		printf 'probe: PASS %-10s %5.1fs\n' "$name" "$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { print b - a }')"
		return 0
	fi
	printf 'probe: FAIL %-10s exit %s\n' "$name" "$rc"
	printf '%s\n' "$out" | tail -n 15 | sed 's/^/    /'
	miss=$(printf '%s\n' "$out" | sed -n -E \
		-e 's/.*failed to find romfile "([^"]+)".*/qemu-system-aarch64 needs the ROM file \1/p' \
		-e 's/.*[ :]([^ :]+): (command )?not found.*/the program \1 is not installed/p' \
		-e 's/.*fatal error: ([^:]+): No such file or directory.*/the header \1 is not installed/p' | head -n1)
	[ -n "$miss" ] && echo "    missing: $miss, and 'make deps' does not install it: add its package to tools/deps.sh"
	FAILED+=" $name"
	return 0
}

# The probes, run inside the fresh system from its copy of the checkout.
# $1 is the bind-mounted build directory.
run_probes() {
	local b=$1 t=/tmp/fresh rel
	FAILED='' NPROBES=0
	rm -rf "$t" && mkdir -p "$t/cpio/lib/modules" "$t/o"
	rel=$(kb_release "$b")

	probe qemu-dtb kb_dump_dtb "$t/virt.dtb"
	probe qemu-boot qemu_boot "$b" "$t/console.log"
	probe cc-arm64 kb_build_init "$t/init"
	# ARM32 builds kernel code only: freestanding, no C library.
	probe cc-arm32 sh -c 'echo "int f(int x) { return x + 1; }" |
		arm-linux-gnueabihf-gcc -ffreestanding -nostdinc -O2 -Wall -Werror -x c -c -o "$1" -' sh "$t/arm32.o"
	probe cc-host kb_regimg "$t/regimg"
	cp -a "$b/staging/lib/modules/$rel" "$t/cpio/lib/modules/"
	probe cpio kb_cpio "$t/cpio" "$t/initramfs.cpio"
	probe depmod fresh_depmod "$b" "$rel" "$t"
	probe tree fresh_tree
	probe dtc fresh_dtc "$t"
	probe kbuild fresh_kbuild "$t/o"
	probe sparse kb_make "$t/o" C=2 CHECK=sparse drivers/clk/clk-fixed-rate.o
	probe spatch spatch --very-quiet -D report --no-show-diff --cocci-file "$TOP/coccinelle/probe_init.cocci" \
		"$KSRC/drivers/clk/samsung/clk-exynos850.c"
	probe prove prove --version
	probe python3 sh -c 'echo "{}" | python3 -m json.tool'
	[ "$NPROBES" -gt 0 ] || { echo "probes: FRESH_PROBES='${FRESH_PROBES:-}' names no probe"; return 1; }
	if [ -n "$FAILED" ]; then echo "probes: $NPROBES run, failed:$FAILED"; return 1; fi
	echo "probes: $NPROBES run, all passed"
}

# qemu_boot O LOG: boot build directory O; QEMU's own messages (a missing
# ROM) and the verdict to stdout.
qemu_boot() {
	kb_boot "$1" "$2" 120 ""
	cat "$2.qemu"
	echo "$KB_VERDICT"
	[ "${KB_VERDICT%% *}" = PASS ]
}

fresh_dtc() {
	kb_soc_dtsi "$TOP/boot/soc/exynos850.dtsi" "$1/soc.dtsi" && kb_soc_dtb "$1/virt.dtb" "$1/soc.dtsi" "$1"
}

fresh_depmod() {
	local err
	mkdir -p "$3/dm/lib/modules" && cp -a "$1/staging/lib/modules/$2" "$3/dm/lib/modules/" &&
		err=$(kb_depmod -b "$3/dm" -e -F "$1/System.map" "$2" 2>&1 >/dev/null) &&
		{ [ -z "$err" ] || { echo "$err"; false; }; }
}

# The import, the topics and the integration merge, as 'make integration'.
fresh_tree() {
	"$TOP/tools/tree.sh" && "$TOP/tools/topics.sh" && "$TOP/tools/integration.sh"
}

# The pipeline's configuration and kbuild's prepare step: host gcc, flex,
# bison, bc, perl and the cross compiler on the modular integration tree.
fresh_kbuild() {
	kgit checkout -q --detach integration &&
		kb_fragments integration modular &&
		kb_configure "$1" "$(kb_rev integration)" "${KB_FRAGMENTS[@]}" &&
		kb_make "$1" -j"$(nproc)" prepare
}

if [ "${1:-}" = --probes ]; then
	FRESH_PROBES=${FRESH_PROBES:-} run_probes "$2"
	exit
fi

[ "$(id -u)" = 0 ] || die "fresh-check needs root (debootstrap, chroot, mount): run it as root"
need debootstrap debootstrap unshare util-linux chroot coreutils
b=$(realpath -m "${FRESH_BUILD:-$WORK/build/integration-modular}")
for f in arch/arm64/boot/Image qemu/initramfs.cpio System.map staging; do
	[ -e "$b/$f" ] || die "$b/$f is missing: boot a kernel first ('make boot'), or point FRESH_BUILD= at a booted build directory"
done

# The suite and mirror this machine's apt uses: the fresh system must see
# the same archive as 'make deps' here.
suite=$(. /etc/os-release && echo "${VERSION_CODENAME:?}")
mirror=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null | sed -n 's/^URIs:[[:space:]]*\([^[:space:]]*\).*/\1/p' | head -n1)
[ -n "$mirror" ] || mirror=$(sed -n 's/^deb[[:space:]]\+\(\[[^]]*\][[:space:]]\+\)\?\([^[:space:]]*\).*/\2/p' /etc/apt/sources.list 2>/dev/null | head -n1)
[ -n "$mirror" ] || die "no Debian mirror in /etc/apt/sources.list or /etc/apt/sources.list.d/*.sources"

take_lock
f=$WORK/fresh
root=$f/root
log=$LOGDIR/fresh-check.log
mkdir -p "$f/debs"
: >"$log"
start=$SECONDS

# A root left by a killed run has no mounts (they died with its namespace).
if [ -e "$root" ]; then
	grep -q " ${root}[/ ]" /proc/mounts && die "$root still has mounts (see /proc/mounts): unmount them, then rerun"
	rm -rf "$root"
fi

tarball=$f/debootstrap-$suite-minbase.tgz
if [ ! -f "$tarball" ]; then
	step "debootstrap: downloading $suite (minbase) into $tarball"
	debootstrap --variant=minbase --make-tarball="$tarball.tmp" "$suite" "$f/dl" "$mirror" >>"$log" 2>&1 ||
		{ tail -n 20 "$log" >&2; die "debootstrap could not download $suite from $mirror (log: $log)"; }
	mv "$tarball.tmp" "$tarball"
	rm -rf "$f/dl"
fi
step "debootstrap: a fresh $suite system in $root"
debootstrap --variant=minbase --unpack-tarball="$tarball" "$suite" "$root" "$mirror" >>"$log" 2>&1 ||
	{ tail -n 20 "$log" >&2; die "debootstrap failed to unpack $tarball (log: $log); delete it to download anew"; }
# The same apt sources as here (suites, updates, security), nothing else.
rm -f "$root/etc/apt/sources.list"
for s in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
	[ -f "$s" ] && cp "$s" "$root$s"
done
mkdir -p "$root/src" "$root/fresh-build"
if git -C "$TOP" rev-parse --git-dir >/dev/null 2>&1; then
	(cd "$TOP" && git ls-files -z --cached --others --exclude-standard | xargs -0 cp -P --parents -t "$root/src")
else
	cp -a "$TOP/." "$root/src/"
fi

# Inside a private mount namespace: proc, dev, the .deb cache and the
# build (read-only). 'make' itself comes first: a clone needs git and make.
# shellcheck disable=SC2016 # expanded by the inner shell
inner='set -e
mount -t proc proc "$1/proc"
mount --rbind /dev "$1/dev"
mount --bind "$2" "$1/var/cache/apt/archives"
mount --bind "$3" "$1/fresh-build"
mount -o remount,bind,ro "$1/fresh-build"
exec chroot "$1" /usr/bin/env -i PATH=/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
	TERM=dumb WORK=/var/tmp/fresh-work bash -c "$4"'
# shellcheck disable=SC2016
in_fresh() { unshare --mount --propagation private sh -c "$inner" sh "$root" "$f/debs" "$b" "$1"; }

step "fresh system: apt-get install make, then 'make deps' (log: $log)"
t0=$SECONDS
in_fresh 'cd /src && export DEBIAN_FRONTEND=noninteractive && apt-get update -qq &&
	apt-get install -y -qq --no-install-recommends make >/dev/null && make deps' >>"$log" 2>&1 ||
	{ tail -n 20 "$log" >&2; rm -rf "$root"; die "'make deps' failed in the fresh system (log: $log)"; }
deps_s=$((SECONDS - t0))
step "fresh system: the pipeline's programs (make deps took ${deps_s}s)"
rc=0
in_fresh "cd /src && FRESH_PROBES='${FRESH_PROBES:-}' tools/fresh-check.sh --probes /fresh-build" 2>&1 |
	tee -a "$log" | tee "$f/probes.out" || rc=1
rm -rf "$root"
how=$(tail -n1 "$f/probes.out")
how=${how#probes: }
if [ "$rc" = 0 ]; then
	echo "fresh-check: PASS $how in $((SECONDS - start))s (make deps ${deps_s}s)"
else
	echo "fresh-check: FAIL $how (log: $log)"
fi
exit "$rc"
