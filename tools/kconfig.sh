# SPDX-License-Identifier: GPL-2.0
# Kconfig helpers shared by the build and the gates. Sourced.

cross_compile() {
	case $1 in
	arm64) echo aarch64-linux-gnu- ;;
	arm) echo arm-linux-gnueabihf- ;;
	*) die "no cross compiler known for ARCH=$1" ;;
	esac
}

# kconfig_make ARCH O TARGET...: a Kconfig target, out of tree.
kconfig_make() {
	local arch=$1 o=$2
	shift 2
	mkdir -p "$o"
	make -s -C "$KSRC" O="$o" ARCH="$arch" CROSS_COMPILE="$(cross_compile "$arch")" "$@"
}

# fragment_misses CONFIG FRAGMENT...: one line per option a fragment asks
# for that CONFIG does not have, as "CONFIG_X=want (got ...; FRAGMENT)".
fragment_misses() {
	local config=$1 f line opt want got
	shift
	for f in "$@"; do
		while IFS= read -r line; do
			case $line in
			CONFIG_*=*) opt=${line%%=*}; want=${line#*=} ;;
			"# CONFIG_"*" is not set") opt=${line#\# }; opt=${opt%% *}; want=n ;;
			*) continue ;;
			esac
			got=$(sed -n "s/^$opt=//p" "$config")
			[ -n "$got" ] || got=n
			[ "$got" = "$want" ] || printf '%s=%s (got %s; %s)\n' "$opt" "$want" "$got" "${f#"$TOP"/}"
		done <"$f"
	done
}

# kconfig_fragment_misses REV FRAGMENT DIR: arm64 defconfig plus FRAGMENT
# at REV, then fragment_misses. Checks out REV.
kconfig_fragment_misses() {
	local rev=$1 frag=$2 dir=$3
	kgit checkout -q --detach "$rev"
	kconfig_make arm64 "$dir" defconfig >"$dir.log" 2>&1
	(cd "$dir" && "$KSRC/scripts/kconfig/merge_config.sh" -m -O "$dir" .config "$frag") >>"$dir.log" 2>&1
	kconfig_make arm64 "$dir" olddefconfig >>"$dir.log" 2>&1
	fragment_misses "$dir/.config" "$frag"
}
