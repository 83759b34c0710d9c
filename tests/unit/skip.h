/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Check has no skipped state: a check that cannot run here says so with ck_skip(), which
 * prints one marker line and returns from the test. tests/run.sh counts each marker as a
 * skip, not a pass, and prints its reason.
 */
#ifndef SCHEDLENS_TEST_SKIP_H
#define SCHEDLENS_TEST_SKIP_H

#include <stdio.h>

#define CK_SKIP_MARKER "schedlens-skip: "

#define ck_skip(...)                                                   \
	do {                                                           \
		fprintf(stderr, CK_SKIP_MARKER "%s: ", __func__);     \
		fprintf(stderr, __VA_ARGS__);                          \
		fputc('\n', stderr);                                   \
		fflush(stderr);                                        \
		return;                                                \
	} while (0)

#endif
