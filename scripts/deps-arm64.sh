#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# What `make ARCH=arm64` needs to cross-build a static aarch64 schedlens on an x86-64 Debian 12
# machine, idempotently (a few stat calls when everything is present):
#   - the cross compiler (gcc-aarch64-linux-gnu) and qemu-user-static, as host packages
#   - build/sysroot-arm64: Debian's :arm64 -dev packages and the libraries they need, fetched
#     with `apt-get download` and extracted with dpkg-deb, never installed (libgsl-dev and
#     others are not Multi-Arch: same, so an :arm64 install would remove the amd64 one)
#   - libperf and libapi cross-built from Debian's linux-source-6.1 into build/deps-arm64
# Usage: scripts/deps-arm64.sh [--no-apt]
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
sysroot="$top/build/sysroot-arm64"
prefix="$top/build/deps-arm64"
debs="$top/build/debs-arm64"
cross=aarch64-linux-gnu-

# (libc6-dev-arm64-cross is only recommended by the compiler, and --no-install-recommends
# leaves it out: libperf's own shared library links against its crti.o, not the sysroot's)
host_pkgs=(gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu libc6-dev-arm64-cross
	   qemu-user-static linux-source-6.1 xz-utils pkg-config make)
# the static link's libraries, their headers and what their .pc files name; check for the
# unit tests; libc6-dev with the kernel headers it includes
arm64_pkgs=(libc6 libc6-dev libcrypt1 libcrypt-dev linux-libc-dev libgcc-s1
	    libtraceevent1 libtraceevent-dev libdw1 libdw-dev libelf1 libelf-dev
	    libpfm4 libpfm4-dev libjansson4 libjansson-dev libgsl27 libgslcblas0 libgsl-dev
	    libzstd1 libzstd-dev zlib1g zlib1g-dev liblzma5 liblzma-dev libbz2-1.0 libbz2-dev
	    check libsubunit0 libsubunit-dev libiberty-dev)

stamp="$sysroot/.schedlens-pkgs"
want_stamp="${arm64_pkgs[*]}"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want_stamp" ] &&
   [ -f "$prefix/lib/libperf.a" ] && [ -f "$prefix/lib/libapi.a" ] &&
   [ -f "$prefix/include/perf/evlist.h" ] && command -v "${cross}gcc" >/dev/null; then
	exit 0
fi

if [ "$(id -u)" -ne 0 ]; then sudo=sudo; else sudo=; fi
no_apt=0
[ "${1:-}" = --no-apt ] && no_apt=1

need_sysroot=0
[ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want_stamp" ] || need_sysroot=1
missing=()
for p in "${host_pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
# one apt-get update, after dpkg knows arm64, for the host packages and the arm64 lists both
update=0
[ ${#missing[@]} -gt 0 ] && update=1
if [ $need_sysroot = 1 ] && ! dpkg --print-foreign-architectures | grep -qx arm64; then
	[ $no_apt = 1 ] && { echo "deps-arm64: dpkg has no arm64 architecture (--no-apt)" >&2; exit 1; }
	echo "deps-arm64: dpkg --add-architecture arm64" >&2
	$sudo dpkg --add-architecture arm64
	update=1
fi
[ $need_sysroot = 1 ] && ! apt-cache show libc6-dev:arm64 >/dev/null 2>&1 && update=1
if [ $update = 1 ]; then
	[ $no_apt = 1 ] && { echo "deps-arm64: missing ${missing[*]:-arm64 package lists} (--no-apt)" >&2; exit 1; }
	$sudo apt-get update -q >/dev/null
fi
if [ ${#missing[@]} -gt 0 ]; then
	echo "deps-arm64: installing ${missing[*]}" >&2
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends \
		"${missing[@]}" >/dev/null
fi

# the sysroot: each :arm64 package downloaded once into build/debs-arm64, then extracted
if [ $need_sysroot = 1 ]; then
	mkdir -p "$debs"
	get=()
	for p in "${arm64_pkgs[@]}"; do
		v=$(apt-cache policy "$p:arm64" | sed -n 's/^  Candidate: //p')
		[ -n "$v" ] && [ "$v" != "(none)" ] ||
			{ echo "deps-arm64: no candidate for '$p:arm64'" >&2; exit 1; }
		# the file name apt-get download gives: epochs as %3a
		f="${p}_${v//:/%3a}_arm64.deb"
		[ -f "$debs/$f" ] || get+=("$p:arm64=$v")
	done
	if [ ${#get[@]} -gt 0 ]; then
		[ $no_apt = 1 ] && { echo "deps-arm64: would download ${get[*]} (--no-apt)" >&2; exit 1; }
		echo "deps-arm64: downloading ${#get[@]} arm64 packages" >&2
		# as root, apt's _apt user could not write into the build tree: download as root
		sandbox=()
		[ "$(id -u)" -eq 0 ] && sandbox=(-o APT::Sandbox::User=root)
		(cd "$debs" && apt-get download -q "${sandbox[@]}" "${get[@]}" >/dev/null)
	fi
	echo "deps-arm64: extracting the sysroot into $sysroot" >&2
	rm -rf "$sysroot"
	mkdir -p "$sysroot"
	for p in "${arm64_pkgs[@]}"; do
		v=$(apt-cache policy "$p:arm64" | sed -n 's/^  Candidate: //p')
		dpkg-deb -x "$debs/${p}_${v//:/%3a}_arm64.deb" "$sysroot"
	done
	# absolute symlinks (libfoo.so -> /lib/...) would point into the host: make them relative
	find "$sysroot" -type l -lname '/*' | while read -r l; do
		t=$(readlink "$l")
		ln -sfn "$(realpath -m --relative-to="$(dirname "$l")" "$sysroot$t")" "$l"
	done
	echo "$want_stamp" >"$stamp"
fi

if [ -f "$prefix/lib/libperf.a" ] && [ -f "$prefix/lib/libapi.a" ] &&
   [ -f "$prefix/include/perf/evlist.h" ]; then
	exit 0
fi

src=/usr/src/linux-source-6.1.tar.xz
[ -f "$src" ] || { echo "deps-arm64: '$src' is missing: apt-get install linux-source-6.1" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "deps-arm64: cross-building libperf from $src" >&2
top_dir=$(tar -tJf "$src" 2>/dev/null | head -1 | cut -d/ -f1) || true
paths=(tools/lib/perf tools/lib/api tools/lib/str_error_r.c tools/lib/zalloc.c tools/include
       tools/arch/arm64/include tools/build tools/scripts)
tar -I 'xz -T0' -xf "$src" -C "$work" "${paths[@]/#/$top_dir/}"
ksrc="$work/$top_dir"
mkdir -p "$prefix/lib"
kmake=(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -j"$(nproc)" -C "$ksrc/tools/lib/perf" ARCH=arm64 CROSS_COMPILE="$cross"
       prefix="$prefix" libdir_relative=lib EXTRA_CFLAGS="-O2 -fPIC --sysroot=$sysroot")
"${kmake[@]}" >/dev/null
"${kmake[@]}" install_headers install_pkgconfig >/dev/null
cp "$ksrc/tools/lib/perf/libperf.a" "$ksrc/tools/lib/api/libapi.a" "$prefix/lib/"
echo "deps-arm64: libperf installed in $prefix" >&2
