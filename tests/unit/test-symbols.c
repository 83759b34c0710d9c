// SPDX-License-Identifier: GPL-2.0
#include <check.h>

#include "skip.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "schedlens/focus.h"
#include "schedlens/symbols.h"
#include "schedlens/symlines.h"
#include "schedlens/symrep.h"
#include "schedlens/symstacks.h"
#include "schedlens/threads.h"
#include "machine.h"
#include "../../src/lib/symbols/symbols-int.h"

static __attribute__((noinline)) int marker_fn(int x) { return x * 3 + 1; } enum { MARKER_LINE = __LINE__ };
static __attribute__((noinline)) int marker_two(int x) { return x * 5 + 2; } enum { MARKER2_LINE = __LINE__ };

static char exe[PATH_MAX];

/* feed this process's mappings of @path (as @as) to @s under pid 42 */
static int feed_self(struct symbols *s, const char *as)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[8192], file[PATH_MAX];
	int n = 0;

	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f)) {
		unsigned long long start, end, off;
		struct stream_mmap m = { .pid = 42, .tid = 42, .misc = PERF_RECORD_MISC_USER };

		file[0] = '\0';
		if (sscanf(line, "%llx-%llx %*s %llx %*s %*s %4095s", &start, &end, &off, file) < 3)
			continue;
		if (strcmp(file, exe))
			continue;
		m.start = start;
		m.len = end - start;
		m.pgoff = off;
		m.filename = as;
		ck_assert_int_eq(threads__mmap(machine, &m), 0);
		n++;
	}
	fclose(f);
	return n;
}

static struct symbols *new_session(bool lines)
{
	struct symbols_config cfg = { .lines = lines, .inlines = lines };
	struct errbuf e = { "" };
	struct symbols *s = session_cfg(&cfg, &e);

	ck_assert_msg(s != NULL, "%s", e.msg);
	return s;
}

START_TEST(test_self_symbol_and_line)
{
	struct symbols *s = new_session(true);
	uint64_t ip = (uint64_t)(uintptr_t)&marker_fn, gen;
	struct sym_loc loc, again;

	ck_assert_int_gt(feed_self(s, exe), 0);
	ck_assert_int_eq(marker_fn(1), 4);
	symbols__resolve(s, 42, ip + 1, PERF_RECORD_MISC_USER, SYM_LINES, &loc);
	ck_assert_ptr_nonnull(loc.sym);
	ck_assert_str_eq(loc.sym, "marker_fn");
	ck_assert_str_eq(loc.dso_name, exe);
	ck_assert_ptr_nonnull(loc.srcfile);
	ck_assert_msg(strstr(loc.srcfile, "test-symbols.c") != NULL, "file %s", loc.srcfile);
	ck_assert_uint_eq(loc.line, MARKER_LINE);
	ck_assert_uint_eq(loc.addr, loc.sym_start + 1);
	ck_assert_int_eq(sym_dso__status(loc.dso), SYM_DSO_OK);

	/* cached: same answer, same strings */
	symbols__resolve(s, 42, ip + 1, PERF_RECORD_MISC_USER, SYM_LINES, &again);
	ck_assert_ptr_eq(again.sym, loc.sym);
	ck_assert_ptr_eq(again.srcfile, loc.srcfile);

	/* a return address just past the function start is looked up at ip - 1 */
	symbols__resolve(s, 42, ip + 1, PERF_RECORD_MISC_USER, SYM_RETADDR, &again);
	ck_assert_str_eq(again.sym, "marker_fn");
	ck_assert_uint_eq(again.addr, loc.addr);
	symbols__resolve(s, 42, ip, PERF_RECORD_MISC_USER, SYM_RETADDR, &again);
	ck_assert(again.sym == NULL || strcmp(again.sym, "marker_fn"));

	/* another process has no maps; a forked one inherits them; an exec keeps them until the
	 * new image's maps come (perf's machine: a sample in execve names the old image) */
	symbols__resolve(s, 43, ip, PERF_RECORD_MISC_USER, 0, &again);
	ck_assert_ptr_null(again.sym);
	ck_assert_str_eq(again.dso_name, "[unknown]");
	ck_assert_uint_eq(again.addr, ip);
	ck_assert_int_eq(threads__task(machine, &(struct stream_task){ .fork = true, .pid = 43,
								.ppid = 42, .tid = 43,
								.ptid = 42 }, 0), 0);
	symbols__resolve(s, 43, ip, PERF_RECORD_MISC_USER, 0, &again);
	ck_assert_str_eq(again.sym, "marker_fn");
	gen = symbols__generation(s);
	ck_assert_int_eq(threads__comm(machine, 43, 43, "exec'd", true), 0);
	symbols__resolve(s, 43, ip, PERF_RECORD_MISC_USER, 0, &again);
	ck_assert_str_eq(again.sym, "marker_fn");
	/* a map of the new image over the old: the machine changed, the lookup follows it */
	ck_assert_int_eq(threads__mmap(machine, &(struct stream_mmap){
				.pid = 43, .tid = 43, .start = ip & ~0xfffull, .len = 0x1000,
				.filename = "/nx/new-image", .misc = PERF_RECORD_MISC_USER }), 0);
	ck_assert_uint_ne(symbols__generation(s), gen);
	symbols__resolve(s, 43, ip, PERF_RECORD_MISC_USER, 0, &again);
	ck_assert_str_eq(again.dso_name, "/nx/new-image");
	del_session(s);
}
END_TEST

/* two frames of one number resolved alike; other functions, other addresses: other numbers */
START_TEST(test_frame_numbers)
{
	struct symbols *s = new_session(false);
	uint64_t ip = (uint64_t)(uintptr_t)&marker_fn, other = (uint64_t)(uintptr_t)&feed_self;
	struct sym_loc a, b, c, u1, u2;

	ck_assert_int_gt(feed_self(s, exe), 0);
	symbols__resolve(s, 42, ip + 1, PERF_RECORD_MISC_USER, 0, &a);
	symbols__resolve(s, 42, ip + 2, PERF_RECORD_MISC_USER, SYM_RETADDR, &b);
	symbols__resolve(s, 42, other, PERF_RECORD_MISC_USER, 0, &c);
	ck_assert_str_eq(a.sym, "marker_fn");
	ck_assert_str_eq(b.sym, "marker_fn");
	ck_assert_uint_ne(a.ident, 0);
	ck_assert_uint_eq(a.ident, b.ident);	/* one function, whatever the address and flags */
	ck_assert_uint_ne(c.ident, 0);
	ck_assert_uint_ne(c.ident, a.ident);
	/* without a symbol, the address is what the frame is */
	symbols__resolve(s, 42, 0x10, PERF_RECORD_MISC_USER, 0, &u1);
	symbols__resolve(s, 42, 0x20, PERF_RECORD_MISC_USER, 0, &u2);
	ck_assert_ptr_null(u1.sym);
	ck_assert_uint_ne(u1.ident, 0);
	ck_assert_uint_ne(u1.ident, u2.ident);
	ck_assert_uint_ne(u1.ident, a.ident);
	/* asked again (from the memo): the same numbers */
	symbols__resolve(s, 42, ip + 1, PERF_RECORD_MISC_USER, 0, &b);
	ck_assert_uint_eq(b.ident, a.ident);
	symbols__resolve(s, 42, 0x20, PERF_RECORD_MISC_USER, 0, &u1);
	ck_assert_uint_eq(u1.ident, u2.ident);
	del_session(s);
}
END_TEST

/*
 * Addresses asked for one by one that mostly miss the memo make it be gone past
 * (resolve_memo()): the answers and the frames' numbers are the same either way, and the memo
 * is looked in again after
 */
START_TEST(test_memo_passed_by)
{
	struct symbols *s = new_session(false);
	uint64_t ip = (uint64_t)(uintptr_t)&marker_fn;
	struct sym_loc a, u, b;
	size_t i;

	ck_assert_int_gt(feed_self(s, exe), 0);
	symbols__resolve(s, 42, ip + 1, PERF_RECORD_MISC_USER, 0, &a);
	symbols__resolve(s, 42, 0x20, PERF_RECORD_MISC_USER, 0, &u);
	ck_assert_uint_eq(s->rmemo_skip, 0);
	/* a window of addresses each asked once (no map there: each its own frame) */
	for (i = 0; i < SYM_RMEMO_WINDOW; i++)
		symbols__resolve(s, 42, 0x100000 + 16 * i, PERF_RECORD_MISC_USER, 0, &b);
	ck_assert_uint_gt(s->rmemo_skip, 0);
	symbols__resolve(s, 42, ip + 1, PERF_RECORD_MISC_USER, 0, &b);
	ck_assert_str_eq(b.sym, "marker_fn");
	ck_assert_uint_eq(b.ident, a.ident);
	symbols__resolve(s, 42, 0x20, PERF_RECORD_MISC_USER, 0, &b);
	ck_assert_ptr_null(b.sym);
	ck_assert_uint_eq(b.ident, u.ident);
	symbols__resolve(s, 42, 0x100000, PERF_RECORD_MISC_USER, 0, &a);
	ck_assert_uint_ne(a.ident, u.ident);
	/* past the windows gone by, the memo again */
	for (i = 0; i < (SYM_RMEMO_FEW - 1) * SYM_RMEMO_WINDOW; i++)
		symbols__resolve(s, 42, ip + 1, PERF_RECORD_MISC_USER, 0, &b);
	ck_assert_uint_eq(s->rmemo_skip, 0);
	symbols__resolve(s, 42, 0x100000, PERF_RECORD_MISC_USER, 0, &b);
	ck_assert_uint_eq(b.ident, a.ident);
	ck_assert_uint_gt(s->rmemo_looks, 0);	/* through the memo */
	del_session(s);
}
END_TEST

START_TEST(test_source_line)
{
	struct symbols *s = new_session(true);
	uint64_t ip = (uint64_t)(uintptr_t)&marker_fn;
	struct sym_loc loc;
	char buf[256];

	feed_self(s, exe);
	symbols__resolve(s, 42, ip, PERF_RECORD_MISC_USER, SYM_LINES, &loc);
	ck_assert_ptr_nonnull(loc.srcfile);
	if (access(loc.srcfile, R_OK))
		ck_skip("the test's source '%s' is not readable here", loc.srcfile);
	ck_assert_int_eq(symbols__source_line(s, loc.srcfile, loc.line, buf, sizeof(buf)), 0);
	ck_assert_msg(strstr(buf, "marker_fn(int x)") != NULL, "%s", buf);
	ck_assert_int_eq(symbols__source_line(s, loc.srcfile, 1000000, buf, sizeof(buf)), -ENOENT);
	ck_assert_int_eq(symbols__source_line(s, "/nonexistent/x.c", 1, buf, sizeof(buf)), -ENOENT);
	del_session(s);
}
END_TEST

static int count_dso(void *ctx, struct sym_dso *d)
{
	(*(int *)ctx)++;
	return 0;
}

/* a copy of this binary treated by @objcopy_args (or none), mapped where this one is */
static enum sym_dso_status status_of_copy(const char *objcopy_args, bool remove,
					   const char **sym, const char **file)
{
	char tmpl[] = "/tmp/test-symbols-XXXXXX", cmd[PATH_MAX * 3];
	struct symbols *s = new_session(true);
	enum sym_dso_status st;
	struct sym_loc loc;
	int fd = mkstemp(tmpl), n = 0;

	ck_assert_int_ge(fd, 0);
	close(fd);
	if (objcopy_args)
		snprintf(cmd, sizeof(cmd), "objcopy %s '%s' '%s'", objcopy_args, exe, tmpl);
	else
		snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", exe, tmpl);
	ck_assert_int_eq(system(cmd), 0);
	if (remove)
		unlink(tmpl);
	feed_self(s, tmpl);
	symbols__resolve(s, 42, (uintptr_t)&marker_fn, PERF_RECORD_MISC_USER, SYM_LINES, &loc);
	ck_assert_ptr_nonnull(loc.dso);
	st = sym_dso__status(loc.dso);
	*sym = loc.sym ? "sym" : NULL;
	*file = loc.srcfile ? "file" : NULL;
	ck_assert_int_eq(symbols__for_each_dso(s, count_dso, &n), 0);
	ck_assert_int_eq(n, 1);
	ck_assert_ptr_nonnull(sym_dso__status_str(st));
	unlink(tmpl);
	del_session(s);
	return st;
}

START_TEST(test_dso_status)
{
	const char *sym, *file;

	ck_assert_int_eq(status_of_copy(NULL, false, &sym, &file), SYM_DSO_OK);
	ck_assert(sym && file);
	ck_assert_int_eq(status_of_copy("--strip-debug", false, &sym, &file),
			 SYM_DSO_NO_DEBUGINFO);
	ck_assert(sym && !file);
	ck_assert_int_eq(status_of_copy("--strip-all", false, &sym, &file), SYM_DSO_STRIPPED);
	ck_assert(!sym && !file);
	ck_assert_int_eq(status_of_copy(NULL, true, &sym, &file), SYM_DSO_MISSING);
	ck_assert(!sym && !file);
}
END_TEST

START_TEST(test_build_id_mismatch)
{
	struct symbols *s = new_session(false);
	uint8_t id[20] = { 0xde, 0xad };
	struct sym_loc loc;

	ck_assert_int_eq(symbols__build_id(s, exe, id, sizeof(id)), 0);
	feed_self(s, exe);
	symbols__resolve(s, 42, (uintptr_t)&marker_fn, PERF_RECORD_MISC_USER, 0, &loc);
	ck_assert_ptr_null(loc.sym);
	ck_assert_int_eq(sym_dso__status(loc.dso), SYM_DSO_BUILD_ID_MISMATCH);
	del_session(s);
}
END_TEST

START_TEST(test_overlapping_maps)
{
	struct symbols *s = new_session(false);
	struct stream_mmap a = { .pid = 7, .tid = 7, .start = 0x1000, .len = 0x3000, .filename = "/nx/a",
				 .misc = PERF_RECORD_MISC_USER };
	struct stream_mmap b = { .pid = 7, .tid = 7, .start = 0x2000, .len = 0x1000, .pgoff = 0x5000,
				 .filename = "/nx/b", .misc = PERF_RECORD_MISC_USER };
	struct sym_loc loc;

	ck_assert_int_eq(threads__mmap(machine, &a), 0);
	/* resolved once before the map over it: what was resolved then is not kept after */
	symbols__resolve(s, 7, 0x2010, PERF_RECORD_MISC_USER, 0, &loc);
	ck_assert_str_eq(loc.dso_name, "/nx/a");
	ck_assert_int_eq(threads__mmap(machine, &b), 0);
	symbols__resolve(s, 7, 0x1800, PERF_RECORD_MISC_USER, 0, &loc);
	ck_assert_str_eq(loc.dso_name, "/nx/a");
	ck_assert_uint_eq(loc.addr, 0x800);
	symbols__resolve(s, 7, 0x2010, PERF_RECORD_MISC_USER, 0, &loc);
	ck_assert_str_eq(loc.dso_name, "/nx/b");
	ck_assert_uint_eq(loc.addr, 0x5010);
	symbols__resolve(s, 7, 0x3010, PERF_RECORD_MISC_USER, 0, &loc);
	ck_assert_str_eq(loc.dso_name, "/nx/a");
	ck_assert_uint_eq(loc.addr, 0x2010);
	ck_assert_int_eq(sym_dso__status(loc.dso), SYM_DSO_MISSING);
	symbols__resolve(s, 7, 0x4000, PERF_RECORD_MISC_USER, 0, &loc);
	ck_assert_str_eq(loc.dso_name, "[unknown]");
	symbols__resolve(s, 7, 0xffffffff81000000ull, PERF_RECORD_MISC_KERNEL, 0, &loc);
	ck_assert(loc.kernel);
	ck_assert_uint_eq(loc.addr, 0xffffffff81000000ull);
	del_session(s);
}
END_TEST

START_TEST(test_lines_attribution)
{
	struct sym_lines l = { 0 };
	struct sym_loc a = { .srcfile = "x.c", .line = 10, .addr = 0x20 };
	struct sym_loc b = { .srcfile = "x.c", .line = 11, .addr = 0x30 };
	struct sym_loc c = { .srcfile = NULL, .addr = 0x40 };
	int i;

	for (i = 0; i < 3; i++)
		ck_assert_int_eq(sym_lines__add(&l, &a, 1), 0);
	a.addr = 0x18;
	ck_assert_int_eq(sym_lines__add(&l, &a, 1), 0);
	ck_assert_int_eq(sym_lines__add(&l, &b, 100), 0);
	ck_assert_int_eq(sym_lines__add(&l, &c, 2), 0);
	ck_assert_uint_eq(l.nr, 3);
	ck_assert_uint_eq(l.nr_samples, 6);
	ck_assert_uint_eq(l.period, 106);
	sym_lines__sort(&l, false);
	ck_assert_uint_eq(l.v[0].line, 11);
	sym_lines__sort(&l, true);
	ck_assert_uint_eq(l.v[0].line, 10);
	ck_assert_uint_eq(l.v[0].nr_samples, 4);
	ck_assert_uint_eq(l.v[0].addr, 0x18);
	ck_assert_ptr_null(l.v[2].srcfile);
	sym_lines__exit(&l);
}
END_TEST

START_TEST(test_focus)
{
	const char *chain1[] = { "update_curr", "task_sched_runtime", "update_curr", "main" };
	const char *chain2[] = { "memcpy", NULL, "try_to_wake_up" };
	const char *chain3[] = { "memcpy", "main" };
	const struct focus_row *rows;
	struct focus_row any;
	struct errbuf e = { "" };
	struct focus *f = focus__load("sched", SCHEDLENS_DATADIR, &e);
	uint64_t n, period;
	int uc, tt;

	ck_assert_msg(f != NULL, "%s", e.msg);
	uc = focus__find(f, "update_curr");
	tt = focus__find(f, "try_to_wake_up");
	ck_assert_int_ge(uc, 0);
	ck_assert_int_ge(tt, 0);
	ck_assert_int_ge(focus__find(f, "__schedule"), 0);
	ck_assert_int_eq(focus__find(f, "memcpy"), -1);
	ck_assert_int_eq(focus__find(f, "update_curr.isra.0"), uc);
	ck_assert_int_eq(focus__find(f, "update_curr_fair.constprop.0"), focus__find(f, "update_curr_fair"));
	ck_assert_int_eq(focus__find(f, "update_cur"), -1);
	ck_assert_int_eq(focus__find(f, "update_curr_"), -1);
	ck_assert_int_eq(focus__find(f, NULL), -1);
	ck_assert_int_eq(focus__add(f, chain1, 4, 1, 10), 0);
	ck_assert_int_eq(focus__add(f, chain2, 3, 1, 5), 0);
	ck_assert_int_eq(focus__add(f, chain3, 2, 1, 1), 0);
	ck_assert_uint_gt(focus__rows(f, &rows), 8);
	ck_assert_uint_eq(rows[uc].self_samples, 1);
	ck_assert_uint_eq(rows[uc].through_samples, 1);
	ck_assert_uint_eq(rows[uc].through_period, 10);
	ck_assert_uint_eq(rows[tt].self_samples, 0);
	ck_assert_uint_eq(rows[tt].through_period, 5);
	focus__totals(f, &any, &n, &period);
	ck_assert_uint_eq(n, 3);
	ck_assert_uint_eq(period, 16);
	ck_assert_uint_eq(any.self_period, 10);
	ck_assert_uint_eq(any.through_period, 15);
	/* the self samples of a function by source line, hottest first */
	ck_assert_int_eq(focus__add_line(f, uc, "fair.c:900", 10), 0);
	ck_assert_int_eq(focus__add_line(f, uc, "fair.c:905", 3), 0);
	ck_assert_int_eq(focus__add_line(f, uc, "fair.c:905", 9), 0);
	ck_assert_int_eq(focus__add_line(f, -1, "x.c:1", 9), 0);
	{
		const struct focus_line *l;

		ck_assert_uint_eq(focus__lines(f, uc, &l), 2);
		ck_assert_str_eq(l[0].line, "fair.c:905");
		ck_assert_uint_eq(l[0].samples, 2);
		ck_assert_uint_eq(l[0].period, 12);
		ck_assert_str_eq(l[1].line, "fair.c:900");
		ck_assert_uint_eq(focus__lines(f, tt, &l), 0);
	}
	focus__delete(f);
	/* update_curr inlined into task_sched_runtime: a self sample of both, each once */
	{
		const char *inl[] = { "update_curr", "update_curr.isra.0", "task_sched_runtime",
				      "update_curr", "thread_group_cputime" };
		int ts, tg;

		f = focus__load("sched", SCHEDLENS_DATADIR, &e);
		ck_assert_msg(f != NULL, "%s", e.msg);
		uc = focus__find(f, "update_curr");
		ts = focus__find(f, "task_sched_runtime");
		tg = focus__find(f, "thread_group_cputime");
		ck_assert_int_eq(focus__add(f, inl, 5, 3, 7), 0);
		focus__rows(f, &rows);
		ck_assert_uint_eq(rows[uc].self_samples, 1);
		ck_assert_uint_eq(rows[uc].through_samples, 1);
		ck_assert_uint_eq(rows[ts].self_period, 7);
		ck_assert_uint_eq(rows[tg].self_samples, 0);
		ck_assert_uint_eq(rows[tg].through_period, 7);
		focus__totals(f, &any, &n, &period);
		ck_assert_uint_eq(any.self_samples, 1);
		ck_assert_uint_eq(any.through_samples, 1);
		focus__delete(f);
	}

	ck_assert_ptr_null(focus__load("no-such-list", SCHEDLENS_DATADIR, &e));
	ck_assert_msg(strstr(e.msg, "no-such-list") != NULL, "%s", e.msg);
	ck_assert_ptr_null(focus__load("/dev/null", SCHEDLENS_DATADIR, &e));
	ck_assert_msg(strstr(e.msg, "names no function") != NULL, "%s", e.msg);
}
END_TEST

START_TEST(test_stacks_and_names)
{
	struct sym_stacks *st = sym_stacks__new();
	struct sym_loc l = { .sym = "f", .sym_start = 0x100, .addr = 0x119 };
	const struct sym_stack *v;
	char buf[64], key[32];
	size_t nr;
	int i;

	ck_assert_ptr_nonnull(st);
	for (i = 0; i < 1000; i++) {
		snprintf(key, sizeof(key), "k%d", i % 300);
		ck_assert_int_eq(sym_stacks__add(st, key, i % 300 == 7 ? 100 : 1), 0);
	}
	v = sym_stacks__sorted(st, &nr);
	ck_assert_uint_eq(nr, 300);
	ck_assert_str_eq(v[0].key, "k7");
	ck_assert_uint_eq(v[0].nr_samples, 4);
	ck_assert_uint_eq(v[0].period, 400);
	ck_assert_uint_eq(sym_stacks__get(st, "k200")->nr_samples, 3);
	ck_assert_ptr_null(sym_stacks__get(st, "k300"));
	sym_stacks__delete(st);

	ck_assert_str_eq(sym_loc__srcline(&l, buf, sizeof(buf)), "f+25");
	ck_assert_str_eq(sym_loc__name(&l, buf, sizeof(buf)), "f");
	l.srcfile = "/a/b/x.c";
	l.line = 7;
	ck_assert_str_eq(sym_loc__srcline(&l, buf, sizeof(buf)), "x.c:7");
	l.sym = NULL;
	l.srcfile = NULL;
	ck_assert_str_eq(sym_loc__srcline(&l, buf, sizeof(buf)), "??:0");
	ck_assert_str_eq(sym_loc__name(&l, buf, sizeof(buf)), "0x0000000000000119");
	/* no symbol in a known DSO: perf's "SHORTNAME[ADDR]" (get_srcline()'s show_addr) */
	l.dso = (struct sym_dso *)&st;	/* (only its presence is read) */
	l.dso_name = "/usr/bin/x";
	ck_assert_str_eq(sym_loc__srcline(&l, buf, sizeof(buf)), "x[119]");
	l.dso_name = "[vdso]";
	ck_assert_str_eq(sym_loc__srcline(&l, buf, sizeof(buf)), "[vdso][119]");
	l.dso = NULL;
	ck_assert_str_eq(symbols__record_note("schedlens record schedlens-note: no PMU here", buf,
					      sizeof(buf)), "no PMU here");
	ck_assert_ptr_null(symbols__record_note("perf record", buf, sizeof(buf)));
	ck_assert_ptr_null(symbols__record_note(NULL, buf, sizeof(buf)));
	ck_assert(symbols__is_skid("pvm_irq_enable"));
	ck_assert(symbols__is_skid("__raw_callee_save_pvm_irq_enable"));
	ck_assert(symbols__is_skid("_raw_spin_unlock_irqrestore"));
	ck_assert(!symbols__is_skid("update_curr"));
	ck_assert(!symbols__is_skid(NULL));
}
END_TEST

START_TEST(test_kernel_kallsyms)
{
	char path[] = "/tmp/test-symbols-ks-XXXXXX";
	struct symbols_config cfg = { .lines = true };
	struct symbols *s;
	struct sym_loc loc;
	int fd = mkstemp(path);
	FILE *f;

	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	fputs("ffffffff81000000 T _text\nffffffff81000100 T update_curr\n"
	      "ffffffff81000200 t helper\t[mod]\n", f);
	fclose(f);
	cfg.kallsyms = path;
	s = session_cfg(&cfg, NULL);
	ck_assert_ptr_nonnull(s);
	symbols__resolve(s, 1, 0xffffffff81000150ull, PERF_RECORD_MISC_KERNEL, SYM_LINES, &loc);
	ck_assert_str_eq(loc.sym, "update_curr");
	ck_assert_uint_eq(loc.sym_start, 0xffffffff81000100ull);
	ck_assert_str_eq(loc.dso_name, "[kernel.kallsyms]");
	ck_assert_int_eq(sym_dso__status(loc.dso), SYM_DSO_KALLSYMS);
	symbols__resolve(s, 1, 0xffffffff81000100ull, PERF_RECORD_MISC_KERNEL, SYM_RETADDR, &loc);
	ck_assert_str_eq(loc.sym, "_text");
	del_session(s);
	unlink(path);

	cfg.kallsyms = NULL;
	s = session_cfg(&cfg, NULL);
	symbols__resolve(s, 1, 0xffffffff81000150ull, PERF_RECORD_MISC_KERNEL, 0, &loc);
	ck_assert_ptr_null(loc.sym);
	ck_assert_uint_eq(loc.addr, 0xffffffff81000150ull);
	ck_assert_int_eq(sym_dso__status(loc.dso), SYM_DSO_KERNEL_NO_MAP);
	del_session(s);
}
END_TEST

/*
 * A frame-pointer chain: the return addresses looked up as they are (update_curr at its first
 * byte, not _text before it), and a chain with a context perf does not know discarded
 */
START_TEST(test_chain_contexts)
{
	char path[] = "/tmp/test-symbols-ch-XXXXXX";
	struct symbols_config cfg = { 0 };
	uint64_t chain[] = { PERF_CONTEXT_KERNEL, 0xffffffff81000150ull, 0xffffffff81000100ull,
			     0xffffffff81000020ull };
	struct stream_sample smp = { .ip = 0xffffffff81000150ull, .pid = 1, .tid = 1,
				     .misc = PERF_RECORD_MISC_KERNEL, .callchain = chain,
				     .nr_callchain = 4 };
	struct sym_loc out[8];
	struct symbols *s;
	int fd = mkstemp(path);
	FILE *f;

	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	fputs("ffffffff81000000 T _text\nffffffff81000100 T update_curr\n", f);
	fclose(f);
	cfg.kallsyms = path;
	s = session_cfg(&cfg, NULL);
	ck_assert_ptr_nonnull(s);
	ck_assert(symbols__chain_ok(&smp));
	ck_assert_uint_eq(symbols__chain(s, &smp, 0, out, 8), 3);
	ck_assert_str_eq(out[0].sym, "update_curr");
	ck_assert_str_eq(out[1].sym, "update_curr");	/* 0x...100: its first byte */
	ck_assert_str_eq(out[2].sym, "_text");
	chain[3] = 0xffffffffffffffc3ull;		/* no context perf knows */
	ck_assert(!symbols__chain_ok(&smp));
	ck_assert_uint_eq(symbols__chain(s, &smp, 0, out, 8), 1);
	ck_assert_str_eq(out[0].sym, "update_curr");
	chain[3] = PERF_CONTEXT_GUEST;			/* unknown to perf 6.1 and 6.12 */
	ck_assert(!symbols__chain_ok(&smp));
	chain[3] = PERF_CONTEXT_USER;
	ck_assert(symbols__chain_ok(&smp));
	{	/* a bad context past addresses not looked up before, or past @max */
		uint64_t c5[5] = { PERF_CONTEXT_KERNEL, 0xffffffff81000150ull,
				   0xffffffff81000177ull, 0xffffffff81000011ull,
				   0xffffffffffffffc3ull };
		struct stream_sample s5 = smp;

		s5.callchain = c5;
		s5.nr_callchain = 5;
		s5.pid = s5.tid = 42;	/* a process with maps: lookups go through the memo */
		ck_assert_int_gt(feed_self(s, exe), 0);
		ck_assert_uint_eq(symbols__chain(s, &s5, 0, out, 8), 1);
		ck_assert_uint_eq(symbols__chain(s, &s5, 0, out, 2), 1);
		c5[4] = 0xffffffff81000012ull;
		ck_assert_uint_eq(symbols__chain(s, &s5, 0, out, 8), 4);
		ck_assert_str_eq(out[1].sym, "update_curr");
		ck_assert_str_eq(out[2].sym, "_text");
		ck_assert_uint_eq(symbols__chain(s, &s5, 0, out, 2), 2);
		c5[4] = 0xffffffffffffffc3ull;	/* past addresses looked up now */
		ck_assert_uint_eq(symbols__chain(s, &s5, 0, out, 2), 1);
		ck_assert_uint_eq(symbols__chain(s, &s5, 0, out, 8), 1);
	}
	{	/* a bad context after the first --max-stack addresses is not looked at */
		uint64_t c6[7] = { PERF_CONTEXT_KERNEL, 1, 2, PERF_CONTEXT_USER, 3, 4,
				   0xffffffffffffffc3ull };
		struct stream_sample s6 = { .callchain = c6, .nr_callchain = 7 };

		ck_assert(!symbols__chain_ok(&s6));
		ck_assert(!symbols__chain_ok_upto(&s6, 7));
		ck_assert(!symbols__chain_ok_upto(&s6, 5));
		ck_assert(symbols__chain_ok_upto(&s6, 4));
		ck_assert(symbols__chain_ok_upto(&s6, 1));
		s6.nr_callchain = 6;
		ck_assert(symbols__chain_ok(&s6));
		c6[1] = 0xffffffffffffffc3ull;
		ck_assert(!symbols__chain_ok(&s6));
		ck_assert(!symbols__chain_ok_upto(&s6, 1));
	}
	del_session(s);
	unlink(path);
}
END_TEST

START_TEST(test_kernel_vmlinux)
{
	const char *src = "/tmp/test-symbols-vmlinux.c", *elf = "/tmp/test-symbols-vmlinux";
	struct symbols_config cfg = { .lines = true, .vmlinux = elf };
	struct stream_mmap km = { .pid = (uint32_t)-1, .misc = PERF_RECORD_MISC_KERNEL,
				  .filename = "[kernel.kallsyms]_text" };
	unsigned long long vtext = 0, vfn = 0, a;
	const uint64_t shift = 0x2000000;	/* KASLR */
	struct symbols *s;
	struct sym_loc loc;
	char line[256], name[128];
	FILE *f = fopen(src, "w");

	ck_assert_ptr_nonnull(f);
	fputs("void _text(void) {}\n"
	      "__attribute__((noinline)) int update_curr(int x) { return x * 7; }\n"
	      "int main(void) { return update_curr(3); }\n", f);
	fclose(f);
	ck_assert_int_eq(system("gcc -g -O1 -no-pie -o /tmp/test-symbols-vmlinux "
				"/tmp/test-symbols-vmlinux.c"), 0);
	f = popen("nm /tmp/test-symbols-vmlinux", "r");
	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %*s %127s", &a, name) == 2) {
			if (!strcmp(name, "_text"))
				vtext = a;
			if (!strcmp(name, "update_curr"))
				vfn = a;
		}
	pclose(f);
	ck_assert(vtext && vfn);
	km.start = km.pgoff = vtext + shift;
	km.len = 0x1000000;
	s = session_cfg(&cfg, NULL);
	ck_assert_ptr_nonnull(s);
	ck_assert_int_eq(threads__mmap(machine, &km), 0);
	symbols__resolve(s, 0, vfn + shift + 1, PERF_RECORD_MISC_KERNEL, SYM_LINES, &loc);
	ck_assert_ptr_nonnull(loc.sym);
	ck_assert_str_eq(loc.sym, "update_curr");
	ck_assert_uint_eq(loc.sym_start, vfn + shift);
	ck_assert_ptr_nonnull(loc.srcfile);
	ck_assert_str_eq(loc.srcfile, src);
	ck_assert_uint_eq(loc.line, 2);
	ck_assert_int_eq(sym_dso__status(loc.dso), SYM_DSO_OK);
	del_session(s);
	unlink(src);
	unlink(elf);
}
END_TEST


/*
 * the cache file's checksum, of the file with its checksum field (at 16) zeroed: FNV-1a 64 by
 * 64-bit words, each step followed by h ^= h >> 29, the tail by bytes
 */
static uint64_t cache_sum(unsigned char *buf, size_t n)
{
	uint64_t h = 1469598103934665603ull, w;
	size_t i = 0;

	memset(buf + 16, 0, 8);
	for (; i + 8 <= n; i += 8) {
		memcpy(&w, buf + i, 8);
		h = (h ^ w) * 1099511628211ull;
		h ^= h >> 29;
	}
	for (; i < n; i++)
		h = (h ^ buf[i]) * 1099511628211ull;
	return h;
}

static const char *cached_marker(const char *dir, struct sym_loc *loc)
{
	struct symbols_config cfg = { .lines = true, .inlines = true, .cache_dir = dir };
	struct errbuf e = { "" };
	struct symbols *s = session_cfg(&cfg, &e);
	static char sym[64];

	ck_assert_ptr_nonnull(s);
	feed_self(s, exe);
	symbols__resolve(s, 42, (uintptr_t)&marker_fn + 1, PERF_RECORD_MISC_USER, SYM_LINES, loc);
	ck_assert_ptr_nonnull(loc->sym);
	ck_assert_ptr_nonnull(loc->srcfile);
	ck_assert_uint_eq(loc->line, MARKER_LINE);
	snprintf(sym, sizeof(sym), "%s", loc->sym);
	ck_assert_int_eq(symbols__cache_save(s), 0);
	del_session(s);
	return sym;
}

/* the one cache file under @dir/srcline into @buf; returns its size */
static size_t read_cache(const char *dir, char *path, size_t plen, unsigned char *buf, size_t len)
{
	char sub[PATH_MAX];
	struct dirent *de;
	DIR *dp;
	FILE *f;
	size_t n = 0;

	snprintf(sub, sizeof(sub), "%s/srcline", dir);
	dp = opendir(sub);
	ck_assert_ptr_nonnull(dp);
	path[0] = '\0';
	while ((de = readdir(dp)))
		if (de->d_name[0] != '.') {
			ck_assert_msg(!path[0], "more than one cache file");
			snprintf(path, plen, "%s/%s", sub, de->d_name);
		}
	closedir(dp);
	ck_assert(path[0]);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	n = fread(buf, 1, len, f);
	fclose(f);
	ck_assert_uint_lt(n, len);
	return n;
}

static void write_file(const char *path, const void *buf, size_t n)
{
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(buf, 1, n, f), n);
	ck_assert_int_eq(fclose(f), 0);
}

/* the address of @name in nm's listing of @elf, 0 when not there */
static unsigned long long nm_addr(const char *elf, const char *name)
{
	unsigned long long a, found = 0;
	char cmd[512], line[256], n[128];
	FILE *f;

	snprintf(cmd, sizeof(cmd), "nm %s", elf);
	f = popen(cmd, "r");
	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %*s %127s", &a, n) == 2 && !strcmp(n, name))
			found = a;
	pclose(f);
	return found;
}

/* names as perf 6.1 gives them: of aliases the global one, labels, NAME@plt entries */
START_TEST(test_perf_names)
{
	const char *src = "/tmp/test-symbols-names.c", *elf = "/tmp/test-symbols-names";
	struct stream_mmap m = { .pid = 7, .tid = 7, .misc = PERF_RECORD_MISC_USER,
				 .start = 0x10000000, .len = 0x100000, .filename = elf };
	unsigned long long impl, lbl, plt = 0, entsize = 0;
	struct symbols *s = new_session(false);
	char line[256];
	struct sym_loc loc;
	FILE *f = fopen(src, "w");

	ck_assert_ptr_nonnull(f);
	fputs("#include <stdio.h>\n"
	      "__attribute__((noinline)) int impl(int x) { puts(\"x\"); return x + 1; }\n"
	      "extern int weak_impl(int) __attribute__((weak, alias(\"impl\")));\n"
	      "static int __GI_impl(int) __attribute__((alias(\"impl\"), used));\n"
	      "asm(\".text\\n.type lbl_start,@notype\\nlbl_start:\\n\\tnop\\n\\tnop\\n\\tret\\n\");\n"
	      "int main(int argc, char **argv) { return impl(argc); }\n", f);
	fclose(f);
	ck_assert_int_eq(system("gcc -O1 -fPIE -pie -Wl,-z,lazy -o /tmp/test-symbols-names "
				"/tmp/test-symbols-names.c"), 0);
	impl = nm_addr(elf, "impl");
	lbl = nm_addr(elf, "lbl_start");
	ck_assert(impl && lbl && nm_addr(elf, "__GI_impl") == impl);
	f = popen("readelf -SW /tmp/test-symbols-names | sed -n 's/^ *\\[ *[0-9]*\\] \\.plt  *//p'",
		  "r");
	ck_assert_ptr_nonnull(f);
	if (fgets(line, sizeof(line), f))
		sscanf(line, "%*s %llx %*s %*s %llx", &plt, &entsize);
	pclose(f);
	ck_assert(plt && entsize);
	ck_assert_int_eq(threads__mmap(machine, &m), 0);
	symbols__resolve(s, 7, m.start + impl + 1, PERF_RECORD_MISC_USER, 0, &loc);
	ck_assert_ptr_nonnull(loc.sym);
	ck_assert_str_eq(loc.sym, "impl");
	symbols__resolve(s, 7, m.start + lbl + 1, PERF_RECORD_MISC_USER, 0, &loc);
	ck_assert_ptr_nonnull(loc.sym);
	ck_assert_str_eq(loc.sym, "lbl_start");
	symbols__resolve(s, 7, m.start + plt + entsize + 2, PERF_RECORD_MISC_USER, 0, &loc);
	ck_assert_ptr_nonnull(loc.sym);
	ck_assert_str_eq(loc.sym, "puts@plt");
	ck_assert_uint_eq(loc.sym_start, plt + entsize);
	del_session(s);

	/* stripped, its .dynsym has no symbol of its own: no NAME@plt either, as in perf */
	ck_assert_int_eq(system("strip --strip-all /tmp/test-symbols-names"), 0);
	s = new_session(false);
	ck_assert_int_eq(threads__mmap(machine, &m), 0);
	symbols__resolve(s, 7, m.start + plt + entsize + 2, PERF_RECORD_MISC_USER, 0, &loc);
	ck_assert_ptr_null(loc.sym);
	del_session(s);
	unlink(src);
	unlink(elf);
}
END_TEST

START_TEST(test_persistent_cache)
{
	char dir[] = "/tmp/test-symbols-cache-XXXXXX", path[PATH_MAX * 2], cmd[PATH_MAX];
	static unsigned char buf[1 << 20], again[1 << 20];
	struct sym_loc loc;
	unsigned char *p;
	uint64_t sum;
	size_t n;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	/* filled on the first session, named by the build-id */
	ck_assert_str_eq(cached_marker(dir, &loc), "marker_fn");
	n = read_cache(dir, path, sizeof(path), buf, sizeof(buf));
	ck_assert(!memcmp(buf, "SLSRCL05", 8));
	ck_assert_uint_eq(strlen(strrchr(path, '/') + 1) % 2, 0);

	/* answered from it: a name changed in the file (checksum kept right) comes back */
	p = memmem(buf, n, "marker_fn", 10);
	ck_assert_ptr_nonnull(p);
	p[8] = 'X';
	sum = cache_sum(buf, n);
	memcpy(buf + 16, &sum, 8);
	write_file(path, buf, n);
	ck_assert_str_eq(cached_marker(dir, &loc), "marker_fX");
	ck_assert_uint_eq(read_cache(dir, path, sizeof(path), again, sizeof(again)), n);
	ck_assert(!memcmp(again, buf, n));	/* nothing new: not rewritten */
	ck_assert_str_eq(cached_marker(NULL, &loc), "marker_fn");

	/* a file that does not check out is ignored and rewritten */
	p[8] = 'Y';
	write_file(path, buf, n);
	ck_assert_str_eq(cached_marker(dir, &loc), "marker_fn");
	ck_assert_str_eq(cached_marker(dir, &loc), "marker_fn");
	write_file(path, buf, 40);
	ck_assert_str_eq(cached_marker(dir, &loc), "marker_fn");
	ck_assert_uint_eq(read_cache(dir, path, sizeof(path), again, sizeof(again)), n);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* mappings of this test program in /proc/self/maps: the loader's, and libelf's while open */
static int self_mappings(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[8192], file[PATH_MAX];
	int n = 0;

	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f))
		n += sscanf(line, "%*s %*s %*s %*s %*s %4095s", file) == 1 && !strcmp(file, exe);
	fclose(f);
	return n;
}

/*
 * A DSO its cache file answers for lets its ELF go once opened (no mapping of it stays), and
 * opens it again for an address the file does not hold: that one resolves, line and all
 */
START_TEST(test_cache_parks)
{
	char dir[] = "/tmp/test-symbols-cache-XXXXXX", cmd[PATH_MAX];
	struct symbols_config cfg = { .lines = true, .inlines = true, .cache_dir = dir };
	struct errbuf e = { "" };
	struct symbols *s;
	struct sym_loc loc;
	int base;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_str_eq(cached_marker(dir, &loc), "marker_fn");	/* the file made */
	base = self_mappings();
	s = session_cfg(&cfg, &e);
	ck_assert_ptr_nonnull(s);
	feed_self(s, exe);
	symbols__resolve(s, 42, (uintptr_t)&marker_fn + 1, PERF_RECORD_MISC_USER, SYM_LINES, &loc);
	ck_assert_str_eq(loc.sym, "marker_fn");
	ck_assert_uint_eq(loc.line, MARKER_LINE);
	ck_assert_int_eq(self_mappings(), base);	/* answered by the file: no ELF open */
	symbols__resolve(s, 42, (uintptr_t)&marker_two + 1, PERF_RECORD_MISC_USER, SYM_LINES, &loc);
	ck_assert_ptr_nonnull(loc.sym);
	ck_assert_str_eq(loc.sym, "marker_two");
	ck_assert_uint_eq(loc.line, MARKER2_LINE);
	ck_assert_int_gt(self_mappings(), base);	/* opened again for it */
	ck_assert_int_eq(sym_dso__status(loc.dso), SYM_DSO_OK);
	ck_assert_int_eq(symbols__cache_save(s), 0);
	del_session(s);
	ck_assert_int_eq(marker_two(1), 7);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* entries in the one cache file under @dir (the header's nr_ents, at 24) */
static uint32_t cache_entries(const char *dir)
{
	static unsigned char buf[4 << 20];
	char path[PATH_MAX * 2];
	uint32_t n;

	ck_assert_uint_gt(read_cache(dir, path, sizeof(path), buf, sizeof(buf)), 32);
	memcpy(&n, buf + 24, 4);
	return n;
}

static void lookup_range(const char *dir, uint64_t from, size_t n)
{
	struct symbols_config cfg = { .cache_dir = dir };
	struct errbuf e = { "" };
	struct symbols *s = session_cfg(&cfg, &e);
	struct sym_loc loc;
	size_t i;

	ck_assert_ptr_nonnull(s);
	feed_self(s, exe);
	for (i = 0; i < n; i++)
		symbols__resolve(s, 42, from + i, PERF_RECORD_MISC_USER, 0, &loc);
	ck_assert_int_eq(symbols__cache_save(s), 0);
	del_session(s);
}

/* a file past 16384 entries keeps what its last session looked up */
START_TEST(test_cache_bounded)
{
	char dir[] = "/tmp/test-symbols-cache-XXXXXX", cmd[PATH_MAX];
	uint64_t base = (uintptr_t)&marker_fn & ~0xfffull;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	lookup_range(dir, base, 20000);
	ck_assert_uint_eq(cache_entries(dir), 20000);
	lookup_range(dir, base, 20);		/* all in the cache: nothing written */
	ck_assert_uint_eq(cache_entries(dir), 20000);
	lookup_range(dir, base + 19990, 20);	/* 10 new: written, the rest dropped */
	ck_assert_uint_eq(cache_entries(dir), 20);
	lookup_range(dir, base + 30000, 5);	/* under the bound: kept */
	ck_assert_uint_eq(cache_entries(dir), 25);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* past 512 files in the cache directory the oldest go, down to 384; the new one stays */
START_TEST(test_cache_pruned)
{
	char dir[] = "/tmp/test-symbols-cache-XXXXXX", path[PATH_MAX * 2], cmd[PATH_MAX];
	struct timespec old[2] = { { .tv_sec = 1000000000 }, { .tv_sec = 1000000000 } };
	struct sym_loc loc;
	struct dirent *de;
	int i, n = 0, fresh = 0;
	DIR *dp;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/srcline", dir);
	ck_assert_int_eq(mkdir(path, 0700), 0);
	for (i = 0; i < 600; i++) {
		snprintf(path, sizeof(path), "%s/srcline/%04d", dir, i);
		write_file(path, "x", 1);
		old[0].tv_sec = old[1].tv_sec = 1000000000 + i;
		ck_assert_int_eq(utimensat(AT_FDCWD, path, old, 0), 0);
	}
	ck_assert_str_eq(cached_marker(dir, &loc), "marker_fn");
	snprintf(path, sizeof(path), "%s/srcline", dir);
	dp = opendir(path);
	ck_assert_ptr_nonnull(dp);
	while ((de = readdir(dp))) {
		if (de->d_name[0] == '.')
			continue;
		n++;
		fresh += strlen(de->d_name) > 4;
		ck_assert_msg(strlen(de->d_name) > 4 || atoi(de->d_name) >= 600 - 383,
			      "%s kept, a newer one went", de->d_name);
	}
	closedir(dp);
	ck_assert_int_eq(n, 384);
	ck_assert_int_eq(fresh, 1);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

START_TEST(test_cache_dir)
{
	char buf[PATH_MAX];

	unsetenv("SCHEDLENS_NO_CACHE");
	setenv("SCHEDLENS_CACHE_DIR", "/x/c", 1);
	ck_assert_str_eq(symbols__cache_dir(buf, sizeof(buf)), "/x/c");
	setenv("SCHEDLENS_NO_CACHE", "0", 1);
	ck_assert_str_eq(symbols__cache_dir(buf, sizeof(buf)), "/x/c");
	setenv("SCHEDLENS_NO_CACHE", "1", 1);
	ck_assert_ptr_null(symbols__cache_dir(buf, sizeof(buf)));
	unsetenv("SCHEDLENS_NO_CACHE");
	unsetenv("SCHEDLENS_CACHE_DIR");
	setenv("XDG_CACHE_HOME", "/y", 1);
	ck_assert_str_eq(symbols__cache_dir(buf, sizeof(buf)), "/y/schedlens");
	unsetenv("XDG_CACHE_HOME");
	setenv("HOME", "/h", 1);
	ck_assert_str_eq(symbols__cache_dir(buf, sizeof(buf)), "/h/.cache/schedlens");
	unsetenv("HOME");
	ck_assert_ptr_null(symbols__cache_dir(buf, sizeof(buf)));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("symbols");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	ssize_t n;
	int nf;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n < 0)
		return EXIT_FAILURE;
	exe[n] = '\0';
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_self_symbol_and_line);
	tcase_add_test(tc, test_frame_numbers);
	tcase_add_test(tc, test_memo_passed_by);
	tcase_add_test(tc, test_source_line);
	tcase_add_test(tc, test_dso_status);
	tcase_add_test(tc, test_overlapping_maps);
	tcase_add_test(tc, test_build_id_mismatch);
	tcase_add_test(tc, test_lines_attribution);
	tcase_add_test(tc, test_focus);
	tcase_add_test(tc, test_kernel_kallsyms);
	tcase_add_test(tc, test_chain_contexts);
	tcase_add_test(tc, test_kernel_vmlinux);
	tcase_add_test(tc, test_perf_names);
	tcase_add_test(tc, test_stacks_and_names);
	tcase_add_test(tc, test_persistent_cache);
	tcase_add_test(tc, test_cache_dir);
	tcase_add_test(tc, test_cache_bounded);
	tcase_add_test(tc, test_cache_parks);
	tcase_add_test(tc, test_cache_pruned);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
