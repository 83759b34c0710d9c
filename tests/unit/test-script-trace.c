// SPDX-License-Identifier: GPL-2.0
/*
 * script's tracepoint text memo (src/cmd/script-trace.c): the text is libtraceevent's for
 * every record, taken from the memo only where it cannot differ (the same payload of an
 * event whose print format reads no common field), and the bound holds; the text memo
 * under it forgets everything at a clear, its front too.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <trace-seq.h>

#include "../../src/cmd/script-int.h"

#define COMMON "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	       "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	       "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	       "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

static const char *const formats[] = {
	"name: waking\nID: 1\nformat:\n" COMMON
	"\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int target_cpu;\toffset:28;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"comm=%s pid=%d target_cpu=%03d\", REC->comm, REC->pid, REC->target_cpu\n",
	/* reads a common field: never from the memo */
	"name: mine\nID: 2\nformat:\n" COMMON
	"\tfield:int v;\toffset:8;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"v=%d by %d\", REC->v, REC->common_pid\n",
	/* flags and a ternary, as sched_switch's prev_state */
	"name: state\nID: 3\nformat:\n" COMMON
	"\tfield:long s;\toffset:8;\tsize:8;\tsigned:1;\n\n"
	"print fmt: \"s=%s%s\", (REC->s & 3) ? __print_flags(REC->s & 3, \"|\", { 1, \"S\" }, "
	"{ 2, \"D\" }) : \"R\", REC->s & 4 ? \"+\" : \"\"\n",
	/*
	 * sched_switch's prev_state of 6.x, and more constant arithmetic in the fields of
	 * __print_flags() and __print_symbolic(): libtraceevent folds the rest as it parses
	 */
	"name: fold\nID: 4\nformat:\n" COMMON
	"\tfield:long s;\toffset:8;\tsize:8;\tsigned:1;\n\n"
	"print fmt: \"s=%s%s a=%s b=%s c=%s d=%s\", "
	"(REC->s & ((((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004) + 1) << 1) - 1)) ? "
	"__print_flags(REC->s & ((((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004) + 1) << 1) - 1), "
	"\"|\", { 0x00000001, \"S\" }, { 0x00000002, \"D\" }, { 0x00000004, \"T\" }, "
	"{ 0x00000008, \"I\" }) : \"R\", "
	"REC->s & (((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004) + 1) << 1) ? \"+\" : \"\", "
	"__print_symbolic(REC->s & ((1 << 3) - 1), { 0, \"a0\" }, { 5, \"a5\" }), "
	"__print_symbolic((REC->s >> (4 >> 1)) & (3 | 6), { 0, \"b0\" }, { 7, \"b7\" }), "
	"__print_flags(REC->s & (0xff & 0x0f), \",\", { 1, \"c1\" }, { 8, \"c8\" }), "
	"__print_symbolic(REC->s & (6 ^ 3), { 0, \"d0\" }, { 1, \"d1\" }, { 5, \"d5\" })\n",
};

struct rec {
	uint16_t type;
	uint8_t flags, preempt;
	int32_t common_pid;
	union {
		struct {
			char comm[16];
			int32_t pid, target_cpu;
		} w;
		int32_t v;
		int64_t s;
	};
};

static struct tep_handle *tep_new(void)
{
	struct tep_handle *tep = tep_alloc();
	size_t i;

	for (i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		ck_assert_int_eq(tep_parse_event(tep, formats[i], strlen(formats[i]), "t"), 0);
	return tep;
}

/* the memo's text of @r, and libtraceevent's own, equal */
static const char *check(struct trace_memo *m, struct tep_handle *tep, struct rec *r)
{
	static char got[256];
	struct tep_record tr = { .size = sizeof(*r), .data = r };
	struct trace_seq ts, ref;

	trace_seq_init(&ts);
	trace_seq_init(&ref);
	snprintf(got, sizeof(got), "%s", trace_memo__print(m, tep, &ts, &tr, NULL));
	tep_print_event(tep, &ref, &tr, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&ref);
	ck_assert_str_eq(got, ref.buffer);
	trace_seq_destroy(&ts);
	trace_seq_destroy(&ref);
	return got;
}

START_TEST(test_memo_equals_tep)
{
	struct tep_handle *tep = tep_new();
	struct trace_memo *m = trace_memo__new(1 << 20);
	struct rec r = { .type = 1, .common_pid = 10 };
	int i;

	memcpy(r.w.comm, "hackbench", 10);
	r.w.pid = 42;
	r.w.target_cpu = 1;
	ck_assert_str_eq(check(m, tep, &r), "comm=hackbench pid=42 target_cpu=001");
	r.common_pid = 11;		/* another waker, the same payload */
	r.flags = 3;
	ck_assert_str_eq(check(m, tep, &r), "comm=hackbench pid=42 target_cpu=001");
	r.w.pid = 43;
	ck_assert_str_eq(check(m, tep, &r), "comm=hackbench pid=43 target_cpu=001");

	memset(&r, 0, sizeof(r));
	r.type = 2;
	r.common_pid = 7;
	r.v = 5;
	ck_assert_str_eq(check(m, tep, &r), "v=5 by 7");
	r.common_pid = 8;		/* same payload, another common_pid: printed again */
	ck_assert_str_eq(check(m, tep, &r), "v=5 by 8");

	memset(&r, 0, sizeof(r));
	r.type = 3;
	for (i = 0; i < 16; i++) {	/* each value twice: printed, then from the memo */
		r.s = i % 8;
		check(m, tep, &r);
	}
	r.s = 6;
	ck_assert_str_eq(check(m, tep, &r), "s=D+");
	r.s = 0;
	ck_assert_str_eq(check(m, tep, &r), "s=R");
	trace_memo__delete(m);
	tep_free(tep);
}
END_TEST

/*
 * The memo folds constant arithmetic in the print formats of the events it meets: the text
 * stays what libtraceevent prints from the format as parsed, on a second handle the memo
 * never saw, for every state of sched_switch's prev_state and around it
 */
START_TEST(test_memo_folds_as_tep)
{
	struct tep_handle *tep = tep_new(), *ref = tep_new();
	struct trace_memo *m = trace_memo__new(1 << 20);
	struct rec r = { .type = 4 };
	struct tep_record tr = { .size = sizeof(r), .data = &r };
	struct trace_seq ts, want;
	int i;

	trace_seq_init(&ts);
	for (i = 0; i < 70; i++) {
		r.s = i < 64 ? i : -i;
		trace_seq_init(&want);
		tep_print_event(ref, &want, &tr, "%s", TEP_PRINT_INFO);
		trace_seq_terminate(&want);
		ck_assert_str_eq(trace_memo__print(m, tep, &ts, &tr, NULL), want.buffer);
		trace_seq_destroy(&want);
	}
	r.s = 29;		/* 0b11101: S, T, I and the + of 16 (d: libtraceevent's '^') */
	ck_assert(!strncmp(trace_memo__print(m, tep, &ts, &tr, NULL),
			   "s=S|T|I+ a=a5 b=b7 c=c1,c8,0x4 d=", 33));
	trace_seq_destroy(&ts);
	trace_memo__delete(m);
	tep_free(tep);
	tep_free(ref);
}
END_TEST

START_TEST(test_memo_bound)
{
	struct tep_handle *tep = tep_new();
	struct trace_memo *m = trace_memo__new(256);	/* room for a few texts only */
	struct rec r = { .type = 1 };
	int i;

	memcpy(r.w.comm, "t", 2);
	for (i = 0; i < 5000; i++) {	/* past the bound, and past the table's first size */
		char want[64];

		r.w.pid = i % 2500;
		snprintf(want, sizeof(want), "comm=t pid=%d target_cpu=000", i % 2500);
		ck_assert_str_eq(check(m, tep, &r), want);
	}
	trace_memo__delete(m);
	m = trace_memo__new(64u << 20);
	for (i = 0; i < 5000; i++) {
		r.w.pid = i % 2500;
		check(m, tep, &r);
	}
	trace_memo__delete(m);
	r.w.pid = 1;
	check(NULL, tep, &r);		/* no memo: printed */
	tep_free(tep);
}
END_TEST

/*
 * Payloads that do not repeat are formatted without the memo once a window of the sampled
 * ones is mostly not found there, and go through it again once they repeat; the text is
 * libtraceevent's throughout.
 */
START_TEST(test_memo_direct)
{
	struct tep_handle *tep = tep_new();
	struct trace_memo *m = trace_memo__new(64u << 20);
	struct rec r = { .type = 1 };
	int i;

	memcpy(r.w.comm, "t", 2);
	ck_assert(!trace_memo__direct(m, 1));
	for (i = 0; i < 60000; i++) {		/* each payload once */
		r.w.pid = i;
		check(m, tep, &r);
	}
	ck_assert(trace_memo__direct(m, 1));
	for (i = 0; i < 100000; i++) {		/* 1000 payloads, 100 times each */
		r.w.pid = 1000000 + i % 1000;
		check(m, tep, &r);
	}
	ck_assert(!trace_memo__direct(m, 1));
	trace_memo__delete(m);
	tep_free(tep);
}
END_TEST

/*
 * The text memo's front (the lines of keys found lately) holds nothing past a clear: a key
 * found once, then gone with the memo's bound, is not found again, even where its old place
 * holds another key's text now.
 */
START_TEST(test_memo_front_clear)
{
	struct text_memo *m = text_memo__new(128);	/* a few entries a generation */
	uint64_t a = 1, b = 2, other;
	const char *t;
	uint32_t len = 0;
	int i;

	ck_assert_ptr_nonnull(m);
	ck_assert_ptr_nonnull(text_memo__put(m, 0, &a, sizeof(a), 11, "alpha", 5));
	t = text_memo__get(m, 0, &a, sizeof(a), 11, &len);	/* into the front */
	ck_assert(t && len == 5 && !strcmp(t, "alpha"));
	t = text_memo__get(m, 0, &a, sizeof(a), 11, &len);	/* from the front */
	ck_assert(t && len == 5 && !strcmp(t, "alpha"));
	for (i = 0; i < 6; i++) {			/* past the bound: cleared */
		other = 100 + (uint64_t)i;
		text_memo__put(m, 0, &other, sizeof(other), 200 + (uint64_t)i, "filler-text", 11);
	}
	ck_assert_ptr_null(text_memo__get(m, 0, &a, sizeof(a), 11, &len));
	ck_assert_ptr_nonnull(text_memo__put(m, 0, &b, sizeof(b), 12, "beta", 4));
	ck_assert_ptr_null(text_memo__get(m, 0, &a, sizeof(a), 11, &len));
	t = text_memo__get(m, 1, &b, sizeof(b), 12, &len);	/* another id: another key */
	ck_assert_ptr_null(t);
	t = text_memo__get(m, 0, &b, sizeof(b), 12, &len);
	ck_assert(t && len == 4 && !strcmp(t, "beta"));
	text_memo__delete(m);
}
END_TEST

/*
 * The frame memo: a base's bytes give one number, kept across the texts' clears; a frame's
 * text is found by (base, address) whichever front line it is in, the front forgets what the
 * memo let go, and two frames of one front line are each found.
 */
START_TEST(test_frame_memo)
{
	struct frame_memo *m = frame_memo__new(256, 16);	/* a few texts a generation */
	uint64_t ka[2] = { 7, 1 }, kb[2] = { 7, 2 }, addr2;
	uint32_t a, b, len = 0, i;
	const char *t;

	ck_assert_ptr_nonnull(m);
	a = frame_memo__base(m, ka, 5);
	b = frame_memo__base(m, kb, 5);			/* the same hash, another key */
	ck_assert(a && b && a != b);
	ck_assert_uint_eq(frame_memo__base(m, ka, 5), a);
	ck_assert_ptr_null(frame_memo__get(m, a, 0x1000, &len));
	frame_memo__put(m, a, 0x1000, "one\n", 4);
	t = frame_memo__get(m, a, 0x1000, &len);
	ck_assert(t && len == 4 && !strcmp(t, "one\n"));
	ck_assert_ptr_null(frame_memo__get(m, b, 0x1000, &len));	/* another base */
	/* an address of the same front line as (a, 0x1000): both found, front or not */
	for (addr2 = 0x1001; frame_line_of(a, addr2) != frame_line_of(a, 0x1000); addr2++)
		;
	frame_memo__put(m, a, addr2, "two\n", 4);
	t = frame_memo__get(m, a, 0x1000, &len);
	ck_assert(t && len == 4 && !strcmp(t, "one\n"));
	t = frame_memo__get(m, a, addr2, &len);
	ck_assert(t && len == 4 && !strcmp(t, "two\n"));
	for (i = 0; i < 16; i++)				/* past the bound: cleared */
		frame_memo__put(m, b, 0x9000 + i, "filler-text-filler\n", 19);
	ck_assert_ptr_null(frame_memo__get(m, a, 0x1000, &len));
	ck_assert_ptr_null(frame_memo__get(m, a, addr2, &len));
	ck_assert_uint_eq(frame_memo__base(m, kb, 5), b);	/* bases stay */
	for (i = 0; i < 1000; i++) {				/* the table of bases grows */
		uint64_t k[2] = { 100 + i, 0 };

		ck_assert_uint_eq(frame_memo__base(m, k, i), a + 2 + i);
	}
	ck_assert_uint_eq(frame_memo__base(m, ka, 5), a);
	frame_memo__delete(m);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("script-trace");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int nf;

	tcase_add_test(tc, test_memo_equals_tep);
	tcase_add_test(tc, test_memo_folds_as_tep);
	tcase_add_test(tc, test_memo_bound);
	tcase_add_test(tc, test_memo_direct);
	tcase_add_test(tc, test_memo_front_clear);
	tcase_add_test(tc, test_frame_memo);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
