#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Installs what schedlens needs to build and test, idempotently:
#   - Debian packages (skipped when all are present)
#   - libperf and libapi, built from Debian's linux-source-6.1 into build/deps (not committed)
#   - tracefs mounted at /sys/kernel/tracing when it is not (as root)
# Usage: scripts/deps.sh [--no-apt]
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
prefix="$top/build/deps"
pkgs=(build-essential libtraceevent-dev libdw-dev libelf-dev libpfm4-dev libjansson-dev
      libgsl-dev libzstd-dev check pkg-config linux-source-6.1 gnuplot-nox xz-utils
      linux-perf rt-tests clang libclang-rt-14-dev patch librsvg2-bin jq python3
      zlib1g-dev liblzma-dev libbz2-dev qemu-system-x86 qemu-system-arm busybox-static
      ccache flex bison bc libiberty-dev)

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ "${1:-}" != --no-apt ] && [ ${#missing[@]} -gt 0 ]; then
	echo "deps: installing ${missing[*]}" >&2
	if [ "$(id -u)" -ne 0 ]; then sudo=sudo; else sudo=; fi
	$sudo apt-get update -q >/dev/null
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
fi

# tracefs: the sched:* and ipi:* tracepoints live there; a fresh machine may not mount it
if [ ! -e /sys/kernel/tracing/events ] && [ "$(id -u)" -eq 0 ]; then
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null &&
		echo "deps: mounted tracefs at /sys/kernel/tracing" >&2 ||
		echo "deps: cannot mount tracefs at /sys/kernel/tracing: tracepoint tests will skip" >&2
fi

if [ -f "$prefix/lib/libperf.a" ] && [ -f "$prefix/lib/libapi.a" ] && [ -f "$prefix/include/perf/evlist.h" ]; then
	exit 0
fi

src=/usr/src/linux-source-6.1.tar.xz
[ -f "$src" ] || { echo "deps: '$src' is missing: apt-get install linux-source-6.1" >&2; exit 1; }
case "$(uname -m)" in
	aarch64) arch=arm64 ;;
	*) arch=x86 ;;
esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "deps: building libperf from $src" >&2
top_dir=$(tar -tJf "$src" 2>/dev/null | head -1 | cut -d/ -f1) || true
paths=(tools/lib/perf tools/lib/api tools/lib/str_error_r.c tools/lib/zalloc.c tools/include
       "tools/arch/$arch/include" tools/build tools/scripts)
tar -I 'xz -T0' -xf "$src" -C "$work" "${paths[@]/#/$top_dir/}"
ksrc="$work/$top_dir"
mkdir -p "$prefix/lib"
make -s -C "$ksrc/tools/lib/perf" prefix="$prefix" libdir_relative=lib EXTRA_CFLAGS="-O2 -fPIC" \
	>/dev/null
make -s -C "$ksrc/tools/lib/perf" prefix="$prefix" libdir_relative=lib EXTRA_CFLAGS="-O2 -fPIC" \
	install_headers install_pkgconfig >/dev/null
cp "$ksrc/tools/lib/perf/libperf.a" "$ksrc/tools/lib/api/libapi.a" "$prefix/lib/"
echo "deps: libperf installed in $prefix" >&2
