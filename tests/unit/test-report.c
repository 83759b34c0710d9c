// SPDX-License-Identifier: GPL-2.0
/*
 * The report library on a stream made here (no perf.data): this test program's own functions
 * sampled with callchains (leaf_a 3 times, leaf_b once, both called by mid), through
 * report__ops(), printed to a memory stream: the hist entries by key, the shares, --children,
 * -g caller and --folded, as perf report prints them.
 */
#include <check.h>
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "schedlens/callpaths.h"
#include "schedlens/origin.h"
#include "schedlens/report.h"

__attribute__((noinline)) int leaf_a(int x)
{
	return x * 3 + 1;
}

__attribute__((noinline)) int leaf_b(int x)
{
	return x + 7;
}

__attribute__((noinline)) int mid(int x)
{
	return leaf_a(x) + leaf_b(x);
}

/* names alike for their first 8 bytes and more: the sort's numbers do not tell them apart */
__attribute__((noinline)) int tie_prefix_alpha(int x)
{
	return x ^ 0x55;
}

__attribute__((noinline)) int tie_prefix_alph(int x)
{
	return x ^ 0x66;
}

__attribute__((noinline)) int tie_prefix_beta(int x)
{
	return x ^ 0x77;
}

#define PID 4242

struct fixture {
	struct stream_evsel ev;
	struct stream_info info;
	struct stream_mmap map;
	char exe[PATH_MAX];
};

/* the executable mapping of this program, from /proc/self/maps */
static int self_map(struct fixture *fx)
{
	char line[PATH_MAX + 128], path[PATH_MAX];
	unsigned long long lo, hi, off;
	char perms[8];
	FILE *f = fopen("/proc/self/maps", "r");
	int ret = -1;

	if (!f || !realpath("/proc/self/exe", fx->exe))
		goto out;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %4095s", &lo, &hi, perms, &off,
			   path) != 5 || strcmp(path, fx->exe) || perms[2] != 'x')
			continue;
		fx->map = (struct stream_mmap){ .pid = PID, .tid = PID, .start = lo,
						.len = hi - lo, .pgoff = off, .time = 2,
						.misc = PERF_RECORD_MISC_USER,
						.filename = fx->exe, .prot = 5, .flags = 2 };
		ret = 0;
		break;
	}
out:
	if (f)
		fclose(f);
	return ret;
}

static void fixture_init(struct fixture *fx)
{
	memset(fx, 0, sizeof(*fx));
	ck_assert_int_eq(self_map(fx), 0);
	fx->ev.attr.type = PERF_TYPE_SOFTWARE;
	fx->ev.attr.config = PERF_COUNT_SW_CPU_CLOCK;
	fx->ev.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
				  PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN;
	snprintf(fx->ev.name, sizeof(fx->ev.name), "cpu-clock");
	fx->info.evsels = &fx->ev;
	fx->info.nr_evsels = 1;
	fx->info.path = "(test)";
	origin__live(&fx->info.origin);
}

static uint64_t inside(int (*fn)(int))
{
	return (uint64_t)(uintptr_t)fn + 2;
}

/* one sample of thread @pid in @leaf called by mid, @at bytes from where they are */
static void sample_mid(struct stream_ops *ops, struct fixture *fx, struct stream_stats *st,
		       uint32_t pid, int (*leaf)(int), uint64_t at, uint64_t period)
{
	uint64_t chain[3] = { PERF_CONTEXT_USER, inside(leaf) + at, inside(mid) + at };
	struct stream_sample s = { .evsel = &fx->ev, .misc = PERF_RECORD_MISC_USER,
				   .ip = chain[1], .time = 10 + st->nr_samples, .pid = pid,
				   .tid = pid, .period = period, .nr_callchain = 3,
				   .callchain = chain };

	ck_assert_int_eq(ops->sample(ops->ctx, &s), 0);
	st->nr_samples++;
}

/* leaf_a 3 times and leaf_b once, called by mid, in a thread named from the start */
static void feed_leaves(struct stream_ops *ops, struct fixture *fx, struct stream_stats *st)
{
	int i;

	ck_assert_int_eq(ops->comm(ops->ctx, PID, PID, "tester", true, 1), 0);
	ck_assert_int_eq(ops->mmap(ops->ctx, &fx->map), 0);
	for (i = 0; i < 4; i++)
		sample_mid(ops, fx, st, PID, i < 3 ? leaf_a : leaf_b, 0, 1000);
}

static void (*feed)(struct stream_ops *, struct fixture *, struct stream_stats *) = feed_leaves;

/* the report of feed()'s stream with @sort and @set's options, as printed */
static char *run(const char *sort, void (*set)(struct report_opts *o))
{
	struct report_opts o = { .input = "(test)", .no_cache = true };
	struct errbuf err = { "" };
	struct stream_stats st = { 0 };
	struct fixture fx;
	struct stream_ops *ops;
	struct report *r;
	char *text = NULL;
	size_t len = 0;
	bool again;
	FILE *out;

	fixture_init(&fx);
	if (set)
		set(&o);
	ck_assert_int_eq(report__set_sort(&o, sort, &err), 0);
	ck_assert_int_eq(report__new(&r, &o, NULL, true, &err), 0);
	ops = report__ops(r);
	ck_assert_int_eq(ops->begin(ops->ctx, &fx.info), 0);
	feed(ops, &fx, &st);
	ck_assert_int_eq(report__finish(r, &again), 0);
	ck_assert(!again);
	out = open_memstream(&text, &len);
	ck_assert_ptr_nonnull(out);
	ck_assert_int_eq(report__print(r, &st, out, out), 0);
	fclose(out);
	report__delete(r);
	return text;
}

/* the line of @text holding every one of the NULL-ended words, or NULL */
static const char *line_with(const char *text, ...)
{
	const char *p = text;

	while (p && *p) {
		const char *end = strchr(p, '\n') ?: p + strlen(p), *w;
		bool all = true;
		va_list ap;

		va_start(ap, text);
		while ((w = va_arg(ap, const char *))) {
			const char *hit = memmem(p, (size_t)(end - p), w, strlen(w));

			all &= hit != NULL;
		}
		va_end(ap);
		if (all)
			return p;
		p = *end ? end + 1 : end;
	}
	return NULL;
}

START_TEST(test_comm_dso)
{
	char *t = run("comm,dso", NULL);
	const char *base = strrchr(realpath("/proc/self/exe", (char[PATH_MAX]){ 0 }) ?: "/x", '/');

	ck_assert_msg(line_with(t, "# Samples: 4  of event 'cpu-clock'", NULL), "%s", t);
	ck_assert_msg(line_with(t, "# Event count (approx.): 4000", NULL), "%s", t);
	ck_assert_msg(line_with(t, "100.00%", "tester", base + 1, NULL), "%s", t);
	free(t);
}
END_TEST

/*
 * A COMM between two samples at one place (the same thread, ip and cpu): the second is
 * counted under the new name, the first keeps the old one (the place's memo is dropped)
 */
static void feed_renamed(struct stream_ops *ops, struct fixture *fx, struct stream_stats *st)
{
	ck_assert_int_eq(ops->comm(ops->ctx, PID, PID, "before", true, 1), 0);
	ck_assert_int_eq(ops->mmap(ops->ctx, &fx->map), 0);
	sample_mid(ops, fx, st, PID, leaf_a, 0, 1000);
	sample_mid(ops, fx, st, PID, leaf_a, 0, 1000);
	ck_assert_int_eq(ops->comm(ops->ctx, PID, PID, "after", false, 20), 0);
	sample_mid(ops, fx, st, PID, leaf_a, 0, 2000);
}

START_TEST(test_comm_between)
{
	char *t;

	feed = feed_renamed;
	t = run("comm,sym", NULL);
	ck_assert_msg(line_with(t, "50.00%", "before", "[.] leaf_a", NULL), "%s", t);
	ck_assert_msg(line_with(t, "50.00%", "after", "[.] leaf_a", NULL), "%s", t);
	free(t);
	feed = feed_leaves;
}
END_TEST

START_TEST(test_sym_shares)
{
	char *t = run("sym", NULL);

	ck_assert_msg(line_with(t, "75.00%", "[.] leaf_a", NULL), "%s", t);
	ck_assert_msg(line_with(t, "25.00%", "[.] leaf_b", NULL), "%s", t);
	ck_assert_msg(!line_with(t, "[.] mid", NULL), "mid has no self samples:\n%s", t);
	free(t);
}
END_TEST

static void children(struct report_opts *o)
{
	o->sym.children = true;
}

START_TEST(test_children)
{
	char *t = run("sym", children);

	/* Children then Self: mid is on every callchain and takes no sample itself */
	ck_assert_msg(line_with(t, "Children", "Self", NULL), "%s", t);
	ck_assert_msg(line_with(t, "100.00%", "0.00%", "[.] mid", NULL), "%s", t);
	ck_assert_msg(line_with(t, "75.00%", "75.00%", "[.] leaf_a", NULL), "%s", t);
	ck_assert_msg(line_with(t, "25.00%", "25.00%", "[.] leaf_b", NULL), "%s", t);
	free(t);
}
END_TEST

static void graph_callee(struct report_opts *o)
{
	ck_assert_int_eq(report__parse_graph("callee", &o->sym.graph), 0);
}

static void graph_caller(struct report_opts *o)
{
	ck_assert_int_eq(report__parse_graph("caller", &o->sym.graph), 0);
}

START_TEST(test_graph)
{
	char *t = run("sym", graph_callee);
	const char *a = line_with(t, "[.] leaf_a", NULL), *b = line_with(t, "[.] leaf_b", NULL);

	/* callee order: the entry's callers outward, the entry itself left out, as perf */
	ck_assert_msg(a && b && a < b, "%s", t);
	ck_assert_msg(line_with(a, "---mid", NULL) && line_with(a, "---mid", NULL) < b, "%s", t);
	free(t);
	/*
	 * caller order: from the outermost frame in, perf leaving that one out when the sort
	 * starts with sym (perf 6.1 on a recording of tests/data/deepstack.c: inner's tree is
	 * main, outer, inner without __libc_start_call_main); here mid is the outermost
	 */
	t = run("sym", graph_caller);
	a = line_with(t, "[.] leaf_a", NULL);
	ck_assert_msg(a && line_with(a, "---leaf_a", NULL), "%s", t);
	ck_assert_int_eq(report__parse_graph("sideways", &(enum symrep_graph){ 0 }), -EINVAL);
	free(t);
}
END_TEST

static void folded(struct report_opts *o)
{
	o->sym.folded = true;
}

START_TEST(test_folded)
{
	char *t = run("sym", folded);

	ck_assert_msg(line_with(t, "tester;mid;leaf_a 3", NULL), "%s", t);
	ck_assert_msg(line_with(t, "tester;mid;leaf_b 1", NULL), "%s", t);
	free(t);
}
END_TEST

static void children_caller(struct report_opts *o)
{
	children(o);
	graph_caller(o);
}

/*
 * A frame at address 0 closing two chains: one of a kernel sample taken before the thread's
 * exec, under its placeholder comm, whose user frames have no map (the 0 then at the kernel
 * level), and one of a user sample after it. perf 6.1 counts them in one --children row, at
 * the level of the first (sort__sym_cmp() compares entries without a symbol by address, and
 * comm__override() renames the placeholder the first was counted under): a recording of
 * tests/data/deepstack.c by a slow recorder had "ds [unknown] [k] 0000000000000000".
 */
static void feed_exec_zero(struct stream_ops *ops, struct fixture *fx, struct stream_stats *st)
{
	uint64_t kchain[6] = { PERF_CONTEXT_KERNEL, 0xffffffff81000100ull, PERF_CONTEXT_USER,
			       0x7f0000001000ull, 0 };
	uint64_t uchain[4] = { PERF_CONTEXT_USER, inside(leaf_a), inside(mid), 0 };
	struct stream_sample k = { .evsel = &fx->ev, .misc = PERF_RECORD_MISC_KERNEL,
				   .ip = kchain[1], .time = 5, .pid = PID, .tid = PID,
				   .period = 1000, .nr_callchain = 5, .callchain = kchain };
	struct stream_sample u = { .evsel = &fx->ev, .misc = PERF_RECORD_MISC_USER,
				   .ip = uchain[1], .time = 10, .pid = PID, .tid = PID,
				   .period = 1000, .nr_callchain = 4, .callchain = uchain };

	ck_assert_int_eq(ops->sample(ops->ctx, &k), 0);
	ck_assert_int_eq(ops->comm(ops->ctx, PID, PID, "tester", true, 6), 0);
	ck_assert_int_eq(ops->mmap(ops->ctx, &fx->map), 0);
	ck_assert_int_eq(ops->sample(ops->ctx, &u), 0);
	st->nr_samples += 2;
}

START_TEST(test_children_zero)
{
	static const char *const sorts[] = { "comm,dso,sym", "pid,sym", "sym" };
	const char *row, *end, *s;
	size_t i;
	char *t;

	feed = feed_exec_zero;
	for (i = 0; i < sizeof(sorts) / sizeof(sorts[0]); i++) {
		t = run(sorts[i], children);
		/* (the comm the placeholder took; pid's as TID:COMM) */
		row = line_with(t, "100.00%", "0.00%", "tester", "[k] 0000000000000000", NULL);
		ck_assert_msg(row || (i == 2 && line_with(t, "100.00%", "0.00%",
							   "[k] 0000000000000000", NULL)),
			      "%s:\n%s", sorts[i], t);
		ck_assert_msg(!line_with(t, "[.] 0000000000000000", NULL), "%s:\n%s", sorts[i], t);
		free(t);
	}
	/* the call paths of a renamed row follow it: the kernel sample's, under tester */
	t = run("comm,sym", children_caller);
	row = line_with(t, "100.00%", "0.00%", "tester", "[k] 0000000000000000", NULL);
	ck_assert_msg(row, "%s", t);
	end = strstr(row, "\n\n");	/* the row's call graph ends at a blank line */
	ck_assert_msg(end && (s = memmem(row, (size_t)(end - row), "--50.00%--0x7f0000001000",
					  24)), "%s", t);
	free(t);
	feed = feed_leaves;
}
END_TEST

/*
 * One chain (mid, leaf_a) sampled in two threads of other comms, with other periods: rows
 * and paths of a sample whose frames an earlier one had are counted again, not looked up
 * (symrep's shapes), and must still be the sample's comm's and period's
 */
static void feed_two_comms(struct stream_ops *ops, struct fixture *fx, struct stream_stats *st)
{
	static const uint32_t pid[3] = { PID, PID + 1, PID };
	static const uint64_t period[3] = { 1000, 3000, 2000 };
	struct stream_mmap m = fx->map;
	int i;

	ck_assert_int_eq(ops->comm(ops->ctx, PID, PID, "alpha", true, 1), 0);
	ck_assert_int_eq(ops->comm(ops->ctx, PID + 1, PID + 1, "beta", true, 1), 0);
	ck_assert_int_eq(ops->mmap(ops->ctx, &fx->map), 0);
	m.pid = m.tid = PID + 1;
	ck_assert_int_eq(ops->mmap(ops->ctx, &m), 0);
	for (i = 0; i < 3; i++)
		sample_mid(ops, fx, st, pid[i], leaf_a, 0, period[i]);
}

/* one sample in leaf_a called by mid, called by leaf_b, called by tie_prefix_beta */
static void feed_chain4(struct stream_ops *ops, struct fixture *fx, struct stream_stats *st)
{
	uint64_t chain[5] = { PERF_CONTEXT_USER, inside(leaf_a), inside(mid), inside(leaf_b),
			      inside(tie_prefix_beta) };
	struct stream_sample s = { .evsel = &fx->ev, .misc = PERF_RECORD_MISC_USER,
				   .ip = chain[1], .time = 10, .pid = PID, .tid = PID,
				   .period = 1000, .nr_callchain = 5, .callchain = chain };

	ck_assert_int_eq(ops->comm(ops->ctx, PID, PID, "tester", true, 1), 0);
	ck_assert_int_eq(ops->mmap(ops->ctx, &fx->map), 0);
	ck_assert_int_eq(ops->sample(ops->ctx, &s), 0);
	st->nr_samples++;
}

/*
 * -g caller keeps a row's paths from the outermost frame (without --children) and from the
 * sampled one (with it): either way the tree reads from the outermost frame in
 */
START_TEST(test_graph_caller_order)
{
	const char *order[] = { "leaf_b", "mid", "leaf_a" };
	char *t[2];
	int k, i;

	feed = feed_chain4;
	t[0] = run("sym", graph_caller);
	t[1] = run("sym", children_caller);
	feed = feed_leaves;
	for (k = 0; k < 2; k++) {
		const char *row = line_with(t[k], "[.] leaf_a", NULL), *at = row;

		ck_assert_msg(row != NULL, "%s", t[k]);
		for (i = 0; i < 3; i++) {
			const char *next = line_with(at, order[i], NULL);

			ck_assert_msg(next && (i == 0 || next > at), "%s before %s:\n%s",
				      order[i], i ? order[i - 1] : "the row", t[k]);
			at = next + 1;
		}
		free(t[k]);
	}
}
END_TEST

START_TEST(test_same_frames)
{
	char *t;

	feed = feed_two_comms;
	t = run("comm,sym", children_caller);
	/* alpha 1000 + 2000 of 6000, beta 3000: the third sample repeats the first's frames */
	ck_assert_msg(line_with(t, "50.00%", "50.00%", "alpha", "[.] leaf_a", NULL), "%s", t);
	ck_assert_msg(line_with(t, "50.00%", "50.00%", "beta", "[.] leaf_a", NULL), "%s", t);
	ck_assert_msg(line_with(t, "50.00%", "0.00%", "alpha", "[.] mid", NULL), "%s", t);
	ck_assert_msg(line_with(t, "50.00%", "0.00%", "beta", "[.] mid", NULL), "%s", t);
	free(t);
	t = run("comm,sym", graph_caller);	/* the self rows */
	ck_assert_msg(line_with(t, "50.00%", "alpha", "[.] leaf_a", NULL), "%s", t);
	ck_assert_msg(line_with(t, "50.00%", "beta", "[.] leaf_a", NULL), "%s", t);
	free(t);
	feed = feed_leaves;
}
END_TEST

/*
 * mid and leaf_a in this program and in a copy of it mapped beside: one comm row whose two
 * paths have the same names in other DSOs, two branches in perf's tree (match_chain(): a
 * node is a DSO's symbol), not one
 */
static char copy_path[PATH_MAX];

static void feed_two_dsos(struct stream_ops *ops, struct fixture *fx, struct stream_stats *st)
{
	const uint64_t base = 0x500000000000ull, at = base - fx->map.start;
	struct stream_mmap m = fx->map;

	ck_assert_int_eq(ops->comm(ops->ctx, PID, PID, "tester", true, 1), 0);
	ck_assert_int_eq(ops->mmap(ops->ctx, &fx->map), 0);
	m.start = base;
	m.filename = copy_path;
	ck_assert_int_eq(ops->mmap(ops->ctx, &m), 0);
	sample_mid(ops, fx, st, PID, leaf_a, 0, 1000);
	sample_mid(ops, fx, st, PID, leaf_a, at, 1000);
}

/* a copy of this program at copy_path */
static void copy_self(void)
{
	char cmd[2 * PATH_MAX + 16], self[PATH_MAX];

	ck_assert(realpath("/proc/self/exe", self));
	snprintf(copy_path, sizeof(copy_path), "/tmp/schedlens-test-report-%d", (int)getpid());
	snprintf(cmd, sizeof(cmd), "cp %s %s", self, copy_path);
	ck_assert_int_eq(system(cmd), 0);
}

START_TEST(test_graph_dsos)
{
	const char *a;
	char *t;

	copy_self();
	feed = feed_two_dsos;
	t = run("comm", graph_caller);
	unlink(copy_path);
	feed = feed_leaves;
	a = line_with(t, "--50.00%--mid", NULL);
	ck_assert_msg(a && line_with(a + 1, "--50.00%--mid", NULL), "%s", t);
	ck_assert_msg(!line_with(t, "---mid", NULL), "%s", t);
	free(t);
}
END_TEST

/*
 * One callchain again and again (symrep counts a repeat of a sample's shape at once, later):
 * twice in this program, once after a copy of it is mapped over the same range, once more
 * after the thread is renamed. The repeats follow the maps and the comm of their time.
 */
static void feed_chain_repeats(struct stream_ops *ops, struct fixture *fx,
			       struct stream_stats *st)
{
	struct stream_mmap m = fx->map;

	ck_assert_int_eq(ops->comm(ops->ctx, PID, PID, "tester", true, 1), 0);
	ck_assert_int_eq(ops->mmap(ops->ctx, &fx->map), 0);
	sample_mid(ops, fx, st, PID, leaf_a, 0, 1000);
	sample_mid(ops, fx, st, PID, leaf_a, 0, 1000);
	m.filename = copy_path;
	m.time = 20;
	ck_assert_int_eq(ops->mmap(ops->ctx, &m), 0);
	sample_mid(ops, fx, st, PID, leaf_a, 0, 1000);
	ck_assert_int_eq(ops->comm(ops->ctx, PID, PID, "renamed", false, 30), 0);
	sample_mid(ops, fx, st, PID, leaf_a, 0, 1000);
}

START_TEST(test_chain_repeats)
{
	const char *copy;
	char *t;

	copy_self();
	copy = strrchr(copy_path, '/') + 1;
	feed = feed_chain_repeats;
	t = run("comm,dso", children);
	unlink(copy_path);
	feed = feed_leaves;
	ck_assert_msg(line_with(t, "50.00%", "50.00%", "tester", "test-report", NULL), "%s", t);
	ck_assert_msg(line_with(t, "25.00%", "25.00%", "tester", copy, NULL), "%s", t);
	ck_assert_msg(line_with(t, "25.00%", "25.00%", "renamed", copy, NULL), "%s", t);
	free(t);
}
END_TEST

/*
 * A sample at an address no map covers (mid its caller): perf's DSO column is then 16 wide
 * at least (hists__set_unres_dso_col_len(): an address's hex digits), in the hists' rows and
 * --children's alike, where "[unknown]" and this program's name are shorter
 */
static void feed_unmapped(struct stream_ops *ops, struct fixture *fx, struct stream_stats *st)
{
	uint64_t chain[3] = { PERF_CONTEXT_USER, 0x1000, inside(mid) };
	struct stream_sample s = { .evsel = &fx->ev, .misc = PERF_RECORD_MISC_USER, .ip = 0x1000,
				   .time = 10, .pid = PID, .tid = PID, .period = 1000,
				   .nr_callchain = 3, .callchain = chain };

	ck_assert_int_eq(ops->comm(ops->ctx, PID, PID, "tester", true, 1), 0);
	ck_assert_int_eq(ops->mmap(ops->ctx, &fx->map), 0);
	ck_assert_int_eq(ops->sample(ops->ctx, &s), 0);
	st->nr_samples++;
}

START_TEST(test_unresolved_width)
{
	char *t;
	int i;

	feed = feed_unmapped;
	for (i = 0; i < 2; i++) {
		t = run("dso,sym", i ? children : NULL);
		ck_assert_msg(line_with(t, "[unknown]", "[.] 0x0000000000001000", NULL), "%s", t);
		ck_assert_msg(strstr(t, "# Overhead  Shared Object     Symbol") ||
			      strstr(t, "Self  Shared Object     Symbol"), "%s", t);
		free(t);
	}
	feed = feed_leaves;
}
END_TEST

/* one sample each, all of one period, at named functions and at addresses no map covers */
static void feed_ties(struct stream_ops *ops, struct fixture *fx, struct stream_stats *st)
{
	const uint64_t ips[] = { 0x7f0000002000, inside(tie_prefix_beta), 0x2000,
				 inside(tie_prefix_alpha), 0x8000000000001000, inside(mid),
				 inside(leaf_b), 0x1000, inside(tie_prefix_alph), inside(leaf_a),
				 0x10000100, 0x20000200 };

	static const char *const dsos[] = { "/nonexistent/libsametest_two.so",
					    "/nonexistent/libsametest_one.so" };
	size_t i;

	ck_assert_int_eq(ops->comm(ops->ctx, PID, PID, "tester", true, 1), 0);
	ck_assert_int_eq(ops->mmap(ops->ctx, &fx->map), 0);
	/* two DSOs alike for more than 8 bytes, the later name at the lower address and offset */
	for (i = 0; i < 2; i++) {
		struct stream_mmap m = fx->map;

		m.start = 0x10000000 * (i + 1);
		m.len = 0x1000;
		m.pgoff = 0;
		m.filename = dsos[i];
		ck_assert_int_eq(ops->mmap(ops->ctx, &m), 0);
	}
	for (i = 0; i < sizeof(ips) / sizeof(ips[0]); i++) {
		uint64_t chain[2] = { PERF_CONTEXT_USER, ips[i] };
		struct stream_sample s = { .evsel = &fx->ev, .misc = PERF_RECORD_MISC_USER,
					   .ip = ips[i], .time = 10 + i, .pid = PID, .tid = PID,
					   .period = 1000, .nr_callchain = 2, .callchain = chain };

		ck_assert_int_eq(ops->sample(ops->ctx, &s), 0);
		st->nr_samples++;
	}
}

/* @w in @p as a whole word (not the start of a longer name), or NULL */
static const char *find_word(const char *p, const char *w)
{
	size_t n = strlen(w);

	while ((p = strstr(p, w)) && (isalnum((unsigned char)p[n]) || p[n] == '_'))
		p++;
	return p;
}

/*
 * Rows of equal periods go by label: named symbols first, by name (a name before the longer
 * ones it begins), then unnamed ones by address as a signed number, with each key set and
 * with --children alike (perf's sort__sym_cmp() order, which the sort's numbers must keep)
 */
/*
 * Two processes with other files at the same addresses, and a process whose map changes:
 * samples at one ip count where each was read (a srcline report, whose samples are counted by
 * place and looked up at the end), not where the first of them was
 */
static void feed_two_spaces(struct stream_ops *ops, struct fixture *fx, struct stream_stats *st)
{
	struct stream_mmap other = fx->map;
	int i;

	ck_assert_int_eq(ops->comm(ops->ctx, PID, PID, "tester", true, 1), 0);
	ck_assert_int_eq(ops->mmap(ops->ctx, &fx->map), 0);
	ck_assert_int_eq(ops->comm(ops->ctx, PID + 1, PID + 1, "tester", true, 1), 0);
	other.pid = other.tid = PID + 1;
	other.filename = "/nonexistent/libotherspace.so";
	ck_assert_int_eq(ops->mmap(ops->ctx, &other), 0);
	for (i = 0; i < 3; i++)
		sample_mid(ops, fx, st, PID, leaf_a, 0, 1000);
	sample_mid(ops, fx, st, PID + 1, leaf_a, 0, 1000);
	/* PID's map replaced: the same ip is in the other file now */
	other.pid = other.tid = PID;
	ck_assert_int_eq(ops->mmap(ops->ctx, &other), 0);
	for (i = 0; i < 4; i++)
		sample_mid(ops, fx, st, PID, leaf_a, 0, 1000);
}

START_TEST(test_places_by_space)
{
	const char *base = strrchr(realpath("/proc/self/exe", (char[PATH_MAX]){ 0 }) ?: "/x", '/');
	char *t;

	feed = feed_two_spaces;
	t = run("dso,srcline", NULL);
	ck_assert_msg(line_with(t, "37.50%", base + 1, "test-report.c:", NULL), "%s", t);
	ck_assert_msg(line_with(t, "62.50%", "libotherspace.so", NULL), "%s", t);
	free(t);
	feed = feed_leaves;
}
END_TEST

START_TEST(test_tie_order)
{
	static const char *const want[] = {
		"leaf_a", "leaf_b", "mid", "tie_prefix_alph", "tie_prefix_alpha", "tie_prefix_beta",
		"0x8000000000001000", "0x0000000000001000", "0x0000000000002000",
		"0x00007f0000002000",
	};
	static const char *const sorts[] = { "sym", "dso,sym", "comm,dso,sym", "comm,sym" };
	size_t k, i;

	feed = feed_ties;
	for (k = 0; k < 2 * sizeof(sorts) / sizeof(sorts[0]); k++) {
		char *t = run(sorts[k / 2], k & 1 ? children : NULL);
		const char *at = t;

		for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
			at = find_word(at, want[i]);
			ck_assert_msg(at, "--sort %s%s: %s not after %s:\n%s", sorts[k / 2],
				      k & 1 ? " --children" : "", want[i],
				      i ? want[i - 1] : "the start", t);
			at += strlen(want[i]);
		}
		if (strstr(sorts[k / 2], "dso")) {	/* by DSO name, not by address */
			const char *rows = strchr(t, '%') ?: t;	/* past the notes */

			at = find_word(rows, "libsametest_two.so");
			ck_assert_msg(at && find_word(rows, "libsametest_one.so") &&
				      find_word(rows, "libsametest_one.so") < at, "--sort %s%s:\n%s",
				      sorts[k / 2], k & 1 ? " --children" : "", t);
		}
		free(t);
	}
	feed = feed_leaves;
}
END_TEST

/* call paths by number: interned names, nodes that share their tails, counts by label and node */
START_TEST(test_callpaths)
{
	struct callpaths *cp = callpaths__new();
	struct sym_key a, b, l;
	uint32_t ia, ib, il, n1, n2;
	const struct callpaths_count *c;
	const char *name;
	size_t nr, len;

	ck_assert_ptr_nonnull(cp);
	sym_key__set(&a, "inner");
	sym_key__set(&b, "outer");
	sym_key__set(&l, "row");
	ia = callpaths__intern(cp, &a);
	ib = callpaths__intern(cp, &b);
	il = callpaths__intern(cp, &l);
	ck_assert(ia != CALLPATHS_NONE && ib != CALLPATHS_NONE && ia != ib);
	ck_assert_uint_eq(callpaths__intern(cp, &a), ia);
	n1 = callpaths__node(cp, ia, CALLPATHS_NONE);
	n2 = callpaths__node(cp, ib, n1);
	ck_assert_uint_ne(n1, n2);
	ck_assert_uint_eq(callpaths__node(cp, ib, n1), n2);
	ck_assert_int_eq(callpaths__add(cp, il, n2, 5), 0);
	ck_assert_int_eq(callpaths__add(cp, il, n1, 7), 1);
	ck_assert_int_eq(callpaths__add(cp, il, n2, 1), 0);
	callpaths__add_at(cp, 1, 1, 2);
	callpaths__add_at(cp, 0, 3, 30);	/* several at once */
	c = callpaths__counts(cp, &nr);
	ck_assert_uint_eq(nr, 2);
	ck_assert_uint_eq(c[0].nr_samples, 5);
	ck_assert_uint_eq(c[0].period, 36);
	ck_assert_uint_eq(c[1].nr_samples, 2);
	ck_assert_uint_eq(c[1].period, 9);
	ck_assert_uint_eq(callpaths__next(cp, n2, &name, &len), n1);
	ck_assert(len == 5 && !memcmp(name, "outer", 5));
	ck_assert_uint_eq(callpaths__next(cp, n1, &name, &len), CALLPATHS_NONE);
	ck_assert(len == 5 && !memcmp(name, "inner", 5));
	ck_assert_str_eq(callpaths__str(cp, il, &len), "row");
	callpaths__delete(cp);
}
END_TEST

START_TEST(test_sort_keys)
{
	struct report_opts o = { 0 };
	struct errbuf err = { "" };

	ck_assert_int_eq(report__set_sort(&o, "comm,dso,sym", &err), 0);
	ck_assert_uint_eq(o.nr_sorts, 3);
	ck_assert(!o.sym.labels);
	ck_assert_int_eq(report__set_sort(&o, "sym,srcline", &err), 0);
	ck_assert(o.sym.labels);	/* source lines are rows by label */
	ck_assert_int_eq(report__set_sort(&o, "sym,nosuch", &err), -EINVAL);
	ck_assert_str_eq(err.msg, "'nosuch' is not a sort key");
	ck_assert_int_eq(report__set_sort(&o, ",", &err), -EINVAL);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("report");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int nf;

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_comm_dso);
	tcase_add_test(tc, test_comm_between);
	tcase_add_test(tc, test_sym_shares);
	tcase_add_test(tc, test_children);
	tcase_add_test(tc, test_children_zero);
	tcase_add_test(tc, test_graph);
	tcase_add_test(tc, test_graph_caller_order);
	tcase_add_test(tc, test_folded);
	tcase_add_test(tc, test_sort_keys);
	tcase_add_test(tc, test_same_frames);
	tcase_add_test(tc, test_callpaths);
	tcase_add_test(tc, test_graph_dsos);
	tcase_add_test(tc, test_chain_repeats);
	tcase_add_test(tc, test_unresolved_width);
	tcase_add_test(tc, test_tie_order);
	tcase_add_test(tc, test_places_by_space);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? 1 : 0;
}
