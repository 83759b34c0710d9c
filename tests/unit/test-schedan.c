// SPDX-License-Identifier: GPL-2.0
/*
 * The analyses on a synthetic stream: formats written here with their own field offsets (the
 * analysis must find fields by name), records for each wakeup path, then the classes,
 * latencies, migrations, flips and run times checked.
 */
#include <check.h>
#include <errno.h>
#include <event-parse.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "schedlens/schedan.h"
#include "schedlens/topology.h"

#define COMMON "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	       "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	       "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	       "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

/* offsets differ from any kernel's on purpose */
static const char *const formats[][2] = {
	{ "sched", "name: sched_switch\nID: 1\nformat:\n" COMMON
		   "\tfield:pid_t next_pid;\toffset:8;\tsize:4;\tsigned:1;\n"
		   "\tfield:pid_t prev_pid;\toffset:12;\tsize:4;\tsigned:1;\n"
		   "\tfield:long prev_state;\toffset:16;\tsize:8;\tsigned:1;\n"
		   "\tfield:char prev_comm[16];\toffset:24;\tsize:16;\tsigned:0;\n"
		   "\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n\n"
		   "print fmt: \"%d\", REC->next_pid\n" },
	{ "sched", "name: sched_waking\nID: 2\nformat:\n" COMMON
		   "\tfield:int target_cpu;\toffset:8;\tsize:4;\tsigned:1;\n"
		   "\tfield:pid_t pid;\toffset:12;\tsize:4;\tsigned:1;\n"
		   "\tfield:char comm[16];\toffset:16;\tsize:16;\tsigned:0;\n\n"
		   "print fmt: \"%d\", REC->pid\n" },
	{ "sched", "name: sched_wakeup\nID: 3\nformat:\n" COMMON
		   "\tfield:int target_cpu;\toffset:8;\tsize:4;\tsigned:1;\n"
		   "\tfield:pid_t pid;\toffset:12;\tsize:4;\tsigned:1;\n"
		   "\tfield:char comm[16];\toffset:16;\tsize:16;\tsigned:0;\n\n"
		   "print fmt: \"%d\", REC->pid\n" },
	{ "sched", "name: sched_migrate_task\nID: 4\nformat:\n" COMMON
		   "\tfield:int dest_cpu;\toffset:8;\tsize:4;\tsigned:1;\n"
		   "\tfield:int orig_cpu;\toffset:12;\tsize:4;\tsigned:1;\n"
		   "\tfield:pid_t pid;\toffset:16;\tsize:4;\tsigned:1;\n\n"
		   "print fmt: \"%d\", REC->pid\n" },
	{ "sched", "name: sched_wake_idle_without_ipi\nID: 5\nformat:\n" COMMON
		   "\tfield:int cpu;\toffset:8;\tsize:4;\tsigned:1;\n\n"
		   "print fmt: \"%d\", REC->cpu\n" },
	{ "ipi", "name: ipi_send_cpu\nID: 6\nformat:\n" COMMON
		   "\tfield:void * callback;\toffset:8;\tsize:8;\tsigned:0;\n"
		   "\tfield:void * callsite;\toffset:16;\tsize:8;\tsigned:0;\n"
		   "\tfield:unsigned int cpu;\toffset:24;\tsize:4;\tsigned:0;\n\n"
		   "print fmt: \"%u\", REC->cpu\n" },
};

enum { SWITCH, WAKING, WAKEUP, MIGRATE, IDLE, IPI, NR };

/* a kernel before 6.6: no ipi_send_cpu; arm64's ipi_raise (a CPU mask), x86's IPI entries */
static const char *const old_formats[][2] = {
	{ "ipi", "name: ipi_raise\nID: 6\nformat:\n" COMMON
		 "\tfield:__data_loc cpumask_t target_cpus;\toffset:8;\tsize:4;\tsigned:0;\n"
		 "\tfield:const char * reason;\toffset:16;\tsize:8;\tsigned:0;\n\n"
		 "print fmt: \"%s\", __get_bitmask(target_cpus)\n" },
	{ "irq_vectors", "name: call_function_single_entry\nID: 7\nformat:\n" COMMON
			 "\tfield:int vector;\toffset:8;\tsize:4;\tsigned:1;\n\n"
			 "print fmt: \"%d\", REC->vector\n" },
	{ "irq_vectors", "name: reschedule_entry\nID: 8\nformat:\n" COMMON
			 "\tfield:int vector;\toffset:8;\tsize:4;\tsigned:1;\n\n"
			 "print fmt: \"%d\", REC->vector\n" },
};

enum { RAISE = IPI, CALL_IN, RESCHED_IN, NR_OLD };

static bool old_kernel;	/* fake_init*() parse old_formats from IPI on */

struct fake {
	struct tep_handle *tep;
	struct stream_evsel ev[NR_OLD];
	struct stream_info info;
	struct stream_ops ops;
	struct schedan *a;
};

static const char *ksyms_file(void)
{
	static char path[64];
	FILE *fp;
	int fd;

	snprintf(path, sizeof(path), "/tmp/test-schedan-XXXXXX");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	fp = fdopen(fd, "w");
	fprintf(fp, "ffffffff81000000 T _stext\n"
		    "ffffffff81000100 t ttwu_queue_wakelist\n"
		    "ffffffff81000180 T resched_curr\n"
		    "ffffffff81000200 T generic_smp_call_function_single_interrupt\n"
		    "ffffffff81000300 T other\n");
	fclose(fp);
	return path;
}

static void fake_init_opts(struct fake *f, size_t nr, const struct schedan_opts *o);

static void fake_init(struct fake *f, size_t nr)
{
	struct schedan_opts o = { .kallsyms_path = "/nonexistent" };

	fake_init_opts(f, nr, &o);
}

static void fake_init_opts(struct fake *f, size_t nr, const struct schedan_opts *o)
{
	size_t i;

	memset(f, 0, sizeof(*f));
	f->tep = tep_alloc();
	for (i = 0; i < nr; i++) {
		const char *const *fmt = old_kernel && i >= IPI ? old_formats[i - IPI] : formats[i];

		ck_assert_int_eq(tep_parse_event(f->tep, fmt[1], strlen(fmt[1]), fmt[0]), 0);
		f->ev[i].tp = tep_find_event(f->tep, (int)i + 1);
		f->ev[i].idx = (int)i;
		f->ev[i].attr.type = PERF_TYPE_TRACEPOINT;
		ck_assert_ptr_nonnull(f->ev[i].tp);
	}
	f->info = (struct stream_info){ .evsels = f->ev, .nr_evsels = nr, .tep = f->tep,
					.path = "synthetic" };
	origin__live(&f->info.origin);
	f->a = schedan__new(o, NULL);
	schedan__ops(f->a, &f->ops);
}

static void fake_exit(struct fake *f)
{
	schedan__delete(f->a);
	tep_free(f->tep);
}

static void put(uint8_t *raw, struct tep_event *tp, const char *name, uint64_t v)
{
	struct tep_format_field *fl = tep_find_field(tp, name);

	ck_assert_ptr_nonnull(fl);
	if (fl->size == 16)
		snprintf((char *)raw + fl->offset, 16, "t%llu", (unsigned long long)v);
	else
		memcpy(raw + fl->offset, &v, (size_t)fl->size);
}

/* one record of event @k on @cpu by @tid at @us microseconds; fields as name, value pairs */
static void rec(struct fake *f, int k, uint32_t cpu, uint32_t tid, uint64_t us, ...)
{
	uint8_t raw[64] = { 0 };
	struct stream_sample s = { .evsel = &f->ev[k], .cpu = cpu, .tid = tid, .pid = tid,
				   .time = us * 1000, .raw = raw, .raw_size = sizeof(raw) };
	const char *name;
	va_list ap;

	va_start(ap, us);
	while ((name = va_arg(ap, const char *)))
		put(raw, f->ev[k].tp, name, va_arg(ap, uint64_t));
	va_end(ap);
	ck_assert_int_eq(f->ops.sample(f->ops.ctx, &s), 0);
}

#define SW(f, cpu, us, prev, state, next)                                                     \
	rec(f, SWITCH, cpu, prev, us, "prev_pid", (uint64_t)(prev), "prev_state",            \
	    (uint64_t)(state), "next_pid", (uint64_t)(next), "prev_comm", (uint64_t)(prev),   \
	    "next_comm", (uint64_t)(next), NULL)
#define WAKE(f, k, cpu, us, waker, pid, target)                                               \
	rec(f, k, cpu, waker, us, "pid", (uint64_t)(pid), "target_cpu", (uint64_t)(target),  \
	    "comm", (uint64_t)(pid), NULL)
#define IPI_(f, cpu, us, waker, dst, cb)                                                      \
	rec(f, IPI, cpu, waker, us, "cpu", (uint64_t)(dst), "callsite",                      \
	    (uint64_t)((cb) ? 0xffffffff81000100ull : 0xffffffff81000180ull), "callback",      \
	    (uint64_t)(cb), NULL)
#define POLL(f, cpu, us, waker, dst) rec(f, IDLE, cpu, waker, us, "cpu", (uint64_t)(dst), NULL)

START_TEST(test_paths)
{
	struct schedan_opts o = { .kallsyms_path = ksyms_file() };
	struct stream_stats st = { 0 };
	struct schedan_lat l;
	struct fake f;
	json_t *j, *t;
	size_t i;
	char *text;

	fake_init_opts(&f, NR, &o);
	ck_assert_int_eq(f.ops.begin(f.ops.ctx, &f.info), 0);
	ck_assert_str_eq(schedan__warnings(f.a), "");
	/* waker 200 runs on cpu 0, cpu 1 idles */
	SW(&f, 0, 100, 300, 1, 200);
	/* same cpu: 5 us */
	WAKE(&f, WAKING, 0, 110, 200, 100, 0);
	SW(&f, 0, 115, 200, 0, 100);		/* 200 preempted (R) */
	SW(&f, 0, 120, 100, 1, 200);		/* 100 sleeps; 200 waited 5 us */
	/* wakelist with an IPI: 10 us */
	WAKE(&f, WAKING, 0, 200, 200, 101, 1);
	IPI_(&f, 0, 201, 200, 1, 0xffffffff81000200ull);
	WAKE(&f, WAKEUP, 1, 205, 0, 101, 1);
	SW(&f, 1, 210, 0, 0, 101);
	SW(&f, 1, 215, 101, 1, 0);
	/* wakelist to a polling idle cpu: 7 us; the waker's switch closes the window */
	WAKE(&f, WAKING, 0, 300, 200, 102, 1);
	POLL(&f, 0, 301, 200, 1);
	SW(&f, 0, 302, 200, 1, 0);
	SW(&f, 1, 307, 0, 0, 102);
	SW(&f, 1, 310, 102, 1, 0);
	SW(&f, 0, 390, 0, 0, 200);
	/* direct with a reschedule IPI: 20 us */
	WAKE(&f, WAKING, 0, 400, 200, 103, 1);
	IPI_(&f, 0, 401, 200, 1, 0);
	WAKE(&f, WAKEUP, 0, 402, 200, 103, 1);
	SW(&f, 1, 420, 0, 0, 103);
	SW(&f, 1, 425, 103, 1, 0);
	/* direct, no IPI: 30 us */
	WAKE(&f, WAKING, 0, 500, 200, 104, 1);
	WAKE(&f, WAKEUP, 0, 501, 200, 104, 1);
	SW(&f, 1, 530, 0, 0, 104);
	SW(&f, 1, 535, 104, 1, 0);
	/* direct to a polling idle cpu: 3 us */
	WAKE(&f, WAKING, 0, 600, 200, 105, 1);
	POLL(&f, 0, 601, 200, 1);
	WAKE(&f, WAKEUP, 0, 602, 200, 105, 1);
	SW(&f, 1, 603, 0, 0, 105);
	SW(&f, 1, 605, 105, 1, 0);
	/* migrated at wakeup from cpu 0 to 1, then the wakelist: 40 us */
	WAKE(&f, WAKING, 0, 700, 200, 106, 0);
	rec(&f, MIGRATE, 0, 200, 701, "pid", (uint64_t)106, "orig_cpu", (uint64_t)0, "dest_cpu",
	    (uint64_t)1, NULL);
	IPI_(&f, 0, 702, 200, 1, 0xffffffff81000200ull);
	SW(&f, 1, 740, 0, 0, 106);
	SW(&f, 1, 745, 106, 1, 0);
	/* a wakeup whose switch in went unrecorded: left out */
	WAKE(&f, WAKING, 0, 800, 200, 107, 1);
	SW(&f, 1, 810, 107, 1, 0);
	/* a waking of a running task, still queued (its sched_wakeup at once): no wakeup */
	SW(&f, 1, 900, 0, 0, 108);
	WAKE(&f, WAKING, 0, 905, 200, 108, 1);
	WAKE(&f, WAKEUP, 0, 906, 200, 108, 1);
	SW(&f, 1, 910, 108, 1, 0);
	ck_assert_int_eq(f.ops.end(f.ops.ctx, &st), 0);

	ck_assert_uint_eq(schedan__wakeups(f.a, WAKE_SAME_CPU), 1);
	ck_assert_uint_eq(schedan__wakeups(f.a, WAKE_WAKELIST_IPI), 2);
	ck_assert_uint_eq(schedan__wakeups(f.a, WAKE_WAKELIST_POLL), 1);
	ck_assert_uint_eq(schedan__wakeups(f.a, WAKE_DIRECT_IPI), 1);
	ck_assert_uint_eq(schedan__wakeups(f.a, WAKE_DIRECT_NOIPI), 1);
	ck_assert_uint_eq(schedan__wakeups(f.a, WAKE_DIRECT_POLL), 1);
	ck_assert_uint_eq(schedan__wakeups(f.a, WAKE_UNKNOWN), 0);
	schedan__latency(f.a, &l);
	/* 3 5 7 10 20 30 40 us */
	ck_assert_uint_eq(l.count, 7);
	ck_assert_uint_eq(l.p50, 10000);
	ck_assert_uint_eq(l.p90, 40000);
	ck_assert_uint_eq(l.max, 40000);
	ck_assert_uint_eq(schedan__migrations(f.a, MIGR_UNKNOWN), 1);

	j = schedan__json(f.a);
	ck_assert_ptr_nonnull(j);
	ck_assert_int_eq(json_integer_value(json_object_get(j, "missed_switch_in")), 1);
	json_array_foreach(json_object_get(j, "tasks"), i, t) {
		uint64_t tid = (uint64_t)json_integer_value(json_object_get(t, "tid"));

		if (tid == 200) {
			/* woke 100..108 in turn: 8 changes of wakee */
			ck_assert_int_eq(json_integer_value(json_object_get(t, "wakings")), 9);
			ck_assert_int_eq(json_integer_value(json_object_get(t, "wakee_flips")), 8);
			/* out at 115 (ran since 100), 120 -> 302 ... */
			ck_assert_int_eq(json_integer_value(json_object_get(t, "switches")), 2);
			ck_assert(json_real_value(json_object_get(t, "run_ms")) > 0.196999 &&
				  json_real_value(json_object_get(t, "run_ms")) < 0.197001);
			ck_assert(json_real_value(json_object_get(t, "wait_ms")) > 0.004999 &&
				  json_real_value(json_object_get(t, "wait_ms")) < 0.005001);
		}
		if (tid == 106)
			ck_assert_int_eq(json_integer_value(json_object_get(
						 json_object_get(t, "migrations"), "unknown")), 1);
		if (tid == 101)
			ck_assert_int_eq(json_integer_value(json_object_get(t, "distinct_wakers")), 1);
	}
	json_decref(j);
	text = schedan__report(f.a, NULL);
	ck_assert_ptr_nonnull(strstr(text, "  total                   7\n"));
	ck_assert_ptr_nonnull(strstr(text, "1 wakeups left out"));
	ck_assert_ptr_nonnull(strstr(
		text, "ttwu_queue_wakelist+0x0 -> generic_smp_call_function_single_interrupt+0x0"));
	free(text);
	ck_assert_str_eq(schedan__warnings(f.a), "");
	fake_exit(&f);
	unlink(o.kallsyms_path);
}
END_TEST

/* a sysfs of 3 CPUs without cache information: 0 and 1 in package 0 (one LLC), 2 in 1 */
static struct topology *three_cpus(char *root, size_t len)
{
	static const char *const files[][2] = {
		{ "online", "0-2" },
		{ "cpu0/topology/physical_package_id", "0" },
		{ "cpu1/topology/physical_package_id", "0" },
		{ "cpu2/topology/physical_package_id", "1" },
	};
	struct errbuf err = { "" };
	struct topology *t;
	char path[512];
	size_t i;
	FILE *fp;

	snprintf(root, len, "/tmp/test-schedan-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(root));
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "mkdir -p \"$(dirname '%s/devices/system/cpu/%s')\"",
			 root, files[i][0]);
		ck_assert_int_eq(system(path), 0);
		snprintf(path, sizeof(path), "%s/devices/system/cpu/%s", root, files[i][0]);
		fp = fopen(path, "w");
		ck_assert_ptr_nonnull(fp);
		fprintf(fp, "%s\n", files[i][1]);
		fclose(fp);
	}
	t = topology__read(root, &err);
	ck_assert_msg(t, "%s", err.msg);
	return t;
}

START_TEST(test_idle_llc)
{
	struct stream_stats st = { 0 };
	struct schedan_opts o = { .kallsyms_path = "/nonexistent" };
	char root[64], cmd[128];
	struct fake f;
	json_t *j, *idle;

	o.topo = three_cpus(root, sizeof(root));
	fake_init_opts(&f, NR, &o);
	ck_assert_int_eq(f.ops.begin(f.ops.ctx, &f.info), 0);
	/* waker 200 runs on cpu 0; cpus 1 and 2 go idle */
	SW(&f, 0, 100, 300, 1, 200);
	SW(&f, 1, 100, 301, 1, 0);
	SW(&f, 2, 100, 302, 1, 0);
	/* to idle cpu 1, same LLC: the wakelist, then directly */
	WAKE(&f, WAKING, 0, 200, 200, 101, 1);
	IPI_(&f, 0, 201, 200, 1, 0xffffffff81000200ull);
	WAKE(&f, WAKEUP, 1, 205, 0, 101, 1);
	SW(&f, 1, 210, 0, 0, 101);
	SW(&f, 1, 215, 101, 1, 0);
	WAKE(&f, WAKING, 0, 300, 200, 102, 1);
	WAKE(&f, WAKEUP, 0, 301, 200, 102, 1);
	SW(&f, 1, 330, 0, 0, 102);
	SW(&f, 1, 335, 102, 1, 0);
	/* to idle cpu 2, another LLC: not counted */
	WAKE(&f, WAKING, 0, 400, 200, 103, 2);
	IPI_(&f, 0, 401, 200, 2, 0xffffffff81000200ull);
	WAKE(&f, WAKEUP, 2, 405, 0, 103, 2);
	SW(&f, 2, 410, 0, 0, 103);
	SW(&f, 2, 415, 103, 1, 0);
	/* to cpu 1 while it runs 110: not idle, not counted */
	SW(&f, 1, 500, 0, 0, 110);
	WAKE(&f, WAKING, 0, 510, 200, 104, 1);
	WAKE(&f, WAKEUP, 0, 511, 200, 104, 1);
	SW(&f, 1, 520, 110, 0, 104);
	/* on the waker's own cpu: not counted */
	WAKE(&f, WAKING, 0, 600, 200, 105, 0);
	SW(&f, 0, 610, 200, 0, 105);
	ck_assert_int_eq(f.ops.end(f.ops.ctx, &st), 0);

	ck_assert_uint_eq(schedan__wakeups(f.a, WAKE_WAKELIST_IPI), 2);
	ck_assert_uint_eq(schedan__wakeups(f.a, WAKE_DIRECT_NOIPI), 2);
	ck_assert_uint_eq(schedan__wakeups(f.a, WAKE_SAME_CPU), 1);
	ck_assert_uint_eq(schedan__wakeups_idle_llc(f.a, WAKE_WAKELIST_IPI), 1);
	ck_assert_uint_eq(schedan__wakeups_idle_llc(f.a, WAKE_DIRECT_NOIPI), 1);
	ck_assert_uint_eq(schedan__wakeups_idle_llc(f.a, WAKE_SAME_CPU), 0);
	j = schedan__json(f.a);
	idle = json_object_get(j, "wakeup_paths_idle_llc");
	ck_assert_int_eq(json_integer_value(json_object_get(idle, "wakelist-ipi")), 1);
	ck_assert_int_eq(json_integer_value(json_object_get(idle, "direct-noipi")), 1);
	ck_assert_int_eq(json_integer_value(json_object_get(idle, "direct-ipi")), 0);
	json_decref(j);
	fake_exit(&f);
	topology__delete((struct topology *)o.topo);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

START_TEST(test_lost)
{
	struct fake f;
	struct schedan_lat l;

	fake_init(&f, NR);
	ck_assert_int_eq(f.ops.begin(f.ops.ctx, &f.info), 0);
	/* no kallsyms: a wakelist IPI is told by its callback, and a warning says why */
	WAKE(&f, WAKING, 0, 10, 200, 101, 1);
	IPI_(&f, 0, 11, 200, 1, 0xffffffff81000200ull);
	SW(&f, 1, 20, 0, 0, 101);
	ck_assert_uint_eq(schedan__wakeups(f.a, WAKE_WAKELIST_IPI), 1);
	ck_assert_ptr_nonnull(strstr(schedan__warnings(f.a), "cannot open '/nonexistent'"));
	WAKE(&f, WAKING, 0, 100, 200, 100, 0);
	ck_assert_int_eq(f.ops.lost(f.ops.ctx, 1, 5, 101), 0);
	SW(&f, 0, 500, 200, 1, 100);
	schedan__latency(f.a, &l);
	/* the wakeup in flight is dropped, not measured across the gap */
	ck_assert_uint_eq(l.count, 1);
	fake_exit(&f);
}
END_TEST

/*
 * Distinct wakers per wakee: each (wakee, waker) pair counted once, however often and in
 * whatever order it comes back, and a waker's pair with one wakee is not another's.
 */
START_TEST(test_distinct_wakers)
{
	static const uint32_t wakers[] = { 301, 302, 301, 303, 302, 301, 303 };
	struct fake f;
	json_t *j, *t;
	size_t i, seen = 0;

	fake_init(&f, NR);
	ck_assert_int_eq(f.ops.begin(f.ops.ctx, &f.info), 0);
	for (i = 0; i < sizeof(wakers) / sizeof(wakers[0]); i++) {
		WAKE(&f, WAKING, 0, 100 * i + 10, wakers[i], 300, 1);
		SW(&f, 1, 100 * i + 20, 0, 0, 300);
		SW(&f, 1, 100 * i + 30, 300, 1, 0);
	}
	WAKE(&f, WAKING, 0, 1000, 301, 310, 1);	/* 301 wakes another */
	SW(&f, 1, 1010, 0, 0, 310);
	j = schedan__json(f.a);
	ck_assert_ptr_nonnull(j);
	json_array_foreach(json_object_get(j, "tasks"), i, t) {
		uint64_t tid = (uint64_t)json_integer_value(json_object_get(t, "tid"));
		json_int_t n = json_integer_value(json_object_get(t, "distinct_wakers"));

		if (tid == 300 || tid == 310)
			seen++;
		if (tid == 300)
			ck_assert_int_eq(n, 3);
		else if (tid == 310)
			ck_assert_int_eq(n, 1);
		else
			ck_assert_int_eq(n, 0);
	}
	ck_assert_uint_eq(seen, 2);
	json_decref(j);
	fake_exit(&f);
}
END_TEST

/*
 * A waking of a task still on its CPU: a wakeup from the waking where the task's switch out
 * that follows is a sleep (it was switching out: the wakelist's on-CPU path), none where it
 * keeps running (sched_wakeup while on the CPU, or a switch out in a running state); without
 * sched_wakeup records the two cannot be told apart, and none is held.
 */
START_TEST(test_waking_on_cpu)
{
	struct schedan_lat l;
	struct fake f;
	json_t *j;

	fake_init(&f, NR);
	ck_assert_int_eq(f.ops.begin(f.ops.ctx, &f.info), 0);
	/* 101 runs on cpu 1; woken from cpu 0 before its switch out (S): 15 us, the wakelist */
	SW(&f, 1, 100, 0, 0, 101);
	WAKE(&f, WAKING, 0, 105, 200, 101, 1);
	IPI_(&f, 0, 106, 200, 1, 0xffffffff81000200ull);
	SW(&f, 1, 110, 101, 1, 0);
	WAKE(&f, WAKEUP, 1, 112, 0, 101, 1);
	SW(&f, 1, 120, 0, 0, 101);
	/* its waking again, then a switch out in a running state (preempted): no wakeup */
	WAKE(&f, WAKING, 0, 200, 200, 101, 1);
	SW(&f, 1, 210, 101, 0, 102);
	SW(&f, 1, 250, 102, 1, 101);
	/* and once more, its sched_wakeup while it runs (still queued): none at its sleep */
	WAKE(&f, WAKING, 0, 300, 200, 101, 1);
	WAKE(&f, WAKEUP, 0, 301, 200, 101, 1);
	SW(&f, 1, 310, 101, 1, 0);
	SW(&f, 1, 400, 0, 0, 101);
	/* held at a lost chunk: dropped, and a sched_wakeup of it after that changes nothing */
	WAKE(&f, WAKING, 0, 500, 200, 101, 1);
	ck_assert_int_eq(f.ops.lost(f.ops.ctx, 1, 5, 101), 0);
	WAKE(&f, WAKEUP, 0, 501, 200, 101, 1);
	SW(&f, 1, 510, 101, 1, 0);
	SW(&f, 1, 520, 0, 0, 101);
	schedan__latency(f.a, &l);
	ck_assert_uint_eq(l.count, 1);
	ck_assert_uint_eq(l.max, 15000);
	ck_assert_uint_eq(schedan__wakeups(f.a, WAKE_WAKELIST_IPI), 1);
	j = schedan__json(f.a);
	ck_assert_ptr_nonnull(j);
	ck_assert_int_eq(json_integer_value(json_object_get(j, "missed_switch_in")), 0);
	json_decref(j);
	fake_exit(&f);

	/* switch and waking only: the race is not told from a task that kept running */
	fake_init(&f, 2);
	ck_assert_int_eq(f.ops.begin(f.ops.ctx, &f.info), 0);
	SW(&f, 1, 100, 0, 0, 101);
	WAKE(&f, WAKING, 0, 105, 200, 101, 1);
	SW(&f, 1, 110, 101, 1, 0);
	SW(&f, 1, 120, 0, 0, 101);
	schedan__latency(f.a, &l);
	ck_assert_uint_eq(l.count, 0);
	fake_exit(&f);
}
END_TEST

START_TEST(test_missing)
{
	struct fake f;

	/* only sched_switch: no wakeup tracepoint */
	fake_init(&f, 1);
	ck_assert_int_eq(f.ops.begin(f.ops.ctx, &f.info), -ENOENT);
	ck_assert_ptr_nonnull(strstr(schedan__error(f.a),
				     "'synthetic' has no sched:sched_waking or sched:sched_wakeup"));
	fake_exit(&f);
	/* switch and waking only: the rest is named in the warnings */
	fake_init(&f, 2);
	ck_assert_int_eq(f.ops.begin(f.ops.ctx, &f.info), 0);
	ck_assert_ptr_nonnull(strstr(schedan__warnings(f.a), "no ipi:ipi_send_cpu"));
	ck_assert_ptr_nonnull(strstr(schedan__warnings(f.a), "no sched:sched_migrate_task"));
	fake_exit(&f);
	/* another kernel's file: this machine's kallsyms is not used for it */
	{
		struct origin_facts in = { .os_release = "0.0.0-elsewhere" };
		struct origin_facts here = { .os_release = "6.1.0-57-cloud-amd64" };
		struct schedan_opts o = { 0 };

		fake_init_opts(&f, NR, &o);
		origin__compare(&f.info.origin, &in, &here);
		ck_assert_int_eq(f.ops.begin(f.ops.ctx, &f.info), 0);
		ck_assert_ptr_nonnull(strstr(schedan__warnings(f.a),
					     "recorded on kernel 0.0.0-elsewhere, this is "
					     "6.1.0-57-cloud-amd64: /proc/kallsyms not used"));
		WAKE(&f, WAKING, 0, 10, 200, 101, 1);
		IPI_(&f, 0, 11, 200, 1, 0xffffffff81000200ull);
		SW(&f, 1, 20, 0, 0, 101);
		ck_assert_uint_eq(schedan__wakeups(f.a, WAKE_WAKELIST_IPI), 1);
		fake_exit(&f);
	}
}
END_TEST

#define CALL_FUNC 0xffff800008f41000ull	/* ipi_raise's reason strings, by address */
#define RESCHED 0xffff800008f41020ull

/* ipi:ipi_raise on @cpu for the CPUs in @mask (a little-endian long at payload offset 32) */
static void raise_ipi(struct fake *f, uint32_t cpu, uint32_t tid, uint64_t us, uint64_t mask,
		      uint64_t reason)
{
	uint8_t raw[64] = { 0 };
	uint32_t loc = 8u << 16 | 32u;
	struct stream_sample s = { .evsel = &f->ev[RAISE], .cpu = cpu, .tid = tid, .pid = tid,
				   .time = us * 1000, .raw = raw, .raw_size = sizeof(raw) };

	memcpy(raw + 8, &loc, 4);
	memcpy(raw + 32, &mask, 8);
	memcpy(raw + 16, &reason, 8);
	ck_assert_int_eq(f->ops.sample(f->ops.ctx, &s), 0);
}

START_TEST(test_old_kernel_ipis)
{
	struct schedan_opts o = { .kallsyms_path = "/nonexistent" };
	char *text;
	struct fake f;

	/* arm64 before 6.6: the IPI where it is sent, to a mask of CPUs */
	old_kernel = true;
	fake_init_opts(&f, RAISE + 1, &o);
	ck_assert_int_eq(f.ops.begin(f.ops.ctx, &f.info), 0);
	ck_assert_str_eq(schedan__ipi_source(f.a), "ipi:ipi_raise");
	WAKE(&f, WAKING, 0, 100, 200, 101, 1);		/* wakelist: the IPI before any wakeup */
	raise_ipi(&f, 0, 200, 101, 0x2, CALL_FUNC);
	WAKE(&f, WAKEUP, 1, 105, 0, 101, 1);
	SW(&f, 1, 110, 0, 0, 101);
	SW(&f, 1, 115, 101, 1, 0);
	WAKE(&f, WAKING, 0, 200, 200, 102, 1);		/* direct: activated, then the resched */
	WAKE(&f, WAKEUP, 0, 201, 200, 102, 1);
	raise_ipi(&f, 0, 200, 202, 0x6, RESCHED);
	SW(&f, 1, 210, 0, 0, 102);
	SW(&f, 1, 215, 102, 1, 0);
	WAKE(&f, WAKING, 0, 300, 200, 103, 1);		/* an IPI to another CPU is not this one's */
	raise_ipi(&f, 0, 200, 301, 0x4, CALL_FUNC);
	WAKE(&f, WAKEUP, 1, 305, 0, 103, 1);
	SW(&f, 1, 310, 0, 0, 103);
	SW(&f, 1, 315, 103, 1, 0);
	/* two queued on CPU 1's wakelist before it runs it: one IPI serves both */
	WAKE(&f, WAKING, 0, 400, 200, 104, 1);
	raise_ipi(&f, 0, 200, 401, 0x2, CALL_FUNC);
	WAKE(&f, WAKING, 0, 402, 200, 105, 1);
	WAKE(&f, WAKING, 0, 403, 200, 100, 0);		/* closes 105's window */
	WAKE(&f, WAKEUP, 1, 405, 0, 104, 1);
	WAKE(&f, WAKEUP, 1, 406, 0, 105, 1);
	SW(&f, 1, 410, 0, 0, 104);
	SW(&f, 1, 415, 104, 1, 105);
	SW(&f, 1, 420, 105, 1, 0);
	SW(&f, 0, 421, 200, 0, 100);
	SW(&f, 0, 422, 100, 1, 200);
	/* CPU 1 ran its wakelist since: a wakeup queued now with no IPI is not told */
	WAKE(&f, WAKING, 0, 500, 200, 106, 1);
	WAKE(&f, WAKEUP, 1, 505, 0, 106, 1);
	SW(&f, 1, 510, 0, 0, 106);
	ck_assert_uint_eq(schedan__wakeups(f.a, WAKE_WAKELIST_IPI), 3);
	ck_assert_uint_eq(schedan__wakeups(f.a, WAKE_SAME_CPU), 1);
	ck_assert_uint_eq(schedan__wakeups(f.a, WAKE_DIRECT_IPI), 1);
	ck_assert_uint_eq(schedan__wakeups(f.a, WAKE_UNKNOWN), 2);
	fake_exit(&f);

	/* x86 before 6.6: the IPI where it lands (irq_vectors:*_entry on the wakee's CPU) */
	fake_init_opts(&f, NR_OLD, &o);
	f.info.nr_evsels = NR_OLD;
	f.ev[RAISE].tp = NULL;		/* x86 has no ipi:ipi_raise */
	ck_assert_int_eq(f.ops.begin(f.ops.ctx, &f.info), 0);
	ck_assert_str_eq(schedan__ipi_source(f.a), "irq_vectors:*_entry, where they land");
	WAKE(&f, WAKING, 0, 100, 200, 101, 1);		/* wakelist: a call-function IPI on 1 */
	rec(&f, CALL_IN, 1, 0, 102, "vector", (uint64_t)251, NULL);
	WAKE(&f, WAKEUP, 1, 103, 0, 101, 1);
	SW(&f, 1, 110, 0, 0, 101);
	SW(&f, 1, 115, 101, 1, 0);
	WAKE(&f, WAKING, 0, 200, 200, 102, 1);		/* direct with a reschedule IPI on 1 */
	WAKE(&f, WAKEUP, 0, 201, 200, 102, 1);
	rec(&f, RESCHED_IN, 1, 0, 203, "vector", (uint64_t)253, NULL);
	SW(&f, 1, 210, 0, 0, 102);
	SW(&f, 1, 215, 102, 1, 0);
	WAKE(&f, WAKING, 0, 300, 200, 103, 1);		/* direct, no IPI since the waking */
	WAKE(&f, WAKEUP, 0, 301, 200, 103, 1);
	SW(&f, 1, 310, 0, 0, 103);
	SW(&f, 1, 315, 103, 1, 0);
	WAKE(&f, WAKING, 0, 400, 200, 104, 1);		/* wakelist, no IPI seen: not told */
	WAKE(&f, WAKEUP, 1, 405, 0, 104, 1);
	SW(&f, 1, 410, 0, 0, 104);
	ck_assert_uint_eq(schedan__wakeups(f.a, WAKE_WAKELIST_IPI), 1);
	ck_assert_uint_eq(schedan__wakeups(f.a, WAKE_DIRECT_IPI), 1);
	ck_assert_uint_eq(schedan__wakeups(f.a, WAKE_DIRECT_NOIPI), 1);
	ck_assert_uint_eq(schedan__wakeups(f.a, WAKE_UNKNOWN), 1);
	text = schedan__report(f.a, NULL);
	ck_assert_ptr_nonnull(strstr(text, "Wakeup paths (usec; IPIs from irq_vectors:*_entry, "
					   "where they land)"));
	free(text);
	fake_exit(&f);
	old_kernel = false;
}
END_TEST

/* nearest rank, as perf script users compute it: the k-th smallest, k = ceil(p% of n) */
static uint64_t rank_of(uint64_t *v, size_t n, double pct)
{
	double r = pct / 100.0 * (double)n;
	size_t k = (size_t)r;

	if ((double)k < r)
		k++;
	return v[(k < 1 ? 1 : k) - 1];
}

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

/* @o (a wakeup_latency object) against the values @v, sorted here */
static void check_lat(json_t *o, uint64_t *v, size_t n, const char *what)
{
	static const char *const keys[] = { "p50_us", "p90_us", "p99_us", "p99.9_us" };
	static const double pct[] = { 50, 90, 99, 99.9 };
	size_t i;

	ck_assert_msg(o != NULL, "%s: no latency", what);
	ck_assert_msg((size_t)json_integer_value(json_object_get(o, "count")) == n,
		      "%s: count %lld, want %zu", what,
		      (long long)json_integer_value(json_object_get(o, "count")), n);
	qsort(v, n, sizeof(*v), cmp_u64);
	for (i = 0; i < 4; i++) {
		double got = json_real_value(json_object_get(o, keys[i]));
		double want = (double)rank_of(v, n, pct[i]) / 1e3;

		ck_assert_msg(got == want, "%s %s: %f us, want %f", what, keys[i], got, want);
	}
	ck_assert(json_real_value(json_object_get(o, "max_us")) == (double)v[n - 1] / 1e3);
}

START_TEST(test_percentiles)
{
	enum { N = 3000, TASKS = 7, COMMS = 3 };
	static uint64_t by_task[TASKS][N], by_comm[COMMS][N], by_class[3][N], all[N];
	size_t nt[TASKS] = { 0 }, nc[COMMS] = { 0 }, ncl[3] = { 0 }, i;
	const char *const cls[] = { "same-cpu", "direct-noipi", "unknown" };
	uint64_t t = 1000, x = 88172645463325252ull;
	json_t *j, *o;
	struct fake f;
	char name[32];

	fake_init(&f, NR);
	ck_assert_int_eq(f.ops.begin(f.ops.ctx, &f.info), 0);
	for (i = 0; i < N; i++) {
		uint64_t pid = 100 + i % TASKS, comm = pid % COMMS, lat, c = (i / TASKS) % 3;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		/* mostly short, a few long: several radix digits */
		lat = 1 + (x % 8 ? x % 50 : x % 5000000);
		rec(&f, WAKING, 0, 500, t, "pid", pid, "target_cpu", (uint64_t)(c ? 1 : 0), "comm",
		    comm, NULL);
		if (c == 1)
			rec(&f, WAKEUP, 0, 500, t, "pid", pid, "target_cpu", (uint64_t)1, "comm", comm,
			    NULL);
		rec(&f, SWITCH, 1, 0, t + lat, "prev_pid", (uint64_t)0, "prev_state", (uint64_t)0,
		    "next_pid", pid, "prev_comm", (uint64_t)0, "next_comm", comm, NULL);
		rec(&f, SWITCH, 1, (uint32_t)pid, t + lat + 1, "prev_pid", pid, "prev_state",
		    (uint64_t)1, "next_pid", (uint64_t)0, "prev_comm", comm, "next_comm",
		    (uint64_t)0, NULL);
		t += lat + 2;
		lat *= 1000;
		by_task[pid - 100][nt[pid - 100]++] = lat;
		by_comm[comm][nc[comm]++] = lat;
		by_class[c][ncl[c]++] = lat;
		all[i] = lat;
	}
	j = schedan__json(f.a);
	ck_assert_ptr_nonnull(j);
	check_lat(json_object_get(j, "wakeup_latency"), all, N, "all");
	for (i = 0; i < 3; i++)
		check_lat(json_object_get(json_object_get(j, "wakeup_paths"), cls[i]), by_class[i],
			  ncl[i], cls[i]);
	for (i = 0; i < COMMS; i++) {
		snprintf(name, sizeof(name), "t%zu", i);
		check_lat(json_object_get(json_object_get(j, "comms"), name), by_comm[i], nc[i],
			  name);
	}
	json_array_foreach(json_object_get(j, "tasks"), i, o) {
		json_int_t tid = json_integer_value(json_object_get(o, "tid"));

		if (tid < 100 || tid >= 100 + TASKS)
			continue;
		snprintf(name, sizeof(name), "task %lld", (long long)tid);
		check_lat(json_object_get(o, "wakeup_latency"), by_task[tid - 100], nt[tid - 100],
			  name);
	}
	json_decref(j);
	fake_exit(&f);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("schedan");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int nf;

	tcase_add_test(tc, test_paths);
	tcase_add_test(tc, test_idle_llc);
	tcase_add_test(tc, test_lost);
	tcase_add_test(tc, test_distinct_wakers);
	tcase_add_test(tc, test_missing);
	tcase_add_test(tc, test_waking_on_cpu);
	tcase_add_test(tc, test_percentiles);
	tcase_add_test(tc, test_old_kernel_ipis);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
