#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Builds the before/after pair of 6.1 kernels for one series of kernel-patches/, from Debian's
# linux-source-6.1, as installable .deb packages. Not run in CI: two kernel builds take hours
# on two cores (about 20 minutes each on 32 with --localmodconfig).
#
# With --lab, the pair is built small instead (tinyconfig + kernel-patches/lab.config, all
# built in, ccache, one tree whose after kernel is an incremental build of the before one),
# booted in the kernel lab (`schedlens vm --kernel bzImage --cpus 4`: QEMU, 4 CPUs of one LLC),
# and the series' suite and `schedlens sched` runs are measured in each guest; then `compare`
# and `validate` on what came back, and how long each step took. See kernel-patches/README.md.
#
#   base = linux-source-6.1+revert  (the change is in 6.1)
#       before = 6.1 + revert-6.1.patch           after = before + the series' patches (== 6.1)
#   base = linux-source-6.1         (the change is not in 6.1)
#       before = 6.1                              after = 6.1 + the series' patches
#
# Usage: scripts/kernel-ab.sh [options] kernel-patches/NAME
#   --workdir DIR      where the trees and packages go (default: ./build/kernel-ab/NAME)
#   --config FILE      starting .config (default: /boot/config-$(uname -r), else defconfig)
#   --localmodconfig   keep only the modules loaded now (much faster builds for this machine)
#   --upto N           "after" applies only the first N patches (e.g. wakelist 1/2 alone)
#   --jobs N           parallel jobs (default: nproc)
#   --dry-run          print the plan and the commands, run nothing
#   --lab              build lab kernels and run the A/B in QEMU guests (below)
#
# Lab options (with --lab; workdir default ./build/kernel-lab, shared by every series):
#   --cpus N           guest CPUs (default 4)
#   --iterations N     iterations of the suite in each guest (default: the suite's)
#   --runs N           runs of `schedlens sched --bench pipe` in each guest (default 3)
#   --schedlens FILE   the static schedlens for host and guest (default ./build/schedlens)
#
# Then, on the machine under test (same hardware, same settings, nothing else running):
#   dpkg -i DIR/linux-image-*-schedlens-before_*.deb; reboot into it
#   schedlens run --suite SUITE -o before.json
#   dpkg -i DIR/linux-image-*-schedlens-after_*.deb; reboot into it
#   schedlens run --suite SUITE -o after.json
#   schedlens validate kernel-patches/NAME before.json after.json
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
tarball=/usr/src/linux-source-6.1.tar.xz
workdir= config= localmod=0 upto= jobs=$(nproc) dry=0
lab=0 cpus=4 iterations= runs=3 bin=$top/build/schedlens

usage() {
	sed -n 's/^# \{0,1\}//; /^Usage:/,/^$/p' "$0" >&2
	exit 2
}
while [ $# -gt 0 ]; do
	case $1 in
	--workdir) workdir=$2; shift 2 ;;
	--config) config=$2; shift 2 ;;
	--localmodconfig) localmod=1; shift ;;
	--upto) upto=$2; shift 2 ;;
	--jobs) jobs=$2; shift 2 ;;
	--dry-run) dry=1; shift ;;
	--lab) lab=1; shift ;;
	--cpus) cpus=$2; shift 2 ;;
	--iterations) iterations=$2; shift 2 ;;
	--runs) runs=$2; shift 2 ;;
	--schedlens) bin=$(readlink -f "$2"); shift 2 ;;
	-h|--help) usage ;;
	-*) echo "kernel-ab: unknown option '$1'" >&2; usage ;;
	*) break ;;
	esac
done
[ $# -eq 1 ] || usage
series=$(cd "$1" 2>/dev/null && pwd) || { echo "kernel-ab: cannot open '$1'" >&2; exit 2; }
manifest=$series/manifest
[ -f "$manifest" ] || { echo "kernel-ab: '$manifest' is missing" >&2; exit 2; }
name=$(basename "$series")
get() { sed -n "s/^[[:space:]]*$1[[:space:]]*=[[:space:]]*//p" "$manifest" | sed 's/[[:space:]]*$//'; }
base=$(get base)
revert=$(get revert)
suite=$(get suite)
mapfile -t patches < <(get patch)
[ ${#patches[@]} -gt 0 ] || { echo "kernel-ab: '$manifest' names no patch" >&2; exit 2; }
if [ -n "$upto" ]; then
	[[ $upto =~ ^[0-9]+$ ]] && [ "$upto" -ge 1 ] && [ "$upto" -le ${#patches[@]} ] ||
		{ echo "kernel-ab: --upto must be 1..${#patches[@]}" >&2; exit 2; }
	patches=("${patches[@]:0:$upto}")
fi
case $base in
linux-source-6.1+revert) before=("$revert") ;;
linux-source-6.1) before=() ;;
*) echo "kernel-ab: unknown base '$base' in '$manifest'" >&2; exit 2 ;;
esac
after=("${before[@]}" "${patches[@]}")
[ $lab -eq 1 ] || : "${workdir:=$top/build/kernel-ab/$name}"
if [ -z "$config" ]; then
	config=/boot/config-$(uname -r)
	[ -f "$config" ] || config=defconfig
fi

run() {
	printf '+'; printf ' %q' "$@"; echo
	[ $dry -eq 1 ] || "$@"
}

# build_one TAG PATCH...: extract, patch, configure and package one kernel
build_one() {
	local tag=$1; shift
	local tree=$workdir/$tag/linux-source-6.1
	echo "== $tag: linux-source-6.1${*:+ + $*}"
	run mkdir -p "$workdir/$tag"
	[ -d "$tree" ] || run tar -I 'xz -T0' -xf "$tarball" -C "$workdir/$tag"
	for p in "$@"; do
		run patch -d "$tree" -p1 -F0 -N -i "$series/$p"
	done
	if [ "$config" = defconfig ]; then
		run make -C "$tree" -s defconfig
	else
		run cp "$config" "$tree/.config"
	fi
	# Debian's config names signing keys that only Debian has; build without them.
	run "$tree/scripts/config" --file "$tree/.config" --set-str SYSTEM_TRUSTED_KEYS "" \
		--set-str SYSTEM_REVOCATION_KEYS "" --set-str LOCALVERSION "-schedlens-$tag" \
		--disable LOCALVERSION_AUTO --disable DEBUG_INFO_BTF
	[ $localmod -eq 0 ] || run bash -c "yes '' | make -C '$tree' -s localmodconfig"
	run make -C "$tree" -s olddefconfig
	run make -C "$tree" -j"$jobs" bindeb-pkg
}

if [ $lab -eq 1 ]; then
	for v in cpus:$cpus iterations:${iterations:-1} runs:$runs; do
		[[ ${v#*:} =~ ^[1-9][0-9]*$ ]] || { echo "kernel-ab: --${v%%:*} wants a number from 1" >&2; exit 2; }
	done
	# shellcheck source=scripts/kernel-ab-lab.sh
	. "$top/scripts/kernel-ab-lab.sh"
	lab_main
	exit $?
fi
echo "series:  $name (suite '$suite')"
echo "base:    $base"
echo "before:  linux-source-6.1${before[*]:+ + ${before[*]}}"
echo "after:   linux-source-6.1 + ${after[*]}"
echo "config:  $config$([ $localmod -eq 1 ] && echo ' (localmodconfig)')"
echo "workdir: $workdir"
[ -r "$tarball" ] || { echo "kernel-ab: '$tarball' is absent: apt-get install linux-source-6.1" >&2; exit 1; }
[ $dry -eq 1 ] || bash "$top/scripts/check-patches.sh" "$series"
build_one before "${before[@]}"
build_one after "${after[@]}"
echo "packages: $workdir/{before,after}/linux-image-*.deb"
echo "next: install each, reboot, 'schedlens run --suite $suite -o FILE.json' on both, then"
echo "      'schedlens validate kernel-patches/$name before.json after.json'"
