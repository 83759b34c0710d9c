#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Runs a cross build's unit tests under qemu-user (`make ARCH=arm64 test-unit`) through
# tests/run.sh, which counts them: each BUILD/tests/test-* gets a wrapper in BUILD/qemu/tests
# that runs it under QEMU, and run.sh is pointed at BUILD/qemu with the pattern unit/.
# Usage: scripts/test-unit-qemu.sh BUILD [QEMU]
set -euo pipefail
build=${1:?usage: test-unit-qemu.sh BUILD [QEMU]}
qemu=${2:-qemu-aarch64-static}
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
command -v "$qemu" >/dev/null ||
	{ echo "test-unit-qemu: '$qemu' not found: apt-get install qemu-user-static" >&2; exit 2; }
wrap="$build/qemu"
rm -rf "$wrap"
mkdir -p "$wrap/tests"
for t in "$build"/tests/test-*; do
	[ -x "$t" ] || continue
	printf '#!/bin/sh\nexec %s %q "$@"\n' "$qemu" "$top/$t" >"$wrap/tests/$(basename "$t")"
	chmod +x "$wrap/tests/$(basename "$t")"
done
printf '#!/bin/sh\nexec %s %q "$@"\n' "$qemu" "$top/$build/schedlens" >"$wrap/schedlens"
chmod +x "$wrap/schedlens"
exec bash tests/run.sh --build "$wrap" unit/
