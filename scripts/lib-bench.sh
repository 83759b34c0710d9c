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

# bench_rusage_build DIR: builds DIR/rusage, which runs a command and prints what it cost:
#   rusage OUT ERR SECS CMD [ARG...]   CMD's stdout to OUT, its stderr to ERR, killed with its
#   process group after SECS seconds; prints "CPU_S WALL_S MAXRSS_KB STATUS": user + sys of CMD
#   and the children it waited for (getrusage(RUSAGE_CHILDREN), to the microsecond, from the
#   fork on), the peak RSS of the largest of them, STATUS the exit code, "sigN" or "timeout"
bench_rusage_build() {
	cat >"$1/rusage.c" <<'CEOF'
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t expired;
static void on_alarm(int sig) { (void)sig; expired = 1; }

int main(int argc, char **argv)
{
	struct timespec t0, t1;
	struct rusage ru;
	struct sigaction sa;
	int st, fd;
	pid_t pid;

	if (argc < 5)
		return 2;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0 || dup2(fd, 1) < 0)
			_exit(126);
		fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0 || dup2(fd, 2) < 0)
			_exit(126);
		execvp(argv[4], argv + 4);
		_exit(127);
	}
	if (pid < 0)
		return 2;
	setpgid(pid, pid);
	alarm(strtoul(argv[3], NULL, 10));
	while (waitpid(pid, &st, 0) < 0) {
		if (expired) {
			kill(-pid, SIGKILL);
			expired = 2;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	getrusage(RUSAGE_CHILDREN, &ru);
	printf("%.6f %.6f %ld ", ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6,
	       t1.tv_sec - t0.tv_sec + (t1.tv_nsec - t0.tv_nsec) / 1e9, ru.ru_maxrss);
	if (expired == 2)
		printf("timeout\n");
	else if (WIFSIGNALED(st))
		printf("sig%d\n", WTERMSIG(st));
	else
		printf("%d\n", WEXITSTATUS(st));
	return 0;
}
CEOF
	gcc -O2 -o "$1/rusage" "$1/rusage.c"
}
