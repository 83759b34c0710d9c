#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make bench: runs every scripts/bench-*.sh with the binary as $1; each prints its figures
# (bench-corpus-peers.sh the headline table, on the corpus bench-corpus.sh makes).
set -u
bin=${1:-build/schedlens}
top=$(cd "$(dirname "$0")/.." && pwd)
export SCHEDLENS="$top/${bin#$top/}" FIXTURES="${FIXTURES:-$top/../shared/fixtures}"
# perf prints numbers in the locale's format (0,55 msec under de_DE): the figures are parsed in C
export LC_ALL=C
rc=0
for b in "$top"/scripts/bench-*.sh; do
	[ -f "$b" ] || continue
	# the corpus maker, not a bench: bench-corpus-peers.sh runs it
	[ "$(basename "$b")" = bench-corpus.sh ] && continue
	echo "== $(basename "$b" .sh)"
	bash "$b" || rc=1
	echo
done
exit $rc
