#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The kernel lab's kernel-lines check (scripts/lab.sh, on the host): a guest's recording with
# callchains reported with the debug vmlinux of the guest's kernel, against binutils' addr2line
# on the kernel addresses sampled (perf script -G -F ip,dso lists them; KASLR: each less the
# runtime _text of the recording's kallsyms, plus the vmlinux's):
#   - report --sort srcline: every row addr2line's innermost lines make, the same share (0.01);
#   - script --inline: the sample address's frames, those addr2line -i -f names, in order
#     (where it has a line: elsewhere there are none, and addr2line names the symbol its way);
#   - annotate FUNC (each FUNC given): its hottest line one of FUNC's lines in addr2line's view;
#   - with KLINES_PERF (a perf binary, 6.12: scripts/build-perf.sh), perf report --sort srcline
#     --vmlinux on the same file: each source line's row within 0.1 point, or at addr2line's.
# Prints one line "pass|FAIL|skip WHAT"; exits 0 when it passes, 2 when it cannot run here.
# Usage: tests/lab/klines.sh BIN DATA VMLINUX [FUNC...]
set -uo pipefail
bin=$1 data=$2 vmlinux=$3
shift 3
tmp=$(mktemp -d)
trap '[ -n "${KLINES_KEEP:-}" ] || rm -rf "$tmp"' EXIT
export LC_ALL=C

ks=$data.kallsyms
# binutils for the vmlinux's machine (an arm64 one needs the cross binutils here)
a2l=addr2line nm=nm
if readelf -h "$vmlinux" 2>/dev/null | grep -q AArch64 && [ "$(uname -m)" != aarch64 ]; then
	a2l=aarch64-linux-gnu-addr2line nm=aarch64-linux-gnu-nm
fi
command -v "$a2l" >/dev/null || { echo "skip no $a2l here (binutils-aarch64-linux-gnu)"; exit 2; }
# the symbol the kernel map starts at: _text, or _stext where kallsyms has no _text (arm64)
sym=_text
grep -q ' _text$' "$ks" 2>/dev/null || sym=_stext
run=$(awk -v s="$sym" '$3 == s { print $1; exit }' "$ks" 2>/dev/null)
vm=$("$nm" "$vmlinux" 2>/dev/null | awk -v s="$sym" '$3 == s { print $1; exit }')
[ -n "$run" ] && [ -n "$vm" ] || { echo "FAIL no $sym in '$ks' or '$vmlinux'"; exit 1; }
# the kernel samples' addresses with their counts, and all samples
perf script -i "$data" -G -F ip,dso --kallsyms "$ks" 2>/dev/null |
	awk '{ n++ } $2 == "([kernel.kallsyms])" { c[$1]++ } END { print "total", n; for (a in c) print a, c[a] }' \
	> "$tmp/ips"
total=$(awk '$1 == "total" { print $2 }' "$tmp/ips")
[ "${total:-0}" -gt 0 ] || { echo "FAIL no samples in perf script's view"; exit 1; }
# addr2line at each address moved to the vmlinux's: per address its innermost line and chain
delta=$(( 0x$vm - 0x$run ))
while read -r a c; do
	[ "$a" = total ] || printf '0x%x\n' $(( 0x$a + delta ))
done < "$tmp/ips" > "$tmp/vaddrs"
# addr2line's answer per address: "ADDR FILE:LINE F1<F2<..." (innermost line, its chain)
a2l_table() {
	"$1" -a -i -f -e "$vmlinux" < "${2:-$tmp/vaddrs}" | awk '
	function flush() { if (a != "") print a, line, chain }
	/^0x/ { flush(); a = $1; line = ""; chain = ""; odd = 1; next }
	odd { chain = chain (chain == "" ? "" : "<") $1; odd = 0; next }
	{ if (line == "") { n = split($1, p, "/"); line = p[n]; sub(/:\?$/, ":0", line) } odd = 1 }
	END { flush() }'
}
a2l_table "$a2l" > "$tmp/a2l.b"
# binutils 2.40 reads the file of some DWARF 5 line rows of arm64's vmlinux wrongly
# (arch_local_irq_restore at core.c:131 for irqflags.h:131, objdump -l the same; the line
# is right): where llvm-addr2line is here and names another file for the same line, its file
misread=0
llvm=$(command -v llvm-addr2line || command -v llvm-addr2line-14 || true)
if [ -n "$llvm" ]; then
	a2l_table "$llvm" > "$tmp/a2l.l"
	awk 'NR == FNR { l[$1] = $2; next }
	     { n = split($2, x, ":"); m = split(l[$1], y, ":")
	       if (($1 in l) && l[$1] != $2 && x[n] == y[m]) { $2 = l[$1]; mis++ } print }
	     END { print mis + 0 > "/dev/stderr" }' "$tmp/a2l.l" "$tmp/a2l.b" > "$tmp/a2l.v" 2> "$tmp/misread"
	misread=$(cat "$tmp/misread")
else
	cp "$tmp/a2l.b" "$tmp/a2l.v"
fi
# back to the sampled addresses (perf script's spelling)
while read -r a rest; do
	printf '%x %s\n' $(( a - delta )) "$rest"
done < "$tmp/a2l.v" > "$tmp/a2l"
# the srcline rows addr2line's lines make, as shares of all samples
awk -v total="$total" 'NR == FNR { if ($1 != "total") c[$1] = $2; next }
	{ s[$2] += c[$1] } END { for (l in s) printf "%s %.4f\n", l, 100 * s[l] / total }' \
	"$tmp/ips" "$tmp/a2l" | sort > "$tmp/want"
"$bin" report -i "$data" --sort srcline -t '|' --vmlinux "$vmlinux" 2>"$tmp/err" |
	awk -F'|' '{ print $4, $2 }' | sort > "$tmp/have"
[ -s "$tmp/have" ] || { echo "FAIL report: $(head -c 150 "$tmp/err")"; exit 1; }
read -r rows bad worst < <(awk 'NR == FNR { h[$1] = $2; next }
	$1 != "??:0" && $2 >= 0.1 { n++; d = h[$1] - $2; if (d < 0) d = -d
		if (!($1 in h) || d > 0.01) { bad++; if (w == "") w = $1 " " $2 " vs " ($1 in h ? h[$1] : "none") } }
	END { print n + 0, bad + 0, (w == "" ? "-" : w) }' "$tmp/have" "$tmp/want")
# perf's report --sort srcline --vmlinux, where KLINES_PERF names a perf that finishes it (perf
# 6.1, whose addr2line child hangs on a debug vmlinux, does not; scripts/build-perf.sh's 6.12
# does, in seconds): each row of a source line of at least 0.1% in either, within 0.1 point
prow=0 pbad=0 pown=0 pnone=0 pworst=- pnote=
if [ -n "${KLINES_PERF:-}" ] && "$KLINES_PERF" version >/dev/null 2>&1; then
	# (perf asks binutils too: a line it misreads, as above, is taken as llvm-addr2line's)
	"$KLINES_PERF" report -i "$data" --vmlinux "$vmlinux" --addr2line "$(command -v "$a2l")" \
		--no-children --sort srcline --stdio -g none 2>"$tmp/perr" |
		awk 'NR == FNR { b[FNR] = $2; next } FILENAME == ARGV[2] { if (b[FNR] != $2) fix[b[FNR]] = $2; next }
		     /^ +[0-9.]+% +[^ ?][^ ]*:[0-9]+$/ { sub("%", "", $1); l = ($2 in fix) ? fix[$2] : $2; s[l] += $1 }
		     END { for (l in s) print l, s[l] }' "$tmp/a2l.b" "$tmp/a2l.v" - | sort > "$tmp/perf"
	if [ -s "$tmp/perf" ]; then
		# a row off perf's whose share is addr2line's is perf's own (its sample went elsewhere);
		# a row neither has is one of the addresses addr2line gives no line (??:0), where the
		# line table has one (a patchable function entry's nops before the function's DWARF
		# range, objdump -l's line): apart, while addr2line's ??:0 share covers them all
		read -r prow pbad pown pnone pworst < <(awk 'FILENAME == ARGV[1] { a[$1] = $2; next }
			FILENAME == ARGV[2] { p[$1] = $2; next } $1 ~ /^[^ ?][^ ]*:[0-9]+$/ { h[$1] = $2 }
			END { for (l in p) k[l] = 1; for (l in h) k[l] = 1
			      for (l in k) { ina = l in a; inp = l in p	# (reading a[l] makes it)
				if (p[l] < 0.1 && h[l] < 0.1) continue; n++
				d = p[l] - h[l]; if (d < 0) d = -d; e = a[l] - h[l]; if (e < 0) e = -e
				if (d <= 0.1) continue
				if (ina && e <= 0.01) { own++; wo = wo " " l " " h[l] "/" p[l] }
				else if (!ina && !inp) { none++; nsum += h[l]; wn = wn " " l " " h[l] }
				else { bad++; wb = l " " h[l] "/" p[l] } }
			      if (none && nsum > a["??:0"] + 0.01) { bad += none; wb = wb " (no-line rows " nsum "% past addr2line'"'"'s ??:0 " a["??:0"] "%)"; none = 0 }
			      w = wb != "" ? wb : (wo wn)
			      print n + 0, bad + 0, own + 0, none + 0, (w == "" ? "-" : w) }' "$tmp/want" "$tmp/perf" "$tmp/have")
		pnote="; perf $("$KLINES_PERF" version | awk '{ print $3 }') --sort srcline $((prow - pbad - pown - pnone))/$prow rows within 0.1"
		[ "$pown" = 0 ] || pnote="$pnote, $pown where addr2line agrees with schedlens"
		[ "$pnone" = 0 ] || pnote="$pnote, $pnone where addr2line has no line and the line table one"
		[ "$pown$pnone" = 00 ] || pnote="$pnote (${pworst# })"
	else
		pbad=1 pnote="; perf --sort srcline printed no rows: $(head -c 100 "$tmp/perr")"
	fi
else
	pnote="; perf --sort srcline not compared (KLINES_PERF: no perf given, scripts/build-perf.sh builds 6.12)"
fi
# the inline chain of each sample address as script --inline prints its first frame
"$bin" script -i "$data" -F ip,sym --inline --vmlinux "$vmlinux" 2>/dev/null | awk '
	/^$/ { start = 1; next }
	start { a = $1; first = a; chain = ""; start = 0 }
	$1 == first { nm = $2; sub(/\+0x[0-9a-f]+$/, "", nm); chain = chain (chain == "" ? "" : "<") nm; next }
	first != "" { seen[first] = chain; first = "" }
	END { if (first != "") seen[first] = chain; for (k in seen) print k, seen[k] }' > "$tmp/chains"
# (the outermost may be another name of the same symbol: aliases at one address, such as
# arm64's memset and __pi_memset, binutils and llvm-addr2line take differently too)
"$nm" --defined-only "$vmlinux" 2>/dev/null | awk '{ print $3, $1 }' > "$tmp/syms"
# chains that differ: "N BAD FIRST", the differing addresses into $tmp/cbad
chains_check() {
	awk -v out="$tmp/cbad" 'FILENAME == ARGV[1] { at[$1] = $2; next }
	FILENAME == ARGV[2] { c[$1] = $2; next }
	function same(x, y,   nx, ny, px, py, i) {
		if (x == y) return 1
		nx = split(x, px, "<"); ny = split(y, py, "<")
		if (nx != ny) return 0
		for (i = 1; i < nx; i++) if (px[i] != py[i]) return 0
		return (px[nx] in at) && at[px[nx]] == at[py[nx]] }
	($1 in c) && $2 != "??:0" { n++; if (!same(c[$1], $3)) { bad++; print $1 > out; if (w == "") w = $1 ":" c[$1] "/" $3 } }
	END { print n + 0, bad + 0, (w == "" ? "-" : w) }' "$tmp/syms" "$tmp/chains" "$tmp/a2l"
}
: > "$tmp/cbad"
read -r addrs cbad cworst < <(chains_check)
# binutils keeps the last function it found per section and answers the next address inside
# it alike: in a run, __x86_indirect_thunk_r12 after an address of the sized
# __x86_indirect_thunk_array is the array. An address that differs is asked alone.
alone=0
while read -r a; do
	printf '0x%x\n' $(( 0x$a + delta )) > "$tmp/one"
	a2l_table "$a2l" "$tmp/one" | while read -r v l c; do printf '%x %s %s\n' $(( v - delta )) "$l" "$c"; done > "$tmp/one.a2l"
	awk 'NR == FNR { r[$1] = $3; next } ($1 in r) { $3 = r[$1] } { print }' "$tmp/one.a2l" "$tmp/a2l" > "$tmp/a2l.n" &&
		mv "$tmp/a2l.n" "$tmp/a2l"
	alone=$((alone + 1))
done < <(sort -u "$tmp/cbad")
if [ "$alone" -gt 0 ]; then
	: > "$tmp/cbad"
	read -r addrs cbad cworst < <(chains_check)
	alone_note=" ($alone asked alone)"
fi
# annotate: the function's hottest line is one addr2line puts in it
abad=0 anote=
for f in "$@"; do
	top=$("$bin" annotate -i "$data" "$f" --vmlinux "$vmlinux" 2>/dev/null |
	      awk '!/^#/ { for (i = 1; i <= NF; i++) if ($i ~ /^[^ ]+:[0-9]+$/) { print $i; exit } }')
	if [ -n "$top" ] && awk -v f="$f" -v l="$top" '$2 == l && index("<" $3 "<", "<" f "<") { ok = 1 }
	     END { exit !ok }' "$tmp/a2l"; then
		anote="$anote; annotate $f: $top"
	else
		abad=$((abad + 1))
		anote="$anote; annotate $f: ${top:-none}, NOT addr2line's"
	fi
done
[ "$misread" = 0 ] || misread_note=" (${misread} addresses binutils gives another file for, llvm-addr2line's taken)"
msg="srcline $((rows - bad))/$rows rows as addr2line's${misread_note:-}$pnote, inline chains $((addrs - cbad))/$addrs addresses${alone_note:-}$anote"
if [ "$rows" -gt 0 ] && [ "$bad" = 0 ] && [ "$addrs" -gt 0 ] && [ "$cbad" = 0 ] && [ "$abad" = 0 ] &&
	[ "$pbad" = 0 ]; then
	echo "pass $msg"
else
	echo "FAIL $msg (first row off: $worst; first chain off: $cworst; first off perf's: $pworst)"
	exit 1
fi
