#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# schedlens report --header prints what perf report --header-only 6.1 printed for every
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
	"$SCHEDLENS" report --header -i "$f" >"$TMP/out" 2>"$TMP/err"
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
echo "$n headers equal perf's"
