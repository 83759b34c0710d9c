# SPDX-License-Identifier: GPL-2.0
# Sourced by the bench scripts that read a perf.data file with schedlens and with perf.
#
# Where a file's page cache came from changes what reading it costs, for every tool. Written
# back and read again (a file copied here, or recorded earlier), readahead holds it in large
# folios; a file just written in small pieces, as perf record writes, stays in 4 kB pages,
# and copying those out costs ~2x more on this VM (49.5 MB: 3.7 ms against 8.5 ms of CPU;
# mapping them, as perf does, more again). The benches measure both states, on the same
# bytes, the first as the headline.

# bench_settle FILE: FILE's page cache as a file read back from disk has it: written back,
# dropped (dd's nocache is posix_fadvise DONTNEED), read once
bench_settle() {
	sync "$1" && dd if="$1" iflag=nocache count=0 status=none && cat "$1" >/dev/null
}

# bench_settle_bins BIN...: the same for the programs compared. A program the linker has
# just written sits in 4 kB pages too, and its text then costs TLB misses all through a run:
# on this VM `schedlens sched -i` of 443,988 records took 26.7 ms of CPU from the binary as
# linked, 19.5 ms from the same bytes read back from disk. perf is an installed program, read
# from disk; schedlens is measured the same way.
bench_settle_bins() {
	local b
	for b in "$@"; do
		b=$(readlink -f "$b") && [ -f "$b" ] && bench_settle "$b"
	done
}

# bench_small_writes FILE COPY: COPY holds FILE's bytes written 4 kB at a time, its page cache
# as a file perf record has just written (measured here: the same read cost, 10.6 against
# 11.6 ms)
bench_small_writes() {
	dd if="$1" of="$2" bs=4k status=none
}
