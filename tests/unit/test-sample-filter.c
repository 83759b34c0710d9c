// SPDX-License-Identifier: GPL-2.0
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "schedlens/sample-filter.h"

static struct stream_sample at(uint32_t cpu, uint32_t pid, uint32_t tid)
{
	return (struct stream_sample){ .cpu = cpu, .pid = pid, .tid = tid };
}

/* nothing asked: no filter, every sample passes */
START_TEST(test_none)
{
	struct sample_filter_opts o = { 0 };
	struct stream_sample s = at(3, 10, 11);
	struct errbuf err = { "" };
	int ret = -1;
	struct sample_filter *f = sample_filter__new(&o, &ret, &err);

	ck_assert_ptr_null(f);
	ck_assert_int_eq(ret, 0);
	ck_assert(sample_filter__wants(f, &s, "sh"));
	ck_assert(sample_filter__place_ok(f, NULL, NULL, NULL));
	ck_assert(!sample_filter__by_comm(f) && !sample_filter__by_place(f));
	ck_assert_ptr_null(sample_filter__only(f, SAMPLE_FILTER_COMMS));
}
END_TEST

/* -C's CPU list as libperf reads it, and the thread lists, each alone and together */
START_TEST(test_cpus_threads)
{
	struct sample_filter_opts o = { .cpus = "0-1,4", .pids = "10,20", .tids = "11,21,30" };
	struct stream_sample in = at(4, 20, 21), cpu5 = at(5, 20, 21), pid30 = at(0, 30, 30);
	struct errbuf err = { "" };
	int ret = -1;
	struct sample_filter *f = sample_filter__new(&o, &ret, &err);

	ck_assert_msg(f != NULL, "%s", err.msg);
	ck_assert(sample_filter__wants(f, &in, NULL));
	ck_assert(!sample_filter__time_cpu_ok(f, &cpu5));
	ck_assert(sample_filter__thread_ok(f, &cpu5, NULL));
	ck_assert(sample_filter__time_cpu_ok(f, &pid30));
	ck_assert(!sample_filter__thread_ok(f, &pid30, NULL));	/* its pid is not listed */
	ck_assert(!sample_filter__by_comm(f));
	sample_filter__delete(f);
}
END_TEST

/* names: --comms by the thread's name, --dsos by short or recorded name, --symbols */
START_TEST(test_names)
{
	struct sample_filter_opts o = { .comms = "sh", .dsos = "[kernel.kallsyms],/lib/libc.so.6",
					.symbols = "inner,schedule" };
	struct stream_sample s = at(0, 1, 1);
	struct errbuf err = { "" };
	int ret = -1;
	struct sample_filter *f = sample_filter__new(&o, &ret, &err);

	ck_assert_msg(f != NULL, "%s", err.msg);
	ck_assert(sample_filter__by_comm(f) && sample_filter__by_place(f));
	ck_assert(sample_filter__thread_ok(f, &s, "sh"));
	ck_assert(!sample_filter__thread_ok(f, &s, "ls"));
	ck_assert(!sample_filter__thread_ok(f, &s, NULL));
	ck_assert(sample_filter__place_ok(f, "[kernel.kallsyms]", NULL, "schedule"));
	ck_assert(sample_filter__place_ok(f, "libc.so.6", "/lib/libc.so.6", "inner"));
	ck_assert(!sample_filter__place_ok(f, "libc.so.6", "/usr/lib/libc.so.6", "inner"));
	ck_assert(!sample_filter__place_ok(f, "[kernel.kallsyms]", NULL, "kfree"));
	ck_assert(!sample_filter__place_ok(f, NULL, NULL, "inner"));	/* no map */
	ck_assert(!sample_filter__place_ok(f, "[kernel.kallsyms]", NULL, NULL));
	ck_assert_str_eq(sample_filter__only(f, SAMPLE_FILTER_COMMS), "sh");
	ck_assert_ptr_null(sample_filter__only(f, SAMPLE_FILTER_DSOS));	/* two */
	ck_assert_ptr_null(sample_filter__only(f, SAMPLE_FILTER_SYMBOLS));
	sample_filter__delete(f);
}
END_TEST

/* a list that is not one is refused with the option's name */
START_TEST(test_bad_lists)
{
	static const struct {
		struct sample_filter_opts o;
		const char *said;
	} bad[] = {
		{ { .cpus = "x" }, "-C" },	{ { .pids = "12x" }, "--pid" },
		{ { .tids = "," }, "--tid" },	{ { .comms = "," }, "--comms" },
		{ { .dsos = "" }, "--dsos" },	{ { .symbols = ",," }, "--symbols" },
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct errbuf err = { "" };
		int ret = 0;

		ck_assert_ptr_null(sample_filter__new(&bad[i].o, &ret, &err));
		ck_assert_int_eq(ret, -EINVAL);
		ck_assert_msg(!strncmp(err.msg, bad[i].said, strlen(bad[i].said)), "%s", err.msg);
	}
}
END_TEST

/* --time as perf_time__parse_str(): seconds to the nanosecond, either bound left out */
START_TEST(test_time)
{
	static const struct {
		const char *range;
		uint64_t t;
		bool in;
	} c[] = {
		{ "10,20", 9999999999ull, false },	{ "10,20", 10000000000ull, true },
		{ "10,20", 20000000000ull, true },	{ "10,20", 20000000001ull, false },
		{ "10.5,", 10499999999ull, false },	{ "10.5,", 99000000000ull, true },
		{ ",0.000000002", 2, true },		{ ",0.000000002", 3, false },
		{ "1.123456789,1.123456789", 1123456789ull, true },
		{ "10,20", 0, true },			/* no time: kept, as perf */
	};
	const char *bad[] = { "x", "10,x", "20,10", "1.1234567891,", "5%", "1,2 3,4" };
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct sample_filter_opts o = { .time = c[i].range };
		struct stream_sample s = { .time = c[i].t };
		struct errbuf err = { "" };
		int ret;
		struct sample_filter *f = sample_filter__new(&o, &ret, &err);

		ck_assert_msg(f != NULL, "%s: %s", c[i].range, err.msg);
		ck_assert_msg(sample_filter__time_cpu_ok(f, &s) == c[i].in, "%s at %llu",
			      c[i].range, (unsigned long long)c[i].t);
		sample_filter__delete(f);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct sample_filter_opts o = { .time = bad[i] };
		struct errbuf err = { "" };
		int ret = 0;

		ck_assert_ptr_null(sample_filter__new(&o, &ret, &err));
		ck_assert_msg(ret == -EINVAL && strstr(err.msg, "--time"), "%s", bad[i]);
	}
}
END_TEST

/* -C on a stream without the CPU in its samples: refused, as perf refuses it */
START_TEST(test_check_cpu)
{
	struct sample_filter_opts o = { .cpus = "0" };
	struct stream_evsel ev[2] = { 0 };
	struct stream_info info = { .evsels = ev, .nr_evsels = 2 };
	struct errbuf err = { "" };
	int ret;
	struct sample_filter *f = sample_filter__new(&o, &ret, &err);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(sample_filter__check(f, &info, "x.data", &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "x.data has no CPU"));
	ev[1].attr.sample_type = PERF_SAMPLE_CPU;
	ck_assert_int_eq(sample_filter__check(f, &info, "x.data", &err), 0);
	ck_assert_int_eq(sample_filter__check(NULL, &info, "x.data", &err), 0);
	sample_filter__delete(f);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("sample-filter");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int nf;

	tcase_add_test(tc, test_none);
	tcase_add_test(tc, test_cpus_threads);
	tcase_add_test(tc, test_names);
	tcase_add_test(tc, test_bad_lists);
	tcase_add_test(tc, test_time);
	tcase_add_test(tc, test_check_cpu);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
