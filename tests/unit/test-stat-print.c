// SPDX-License-Identifier: GPL-2.0
/*
 * stat's printing of hardware metrics, which this machine (no PMU) cannot count: the lines
 * perf 6.1's util/stat-display.c and stat-shadow.c print for given counts, in -x CSV, in the
 * table, and after an -I timestamp.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/cmd/stat-int.h"

struct fake {
	struct stat_opts o;
	struct stat_state st;
	struct event_desc evs[8];
	struct counter_value v[8];
	struct run_values run;
};

/* one run of @n events with counts @vals, each enabled and running 1 ms, elapsed 1 ms */
static void fake_init(struct fake *f, const char *const *names, const double *vals, size_t n,
		      const char *sep)
{
	struct errbuf err = { "" };
	size_t i;

	memset(f, 0, sizeof(*f));
	f->o.repeat = 1;
	f->o.sep = sep;
	for (i = 0; i < n; i++) {
		ck_assert_msg(!events__parse(names[i], &f->evs[i], &err), "%s: %s", names[i],
			      err.msg);
		f->v[i] = (struct counter_value){ .val = (uint64_t)vals[i], .ena = 1000000,
						  .run = 1000000, .scaled = vals[i],
						  .running_pct = 100, .counted = true };
	}
	f->run = (struct run_values){ .v = f->v, .elapsed_s = 0.001 };
	f->st = (struct stat_state){ .o = &f->o, .evs = f->evs, .nr = n, .runs = &f->run,
				     .nr_runs = 1 };
}

/* what stat prints for @f after @prefix: -x CSV when its separator is set, else the table */
static char *print(struct fake *f, const char *prefix)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (f->o.sep)
		stat__print_csv(&f->st, m, prefix);
	else
		stat__print_lines(&f->st, m, prefix, false);
	fclose(m);
	return buf;
}

static const char *const hw[] = { "cycles", "instructions", "stalled-cycles-frontend",
				  "stalled-cycles-backend", "task-clock" };
static const double hw_vals[] = { 1000, 2000, 800, 600, 500000 };

START_TEST(test_csv_stalled_line)
{
	struct fake f;
	char *out;

	fake_init(&f, hw, hw_vals, 5, ",");
	out = print(&f, "");
	/* perf: insn per cycle, then on a line of its own three empty fields (new_line_csv) and
	 * the larger stall per instruction */
	ck_assert_str_eq(out, "1000,,cycles,1000000,100.00,0.002,GHz\n"
			      "2000,,instructions,1000000,100.00,2.00,insn per cycle\n"
			      ",,,,0.40,stalled cycles per insn\n"
			      "800,,stalled-cycles-frontend,1000000,100.00,80.00,frontend cycles idle\n"
			      "600,,stalled-cycles-backend,1000000,100.00,60.00,backend cycles idle\n"
			      "0.50,msec,task-clock,1000000,100.00,0.500,CPUs utilized\n");
	free(out);
	/* -I: the timestamp starts every line, the metric's own too */
	out = print(&f, "     1.000000000,");
	ck_assert_ptr_nonnull(strstr(out, "     1.000000000,2000,,instructions,1000000,100.00,2.00,"
					  "insn per cycle\n     1.000000000,,,,,0.40,stalled cycles "
					  "per insn\n"));
	free(out);
}
END_TEST

START_TEST(test_csv_no_stalls)
{
	static const char *const names[] = { "cycles", "instructions", "branches",
					     "branch-misses" };
	static const double vals[] = { 1000, 3000, 400, 10 };
	struct fake f;
	char *out;

	/* no stalled-cycles event: no second line; no task-clock: no GHz (perf: fmt NULL, "Ghz") */
	fake_init(&f, names, vals, 4, ",");
	out = print(&f, "");
	ck_assert_str_eq(out, "1000,,cycles,1000000,100.00,,\n"
			      "3000,,instructions,1000000,100.00,3.00,insn per cycle\n"
			      "400,,branches,1000000,100.00,,\n"
			      "10,,branch-misses,1000000,100.00,2.50,of all branches\n");
	free(out);
	/* instructions alone: perf's empty metric fields */
	fake_init(&f, names + 1, vals + 1, 1, ",");
	out = print(&f, "");
	ck_assert_str_eq(out, "3000,,instructions,1000000,100.00,,\n");
	free(out);
}
END_TEST

START_TEST(test_text_stalled_line)
{
	struct fake f;
	char *out, want[512];

	fake_init(&f, hw, hw_vals, 5, NULL);
	out = print(&f, "");
	/* abs_printout(), print_metric_std() padded to 35, do_new_line_std()'s 49 blanks */
	snprintf(want, sizeof(want), "%18s %-4s %-32s # %7.2f  %-23s\n%49s #    0.40  %-23s\n",
		 "2000", "", "instructions", 2.0, "insn per cycle", "", "stalled cycles per insn");
	ck_assert_msg(strstr(out, want), "%s", out);
	snprintf(want, sizeof(want), "%18s %-4s %-32s # %8.3f %-23s\n", "0.50", "msec",
		 "task-clock", 0.5, "CPUs utilized");
	ck_assert_msg(strstr(out, want), "%s", out);
	free(out);
	/* -I: the timestamp before both lines */
	out = print(&f, "     1.000000000 ");
	snprintf(want, sizeof(want), "     1.000000000 %18s %-4s %-32s # %7.2f  %-23s\n"
		 "     1.000000000 %49s #    0.40  %-23s\n", "2000", "", "instructions", 2.0,
		 "insn per cycle", "", "stalled cycles per insn");
	ck_assert_msg(strstr(out, want), "%s", out);
	free(out);
}
END_TEST

START_TEST(test_missing_lines)
{
	static const char *const names[] = { "task-clock", "instructions" };
	static const double vals[] = { 0, 0 };
	struct fake f;
	char *out, want[256];

	/* an interval in which nothing ran: <not counted>, the unit kept, the metric blank */
	fake_init(&f, names, vals, 2, ",");
	memset(f.v, 0, sizeof(f.v));
	out = print(&f, "");
	ck_assert_str_eq(out, "<not counted>,msec,task-clock,0,100.00,,\n"
			      "<not counted>,,instructions,0,100.00,,\n");
	free(out);
	f.o.sep = NULL;
	out = print(&f, "");
	snprintf(want, sizeof(want), "%18s %-4s %-25s%35s\n", "<not counted>", "msec",
		 "task-clock", "");
	ck_assert_msg(!strncmp(out, want, strlen(want)), "%s", out);
	free(out);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("stat-print");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int nf;

	tcase_add_test(tc, test_csv_stalled_line);
	tcase_add_test(tc, test_csv_no_stalls);
	tcase_add_test(tc, test_text_stalled_line);
	tcase_add_test(tc, test_missing_lines);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
