// SPDX-License-Identifier: GPL-2.0
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedlens/util.h"

START_TEST(test_parse_long)
{
	long v;

	ck_assert_int_eq(parse_long("42", 0, 100, &v), 0);
	ck_assert_int_eq(v, 42);
	ck_assert_int_eq(parse_long("0x10", 0, 100, &v), 0);
	ck_assert_int_eq(v, 16);
	ck_assert_int_eq(parse_long("", 0, 100, &v), -EINVAL);
	ck_assert_int_eq(parse_long("12x", 0, 100, &v), -EINVAL);
	ck_assert_int_eq(parse_long("101", 0, 100, &v), -EINVAL);
	ck_assert_int_eq(parse_long("-1", 0, 100, &v), -EINVAL);
	ck_assert_int_eq(parse_long("99999999999999999999999", 0, 100, &v), -ERANGE);
}
END_TEST

START_TEST(test_parse_u64_double)
{
	uint64_t u;
	double d;

	ck_assert_int_eq(parse_u64("18446744073709551615", &u), 0);
	ck_assert(u == UINT64_MAX);
	ck_assert_int_eq(parse_u64("-1", &u), -EINVAL);
	ck_assert_int_eq(parse_double("1.5", &d), 0);
	ck_assert(d == 1.5);
	ck_assert_int_eq(parse_double("nan", &d), -EINVAL);
	ck_assert_int_eq(parse_double("1.5q", &d), -EINVAL);
}
END_TEST

START_TEST(test_duration)
{
	uint64_t ns;

	ck_assert_int_eq(parse_duration_ns("2", &ns), 0);
	ck_assert(ns == 2000000000ull);
	ck_assert_int_eq(parse_duration_ns("10ms", &ns), 0);
	ck_assert(ns == 10000000ull);
	ck_assert_int_eq(parse_duration_ns("1.5us", &ns), 0);
	ck_assert(ns == 1500ull);
	ck_assert_int_eq(parse_duration_ns("3h", &ns), -EINVAL);
	ck_assert_int_eq(parse_duration_ns("-1s", &ns), -EINVAL);
}
END_TEST

/* fmt_fixed2() is printf's "%*.2f": ties, shares a report prints, widths, what does not fit */
START_TEST(test_fmt_fixed2)
{
	static const double fixed[] = { 0, -0.0, 0.005, 0.015, 0.125, 0.375, 1.005, 2.675,
					99.995, 100, 12.345, 1e-9, 9.999999, 123456.785, -1.5,
					1e20, 0.1, 33.333333333, 66.666666667 };
	char want[64], got[64];
	unsigned int seed = 1;
	size_t i, n;

	for (i = 0; i < 200000 + ARRAY_SIZE(fixed); i++) {
		double v = i < ARRAY_SIZE(fixed) ? fixed[i] :
			   i % 2 ? 100.0 * (double)(rand_r(&seed) % 100000) / (1 + rand_r(&seed) % 100000) :
				   (double)rand_r(&seed) / RAND_MAX * 100.0;
		int w = (int)(i % 9);

		snprintf(want, sizeof(want), "%*.2f", w, v);
		n = fmt_fixed2(got, sizeof(got), v, w);
		ck_assert_msg(!strcmp(got, want) && n == strlen(want), "%.17g: '%s', printf '%s'",
			      v, got, want);
	}
	n = fmt_fixed2(got, 4, 12.5, 7);	/* cut as snprintf cuts */
	ck_assert_str_eq(got, "  1");
	ck_assert_uint_eq(n, 7);
}
END_TEST

/* fmt_dec_back() is printf's %llu: around each power of ten, and the extremes */
START_TEST(test_fmt_dec_back)
{
	char want[32], got[32], *p;
	uint64_t v = 1;
	int i, d;

	for (i = 0; i <= 20; i++, v = v <= UINT64_MAX / 10 ? v * 10 : UINT64_MAX) {
		for (d = -1; d <= 1; d++) {
			uint64_t x = i == 20 ? UINT64_MAX : v + (uint64_t)d;

			snprintf(want, sizeof(want), "%llu", (unsigned long long)x);
			got[sizeof(got) - 1] = '\0';
			p = fmt_dec_back(x, got + sizeof(got) - 1);
			ck_assert_str_eq(p, want);
		}
	}
}
END_TEST

/* fmt_hex() is printf's %#.16llx, %#llx and 0x%016llx of what perf prints by them */
START_TEST(test_fmt_hex)
{
	static const uint64_t v[] = { 0, 1, 0xf, 0x10, 0x400000, 0x7f4efd6c330dull,
				      0xffffffff81000000ull, UINT64_MAX };
	char want[32], got[32];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(v); i++) {
		snprintf(want, sizeof(want), "%#.16llx", (unsigned long long)v[i]);
		ck_assert_uint_eq(fmt_hex(got, v[i], 16, v[i] != 0), strlen(want));
		ck_assert_str_eq(got, want);
		snprintf(want, sizeof(want), "%#llx", (unsigned long long)v[i]);
		fmt_hex(got, v[i], 1, v[i] != 0);
		ck_assert_str_eq(got, want);
		snprintf(want, sizeof(want), "0x%016llx", (unsigned long long)v[i]);
		fmt_hex(got, v[i], 16, true);
		ck_assert_str_eq(got, want);
	}
}
END_TEST

/* every width from 1 to 16 digits, on every nibble value at every place and random values */
START_TEST(test_fmt_hex_widths)
{
	uint64_t x = 0x243f6a8885a308d3ull, val;
	char want[32], got[32];
	int d, k;

	for (k = 0; k < 20000; k++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		val = k < 256 ? (uint64_t)(k & 15) << (4 * (k >> 4)) : x >> (k % 64);
		for (d = 1; d <= 16; d++) {
			snprintf(want, sizeof(want), "%.*llx", d, (unsigned long long)val);
			ck_assert_uint_eq(fmt_hex(got, val, d, false), strlen(want));
			ck_assert_str_eq(got, want);
		}
	}
}
END_TEST

START_TEST(test_err)
{
	struct errbuf e = { "" };

	ck_assert_int_eq(err__set(&e, -ENOENT, "cannot open '%s'", "x"), -ENOENT);
	ck_assert_str_eq(e.msg, "cannot open 'x'");
	ck_assert_int_eq(err__prefix(&e, -ENOENT, "stat"), -ENOENT);
	ck_assert_str_eq(e.msg, "stat: cannot open 'x'");
	ck_assert_int_eq(err__set(NULL, -1, "ignored"), -1);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("util");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int nf;

	tcase_add_test(tc, test_parse_long);
	tcase_add_test(tc, test_parse_u64_double);
	tcase_add_test(tc, test_duration);
	tcase_add_test(tc, test_err);
	tcase_add_test(tc, test_fmt_fixed2);
	tcase_add_test(tc, test_fmt_hex);
	tcase_add_test(tc, test_fmt_dec_back);
	tcase_add_test(tc, test_fmt_hex_widths);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
