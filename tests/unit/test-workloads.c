// SPDX-License-Identifier: GPL-2.0
#include <check.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../src/workloads/wl.h"
#include "schedlens/counters.h"
#include "schedlens/events.h"
#include "schedlens/phase.h"
#include "schedlens/target.h"
#include "schedlens/topology.h"
#include "schedlens/workload.h"

#define ARGV(...) ((char *[]){ __VA_ARGS__, NULL })

static int argc_of(char **argv)
{
	int n = 0;

	while (argv[n])
		n++;
	return n;
}

static void *parse_ok(const char *name, int argc, char **argv)
{
	const struct workload *w = workload__find(name);
	struct errbuf e = { "" };
	void *cfg = NULL;

	ck_assert_ptr_nonnull(w);
	ck_assert_msg(w->parse(argc, argv, &cfg, &e) == 0, "%s: %s", name, e.msg);
	return cfg;
}

/* parse must fail with -EINVAL and a message that contains @needle */
static void parse_bad(char **argv, const char *needle)
{
	const struct workload *w = workload__find(argv[0]);
	struct errbuf e = { "" };
	void *cfg = NULL;

	ck_assert_ptr_nonnull(w);
	ck_assert_int_eq(w->parse(argc_of(argv), argv, &cfg, &e), -EINVAL);
	ck_assert_ptr_null(cfg);
	ck_assert_msg(strstr(e.msg, needle), "'%s' lacks '%s'", e.msg, needle);
}

/* run @name with @argv once and return its metrics (caller puts) */
static json_t *run_ok(char **argv)
{
	const struct workload *w = workload__find(argv[0]);
	json_t *m = json_object(), *params;
	struct errbuf e = { "" };
	void *cfg = parse_ok(argv[0], argc_of(argv), argv);
	char line[2048];

	ck_assert_msg(w->run(cfg, NULL, m, &e) == 0, "%s: %s", argv[0], e.msg);
	w->format(cfg, m, line, sizeof(line));
	ck_assert_msg(!strncmp(line, argv[0], strlen(argv[0])), "line '%s'", line);
	params = w->params(cfg);
	ck_assert(json_is_object(params) && json_object_size(params) > 0);
	json_decref(params);
	w->free(cfg);
	return m;
}

START_TEST(test_registry)
{
	size_t i;

	for (i = 0; workloads[i]; i++) {
		ck_assert_ptr_eq(workload__find(workloads[i]->name), workloads[i]);
		ck_assert(workloads[i]->summary[0] && workloads[i]->usage[0]);
	}
	ck_assert_uint_eq(i, 6);
	ck_assert_ptr_null(workload__find("nope"));
	ck_assert_ptr_null(workload__find(NULL));
}
END_TEST

START_TEST(test_bad_options)
{
	parse_bad(ARGV("pipe", "-l0"), "invalid --loops '0'");
	parse_bad(ARGV("pipe", "-l", "-5"), "invalid --loops '-5'");
	parse_bad(ARGV("pipe", "--pin", "numa"), "unknown pin mode 'numa'");
	parse_bad(ARGV("pipe", "-x"), "unknown option '-x'");
	parse_bad(ARGV("pipe", "--bogus"), "unknown option '--bogus'");
	parse_bad(ARGV("pipe", "-l"), "option '-l' needs a value");
	parse_bad(ARGV("pipe", "extra"), "unexpected argument 'extra'");
	parse_bad(ARGV("messaging", "-g", "0"), "invalid --groups '0'");
	parse_bad(ARGV("messaging", "-l", "-1"), "invalid --loops '-1'");
	parse_bad(ARGV("messaging", "-s", "1x"), "invalid --datasize '1x'");
	parse_bad(ARGV("messaging", "-g", "1000", "-f", "1000"), "over 5000");
	parse_bad(ARGV("wakeup", "-t", "0"), "invalid --threads '0'");
	parse_bad(ARGV("wakeup", "-m", "0"), "invalid --message-threads '0'");
	parse_bad(ARGV("wakeup", "-d", "0"), "invalid --duration '0'");
	parse_bad(ARGV("wakeup", "-w", "-1"), "invalid --warmup '-1'");
	parse_bad(ARGV("pound-times", "-t", "0"), "invalid --threads '0'");
	parse_bad(ARGV("pound-clock-gettime", "-t", "8", "-n", "4"), "cannot be split");
	parse_bad(ARGV("tcp", "-c", "0"), "invalid --clients '0'");
	parse_bad(ARGV("tcp", "-d", "2h"), "invalid --duration '2h'");
	parse_bad(ARGV("tcp", "-w", "-1"), "expected a duration from 0");
}
END_TEST

START_TEST(test_pipe)
{
	json_t *m;
	int i;

	for (i = 0; i < 2; i++) {
		m = i ? run_ok(ARGV("pipe", "-l", "2000", "-T")) :
			run_ok(ARGV("pipe", "-l", "2000", "--pin", "same"));
		ck_assert(wl__value(m, "round_trips_per_s") > 0);
		/* the figures are one measurement seen three ways */
		ck_assert(fabs(wl__value(m, "us_per_round_trip") * wl__value(m, "round_trips_per_s") -
			       1e6) < 1);
		ck_assert(fabs(wl__value(m, "elapsed") * wl__value(m, "round_trips_per_s") - 2000) <
			  0.01);
		json_decref(m);
	}
}
END_TEST

START_TEST(test_messaging)
{
	json_t *m;
	int i;

	for (i = 0; i < 2; i++) {
		m = i ? run_ok(ARGV("messaging", "-g", "2", "-f", "5", "-l", "50", "-T", "-p")) :
			run_ok(ARGV("messaging", "-g", "2", "-f", "5", "-l", "50"));
		ck_assert(wl__value(m, "time") > 0);
		/* 2 groups x 5 senders x 5 receivers x 50 loops */
		ck_assert(fabs(wl__value(m, "messages_per_s") * wl__value(m, "time") - 2500) < 0.01);
		json_decref(m);
	}
}
END_TEST

START_TEST(test_wakeup_monotone)
{
	static const char *const what[] = { "wakeup", "request" };
	static const char *const order[] = { "min", "p20", "p50", "p90", "p99", "p99.9", "max" };
	json_t *m = run_ok(ARGV("wakeup", "-m", "2", "-t", "8", "-n", "0", "-d", "300ms", "-w",
				    "50ms"));
	double prev, v, samples;
	char name[64];
	size_t i, j;

	for (i = 0; i < 2; i++) {
		snprintf(name, sizeof(name), "%s_samples", what[i]);
		samples = wl__value(m, name);
		ck_assert_msg(samples > 10, "%s: %g samples", what[i], samples);
		for (prev = 0, j = 0; j < ARRAY_SIZE(order); j++) {
			snprintf(name, sizeof(name), "%s_%s", what[i], order[j]);
			ck_assert_ptr_nonnull(json_object_get(m, name));
			v = wl__value(m, name);
			ck_assert_msg(v >= prev, "%s %g below %g", name, v, prev);
			prev = v;
		}
	}
	/* a request's latency includes its wakeup */
	ck_assert(wl__value(m, "request_p50") >= wl__value(m, "wakeup_p50"));
	ck_assert(wl__value(m, "requests_per_s") > 0);
	json_decref(m);
}
END_TEST

START_TEST(test_pound_tcp)
{
	json_t *m = run_ok(ARGV("pound-clock-gettime", "-t", "3", "-n", "30000"));

	ck_assert(wl__value(m, "elapsed") > 0);
	ck_assert(wl__value(m, "user") >= 0 && wl__value(m, "sys") >= 0);
	json_decref(m);
	m = run_ok(ARGV("pound-times", "-n", "20000"));
	ck_assert(wl__value(m, "calls_per_s") > 0);
	json_decref(m);
	m = run_ok(ARGV("tcp", "-c", "2", "-d", "200ms", "-w", "0", "-S", "1000"));
	ck_assert(wl__value(m, "transactions_per_s") > 0);
	/* 256 + 1000 bytes per transaction */
	ck_assert(fabs(wl__value(m, "throughput") * 1e6 / wl__value(m, "transactions_per_s") - 1256) <
		  0.01);
	json_decref(m);
}
END_TEST

static int task_setup(struct wl_tasks *t, void *arg)
{
	return wl_tasks__ready(t, *(int *)arg);
}

/* one task of three fails its set-up: the group reports it, nobody hangs, all are joined */
START_TEST(test_tasks_failed_setup)
{
	static int ok = 0, bad = -EINVAL;
	struct errbuf e = { "" };
	struct wl_tasks *t;
	int threads;
	uint64_t ns;

	for (threads = 0; threads < 2; threads++) {
		t = wl_tasks__new(threads, 3, &e);
		ck_assert_ptr_nonnull(t);
		ck_assert_int_eq(wl_tasks__spawn(t, task_setup, &ok, &e), 0);
		ck_assert_int_eq(wl_tasks__spawn(t, task_setup, &bad, &e), 0);
		ck_assert_int_eq(wl_tasks__spawn(t, task_setup, &ok, &e), 0);
		ck_assert_int_eq(wl_tasks__spawn(t, task_setup, &ok, &e), -ENOSPC);
		ck_assert_int_eq(wl_tasks__measure(t, NULL, &ns, &e), -EIO);
		ck_assert_str_eq(e.msg, "1 of 3 tasks failed to set up");
		wl_tasks__delete(t);
	}
	/* all fine: the measured run joins them */
	t = wl_tasks__new(false, 2, &e);
	ck_assert_int_eq(wl_tasks__spawn(t, task_setup, &ok, &e), 0);
	ck_assert_int_eq(wl_tasks__spawn(t, task_setup, &ok, &e), 0);
	ck_assert_int_eq(wl_tasks__measure(t, NULL, &ns, &e), 0);
	wl_tasks__delete(t);
}
END_TEST

/* a stop before the run: every workload returns -EINTR at once, with nothing measured */
START_TEST(test_stop_before)
{
	static char *const runs[][12] = {
		{ "pipe", "-l", "1000000000", NULL },
		{ "pipe", "-T", "-l", "1000000000", NULL },
		{ "messaging", "-f", "3", "-l", "100000000", NULL },
		{ "messaging", "-T", "-f", "3", "-l", "100000000", NULL },
		{ "wakeup", "-m", "1", "-t", "2", "-d", "3600", NULL },
		{ "pound-times", "-n", "1000000000000", NULL },
		{ "tcp", "-c", "1", "-d", "3600", NULL },
	};
	struct errbuf e = { "" };
	const struct workload *w;
	size_t i;
	json_t *m;
	void *cfg;

	/* no handler (Check has one of its own): the stop reaches the tasks without SIGINT */
	signal(SIGINT, SIG_DFL);
	for (i = 0; i < ARRAY_SIZE(runs); i++) {
		w = workload__find(runs[i][0]);
		cfg = parse_ok(runs[i][0], argc_of((char **)runs[i]), (char **)runs[i]);
		m = json_object();
		workload__stop();
		ck_assert(workload__stopped());
		ck_assert_int_eq(w->run(cfg, NULL, m, &e), -EINTR);
		ck_assert_msg(json_object_size(m) == 0, "%s: metrics before its phase", runs[i][0]);
		workload__clear_stop();
		ck_assert(!workload__stopped());
		json_decref(m);
		w->free(cfg);
	}
	/* cleared, a run goes to its end again */
	json_decref(run_ok(ARGV("pipe", "-l", "100")));
}
END_TEST

/*
 * The controller side of the measured phase: acks every command, and sends this process a
 * SIGINT when the phase begins, as Ctrl-C in the middle of a run would.
 */
struct stop_ctl {
	int ctl_rd, ack_wr;
	pthread_t tid;
};

static void *stop_ctl_fn(void *arg)
{
	struct stop_ctl *c = arg;
	char buf[16];
	size_t got = 0;
	ssize_t n;

	while ((n = read(c->ctl_rd, buf + got, 1)) > 0 || (n < 0 && errno == EINTR)) {
		if (n <= 0 || buf[got++] != '\n')
			continue;
		if (write(c->ack_wr, "ack\n", 4) != 4)
			break;
		/* the run goes on meanwhile: the stop may come before or after the release */
		if (got == strlen("enable\n") && !strncmp(buf, "enable\n", got))
			kill(getpid(), SIGINT);
		got = 0;
	}
	return NULL;
}

static void on_sigint(int sig)
{
	workload__stop();
}

/* SIGINT in the measured phase: -EINTR with the figures of the part that ran, "N of M" */
START_TEST(test_stop_in_phase)
{
	static char *const runs[][12] = {
		{ "pipe", "-l", "1000000000", NULL },
		{ "pipe", "-T", "-l", "1000000000", NULL },
		{ "messaging", "-f", "3", "-l", "100000000", NULL },
		{ "messaging", "-T", "-p", "-f", "3", "-l", "100000000", NULL },
		{ "wakeup", "-m", "1", "-t", "2", "-F", "16", "-d", "3600", "-w", "0", NULL },
		{ "pound-clock-gettime", "-n", "1000000000000", NULL },
		{ "tcp", "-c", "1", "-d", "3600", "-w", "0", NULL },
	};
	static const char *const part[] = { "round_trips", "round_trips", "messages", "messages",
					    "elapsed", "calls", "elapsed" };
	struct sigaction sa = { .sa_handler = on_sigint };
	struct errbuf e = { "" };
	const struct workload *w;
	int ctl[2], ack[2], ret;
	struct stop_ctl c;
	struct phase *ph;
	char env[64], line[2048];
	size_t i;
	json_t *m;
	void *cfg;

	sigemptyset(&sa.sa_mask);
	ck_assert_int_eq(sigaction(SIGINT, &sa, NULL), 0);
	for (i = 0; i < ARRAY_SIZE(runs); i++) {
		ck_assert(!pipe(ctl) && !pipe(ack));
		c = (struct stop_ctl){ .ctl_rd = ctl[0], .ack_wr = ack[1] };
		ck_assert_int_eq(pthread_create(&c.tid, NULL, stop_ctl_fn, &c), 0);
		snprintf(env, sizeof(env), "fd:%d,%d", ctl[1], ack[0]);
		setenv(PHASE_ENV, env, 1);
		ph = phase__from_env();
		ck_assert_ptr_nonnull(ph);
		w = workload__find(runs[i][0]);
		cfg = parse_ok(runs[i][0], argc_of((char **)runs[i]), (char **)runs[i]);
		m = json_object();
		ret = w->run(cfg, ph, m, &e);
		ck_assert_msg(ret == -EINTR, "%s: %d %s", runs[i][0], ret, e.msg);
		ck_assert_msg(json_object_get(m, part[i]), "%s: no '%s'", runs[i][0], part[i]);
		w->format(cfg, m, line, sizeof(line));
		ck_assert_msg(strstr(line, " of "), "%s: '%s'", runs[i][0], line);
		fprintf(stderr, "stopped: %s\n", line);
		workload__clear_stop();
		json_decref(m);
		w->free(cfg);
		phase__delete(ph);
		close(ctl[1]);
		pthread_join(c.tid, NULL);
		close(ctl[0]);
		close(ack[0]);
		close(ack[1]);
	}
	unsetenv(PHASE_ENV);
}
END_TEST

static char root[64];

static void put(const char *rel, const char *text)
{
	char path[512], *p;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "%s\n", text);
	fclose(f);
}

/* 4 CPUs in one package; with @l3: two L3s, 0-1 and 2-3 */
static struct topology *fake_topology(bool l3)
{
	struct errbuf e = { "" };
	struct topology *t;
	char rel[256], val[16];
	int cpu;

	snprintf(root, sizeof(root), "/tmp/test-workloads-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(root));
	put("devices/system/cpu/online", "0-3");
	for (cpu = 0; cpu < 4; cpu++) {
		snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/topology/physical_package_id", cpu);
		put(rel, "0");
		snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/topology/core_cpus_list", cpu);
		snprintf(val, sizeof(val), "%d", cpu);
		put(rel, val);
		if (!l3)
			continue;
		snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/cache/index0/level", cpu);
		put(rel, "3");
		snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/cache/index0/type", cpu);
		put(rel, "Unified");
		snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/cache/index0/shared_cpu_list", cpu);
		put(rel, cpu < 2 ? "0-1" : "2-3");
	}
	put("devices/system/node/node0/cpulist", "0-3");
	t = topology__read(root, &e);
	ck_assert_msg(t != NULL, "%s", e.msg);
	snprintf(rel, sizeof(rel), "rm -rf '%s'", root);
	ck_assert_int_eq(system(rel), 0);
	return t;
}

START_TEST(test_pin)
{
	struct topology *t = fake_topology(true);
	struct errbuf e = { "" };
	cpu_set_t all, two;
	enum wl_pin p;
	int cpus[2], i;

	CPU_ZERO(&all);
	for (i = 0; i < 4; i++)
		CPU_SET(i, &all);
	CPU_ZERO(&two);
	CPU_SET(1, &two);
	CPU_SET(3, &two);
	ck_assert_int_eq(wl_pin__choose(WL_PIN_SAME, t, &two, cpus, &e), 0);
	ck_assert(cpus[0] == 1 && cpus[1] == 1);
	ck_assert_int_eq(wl_pin__choose(WL_PIN_LLC, t, &all, cpus, &e), 0);
	ck_assert(cpus[0] == 0 && cpus[1] == 1);
	ck_assert_int_eq(wl_pin__choose(WL_PIN_CROSS_LLC, t, &all, cpus, &e), 0);
	ck_assert(cpus[0] == 0 && cpus[1] == 2);
	ck_assert_int_eq(wl_pin__choose(WL_PIN_CROSS_LLC, t, &two, cpus, &e), 0);
	ck_assert(cpus[0] == 1 && cpus[1] == 3);
	ck_assert_int_eq(wl_pin__choose(WL_PIN_LLC, t, &two, cpus, &e), -ENODEV);
	ck_assert_str_eq(e.msg, "pin 'llc' is unavailable: no two CPUs this may run on share an LLC");
	ck_assert_int_eq(wl_pin__choose(WL_PIN_NONE, t, &two, cpus, &e), 0);
	ck_assert(cpus[0] == -1 && cpus[1] == -1);
	topology__delete(t);

	t = fake_topology(false);
	ck_assert_int_eq(wl_pin__choose(WL_PIN_CROSS_LLC, t, &all, cpus, &e), -ENODEV);
	ck_assert_msg(strstr(e.msg, "share one LLC (sysfs describes no caches"), "%s", e.msg);
	topology__delete(t);

	ck_assert_int_eq(wl_pin__parse(&e, "pipe", "cross-llc", &p), 0);
	ck_assert_int_eq(p, WL_PIN_CROSS_LLC);
	ck_assert_str_eq(wl_pin__name(p), "cross-llc");
}
END_TEST

/* the child dead and not reaped: the go byte that follows finds no reader */
static int kill_attach(void *ctx, pid_t pid)
{
	siginfo_t si;

	kill(pid, SIGKILL);
	return waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT);
}

/*
 * A workload dead before it was told to go (a SIGINT to the terminal's process group reached
 * it between the fork and its setpgid): the run reports how it ended; the caller gets no
 * SIGPIPE from the go byte (`run` died of it: exit 141 where Ctrl-C means 130)
 */
START_TEST(test_child_dead_before_go)
{
	char *argv[] = { "pipe", "-l", "10", NULL };
	const struct workload *w = workload__find("pipe");
	struct target_hooks h = { .attach = kill_attach };
	struct target_result res;
	struct errbuf e = { "" };
	struct target t = { .wl = w, .wl_cfg = parse_ok("pipe", argc_of(argv), argv) };

	target__run(&t, &h, NULL, &res, &e);
	ck_assert(WIFSIGNALED(res.status));
	ck_assert_int_eq(WTERMSIG(res.status), SIGKILL);
	w->free((void *)t.wl_cfg);
}
END_TEST

struct phase_count {
	struct counters *phase;	/* follows the measured phase */
	struct counters *all;	/* counts the whole run, set-up and teardown included */
	struct errbuf err;
	int enables, disables;
};

static int pc_attach(void *ctx, pid_t pid)
{
	struct phase_count *pc = ctx;
	struct counters_target t = { .tids = &pid, .nr_tids = 1, .inherit = true,
				     .start_disabled = true };
	struct counters_target all = { .tids = &pid, .nr_tids = 1, .inherit = true };

	return counters__open(pc->phase, &t, &pc->err) ?: counters__open(pc->all, &all, &pc->err);
}

static int pc_phase(void *ctx, bool enable, uint64_t t_ns)
{
	struct phase_count *pc = ctx;

	enable ? pc->enables++ : pc->disables++;
	return enable ? counters__enable(pc->phase) : counters__disable(pc->phase);
}

/*
 * Context switches of `pipe -l @loops` (@mode "-T" for threads) counted in-process, over the
 * measured phase (returned) and over the whole run of the same child (*@whole).
 */
static double count_cs(const char *loops, const char *mode, double *whole)
{
	char *argv[] = { "pipe", "-l", (char *)loops, "--pin", "same", (char *)mode, NULL };
	const struct workload *w = workload__find("pipe");
	struct phase_count pc = { 0 };
	struct target_hooks h = { .ctx = &pc, .attach = pc_attach, .phase = pc_phase };
	struct target_result res;
	struct counter_value v, va;
	struct event_desc ev;
	struct errbuf e = { "" };
	struct target t = { .wl = w };
	void *cfg = parse_ok("pipe", argc_of(argv), argv);
	int ret;

	ck_assert_int_eq(events__parse("context-switches", &ev, &e), 0);
	pc.phase = counters__new(&ev, 1);
	pc.all = counters__new(&ev, 1);
	t.wl_cfg = cfg;
	ret = target__run(&t, &h, NULL, &res, &e);
	ck_assert_msg(ret == 0, "%s %s", e.msg, pc.err.msg);
	ck_assert_int_eq(res.status, 0);
	ck_assert_uint_eq(res.phases, 1);
	ck_assert_int_eq(pc.enables, 1);
	ck_assert_int_eq(pc.disables, 1);
	ck_assert_int_eq(counters__read(pc.phase, 0, &v), 0);
	ck_assert_int_eq(counters__read(pc.all, 0, &va), 0);
	*whole = (double)va.val;
	json_decref(res.metrics);
	counters__delete(pc.phase);
	counters__delete(pc.all);
	w->free(cfg);
	return (double)v.val;
}

START_TEST(test_phase_counts_scale)
{
	static const char *const modes[] = { NULL, "-T" };
	double small, big, whole, dummy;
	int i;

	for (i = 0; i < 2; i++) {
		small = count_cs("1000", modes[i], &whole);
		big = count_cs("4000", modes[i], &dummy);
		fprintf(stderr, "pipe %s: context switches 1000 rt %.0f, 4000 rt %.0f, whole run %.0f\n",
			modes[i] ? "threads" : "processes", small, big, whole);
		/*
		 * both ends on one CPU (--pin same): each is switched out once a round trip (the
		 * last one's replier may leave its loop without), so 2 a round trip and 4x the
		 * loops is 4x. On two CPUs a reader may find its reply already written and not
		 * block: 1.55 a round trip in one run, 1.85 in the one before it, 1170 switches
		 * for 1000 round trips and 7995 for 4000 on another machine (6.8x).
		 */
		ck_assert_msg(small >= 2 * 1000 - 1 && small <= 3000, "%g for 1000 round trips", small);
		ck_assert_msg(big / small > 3.6 && big / small < 4.4, "%g vs %g", big, small);
		/* the same run: set-up and teardown (forks, handshakes, joins) lie outside the phase */
		ck_assert_msg(whole > small, "whole run %g, phase %g", whole, small);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("workloads");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int nf;

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_registry);
	tcase_add_test(tc, test_bad_options);
	tcase_add_test(tc, test_pipe);
	tcase_add_test(tc, test_child_dead_before_go);
	tcase_add_test(tc, test_messaging);
	tcase_add_test(tc, test_wakeup_monotone);
	tcase_add_test(tc, test_pound_tcp);
	tcase_add_test(tc, test_pin);
	tcase_add_test(tc, test_tasks_failed_setup);
	tcase_add_test(tc, test_stop_before);
	tcase_add_test(tc, test_stop_in_phase);
	tcase_add_test(tc, test_phase_counts_scale);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
