#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Builds perf 6.12 (the perf a kernel developer runs today) from Debian's linux-source-6.12
# into build/perf-6.12/perf, the newer peer of the benches (perf 6.1 is the installed one).
# Cached: when build/perf-6.12/perf runs, nothing is done. The source comes from
# /usr/src/linux-source-6.12.tar.xz when the package is installed, else from the package
# fetched with apt-get download and unpacked with dpkg-deb (nothing installed). Built with what
# Debian 12 has (scripts/deps.sh installs it: flex, bison, libdw, libelf, libtraceevent, zstd):
# report, script, sched timehist; DWARF unwinding through libdw (no libunwind); no python,
# perl, TUI, GTK, BPF skeletons or JSON event tables. The first build took 5 min 20 s of wall time
# (download 5 s, unpacking and make -j2 308 s) on this shared 2-CPU VM at a load of 9-12.
# Usage: scripts/build-perf.sh [-q]   prints the binary's path on stdout
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/build/perf-6.12
bin=$out/perf
quiet=${1:-}
if [ -x "$bin" ] && "$bin" version >/dev/null 2>&1; then
	echo "$bin"
	exit 0
fi
for t in flex bison gcc make xz; do
	command -v "$t" >/dev/null || { echo "build-perf: '$t' is missing: run scripts/deps.sh" >&2; exit 1; }
done
mkdir -p "$out"
work=$(mktemp -d "$out/work.XXXXXX")
trap 'rm -rf "$work"' EXIT
src=/usr/src/linux-source-6.12.tar.xz
if [ ! -f "$src" ]; then
	(cd "$work" && apt-get download -q linux-source-6.12 >/dev/null 2>&1) || {
		echo "build-perf: cannot fetch linux-source-6.12 (apt-get update first?)" >&2; exit 1; }
	dpkg-deb --fsys-tarfile "$work"/linux-source-6.12_*.deb |
		tar -x -C "$work" ./usr/src/linux-source-6.12.tar.xz
	rm -f "$work"/linux-source-6.12_*.deb
	src=$work/usr/src/linux-source-6.12.tar.xz
fi
start=$(date +%s)
# what tools/perf/MANIFEST names (perf's own source package), less the BPF parts not built
k=linux-source-6.12
tar -xJf "$src" -C "$work" --wildcards $k/Makefile $k/tools $k/arch/arm64/tools \
	"$k/arch/*/include/uapi/asm/bpf_perf_event.h"
# the version as the kernel's Makefile has it (PERF-VERSION-GEN asks it with make kernelversion,
# which wants the whole tree)
awk -F' = ' '$1 ~ /^(VERSION|PATCHLEVEL|SUBLEVEL)$/ { v = v (v == "" ? "" : ".") $2 }
	END { printf "#define PERF_VERSION \"%s\"\n", v }' "$work/$k/Makefile" >"$work/$k/PERF-VERSION-FILE"
rm -f "$work"/usr/src/linux-source-6.12.tar.xz
mkdir -p "$work/obj"
log=$out/build.log
[ "$quiet" = -q ] || echo "build-perf: building perf 6.12 in $work (log: $log)" >&2
if ! make -C "$work/$k/tools/perf" O="$work/obj" -j2 WERROR=0 \
	NO_LIBPYTHON=1 NO_LIBPERL=1 NO_SLANG=1 NO_GTK2=1 NO_LIBBABELTRACE=1 NO_LIBUNWIND=1 \
	NO_LIBBPF=1 BUILD_BPF_SKEL=0 NO_BPF_SKEL=1 NO_JEVENTS=1 NO_LIBDEBUGINFOD=1 NO_LIBLLVM=1 \
	NO_CAPSTONE=1 >"$log" 2>&1; then
	tail -20 "$log" >&2
	echo "build-perf: the build failed (log: $log)" >&2
	exit 1
fi
opts=$("$work/obj/perf" version --build-options)
for f in dwarf libdw-dwarf-unwind libelf libtraceevent zstd; do
	grep -Eq "^ +$f: +\[ on" <<<"$opts" ||
		{ echo "build-perf: perf was built without $f" >&2; echo "$opts" >&2; exit 1; }
done
cp "$work/obj/perf" "$bin.tmp" && mv "$bin.tmp" "$bin"
[ "$quiet" = -q ] || echo "build-perf: $("$bin" version) in $bin, $(($(date +%s) - start)) s" >&2
echo "$bin"
