#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make fuzz: builds each tests/fuzz/fuzz-*.c with clang -fsanitize=fuzzer,address,undefined
# against the library sources it needs, seeds a corpus from the fixtures and runs it for
# SECONDS (default 60). Prints the executions and crashes; exits 1 on a crash.
# Usage: tests/fuzz/run.sh [SECONDS]
set -u
seconds=${1:-60}
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
out=build/fuzz
fixtures=${FIXTURES:-$top/../shared/fixtures}
mkdir -p "$out"
command -v clang >/dev/null || { echo "fuzz: clang is not installed" >&2; exit 2; }
srcs=(src/lib/perfdata/perfdata-attr.c src/lib/perfdata/perfdata-feat.c src/lib/perfdata/perfdata-header.c
      src/lib/stream/queue.c src/lib/stream/decode.c
      src/lib/perfdata/perfdata-read.c src/lib/perfdata/perfdata-sample.c src/lib/perfdata/perfdata-tracing.c
      src/lib/stream/sample-parse.c src/lib/symbols/threads.c src/lib/report/hist.c
      src/lib/util.c)
cflags=(-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
	-D_GNU_SOURCE -Iinclude -Isrc/lib $(pkg-config --cflags libtraceevent libzstd))
libs=($(pkg-config --libs libtraceevent libzstd) -lm)
rc=0
for t in tests/fuzz/fuzz-*.c; do
	name=$(basename "$t" .c)
	bin=$out/$name
	clang "${cflags[@]}" -o "$bin" "$t" "${srcs[@]}" "${libs[@]}" || { echo "fuzz: cannot build $name" >&2; exit 2; }
	corpus=$out/$name.corpus
	mkdir -p "$corpus" "$out/$name.crashes"
	# seeds: every fixture, the big ones cut to their first 64 KiB
	for f in "$fixtures"/real/*.data "$fixtures"/local/*.data; do
		[ -f "$f" ] && head -c 65536 "$f" >"$corpus/seed-$(basename "$f")"
	done
	log=$out/$name.log
	# libtraceevent leaks on some malformed formats it rejects: its leaks are not ours
	printf 'leak:libtraceevent.so\n' >"$out/lsan.supp"
	LSAN_OPTIONS=suppressions=$out/lsan.supp "$bin" -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048 -timeout=10 \
		-print_final_stats=1 -artifact_prefix="$out/$name.crashes/" "$corpus" >"$log" 2>&1
	status=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	crashes=$(find "$out/$name.crashes" -type f | wc -l)
	echo "$name: ${execs:-0} executions in ${seconds}s, $crashes crashes (corpus $(ls "$corpus" | wc -l) inputs)"
	if [ "$status" -ne 0 ] || [ "$crashes" -ne 0 ]; then
		grep -E "ERROR|SUMMARY|#[0-9]+ 0x" "$log" | head -20
		rc=1
	fi
done
exit $rc
