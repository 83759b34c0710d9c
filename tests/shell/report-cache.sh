#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The lookup cache of report and annotate (SCHEDLENS_CACHE_DIR/srcline/<build-id>): a report
# with an empty cache, with the cache it filled, and with --no-cache print the same (also with
# --inline, and script --inline: the inline chains are kept); a cache file per build-id (and
# one for the kallsyms); truncated, overwritten and foreign cache files are ignored and
# rewritten; a binary stripped in place (same build-id), rebuilt, or vanished after the cache
# was filled is reported as --no-cache reports it.
source "$(dirname "$0")/lib.sh"
need_root
command -v gcc >/dev/null || skip "gcc is not installed"
command -v readelf >/dev/null || skip "readelf is not installed"
export SCHEDLENS_CACHE_DIR=$TMP/cache
unset SCHEDLENS_NO_CACHE
cache=$SCHEDLENS_CACHE_DIR/srcline
src=$SCHEDLENS_TOP/tests/data/hotline.c
gcc -g -O1 -fno-omit-frame-pointer -o "$TMP/hotline" "$src" || fail "cannot build hotline"
expect_rc 0 "$SCHEDLENS" record -e cpu-clock -g -o "$TMP/hl.data" -- "$TMP/hotline" 0.3

# same output three ways, for each option set; $1: a name for the files
same3() {
	local name=$1; shift
	"$SCHEDLENS" "$@" --no-cache >"$TMP/$name.none" 2>&1 || fail "'$*' --no-cache failed"
	"$SCHEDLENS" "$@" >"$TMP/$name.cold" 2>&1 || fail "'$*' failed"
	"$SCHEDLENS" "$@" >"$TMP/$name.warm" 2>&1 || fail "'$*' failed with a cache"
	cmp -s "$TMP/$name.none" "$TMP/$name.cold" ||
		{ diff "$TMP/$name.none" "$TMP/$name.cold" | head; fail "'$*': cold cache differs"; }
	cmp -s "$TMP/$name.none" "$TMP/$name.warm" ||
		{ diff "$TMP/$name.none" "$TMP/$name.warm" | head; fail "'$*': warm cache differs"; }
}

rm -rf "$SCHEDLENS_CACHE_DIR"
same3 srcline report -i "$TMP/hl.data" --sort srcline
grep -qE ' hotline\.c:[0-9]+$' "$TMP/srcline.warm" || fail "no source lines"
id=$(readelf -n "$TMP/hotline" | awk '/Build ID/ { print $3 }')
[ -n "$id" ] || fail "hotline has no build-id"
[ -s "$cache/$id" ] || fail "no cache file '$cache/$id' for hotline"
ls "$cache"/kallsyms-* >/dev/null 2>&1 || fail "no cache file for the kallsyms"
echo "cache files: $(ls "$cache" | wc -l)"
same3 sym report -i "$TMP/hl.data" --sort sym
same3 mixed report -i "$TMP/hl.data" --sort comm,dso,srcline,sym -t '|'
same3 children report -i "$TMP/hl.data" --sort srcline --children -g caller
same3 folded report -i "$TMP/hl.data" --folded
# the functions inlined at each frame (--inline), kept in the cache file: its chains
same3 inline report -i "$TMP/hl.data" --children --inline --sort sym
SCHEDLENS_NO_CACHE=1 "$SCHEDLENS" script -i "$TMP/hl.data" --inline >"$TMP/iscript.none" 2>&1
for run in cold warm; do
	"$SCHEDLENS" script -i "$TMP/hl.data" --inline >"$TMP/iscript.$run" 2>&1
	cmp -s "$TMP/iscript.none" "$TMP/iscript.$run" || fail "script --inline: $run cache differs"
done
LC_ALL=C grep -q $'\x1e' "$cache/$id" || fail "no inline chain in the cache file"
same3 annotate annotate chase -i "$TMP/hl.data"
grep -q 'hotline.c' "$TMP/annotate.warm" || fail "annotate shows no source lines"
"$SCHEDLENS" report -i "$TMP/hl.data" --sort srcline --no-cache >/dev/null 2>&1
SCHEDLENS_NO_CACHE=1 "$SCHEDLENS" report -i "$TMP/hl.data" --sort srcline >"$TMP/off" 2>&1
cmp -s "$TMP/off" "$TMP/srcline.none" || fail "SCHEDLENS_NO_CACHE=1 output differs"

# bad cache files: ignored, the report unchanged, the file rewritten
size=$(stat -c %s "$cache/$id")
for how in truncate garbage empty flip; do
	case $how in
	truncate) head -c $((size / 2)) "$cache/$id" >"$TMP/bad" ;;
	garbage) head -c "$size" /dev/urandom >"$TMP/bad" ;;
	empty) : >"$TMP/bad" ;;
	flip) cp "$cache/$id" "$TMP/bad"
	      printf '\x7f' | dd of="$TMP/bad" bs=1 seek=$((size - 3)) conv=notrunc 2>/dev/null ;;
	esac
	cp "$TMP/bad" "$cache/$id"
	for k in "$cache"/kallsyms-*; do cp "$TMP/bad" "$k"; done
	expect_rc 0 "$SCHEDLENS" report -i "$TMP/hl.data" --sort srcline
	cmp -s "$TMP/out" "$TMP/srcline.none" || fail "a $how cache file changed the report"
	cmp -s "$TMP/bad" "$cache/$id" && fail "the $how cache file was not rewritten"
	expect_rc 0 "$SCHEDLENS" report -i "$TMP/hl.data" --sort srcline
	cmp -s "$TMP/out" "$TMP/srcline.none" || fail "the cache rewritten after $how differs"
done
# a cache file of another binary under this one's build-id
other=$(ls "$cache" | grep -v -e "^$id\$" -e kallsyms | head -1)
if [ -n "$other" ]; then
	cp "$cache/$other" "$cache/$id"
	expect_rc 0 "$SCHEDLENS" report -i "$TMP/hl.data" --sort srcline
	cmp -s "$TMP/out" "$TMP/srcline.none" || fail "a foreign cache file changed the report"
fi

# the binary changes after the cache was filled: as --no-cache says, notes included
cp "$TMP/hotline" "$TMP/hotline.orig"
objcopy --strip-debug "$TMP/hotline"
[ "$(readelf -n "$TMP/hotline" | awk '/Build ID/ { print $3 }')" = "$id" ] ||
	fail "strip changed the build-id"
same3 stripped report -i "$TMP/hl.data" --sort srcline
cmp -s "$TMP/stripped.warm" "$TMP/srcline.warm" && fail "the cache hid the stripped debug info"
grep -q "$TMP/hotline: no debug info" "$TMP/stripped.warm" || fail "no note for missing debug info"
# the cache knows there is no debug info now: a report without lines says nothing of it, as
# with --no-cache (it once did with the cache, when a [vdso] sample happened to be in the file)
same3 stripped-sym report -i "$TMP/hl.data" --sort sym
grep -q "no debug info" "$TMP/stripped-sym.warm" && fail "a note on lines in a report without"
gcc -g -O2 -o "$TMP/hotline" "$src" || fail "cannot rebuild hotline"
same3 rebuilt report -i "$TMP/hl.data" --sort srcline
rm "$TMP/hotline"
same3 vanished report -i "$TMP/hl.data" --sort srcline
grep -q "$TMP/hotline: file not found" "$TMP/vanished.warm" || fail "no note for the vanished file"
mv "$TMP/hotline.orig" "$TMP/hotline"
touch "$TMP/hotline"
same3 restored report -i "$TMP/hl.data" --sort srcline
cmp -s "$TMP/restored.warm" "$TMP/srcline.warm" || fail "the restored binary reports otherwise"

# an unwritable cache directory: the report as ever
rm -rf "$SCHEDLENS_CACHE_DIR"
: >"$SCHEDLENS_CACHE_DIR"
expect_rc 0 "$SCHEDLENS" report -i "$TMP/hl.data" --sort srcline
cmp -s "$TMP/out" "$TMP/srcline.none" || fail "an unusable cache directory changed the report"
exit 0
