// SPDX-License-Identifier: GPL-2.0
/* The scheduler analyses' state machine over sched:* and ipi:* records (schedan.h). */
#include <errno.h>
#include <event-parse.h>
#include <stdlib.h>
#include <string.h>

#include "schedlens/symbols.h"
#include "schedan-int.h"

#define MAX_WAKERS 4096
#define MAX_CPUS 8192

static const struct {
	const char *sys, *name;
	enum ev_kind kind;
	const char *fields[6];
} events[] = {
	{ "sched", "sched_switch", EV_SWITCH,
	  { "prev_comm", "prev_pid", "prev_state", "next_comm", "next_pid" } },
	{ "sched", "sched_waking", EV_WAKING, { "pid", "target_cpu", "comm" } },
	{ "sched", "sched_wakeup", EV_WAKEUP, { "pid", "target_cpu", "comm" } },
	{ "sched", "sched_wakeup_new", EV_WAKEUP_NEW, { "pid", "target_cpu", "comm" } },
	{ "sched", "sched_migrate_task", EV_MIGRATE, { "pid", "orig_cpu", "dest_cpu" } },
	{ "sched", "sched_wake_idle_without_ipi", EV_IDLE_NOIPI, { "cpu" } },
	{ "ipi", "ipi_send_cpu", EV_IPI_SEND_CPU, { "cpu", "callsite", "callback" } },
	{ "ipi", "ipi_raise", EV_IPI_RAISE, { "target_cpus", "reason" } },
	{ "irq_vectors", "call_function_single_entry", EV_IPI_RECV, { NULL } },
	{ "irq_vectors", "reschedule_entry", EV_IPI_RECV, { NULL } },
};

enum { F_PREV_COMM, F_PREV_PID, F_PREV_STATE, F_NEXT_COMM, F_NEXT_PID };
enum { F_PID, F_TARGET, F_COMM };
enum { F_MPID, F_ORIG, F_DEST };
enum { F_CPU, F_CALLSITE, F_CALLBACK };

const char *wake_class__name(enum wake_class c)
{
	static const char *const names[] = { "same-cpu",    "wakelist-ipi", "wakelist-poll",
					     "direct-ipi",  "direct-poll",  "direct-noipi",
					     "unknown" };

	return c < WAKE__NR ? names[c] : "unknown";
}

struct schedan *schedan__new(const struct schedan_opts *opts, struct errbuf *err)
{
	struct schedan *a = calloc(1, sizeof(*a));

	if (!a) {
		err__set(err, -ENOMEM, "out of memory");
		return NULL;
	}
	if (opts)
		a->opts = *opts;
	/* the tests make a small file's latencies a sketch */
	a->lats.exact_max = getenv("SCHEDLENS_LAT_EXACT") ?
			    strtoull(getenv("SCHEDLENS_LAT_EXACT"), NULL, 10) : LATVEC_EXACT;
	return a;
}

void schedan__delete(struct schedan *a)
{
	size_t i;

	if (!a)
		return;
	for (i = 0; i < a->nr_tasks; i++)
		free(a->tasks[i]);
	free(a->pairs);
	latvec__free(&a->lats);
	free(a->comms);
	free(a->tasks);
	free(a->index);
	free(a->cpu_last_switch);
	free(a->cpu_curr);
	free(a->cpu_idle);
	free(a->win);
	free(a->kinds);
	free(a->ipis);
	free(a->ipi_in);
	free(a->ipi_out);
	free(a->woken_on);
	symbols__delete(a->ksyms);
	free(a);
}

const char *schedan__error(const struct schedan *a)
{
	return a->err.msg;
}

const char *schedan__warnings(const struct schedan *a)
{
	return a->warnings;
}

static size_t hash_tid(uint32_t tid, size_t cap)
{
	return (tid * 2654435761u) & (cap - 1);
}

static struct task *task__find(const struct schedan *a, uint32_t tid)
{
	size_t i, mask = a->index_cap - 1;

	if (!a->index_cap)
		return NULL;
	for (i = hash_tid(tid, a->index_cap); a->index[i].t; i = (i + 1) & mask)
		if (a->index[i].tid == tid)
			return a->index[i].t;
	return NULL;
}

static int index__grow(struct schedan *a)
{
	size_t cap = a->index_cap ? 2 * a->index_cap : 1024, i, j;
	struct tid_slot *ni = calloc(cap, sizeof(*ni));

	if (!ni)
		return -ENOMEM;
	for (i = 0; i < a->nr_tasks; i++) {
		for (j = hash_tid(a->tasks[i]->tid, cap); ni[j].t; j = (j + 1) & (cap - 1))
			;
		ni[j] = (struct tid_slot){ a->tasks[i]->tid, a->tasks[i] };
	}
	free(a->index);
	a->index = ni;
	a->index_cap = cap;
	return 0;
}

static struct task *task__new(struct schedan *a, uint32_t tid)
{
	struct task *t;
	size_t j;

	if (2 * (a->nr_tasks + 1) > a->index_cap && index__grow(a))
		return NULL;
	if (a->nr_tasks == a->cap_tasks) {
		size_t cap = a->cap_tasks ? 2 * a->cap_tasks : 256;
		struct task **nt = realloc(a->tasks, cap * sizeof(*nt));

		if (!nt)
			return NULL;
		a->tasks = nt;
		a->cap_tasks = cap;
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->tid = tid;
	t->nr = (uint32_t)a->nr_tasks;
	t->oncpu = -1;
	t->pending_cpu = -1;
	t->included = a->opts.root_pid <= 0 || tid == (uint32_t)a->opts.root_pid;
	a->tasks[a->nr_tasks++] = t;
	for (j = hash_tid(tid, a->index_cap); a->index[j].t; j = (j + 1) & (a->index_cap - 1))
		;
	a->index[j] = (struct tid_slot){ tid, t };
	return t;
}

static inline struct task *task__get(struct schedan *a, uint32_t tid)
{
	struct task *t = task__find(a, tid);

	return t ? t : task__new(a, tid);
}

/* @tid, most often the task running on @cpu */
static inline struct task *task__get_on(struct schedan *a, uint32_t tid, int cpu)
{
	struct task *t = a->cpu_curr[cpu];

	return t && t->tid == tid ? t : task__get(a, tid);
}

static inline void set_comm(const struct schedan *a, struct task *t, const void *raw,
			    enum ev_kind k, int f)
{
	const char *p = (const char *)raw + a->fl[k][f].off;
	uint32_t n = a->comm_len[k][f];

	if (n == sizeof(t->comm)) {
		/* the usual char[16] (or longer): as many bytes as fit, then the NUL */
		memcpy(t->comm, p, sizeof(t->comm));
		t->comm[sizeof(t->comm) - 1] = '\0';
	} else if (n) {
		memcpy(t->comm, p, n);
		t->comm[n] = '\0';
	}
}

/* a per-CPU array of times from @old to @n CPUs, the new ones 0 */
static int grow_times(uint64_t **v, int old, int n)
{
	uint64_t *nv = realloc(*v, n * sizeof(*nv));

	if (!nv)
		return -ENOMEM;
	memset(nv + old, 0, (n - old) * sizeof(*nv));
	*v = nv;
	return 0;
}

static int schedan__cpus(struct schedan *a, uint32_t cpu)
{
	int n = a->nr_cpus ? a->nr_cpus : 64;
	uint64_t *nl;
	struct window *nw;
	struct task **nc;
	bool *ni;

	if (cpu >= MAX_CPUS)
		return -ERANGE;
	while ((uint32_t)n <= cpu)
		n *= 2;
	if (grow_times(&a->ipi_in, a->nr_cpus, n) || grow_times(&a->ipi_out, a->nr_cpus, n) ||
	    grow_times(&a->woken_on, a->nr_cpus, n))
		return -ENOMEM;
	nl = realloc(a->cpu_last_switch, n * sizeof(*nl));
	if (!nl)
		return -ENOMEM;
	a->cpu_last_switch = nl;
	nc = realloc(a->cpu_curr, n * sizeof(*nc));
	if (!nc)
		return -ENOMEM;
	a->cpu_curr = nc;
	memset(nc + a->nr_cpus, 0, (n - a->nr_cpus) * sizeof(*nc));
	ni = realloc(a->cpu_idle, n * sizeof(*ni));
	if (!ni)
		return -ENOMEM;
	a->cpu_idle = ni;
	memset(ni + a->nr_cpus, 0, (n - a->nr_cpus) * sizeof(*ni));
	nw = realloc(a->win, n * sizeof(*nw));
	if (!nw)
		return -ENOMEM;
	a->win = nw;
	memset(nl + a->nr_cpus, 0, (n - a->nr_cpus) * sizeof(*nl));
	memset(nw + a->nr_cpus, 0, (n - a->nr_cpus) * sizeof(*nw));
	a->nr_cpus = n;
	return 0;
}

const char *schedan__ipi_source(const struct schedan *a)
{
	if (a->has[EV_IPI_SEND_CPU])
		return "ipi:ipi_send_cpu";
	if (a->has[EV_IPI_RAISE])
		return "ipi:ipi_raise";
	if (a->has[EV_IPI_RECV])
		return "irq_vectors:*_entry, where they land";
	return "none: not told";
}

const struct schedan_tracepoint *schedan__tracepoints(size_t *n)
{
	static const struct schedan_tracepoint tps[] = {
		{ "sched:sched_switch", true, NULL },
		{ "sched:sched_waking", true, NULL },
		{ "sched:sched_wakeup", false, NULL },
		{ "sched:sched_wakeup_new", false, NULL },
		{ "sched:sched_migrate_task", false, NULL },
		{ "sched:sched_wake_idle_without_ipi", false, NULL },
		{ "ipi:ipi_send_cpu", false, NULL },
		/* kernels before 6.6: the IPIs where they are sent (arm64) or received (x86) */
		{ "ipi:ipi_raise", false, "ipi:ipi_send_cpu" },
		{ "irq_vectors:call_function_single_entry", false, "ipi:ipi_send_cpu" },
		{ "irq_vectors:reschedule_entry", false, "ipi:ipi_send_cpu" },
	};

	*n = ARRAY_SIZE(tps);
	return tps;
}

static int sa_begin(void *ctx, const struct stream_info *info)
{
	struct schedan *a = ctx;
	struct tep_format_field *fl;
	size_t i, e, k;
	size_t len = 0;

	snprintf(a->path, sizeof(a->path), "%s", info->path ? info->path : "input");
	a->kinds = calloc(info->nr_evsels ? info->nr_evsels : 1, sizeof(*a->kinds));
	if (!a->kinds)
		return err__set(&a->err, -ENOMEM, "out of memory");
	a->nr_kinds = info->nr_evsels;
	for (i = 0; i < info->nr_evsels; i++) {
		const struct tep_event *tp = info->evsels[i].tp;

		if (!tp)
			continue;
		for (e = 0; e < ARRAY_SIZE(events); e++) {
			if (strcmp(tp->system, events[e].sys) || strcmp(tp->name, events[e].name))
				continue;
			for (k = 0; k < 6 && events[e].fields[k]; k++) {
				a->f[events[e].kind][k] =
					tep_find_field((struct tep_event *)tp, events[e].fields[k]);
				if (!a->f[events[e].kind][k])
					return err__set(&a->err, -EINVAL,
							"'%s:%s' in '%s' has no field '%s'",
							events[e].sys, events[e].name,
							a->path,
							events[e].fields[k]);
				fl = a->f[events[e].kind][k];
				if (fl->size <= 0 || fl->size > 16 || fl->offset < 0)
					return err__set(&a->err, -EINVAL,
							"'%s:%s' in '%s': field '%s' has size %d",
							events[e].sys, events[e].name, a->path,
							events[e].fields[k], fl->size);
				a->fl[events[e].kind][k] = (struct fld){ (uint32_t)fl->offset,
									  (uint32_t)fl->size };
				if (!(fl->flags & TEP_FIELD_IS_DYNAMIC))
					a->comm_len[events[e].kind][k] =
						fl->size < 16 ? (uint32_t)fl->size : 16;
				if ((uint32_t)(fl->offset + fl->size) > a->min_raw[events[e].kind])
					a->min_raw[events[e].kind] = (uint32_t)(fl->offset + fl->size);
			}
			a->kinds[i] = events[e].kind;
			a->has[events[e].kind] = true;
		}
	}
	if (!a->has[EV_SWITCH] || (!a->has[EV_WAKING] && !a->has[EV_WAKEUP]))
		return err__set(&a->err, -ENOENT,
				"'%s' has no %s%s%s records: record with `schedlens record --sched`, `perf sched record` or "
				"-e sched:sched_switch,sched:sched_waking,...",
				a->path,
				a->has[EV_SWITCH] ? "" : "sched:sched_switch",
				!a->has[EV_SWITCH] && !a->has[EV_WAKING] && !a->has[EV_WAKEUP] ?
					" and no " : "",
				a->has[EV_WAKING] || a->has[EV_WAKEUP] ?
					"" : "sched:sched_waking or sched:sched_wakeup");
	a->waking_mode = a->has[EV_WAKING];
	a->hold_oncpu = a->waking_mode && a->has[EV_WAKEUP];
	if (!a->opts.kallsyms_path && !origin__kallsyms_apply(&info->origin)) {
		/* this machine's /proc/kallsyms would name another kernel's addresses */
		char w[512];

		a->ksyms_off = true;
		len += snprintf(a->warnings + len, sizeof(a->warnings) - len, "%s\n",
				origin__warning(&info->origin, "/proc/kallsyms not used, IPI call "
						"sites left as addresses (give --kallsyms FILE)",
						w, sizeof(w)));
	}
	a->native = !info->tep || tep_is_file_bigendian(info->tep) ==
					  (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	if (!a->waking_mode)
		len += snprintf(a->warnings + len, sizeof(a->warnings) - len,
				"no sched:sched_waking: latency from sched_wakeup, wakelist wakeups "
				"look same-cpu\n");
	if (!a->has[EV_IPI_SEND_CPU] && !a->has[EV_IPI_RAISE] && !a->has[EV_IPI_RECV] &&
	    len < sizeof(a->warnings))
		len += snprintf(a->warnings + len, sizeof(a->warnings) - len,
				"no ipi:ipi_send_cpu, ipi:ipi_raise or irq_vectors:*_entry: no IPI "
				"table, remote wakeups without IPI detail\n");
	if (!a->has[EV_IDLE_NOIPI] && len < sizeof(a->warnings))
		len += snprintf(a->warnings + len, sizeof(a->warnings) - len,
				"no sched:sched_wake_idle_without_ipi: polling idle CPUs not told\n");
	if (!a->has[EV_MIGRATE] && len < sizeof(a->warnings))
		snprintf(a->warnings + len, sizeof(a->warnings) - len,
			 "no sched:sched_migrate_task: no migration table\n");
	return 0;
}

static uint64_t fval_swapped(const struct schedan *a, enum ev_kind k, int f, const void *raw)
{
	unsigned long long v = 0;

	tep_read_number_field(a->f[k][f], raw, &v);
	return v;
}

static inline uint64_t fval(const struct schedan *a, enum ev_kind k, int f, const void *raw)
{
	const struct fld *fl = &a->fl[k][f];
	const uint8_t *p = (const uint8_t *)raw + fl->off;

	if (a->native) {
		switch (fl->size) {
		case 1:
			return *p;
		case 2: {
			uint16_t x;

			memcpy(&x, p, 2);
			return x;
		}
		case 4: {
			uint32_t x;

			memcpy(&x, p, 4);
			return x;
		}
		case 8: {
			uint64_t x;

			memcpy(&x, p, 8);
			return x;
		}
		}
	}
	return fval_swapped(a, k, f, raw);
}

/*
 * A wakeup queued on the wakelist of a CPU that a wakelist IPI was sent to and that has not
 * run its wakelist since (no sched_wakeup there after it): the kernel sends no second IPI
 * (llist_add found the list non-empty), the pending one serves this wakeup too.
 */
static bool ipi_outstanding(const struct schedan *a, int dst)
{
	return dst >= 0 && dst < a->nr_cpus && a->ipi_out[dst] && a->ipi_out[dst] > a->woken_on[dst];
}

static enum wake_class window__class(const struct schedan *a, const struct window *w, int cpu)
{
	if (w->dst == cpu)
		return WAKE_SAME_CPU;
	if (w->woke_here) {
		if (w->ipi_resched || w->ipi_wakelist)
			return WAKE_DIRECT_IPI;
		return w->poll ? WAKE_DIRECT_POLL : WAKE_DIRECT_NOIPI;
	}
	if (w->ipi_wakelist)
		return WAKE_WAKELIST_IPI;
	if (w->poll)
		return WAKE_WAKELIST_POLL;
	return ipi_outstanding(a, w->dst) ? WAKE_WAKELIST_IPI : WAKE_UNKNOWN;
}

/* whether @dst, the target of a wakeup from @cpu, is another CPU in @cpu's LLC */
static bool same_llc(const struct schedan *a, int cpu, int dst)
{
	enum migr_class c;

	if (!a->opts.topo || dst == cpu)
		return false;
	c = topology__classify(a->opts.topo, cpu, dst);
	return c == MIGR_SAME_CORE || c == MIGR_SAME_LLC;
}

/* the wakeup's target is now @dst: whether it runs its idle task */
static void window__target(struct schedan *a, struct window *w, int dst)
{
	w->dst = dst;
	w->dst_idle = dst >= 0 && dst < a->nr_cpus && a->cpu_idle[dst];
}

static void window__close(struct schedan *a, int cpu)
{
	struct window *w = &a->win[cpu];
	struct task *t;

	if (!w->open)
		return;
	t = w->wakee_t;
	if (t->pending && t->pending_cpu == cpu) {
		t->pending_class = window__class(a, w, cpu);
		t->pending_idle_llc = w->dst_idle && same_llc(a, cpu, w->dst);
		t->pending_cpu = -1;
	}
	w->open = false;
}

/* @t's held waking is not a wakeup after all (it kept running), or it is one now */
static void held__end(struct schedan *a, struct task *t, bool drop)
{
	t->pending_held = false;
	a->nr_held--;
	if (drop) {
		t->pending = 0;
		t->pending_cpu = -1;
	}
}

/*
 * A wakeup starts at the waking of a task that is not on a CPU. A waking of a task still on
 * one (its state set to sleep, schedule() not through yet) is held: where the task was still
 * queued, try_to_wake_up() sets it running and traces sched_wakeup at once (ttwu_runnable), and
 * the hold ends there, as it does at a switch out in a running state; where it was already
 * dequeued and is switching out (on_cpu), the wakeup goes through the wakelist or waits for the
 * switch, the task's sched_switch out comes later in time with a sleep state, and the wakeup
 * runs from the held waking. Without sched_wakeup records the two cannot be told apart: no hold.
 */
static int wakeup_start(struct schedan *a, struct task *t, int cpu, int dst, uint64_t time,
			bool woke_here)
{
	struct window *w = &a->win[cpu];

	if (t->pending)
		return 0;
	if (t->oncpu >= 0) {
		if (woke_here || !a->hold_oncpu)
			return 0;
		t->pending_held = true;
		a->nr_held++;
	} else if (!t->runnable) {
		if (t->last_out)
			t->sleep_ns += time - t->last_out;
		t->ready = time;
		t->runnable = true;
	}
	t->pending = time;
	t->pending_cpu = cpu;
	t->pending_class = WAKE_UNKNOWN;
	t->pending_idle_llc = false;
	*w = (struct window){ .open = true, .woke_here = woke_here, .wakee = t->tid,
				  .wakee_t = t };
	window__target(a, w, dst);
	return 0;
}

static size_t hash_pair(uint64_t key, size_t cap)
{
	return (size_t)((key * 0x9e3779b97f4a7c15ull) >> 32) & (cap - 1);
}

/* @key (never 0) into the set of pairs: 1 where it is new, 0 where it was there, -ENOMEM */
static int pair__add(struct schedan *a, uint64_t key)
{
	size_t i;

	if (2 * (a->nr_pairs + 1) > a->pairs_cap) {
		size_t cap = a->pairs_cap ? 2 * a->pairs_cap : 4096, j;
		uint64_t *n = calloc(cap, sizeof(*n));

		if (!n)
			return -ENOMEM;
		for (i = 0; i < a->pairs_cap; i++) {
			if (!a->pairs[i])
				continue;
			for (j = hash_pair(a->pairs[i], cap); n[j]; j = (j + 1) & (cap - 1))
				;
			n[j] = a->pairs[i];
		}
		free(a->pairs);
		a->pairs = n;
		a->pairs_cap = cap;
	}
	for (i = hash_pair(key, a->pairs_cap); a->pairs[i]; i = (i + 1) & (a->pairs_cap - 1))
		if (a->pairs[i] == key)
			return 0;
	a->pairs[i] = key;
	a->nr_pairs++;
	return 1;
}

static int on_waking(struct schedan *a, const struct stream_sample *s, enum ev_kind k)
{
	uint32_t pid = (uint32_t)fval(a, k, F_PID, s->raw);
	int dst = (int)fval(a, k, F_TARGET, s->raw), cpu = (int)s->cpu;
	struct task *wakee, *waker = NULL;

	if (k == EV_WAKEUP && a->waking_mode) {
		a->woken_on[cpu] = s->time;
		if (a->win[cpu].open && a->win[cpu].wakee == pid) {
			a->win[cpu].woke_here = true;
			window__target(a, &a->win[cpu], dst);
		}
		if (a->nr_held && (wakee = task__find(a, pid)) && wakee->pending_held &&
		    wakee->oncpu >= 0)
			held__end(a, wakee, true);
		return 0;
	}
	window__close(a, cpu);
	if (!pid)
		return 0;
	if (s->tid && s->tid != pid) {
		waker = task__get_on(a, s->tid, cpu);
		if (!waker)
			return -ENOMEM;
	}
	wakee = task__get(a, pid);
	if (!wakee)
		return -ENOMEM;
	if (!wakee->comm[0])
		set_comm(a, wakee, s->raw, k, F_COMM);
	if (waker) {
		waker->wakings++;
		if (waker->last_wakee && waker->last_wakee != pid)
			waker->flips++;
		waker->last_wakee = pid;
		if (wakee->last_waker != waker->tid && wakee->nr_wakers < MAX_WAKERS) {
			int ret = pair__add(a, (uint64_t)wakee->nr << 32 | waker->tid);

			if (ret < 0)
				return ret;
			wakee->nr_wakers += ret;
		}
		wakee->last_waker = waker->tid;
	}
	return wakeup_start(a, wakee, cpu, dst, s->time, k != EV_WAKING);
}

/*
 * Kernels that trace an IPI only where it lands (x86 before 6.6: irq_vectors:*_entry): a
 * call-function or reschedule IPI on the wakee's CPU since its waking is the wakeup's, the
 * wakelist's when the wakee was not activated by the waker, the preemption's when it was.
 * Another IPI landing in that window would be taken for it: the output says the source.
 */
static enum wake_class ipi_landed(const struct schedan *a, const struct task *t, int cpu,
				  enum wake_class c)
{
	if (!a->has[EV_IPI_RECV] || a->has[EV_IPI_SEND_CPU] || a->has[EV_IPI_RAISE] ||
	    a->ipi_in[cpu] < t->pending)
		return c;
	if (c == WAKE_UNKNOWN)
		return WAKE_WAKELIST_IPI;
	return c == WAKE_DIRECT_NOIPI ? WAKE_DIRECT_IPI : c;
}

/* whether CPU @cpu is in the mask @mask of @len bytes (longs in the recording's byte order) */
static bool mask_has(const struct schedan *a, const uint8_t *mask, uint32_t len, int cpu)
{
	uint32_t byte = (uint32_t)cpu / 8;

	if (cpu < 0 || byte >= len)
		return false;
	return mask[a->native ? byte : byte ^ 7] & (1u << (cpu % 8));
}

/*
 * ipi:ipi_raise: an IPI sent from this CPU to those in its target_cpus mask, for the reason
 * its string pointer names. Its reason for a wakelist IPI is learnt from one sent in a
 * wakelist wakeup's window (before the wakee's activation), to tell later ones outside.
 */
static int on_ipi_raise(struct schedan *a, const struct stream_sample *s)
{
	struct window *w = &a->win[s->cpu];
	uint64_t loc = fval(a, EV_IPI_RAISE, 0, s->raw), reason = fval(a, EV_IPI_RAISE, 1, s->raw);
	uint32_t off = loc & 0xffff, len = (loc >> 16) & 0xffff;
	const uint8_t *mask = (const uint8_t *)s->raw + off;
	int c;

	a->nr_ipi_events++;
	if (off + len > s->raw_size)
		return 0;
	if (w->open && mask_has(a, mask, len, w->dst)) {
		if (w->woke_here) {
			w->ipi_resched = true;
		} else {
			w->ipi_wakelist = true;
			a->raise_wakelist_reason = reason;
		}
	}
	if (reason && reason == a->raise_wakelist_reason)
		for (c = 0; c < a->nr_cpus && (uint32_t)c / 8 < len; c++)
			if (mask_has(a, mask, len, c))
				a->ipi_out[c] = s->time;
	return 0;
}

static int on_switch(struct schedan *a, const struct stream_sample *s)
{
	uint32_t prev = (uint32_t)fval(a, EV_SWITCH, F_PREV_PID, s->raw);
	uint32_t next = (uint32_t)fval(a, EV_SWITCH, F_NEXT_PID, s->raw);
	uint64_t state = fval(a, EV_SWITCH, F_PREV_STATE, s->raw), t = s->time;
	int cpu = (int)s->cpu;
	struct task *p, *n = NULL;

	window__close(a, cpu);
	if (prev) {
		p = task__get_on(a, prev, cpu);
		if (!p)
			return -ENOMEM;
		set_comm(a, p, s->raw, EV_SWITCH, F_PREV_COMM);
		p->switches++;
		if (a->cpu_last_switch[cpu]) {
			uint64_t d = t - a->cpu_last_switch[cpu];

			p->run_ns += d;
			if (d > p->max_run_ns)
				p->max_run_ns = d;
		}
		/* TASK_RUNNING, with or without the preemption mark above the state bits */
		p->runnable = (state & 0xff) == 0;
		p->ready = p->runnable ? t : 0;
		if (p->pending_held) {
			/* a sleep woken before it was through: runnable from here */
			held__end(a, p, p->runnable);
			p->runnable = true;
			p->ready = t;
		} else if (p->pending) {
			/* it ran, but its switch in was not recorded */
			p->pending = 0;
			p->pending_cpu = -1;
			a->missed++;
		}
		p->oncpu = -1;
		p->last_out = t;
	}
	if (next) {
		n = task__get(a, next);
		if (!n)
			return -ENOMEM;
		if (!n->comm[0])
			set_comm(a, n, s->raw, EV_SWITCH, F_NEXT_COMM);
		if (n->pending_held)	/* its switch out was not recorded */
			held__end(a, n, true);
		if (n->pending) {
			uint64_t lat = t - n->pending;
			enum wake_class c;

			if (n->pending_cpu >= 0 && a->win[n->pending_cpu].open &&
			    a->win[n->pending_cpu].wakee == next)
				window__close(a, n->pending_cpu);
			c = ipi_landed(a, n, cpu, n->pending_class);
			if (n->included) {
				if (latvec__push(&a->lats, lat, n->nr, c))
					return -ENOMEM;
				n->nr_lat++;
				a->class_count[c]++;
				a->idle_llc_count[c] += n->pending_idle_llc;
			}
			n->pending = 0;
			n->pending_cpu = -1;
		}
		if (n->runnable && n->ready)
			n->wait_ns += t - n->ready;
		n->runnable = false;
		n->ready = 0;
		n->oncpu = cpu;
	}
	a->cpu_curr[cpu] = n;
	a->cpu_idle[cpu] = !next;
	a->cpu_last_switch[cpu] = t;
	return 0;
}

static int on_migrate(struct schedan *a, const struct stream_sample *s)
{
	uint32_t pid = (uint32_t)fval(a, EV_MIGRATE, F_MPID, s->raw);
	int orig = (int)fval(a, EV_MIGRATE, F_ORIG, s->raw);
	int dest = (int)fval(a, EV_MIGRATE, F_DEST, s->raw);
	struct window *w = &a->win[s->cpu];
	enum migr_class c = a->opts.topo ? topology__classify(a->opts.topo, orig, dest) :
					   MIGR_UNKNOWN;
	struct task *t = task__get(a, pid);

	if (!t)
		return -ENOMEM;
	if (w->open && w->wakee == pid)
		window__target(a, w, dest);
	if (!t->included)
		return 0;
	t->migrations[c]++;
	a->migr[c]++;
	if (w->open && w->wakee == pid) {
		t->wakeup_migrations++;
		a->wakeup_migr++;
	}
	return 0;
}

/*
 * The kernel symbol holding @addr and the offset into it, or NULL: kallsyms is read at the
 * first call as far as the addresses need (or not at all when the persistent cache knows
 * them), on for later ones; a failure is warned of once
 */
static const char *ksym_at(struct schedan *a, uint64_t addr, uint64_t *off)
{
	struct symbols_config cfg = { 0 };
	size_t len = strlen(a->warnings);
	struct sym_loc loc;
	const char *e;

	if (!addr || a->ksyms_off)
		return NULL;
	if (!a->ksyms) {
		cfg.kallsyms = a->opts.kallsyms_path ? a->opts.kallsyms_path : "/proc/kallsyms";
		cfg.cache_dir = a->opts.cache_dir;
		a->ksyms = symbols__new(&cfg, NULL);
		if (!a->ksyms) {
			a->ksyms_off = true;
			return NULL;
		}
	}
	symbols__resolve(a->ksyms, 0, addr, PERF_RECORD_MISC_KERNEL, 0, &loc);
	e = symbols__kernel_error(a->ksyms);
	if (*e) {
		a->ksyms_off = true;
		if (len < sizeof(a->warnings))
			snprintf(a->warnings + len, sizeof(a->warnings) - len,
				 "%s: %sIPI call sites left as addresses\n", e,
				 a->ksyms_named ? "some " : "");
	}
	if (!loc.sym)
		return NULL;
	a->ksyms_named = true;
	*off = addr - loc.sym_start;
	return loc.sym;
}

/* @k's call site and callback named; whether it is the wakelist's IPI */
static bool ipi__is_wakelist(struct schedan *a, struct ipi_key *k)
{
	k->cs_sym = ksym_at(a, k->callsite, &k->cs_off);
	k->cb_sym = ksym_at(a, k->callback, &k->cb_off);
	if (a->ksyms_off && !a->ksyms_named)
		return k->callback != 0;
	if (k->cs_sym && strstr(k->cs_sym, "ttwu_queue"))
		return true;
	return k->cb_sym && (!strcmp(k->cb_sym, "generic_smp_call_function_single_interrupt") ||
			     !strcmp(k->cb_sym, "sched_ttwu_pending"));
}

static int on_ipi(struct schedan *a, const struct stream_sample *s)
{
	int dst = (int)fval(a, EV_IPI_SEND_CPU, F_CPU, s->raw);
	uint64_t cs = fval(a, EV_IPI_SEND_CPU, F_CALLSITE, s->raw);
	uint64_t cb = fval(a, EV_IPI_SEND_CPU, F_CALLBACK, s->raw);
	struct window *w = &a->win[s->cpu];
	struct ipi_key *k = NULL;
	size_t i;

	a->nr_ipi_events++;
	for (i = 0; i < a->nr_ipis; i++) {
		if (a->ipis[i].callsite == cs && a->ipis[i].callback == cb) {
			k = &a->ipis[i];
			break;
		}
	}
	if (!k) {
		if (a->nr_ipis == a->cap_ipis) {
			size_t cap = a->cap_ipis ? 2 * a->cap_ipis : 16;
			struct ipi_key *n = realloc(a->ipis, cap * sizeof(*n));

			if (!n)
				return -ENOMEM;
			a->ipis = n;
			a->cap_ipis = cap;
		}
		k = &a->ipis[a->nr_ipis++];
		*k = (struct ipi_key){ .callsite = cs, .callback = cb };
		k->wakelist = ipi__is_wakelist(a, k);
	}
	k->count++;
	if ((k->wakelist || cb) && dst >= 0 && dst < a->nr_cpus)
		a->ipi_out[dst] = s->time;
	/* in a wakeup's window a call-function IPI (a callback) is the wakelist's, even when
	 * the symbols at hand cannot say so (another kernel's file) */
	if (w->open && w->dst == dst) {
		if (k->wakelist || cb)
			w->ipi_wakelist = true;
		else
			w->ipi_resched = true;
	}
	return 0;
}

static int sa_sample(void *ctx, const struct stream_sample *s)
{
	struct schedan *a = ctx;
	enum ev_kind k;
	int ret;

	a->gen++;
	if (!s->evsel || (size_t)s->evsel->idx >= a->nr_kinds || !s->raw)
		return 0;
	k = a->kinds[s->evsel->idx];
	if (k == EV_OTHER)
		return 0;
	if (s->raw_size < a->min_raw[k]) {
		a->nr_short++;
		return 0;
	}
	if (s->cpu >= (uint32_t)a->nr_cpus && (ret = schedan__cpus(a, s->cpu))) {
		if (ret == -ENOMEM)
			return err__set(&a->err, ret, "out of memory");
		a->nr_short++;	/* a cpu number no machine has: bad input */
		return 0;
	}
	if (!a->first_time)
		a->first_time = s->time;
	a->last_time = s->time;
	switch (k) {
	case EV_SWITCH:
		ret = on_switch(a, s);
		break;
	case EV_WAKING:
	case EV_WAKEUP:
	case EV_WAKEUP_NEW:
		ret = on_waking(a, s, k);
		break;
	case EV_MIGRATE:
		ret = on_migrate(a, s);
		break;
	case EV_IDLE_NOIPI: {
		struct window *w = &a->win[s->cpu];

		if (w->open && w->dst == (int)fval(a, EV_IDLE_NOIPI, F_CPU, s->raw))
			w->poll = true;
		ret = 0;
		break;
	}
	case EV_IPI_SEND_CPU:
		ret = on_ipi(a, s);
		break;
	case EV_IPI_RAISE:
		ret = on_ipi_raise(a, s);
		break;
	case EV_IPI_RECV:
		a->nr_ipi_events++;
		a->ipi_in[s->cpu] = s->time;
		ret = 0;
		break;
	default:
		ret = 0;
	}
	if (ret == -ENOMEM)
		err__set(&a->err, ret, "out of memory");
	return ret;
}

static int sa_comm(void *ctx, uint32_t pid, uint32_t tid, const char *comm, bool exec,
		   uint64_t time)
{
	struct schedan *a = ctx;
	struct task *t = task__get(a, tid);

	a->gen++;
	if (!t)
		return -ENOMEM;
	snprintf(t->comm, sizeof(t->comm), "%s", comm);
	return 0;
}

static int sa_task(void *ctx, const struct stream_task *st)
{
	struct schedan *a = ctx;
	struct task *t = task__get(a, st->tid), *parent;

	a->gen++;
	if (!t)
		return -ENOMEM;
	if (!st->fork) {
		t->exited = true;
		return 0;
	}
	t->ppid = st->ppid;
	parent = task__get(a, st->ptid);
	if (parent && parent->included)
		t->included = true;
	if (!t->comm[0] && parent)
		memcpy(t->comm, parent->comm, sizeof(t->comm));
	return 0;
}

static int sa_lost(void *ctx, uint64_t id, uint64_t nr, uint64_t time)
{
	struct schedan *a = ctx;
	size_t i;
	int c;

	a->gen++;
	a->nr_lost += nr;
	a->nr_lost_records++;
	/* the wakeups in flight cannot be trusted any more */
	for (c = 0; c < a->nr_cpus; c++)
		a->win[c].open = false;
	for (i = 0; i < a->nr_tasks; i++) {
		if (a->tasks[i]->pending_held)
			held__end(a, a->tasks[i], true);
		else if (a->tasks[i]->pending) {
			a->tasks[i]->pending = 0;
			a->tasks[i]->pending_cpu = -1;
			a->dropped++;
		}
	}
	return 0;
}

static int sa_end(void *ctx, const struct stream_stats *st)
{
	struct schedan *a = ctx;

	a->stats = *st;
	a->have_stats = true;
	if (a->ksyms)
		symbols__cache_save(a->ksyms);	/* a cache: what is not kept is looked up again */
	return 0;
}

void schedan__ops(struct schedan *a, struct stream_ops *ops)
{
	*ops = (struct stream_ops){ .ctx = a, .begin = sa_begin, .sample = sa_sample,
				    .comm = sa_comm, .task = sa_task, .lost = sa_lost,
				    .end = sa_end };
}

uint64_t schedan__wakeups(const struct schedan *a, enum wake_class c)
{
	return c < WAKE__NR ? a->class_count[c] : 0;
}

uint64_t schedan__wakeups_idle_llc(const struct schedan *a, enum wake_class c)
{
	return c < WAKE__NR ? a->idle_llc_count[c] : 0;
}

int schedan__latency(struct schedan *a, struct schedan_lat *out)
{
	int ret = schedan__percentiles(a);

	*out = a->lat_all;
	return ret;
}

uint64_t schedan__migrations(const struct schedan *a, int c)
{
	return c >= 0 && c < MIGR__NR ? a->migr[c] : 0;
}
