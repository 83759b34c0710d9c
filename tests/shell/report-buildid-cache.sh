#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Files found by build-id where the recorded one is not there:
#   - [vdso]: record writes FILE.vdso (this boot's vDSO, its build-id the file's [vdso] entry,
#     as perf buildid-list shows); report names the vDSO samples by it as perf report does by
#     its build-id cache (~/.debug/[vdso]/ID/vdso), and without either by this process's
#     vDSO (recorded on this kernel);
#   - a program rebuilt since perf recorded it: perf record kept a copy in its build-id cache
#     ($HOME/.debug), and report reads that copy where the file is another build now.
source "$(dirname "$0")/lib.sh"
need_perf
need_root
command -v gcc >/dev/null || skip "gcc is not installed"
[ -n "$(LD_SHOW_AUXV=1 /bin/true | grep AT_SYSINFO_EHDR)" ] || skip "no vDSO here"
mkdir -p "$TMP/home"

# 1. the vDSO
expect_rc 0 "$SCHEDLENS" record -q -e cpu-clock -o "$TMP/v.data" -- \
	"$SCHEDLENS" bench pound-clock-gettime -t 1 -n 200000
[ -s "$TMP/v.data.vdso" ] || fail "record wrote no '$TMP/v.data.vdso'"
want=$(perf buildid-list -i "$TMP/v.data" 2>/dev/null | awk '$2 == "[vdso]" { print $1 }')
have=$(readelf -n "$TMP/v.data.vdso" | awk '/Build ID/ { print $3 }')
[ -n "$want" ] && [ "$want" = "$have" ] ||
	fail "the file's [vdso] build-id '$want', FILE.vdso's '$have'"
vdso_rows() { awk '$2 == "[vdso]" { print $1, $4 }' | sort; }
# perf names the vDSO by its build-id cache: the layout perf record leaves there
mkdir -p "$TMP/home/.debug/[vdso]/$want" "$TMP/home/.debug/.build-id/${want:0:2}"
cp "$TMP/v.data.vdso" "$TMP/home/.debug/[vdso]/$want/vdso"
ln -s "../../[vdso]/$want" "$TMP/home/.debug/.build-id/${want:0:2}/${want:2}"
HOME=$TMP/home perf report -i "$TMP/v.data" --sort dso,sym --stdio 2>/dev/null | vdso_rows >"$TMP/want"
[ -s "$TMP/want" ] || skip "no sample in the vDSO (perf report shows none)"
grep -qv " 0x" "$TMP/want" || skip "perf names no vDSO function here"
HOME=$TMP/home expect_rc 0 "$SCHEDLENS" report -i "$TMP/v.data" --sort dso,sym --no-cache
vdso_rows <"$TMP/out" >"$TMP/have"
diff "$TMP/want" "$TMP/have" || fail "[vdso] rows differ from perf's"
echo "    [vdso] by FILE.vdso: $(tr '\n' ' ' <"$TMP/have")"
grep -q "\[vdso\]" "$TMP/err" && fail "a note on [vdso]: $(cat "$TMP/err")"
mv "$TMP/v.data.vdso" "$TMP/v.vdso"
HOME=$TMP/nohome expect_rc 0 "$SCHEDLENS" report -i "$TMP/v.data" --sort dso,sym --no-cache
vdso_rows <"$TMP/out" >"$TMP/have"
diff "$TMP/want" "$TMP/have" || fail "[vdso] rows without FILE.vdso differ from perf's"
echo "    [vdso] by this process's: $(tr '\n' ' ' <"$TMP/have")"

# 2. a program rebuilt since: perf's build-id cache keeps the recorded build
cp "$SCHEDLENS_TOP/tests/data/hotline.c" "$TMP/"
gcc -O1 -g -o "$TMP/hl" "$TMP/hotline.c" || fail "cannot build hotline.c"
HOME=$TMP/home perf record -q -e cpu-clock -o "$TMP/hl.data" -- "$TMP/hl" 1 >/dev/null 2>&1 ||
	fail "perf record failed"
ls "$TMP"/home/.debug/.build-id/*/* >/dev/null 2>&1 || skip "perf record kept no build-id cache"
HOME=$TMP/home perf report -i "$TMP/hl.data" --sort dso,sym --stdio 2>/dev/null |
	awk '$2 == "hl" { print $1, $4 }' | sort >"$TMP/want"
gcc -O2 -g -DREBUILT -o "$TMP/hl" "$TMP/hotline.c" || fail "cannot rebuild hotline.c"
HOME=$TMP/nohome expect_rc 0 "$SCHEDLENS" report -i "$TMP/hl.data" --sort dso,sym --no-cache
grep -q "hl: build-id differs" "$TMP/out" || fail "no build-id note for the rebuilt program"
HOME=$TMP/home expect_rc 0 "$SCHEDLENS" report -i "$TMP/hl.data" --sort dso,sym --no-cache
awk '$2 == "hl" { print $1, $4 }' "$TMP/out" | sort >"$TMP/have"
grep -q " chase$" "$TMP/have" || fail "the rebuilt program's samples are not named from the cache"
diff "$TMP/want" "$TMP/have" || fail "the program's rows differ from perf's"
echo "    rebuilt program by perf's build-id cache: $(tr '\n' ' ' <"$TMP/have")"
exit 0
