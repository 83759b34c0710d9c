#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The ways of reading a file's data section give the same answers: read in chunks (the
# default, SCHEDLENS_MMAP=0 for every file) and parsed in place in the mapping (SCHEDLENS_MMAP=1,
# zero copy), on every fixture, the corrupt one's error included. A --call-graph dwarf
# recording, made here, is perfdata-stacks.sh's (it needs no fixtures).
source "$(dirname "$0")/lib.sh"
need_fixtures
n=0
for f in "$FIXTURES"/real/*.data "$FIXTURES"/local/*.data; do
	for args in "report --stats" "report --sort comm,dso,sym --no-symbols" "sched --top 3"; do
		case $args in sched*) [[ $f == */local/* ]] || continue ;; esac
		# shellcheck disable=SC2086
		"$SCHEDLENS" $args -i "$f" >"$TMP/a" 2>&1
		a=$?
		# shellcheck disable=SC2086
		SCHEDLENS_MMAP=1 "$SCHEDLENS" $args -i "$f" >"$TMP/b" 2>&1
		b=$?
		[ "$a" = "$b" ] || fail "$(basename "$f") $args: exit $a read, $b mapped"
		diff -u "$TMP/a" "$TMP/b" >/dev/null ||
			{ diff -u "$TMP/a" "$TMP/b" | head -20; fail "$(basename "$f") $args: read and mapped differ"; }
		n=$((n + 1))
	done
done
echo "$n reads of the fixtures equal in chunks and in place"
