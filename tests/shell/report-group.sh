#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Event groups side by side, and perf's columns: report --stdio's whole table equals perf
# report's run here, line for line, on every fixture perf reads, for --sort comm,dso, sym,
# the default and pid,cpu, as perf shows it by default (a group's members side by side where the
# file describes groups), with -n (Samples), --group (every event one group where it
# describes none) and --no-group; and on event groups recorded here with perf record
# ({cpu-clock,task-clock}, and :S, the leader's samples reading both counters), --sort
# comm,dso and dso line for line, --sort sym's header lines (perf and libdwfl name some
# symbols by other aliases), and events without samples (perf's --skip-empty); and --children
# on a group recorded with callchains (the count lines, the four shares as --no-group's
# tables), and -g's branch shares.
source "$(dirname "$0")/lib.sh"
need_fixtures
need_perf
mkdir -p "$TMP/nosym"

# perf's banner (the --header hint and its '#') and its closing tip are not schedlens's;
# the blank and '#' lines at the end are left out on both sides
trim_tail() { awk '/^#?$/ { held = held $0 "\n"; next } { printf "%s%s\n", held, $0; held = "" }'; }
# perf 6.1 can spin for good printing a group's table sorted by sym: here on a recording of
# ls whose unresolved user addresses (`[.] 0x80cc`) came last; a table perf does not print in
# 30 s (it takes well under one) is said and left out (status 124)
hung=0
perf_table() {
	LC_ALL=C timeout 30 perf report --stdio "$@" >"$TMP/perf.raw" 2>/dev/null
	if [ $? = 124 ]; then
		echo "perf report $* did not finish in 30 s: left out" >&2
		hung=$((hung + 1))
		return 124
	fi
	awk 'NR == 1 && /^# To display the perf.data header/ { skip = 1; next }
	     skip == 1 && /^#$/ { skip = 0; next } { skip = 0; print }' "$TMP/perf.raw" |
		sed '/^# (Tip: /,$d' | trim_tail
}
ours_table() {
	"$SCHEDLENS" report "$@" 2>/dev/null | grep -v '^# note: ' | trim_tail
}
# same NAME PERF_ARGS -- OURS_ARGS: the tables equal line for line
lines=0
same() {
	local name=$1 pa=() oa=()
	shift
	while [ "$1" != -- ]; do pa+=("$1"); shift; done
	shift
	oa=("$@")
	perf_table "${pa[@]}" >"$TMP/perf" || return 0
	ours_table "${oa[@]}" >"$TMP/ours"
	[ -s "$TMP/perf" ] || fail "$name: perf printed no table"
	diff -u "$TMP/perf" "$TMP/ours" >"$TMP/diff" || { head -40 "$TMP/diff"; fail "$name differs from perf"; }
	lines=$((lines + $(wc -l <"$TMP/ours")))
}

files=0
for f in "$FIXTURES"/real/*.data; do
	b=$(basename "$f")
	case $b in
	arm64-*|corrupt-*) continue ;;	# perf 6.1 reads neither (attr size 136; a bad record)
	esac
	for sort in comm,dso sym comm,dso,sym pid,cpu; do
		for mode in "" -n --group --no-group "--group -n" "--no-group -n"; do
			# shellcheck disable=SC2086
			same "$b --sort $sort $mode" -i "$f" --symfs="$TMP/nosym" --no-children -g none \
				--sort $sort $mode -- -i "$f" --sort $sort $mode
		done
	done
	files=$((files + 1))
done
[ $files -ge 9 ] || fail "only $files fixtures found"
echo "$files fixtures: $lines lines equal perf's"

# the group perf prints for this file, and its header lines
f=$FIXTURES/real/lost-samples-4.4.data
expect_rc 0 "$SCHEDLENS" report -i "$f" --sort comm,dso
grep -qxF "# Samples: 191  of events 'anon group { cycles:pp, instructions:pp, branch-instructions:pp }'" \
	"$TMP/out" || fail "no group count line: $(grep Samples "$TMP/out")"
grep -qE '^    64\.95%  57\.50%  50\.00%  echo +\[kernel\.kallsyms\]' "$TMP/out" || fail "no group row"
expect_rc 0 "$SCHEDLENS" report -i "$f" --sort comm,dso --no-group
[ "$(grep -c '^# Samples: ' "$TMP/out")" = 3 ] || fail "--no-group: not a table per event"
# -t's lines stay one per event and entry
expect_rc 0 "$SCHEDLENS" report -i "$f" --sort comm,dso -t '|'
grep -qx 'instructions:pp|57.5000|57.5000|echo|\[kernel.kallsyms\]' "$TMP/out" || fail "-t lines changed"

# event groups recorded here: sampled by each event, and by the leader reading the others
# (:S, PERF_SAMPLE_READ: each sample stands for one per counter, its increase the period)
for g in '{cpu-clock,task-clock}' '{cpu-clock,task-clock}:S'; do
	perf record -e "$g" -o "$TMP/g.data" -- ls -R /usr/share >/dev/null 2>"$TMP/rec.err" ||
		skip "perf record cannot record the software event group $g here: $(tail -1 "$TMP/rec.err")"
	for sort in comm,dso dso; do
		for mode in "" -n --no-group; do
			# shellcheck disable=SC2086
			same "recorded $g --sort $sort $mode" -i "$TMP/g.data" --no-children -g none \
				--sort $sort $mode -- -i "$TMP/g.data" --sort $sort $mode
		done
	done
	ours_table -i "$TMP/g.data" --sort sym | grep '^#' >"$TMP/ours"
	if perf_table -i "$TMP/g.data" --no-children -g none --sort sym >"$TMP/perf.t"; then
		grep '^#' "$TMP/perf.t" >"$TMP/perf"
		diff -u "$TMP/perf" "$TMP/ours" || fail "recorded $g --sort sym: header lines differ from perf"
	fi
	grep -q "of events 'anon group { cpu-clock, task-clock }'" "$TMP/ours" ||
		fail "recorded $g not shown as one group"
done
# events that count nothing (here, as a rule): perf hides their tables, and a group's whole
# table when its leader has no samples (--skip-empty, its default); --no-skip-empty shows them
perf record -e '{alignment-faults,cpu-clock}' -e emulation-faults -o "$TMP/e.data" -- \
	ls -R /usr/share >/dev/null 2>"$TMP/rec.err" ||
	skip "perf record cannot record alignment-faults and emulation-faults: $(tail -1 "$TMP/rec.err")"
for mode in "" --no-group --no-skip-empty "--no-group --no-skip-empty"; do
	# shellcheck disable=SC2086
	same "events without samples $mode" -i "$TMP/e.data" --sort comm,dso $mode -- \
		-i "$TMP/e.data" --sort comm,dso $mode
done
echo "with the groups recorded here: $lines lines equal perf's"

# rows by label side by side: --children's Children and Self columns per member, on a group
# recorded with callchains: the count lines equal perf's, and each row's four shares are the
# leader's and the member's rows of the tables --no-group prints (how many rows equal perf's
# is said: --children of unresolved user addresses differs from perf's, for single events too)
perf record -g -e '{cpu-clock,task-clock}' -o "$TMP/gg.data" -- ls -R /usr/share >/dev/null 2>"$TMP/rec.err" ||
	skip "perf record -g cannot record the software event group here: $(tail -1 "$TMP/rec.err")"
ours_table -i "$TMP/gg.data" --children --sort sym >"$TMP/ours"
if perf_table -i "$TMP/gg.data" --children -g none --sort sym >"$TMP/perf"; then
	diff -u <(grep -E '^# (Samples|Event count)' "$TMP/perf") \
		<(grep -E '^# (Samples|Event count)' "$TMP/ours") ||
		fail "--children on a group: count lines differ from perf"
else
	: >"$TMP/perf"
fi
grep -qE '^#  +Children  +Self  Symbol' "$TMP/ours" || fail "--children on a group: no Children, Self columns"
# LABEL|SHARES of the rows with 4 shares (a group), or with 2 of table $2 (--no-group)
rows() {
	awk -v t="${2:-0}" '/^# Samples: / { tab++ }
		/^ +[0-9.]+% +[0-9.]+% +[0-9.]+% +[0-9.]+%  \[/ && !t {
			s = $0; sub(/^ +[0-9.]+% +[0-9.]+% +[0-9.]+% +[0-9.]+%  /, "", s); sub(/ +$/, "", s)
			print s "|" $1 " " $3 " " $2 " " $4 }
		/^ +[0-9.]+% +[0-9.]+%  \[/ && tab == t {
			s = $0; sub(/^ +[0-9.]+% +[0-9.]+%  /, "", s); sub(/ +$/, "", s)
			print s "|" $1 " " $2 }' "$1" | LC_ALL=C sort -t'|' -k1,1
}
rows "$TMP/ours" >"$TMP/side"
ours_table -i "$TMP/gg.data" --children --sort sym --no-group >"$TMP/split"
rows "$TMP/split" 1 >"$TMP/lead"
rows "$TMP/split" 2 >"$TMP/member"
# a name two rows print (two functions of one name: two PLT entries without a name, "@plt")
# cannot pair the tables by label: those rows are left out of the comparison, and said
for t in side lead member; do cut -d'|' -f1 "$TMP/$t" | LC_ALL=C sort | uniq -d; done |
	LC_ALL=C sort -u >"$TMP/dups"
if [ -s "$TMP/dups" ]; then
	for t in side lead member; do
		awk -F'|' 'NR == FNR { d[$0] = 1; next } !($1 in d)' "$TMP/dups" "$TMP/$t" >"$TMP/$t.u"
		mv "$TMP/$t.u" "$TMP/$t"
	done
	echo "    $(wc -l <"$TMP/dups") names of two rows or more left out: $(head -3 "$TMP/dups" | tr '\n' ' ')"
fi
LC_ALL=C join -t'|' -a1 -e '0.00% 0.00%' -o 0,1.2,2.2 "$TMP/side" "$TMP/lead" >"$TMP/j1"
LC_ALL=C join -t'|' -a1 -e '0.00% 0.00%' -o 0,1.2,1.3,2.2 "$TMP/j1" "$TMP/member" |
	awk -F'|' '{ split($2, l, " "); if (l[1] " " l[2] != $3 || l[3] " " l[4] != $4) print }' >"$TMP/bad"
[ "$(wc -l <"$TMP/side")" -ge 10 ] || fail "--children on a group: only $(wc -l <"$TMP/side") rows"
[ ! -s "$TMP/bad" ] || fail "--children on a group: shares unlike --no-group's: $(head -3 "$TMP/bad")"
rows "$TMP/perf" >"$TMP/perf.rows"
echo "--children on a group: $(wc -l <"$TMP/side") rows as --no-group's tables;" \
	"$(LC_ALL=C join -t'|' "$TMP/perf.rows" "$TMP/side" | awk -F'|' '$2 == $3' | wc -l) of" \
	"$(wc -l <"$TMP/perf.rows") rows equal perf's"

# -g: each event's call paths are its own (they had been all events' together); the branch
# shares under the entries, as a multiset (perf names some frames by other aliases)
for mode in "" --no-group; do
	# shellcheck disable=SC2086
	perf_table -i "$TMP/gg.data" --no-children -g caller --sort sym $mode >"$TMP/perf.t" ||
		continue
	grep -oE -- '--[0-9.]+%--' "$TMP/perf.t" | sort >"$TMP/perf"
	# shellcheck disable=SC2086
	ours_table -i "$TMP/gg.data" --no-children -g caller --sort sym $mode |
		grep -oE -- '--[0-9.]+%--' | sort >"$TMP/ours"
	[ -s "$TMP/perf" ] || fail "-g $mode: perf shows no branches"
	diff -u "$TMP/perf" "$TMP/ours" || fail "-g on a group $mode: branch shares differ from perf's"
	echo "-g on a group ${mode:-side by side}: $(wc -l <"$TMP/ours") branch shares equal perf's"
done
[ "$hung" = 0 ] || echo "$hung of perf's tables left out: perf did not finish them in 30 s"
