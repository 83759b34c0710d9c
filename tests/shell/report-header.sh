#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# schedlens report --header -I prints what perf report --header-only -I 6.1 printed for every
# fixture (the arm64 6.5 files: what perf printed for a copy with 128-byte attrs), except
# the capture time (the file's mtime) and the features schedlens does not decode (BPF
# programs, clock data).
source "$(dirname "$0")/lib.sh"
need_fixtures
skip_re='^# (captured on|bpf_prog_info|btf|clockid:|reference time)|^bad event header size|^rc='
n=0
for f in "$FIXTURES"/real/*.data "$FIXTURES"/local/*.data; do
	b=$(basename "$f")
	dir=$(dirname "$f")/refs
	r=$dir/$b.header.txt
	[ -f "$dir/$b.header.via-attr128-copy.txt" ] && r=$dir/$b.header.via-attr128-copy.txt
	[ -f "$r" ] || r=$dir/${b%.data}.header.txt
	# the refs were made with -I: the topology, NUMA, cache and memory features in full
	"$SCHEDLENS" report --header -I -i "$f" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if [ "$b" = corrupt-zero-size-3.2.data ]; then
		[ $rc = 1 ] && grep -q "byte offset 49104" "$TMP/err" || fail "$b: no clear error"
	else
		[ $rc = 0 ] || { cat "$TMP/err"; fail "$b: report --header failed"; }
	fi
	diff -u <(grep -Ev "$skip_re" "$r") <(grep -Ev "$skip_re" "$TMP/out") ||
		fail "$b: header differs from perf's"
	n=$((n + 1))
done
[ $n -ge 12 ] || fail "only $n headers compared"
echo "$n headers equal perf's (-I)"

# without -I, as perf report --header-only prints it here: those features only say that they
# are there; every line else equal (the files perf 6.1 cannot read are compared above only)
if command -v perf >/dev/null; then
	m=0
	for f in "$FIXTURES"/real/*.data "$FIXTURES"/local/*.data; do
		b=$(basename "$f")
		case $b in corrupt-*) continue ;; esac
		perf report --header-only -i "$f" 2>/dev/null | grep -v '^# captured on' >"$TMP/perf"
		[ -s "$TMP/perf" ] || continue
		"$SCHEDLENS" report --header -i "$f" 2>/dev/null | grep -v '^# captured on' >"$TMP/out"
		diff -u "$TMP/perf" "$TMP/out" || fail "$b: header differs from perf report --header-only here"
		m=$((m + 1))
	done
	[ $m -ge 10 ] || fail "only $m headers compared with perf here"
	grep -q '^# CPU_TOPOLOGY info available, use -I to display$' "$TMP/out" || fail "no -I note"
	echo "$m headers equal perf report --header-only run here"
fi

# a command line with quotes: perf prints each ' as \' (print_cmdline()), on a file perf wrote
if ! command -v perf >/dev/null; then
	echo "no perf: the quoted command line not compared"
elif ! perf record -q -e cpu-clock -o "$TMP/q.data" -- sh -c 'echo "it'\''s"' >/dev/null 2>&1; then
	echo "perf record cannot run here: the quoted command line not compared"
else
	"$SCHEDLENS" report --header-only -i "$TMP/q.data" 2>/dev/null | grep '^# cmdline' >"$TMP/ours"
	perf report --header-only -i "$TMP/q.data" 2>/dev/null | grep '^# cmdline' >"$TMP/perf"
	grep -qF "\\'" "$TMP/perf" || fail "perf's cmdline has no \\': $(cat "$TMP/perf")"
	cmp -s "$TMP/ours" "$TMP/perf" ||
		fail "cmdline: '$(cat "$TMP/ours")' where perf prints '$(cat "$TMP/perf")'"
	echo "a quoted command line as perf prints it"
fi
