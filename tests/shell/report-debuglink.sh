#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Source lines from a separate debug file found by its .gnu_debuglink, beside the binary and
# in .debug/ (a binary linked without a build-id, so that only the debuglink can find it),
# and none once the debug file is gone: the debug-file search that leaves debuginfod out
# (sym_find_debuginfo()) still looks where dwfl_standard_find_debuginfo() looks.
source "$(dirname "$0")/lib.sh"
need_root
for t in gcc objcopy strip; do
	command -v $t >/dev/null || skip "$t is not installed"
done
export SCHEDLENS_NO_CACHE=1
src=$SCHEDLENS_TOP/tests/data/hotline.c
hot=$(grep -n 'HOT' "$src" | cut -d: -f1)
gcc -g -O1 -fno-omit-frame-pointer -Wl,--build-id=none -o "$TMP/hotline" "$src" ||
	fail "cannot build hotline"
objcopy --only-keep-debug "$TMP/hotline" "$TMP/hotline.debug" &&
	strip --strip-debug "$TMP/hotline" &&
	objcopy --add-gnu-debuglink="$TMP/hotline.debug" "$TMP/hotline" ||
	fail "cannot split hotline's debug info"
expect_rc 0 "$SCHEDLENS" record -e cpu-clock -g -o "$TMP/hl.data" -- "$TMP/hotline" 0.3

# top_line: the first srcline row of the recording
top_line() {
	expect_rc 0 "$SCHEDLENS" report -i "$TMP/hl.data" --sort srcline -t '|'
	head -1 "$TMP/out" | awk -F'|' '{ print $NF }'
}
line=$(top_line)
[ "$line" = "hotline.c:$hot" ] || fail "debug file beside the binary: top row '$line', not hotline.c:$hot"
mkdir "$TMP/.debug" && mv "$TMP/hotline.debug" "$TMP/.debug/"
line=$(top_line)
[ "$line" = "hotline.c:$hot" ] || fail "debug file in .debug/: top row '$line', not hotline.c:$hot"
rm "$TMP/.debug/hotline.debug"
line=$(top_line)
[ "$line" != "hotline.c:$hot" ] || fail "a source line with the debug file gone"
echo "hotline.c:$hot from the debuglink beside the binary and in .debug/; none without it ($line)"
