#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# C++ names as perf 6.1 shows them (libiberty's cplus_demangle, no parameters): the program
# (tests/data/cxxnames.cc, g++ -O2 -g) has a class template's member in a namespace and two
# overloads of one name. On a perf record -g of it: report --sort sym's rows of at least
# 0.1% equal perf report's (lab::spin twice: rows are by symbol, as perf's), script's
# symbols of every sample and callchain entry in the program equal perf script's, and with
# --no-demangle both print the mangled names alike.
source "$(dirname "$0")/lib.sh"
need_perf
need_root
command -v g++ >/dev/null || skip "g++ is not installed"
g++ -O2 -g -o "$TMP/cxx" "$SCHEDLENS_TOP/tests/data/cxxnames.cc" || fail "cannot build cxxnames.cc"
perf record -q -e cpu-clock -g -o "$TMP/c.data" -- "$TMP/cxx" 10 >/dev/null 2>"$TMP/rec.err" ||
	{ cat "$TMP/rec.err"; fail "perf record failed"; }

rows() { awk '/^ +[0-9.]+% / && $1 + 0 >= 0.1' | sed -E 's/^ +//; s/ +$//; s/  +/ /g' | sort; }
for opt in "" --no-demangle; do
	perf report -i "$TMP/c.data" --sort sym --stdio --no-children -g none $opt 2>/dev/null |
		rows >"$TMP/want"
	expect_rc 0 "$SCHEDLENS" report -i "$TMP/c.data" --sort sym --no-cache $opt
	rows <"$TMP/out" >"$TMP/have"
	diff "$TMP/want" "$TMP/have" || fail "report --sort sym $opt: rows differ from perf's"
	echo "    report --sort sym $opt: $(wc -l <"$TMP/have") rows as perf's"
	perf script -i "$TMP/c.data" -F ip,sym,dso $opt 2>/dev/null | awk '/\(.*cxx\)$/' >"$TMP/want"
	expect_rc 0 "$SCHEDLENS" script -i "$TMP/c.data" -F ip,sym,dso $opt
	awk '/\(.*cxx\)$/' "$TMP/out" >"$TMP/have"
	[ -s "$TMP/want" ] || fail "perf script shows no frame in the program"
	diff "$TMP/want" "$TMP/have" >/dev/null || { diff "$TMP/want" "$TMP/have" | head; fail "script $opt: symbols differ from perf's"; }
	echo "    script -F ip,sym,dso $opt: $(wc -l <"$TMP/have") frames in the program as perf's"
done
grep -q "lab::ring<unsigned int>::walk" "$TMP/want" && fail "--no-demangle: demangled names"
expect_rc 0 "$SCHEDLENS" report -i "$TMP/c.data" --sort sym --no-cache
[ "$(grep -c ' lab::spin *$' "$TMP/out")" -eq 2 ] || fail "not two rows of lab::spin (the overloads)"
grep -q " lab::ring<unsigned int>::walk *$" "$TMP/out" || fail "no lab::ring<unsigned int>::walk row"
exit 0
