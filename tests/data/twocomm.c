// SPDX-License-Identifier: GPL-2.0
/*
 * A workload whose syscalls are exactly known: a child named "pinger" calls getppid() N times,
 * then the parent, renamed "ponger", calls it 3N times. With SIGNAL_PARENT set, it then sends
 * SIGINT to its parent (the recorder: one more getppid()). Usage: twocomm [N]
 */
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 1000, i;
	pid_t p = fork();

	if (p < 0)
		return 1;
	if (p == 0) {
		prctl(PR_SET_NAME, "pinger");
		for (i = 0; i < n; i++)
			getppid();
		_exit(0);
	}
	waitpid(p, NULL, 0);
	prctl(PR_SET_NAME, "ponger");
	for (i = 0; i < 3 * n; i++)
		getppid();
	if (getenv("SIGNAL_PARENT"))
		kill(getppid(), SIGINT);
	return 0;
}
