#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# report counts kernel samples as it reads them, outside time order, when the sort keys are
# sym, dso and comm only (report-kagg.c). That must give what time order gives, on every
# fixture (and on files made for the cases that matter: report-order-made.sh).
. "$(dirname "$0")/lib.sh"
need_fixtures

for f in "$FIXTURES"/real/*.data "$FIXTURES"/local/*.data; do
	case $f in *corrupt*) continue ;; esac
	for keys in sym dso dso,sym comm comm,dso,sym dso,comm; do
		"$SCHEDLENS" report --sort "$keys" -i "$f" >"$TMP/any" 2>&1
		"$SCHEDLENS" report --sort "$keys" --ordered -i "$f" >"$TMP/ordered" 2>&1
		cmp -s "$TMP/any" "$TMP/ordered" ||
			fail "$(basename "$f") --sort $keys: differs from --ordered"
	done
done

# a file cut short: what was read before the bad record is reported, the same either way
head -c 1200000 "$FIXTURES/local/sched-pingpong.data" >"$TMP/cut.data"
"$SCHEDLENS" report --sort sym -i "$TMP/cut.data" >"$TMP/any" 2>&1
"$SCHEDLENS" report --sort sym --ordered -i "$TMP/cut.data" >"$TMP/ordered" 2>&1
cmp -s "$TMP/any" "$TMP/ordered" || { diff "$TMP/ordered" "$TMP/any" >&2; fail "cut file: differs from --ordered"; }
grep -q "^ *[1-9][0-9.]*% .*\[k\]" "$TMP/any" || { cat "$TMP/any" >&2; fail "cut file: no samples reported"; }
exit 0
