#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# JIT code, named as perf names it: tests/data/jitmap.c runs a loop it copied into an
# anonymous executable mapping and names it in /tmp/perf-PID.map. On a perf record -g of it:
# report --sort dso,sym (flat and --children) rows of the "[JIT] tid PID" DSO and script's
# frames in it equal perf's; with the map file gone, the rows are the absolute addresses, as
# perf's.
source "$(dirname "$0")/lib.sh"
need_perf
need_root
command -v gcc >/dev/null || skip "gcc is not installed"
case $(uname -m) in x86_64 | aarch64) ;; *) skip "jitmap.c has code for x86-64 and arm64 only" ;; esac
gcc -O2 -o "$TMP/jitmap" "$SCHEDLENS_TOP/tests/data/jitmap.c" || fail "cannot build jitmap.c"
perf record -q -e cpu-clock -g -o "$TMP/j.data" -- "$TMP/jitmap" 300000000 >"$TMP/pid.out" 2>&1 ||
	{ cat "$TMP/pid.out"; fail "perf record failed"; }
pid=$(head -1 "$TMP/pid.out")
map=/tmp/perf-$pid.map
trap 'rm -f "$map"; rm -rf "$TMP"' EXIT
grep -q " jit_spin$" "$map" || fail "jitmap wrote no /tmp/perf-PID.map"

jit_rows() { grep -F "[JIT] tid $pid " | sed -E 's/^ +//; s/ +$//; s/  +/ /g' | sort; }
check() { # WHAT PERF-OPTIONS -- SCHEDLENS-OPTIONS
	local what=$1
	shift
	local p=() o=()
	while [ "$1" != -- ]; do p+=("$1"); shift; done
	shift
	o=("$@")
	perf report -i "$TMP/j.data" --stdio --sort dso,sym "${p[@]}" 2>/dev/null | jit_rows >"$TMP/want"
	"$SCHEDLENS" report -i "$TMP/j.data" --sort dso,sym --no-cache "${o[@]}" 2>/dev/null |
		jit_rows >"$TMP/have"
	[ -s "$TMP/want" ] || fail "$what: perf shows no [JIT] tid $pid row"
	diff "$TMP/want" "$TMP/have" || fail "$what: the [JIT] rows differ from perf's"
	echo "    $what: $(tr '\n' ';' <"$TMP/have")"
}
check "flat" --no-children -g none --
check "--children" --children -g none -- --children
grep -q "jit_spin" "$TMP/have" || fail "jit_spin is not named"
perf script -i "$TMP/j.data" -F ip,sym,dso 2>/dev/null | grep "(/tmp/perf-$pid.map)" >"$TMP/want"
"$SCHEDLENS" script -i "$TMP/j.data" -F ip,sym,dso 2>/dev/null | grep "(/tmp/perf-$pid.map)" >"$TMP/have"
[ -s "$TMP/want" ] || fail "perf script shows no frame in the JIT map"
diff "$TMP/want" "$TMP/have" >/dev/null || fail "script: the JIT frames differ from perf's"
echo "    script: $(wc -l <"$TMP/have") JIT frames as perf's"
rm -f "$map"
check "no map file" --no-children -g none --
grep -q "0x00007" "$TMP/have" || grep -q "0x0000ffff" "$TMP/have" || fail "no absolute address"
exit 0
