// SPDX-License-Identifier: GPL-2.0
/*
 * schedlens record: sample events (by default the machine's L1D miss event, cpu-clock where
 * there is no hardware PMU) with optional callchains into a perf.data file that perf reads,
 * with a copy of /proc/kallsyms beside it (FILE.kallsyms) and of this boot's vDSO (FILE.vdso,
 * its build-id in the file's BUILD_ID as perf's [vdso] entry) for analysis elsewhere. As perf
 * record does, a tracepoint is sampled at every event (-c 1) with its payload (RAW), and the
 * file carries the tracing data that formats it; --sched records the tracepoints `sched -i`
 * reads, system-wide, as `perf sched record`. A group (-e '{A,B}') is opened as perf opens
 * one (members on the leader's fd, disabled on the leader only) and described in the file's
 * GROUP_DESC, so perf report shows its events side by side.
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd-int.h"
#include "schedlens/commands.h"
#include "schedlens/events.h"
#include "schedlens/kallsyms.h"
#include "schedlens/machine.h"
#include "schedlens/perfdata.h"
#include "schedlens/sampler.h"
#include "schedlens/schedan.h"
#include "schedlens/symbols.h"
#include "schedlens/target.h"
#include "schedlens/workload.h"

#define DEFAULT_FREQ 4000
#define RECORD_MAX_EVENTS 64
#define DWARF_STACK_DEFAULT 8192
/* x86_64 user registers perf samples for DWARF unwinding (AX..R15 without segments) */
/*
 * The user registers --call-graph dwarf samples, as perf asks for them: x86-64's general
 * registers and ip (arch/x86/include/uapi/asm/perf_regs.h, no segment registers), arm64's
 * x0-x30, sp and pc (PERF_REG_ARM64_MAX 33)
 */
#if defined(__aarch64__)
#define DWARF_REGS_MASK ((1ull << 33) - 1)
#else
#define DWARF_REGS_MASK 0xff0fffull
#endif

struct record_opts {
	const char *events[RECORD_MAX_EVENTS];	/* each -e, a comma-separated list */
	size_t nr_event_args;
	bool sched;			/* --sched: the tracepoints sched -i reads */
	uint64_t period, freq;
	bool callchain, dwarf;
	uint32_t stack_size;
	bool system_wide;
	bool quiet;			/* -q: no summary line */
	const char *cpus;
	const char *output;
	char **argv;
	int argc;
	const struct workload *wl;	/* --bench: in-process workload and its config */
	void *wl_cfg;
	int orig_argc;
	char **orig_argv;
};

static volatile sig_atomic_t record_stop;

static void on_signal(int sig)
{
	record_stop = 1;
}

struct record_ctx {
	struct perf_writer *w;
	uint64_t nr_lost, nr_lost_records;
	int err;
};

static int rec_raw(void *ctx, const struct perf_event_header *h, const void *rec)
{
	struct record_ctx *r = ctx;

	r->err = perf_writer__write(r->w, h);
	return r->err;
}

static int rec_lost(void *ctx, uint64_t id, uint64_t nr, uint64_t time)
{
	struct record_ctx *r = ctx;

	r->nr_lost += nr;
	r->nr_lost_records++;
	return 0;
}

static bool picked(const struct event_desc *evs, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(evs[i].name, name))
			return true;
	return false;
}

/* the tracepoints sched -i reads, those this kernel lacks left out with a note */
static int pick_sched(struct event_desc *evs, size_t *n, char *note, size_t len,
		      struct errbuf *err)
{
	const struct schedan_tracepoint *tp;
	size_t i, ntp, used = strlen(note), nsub = 0;
	char subs[256] = "";
	int ret;

	tp = schedan__tracepoints(&ntp);
	for (i = 0; i < ntp && *n < RECORD_MAX_EVENTS; i++) {
		if (tp[i].instead_of && picked(evs, *n, tp[i].instead_of))
			continue;
		ret = events__parse(tp[i].name, &evs[*n], err);
		if (ret == -ENOENT && tp[i].instead_of)
			continue;	/* the one it stands in for is in the note */
		if (ret == -ENOENT && !tp[i].required && !strstr(err->msg, "tracefs")) {
			used += snprintf(note + used, used < len ? len - used : 0, "%s%s",
					 used ? ", " : "this kernel has no ", tp[i].name);
			continue;
		}
		if (ret)
			return ret;
		if (tp[i].instead_of)
			nsub += snprintf(subs + nsub, nsub < sizeof(subs) ? sizeof(subs) - nsub : 0,
					 "%s%s", nsub ? ", " : "", tp[i].name);
		(*n)++;
	}
	if (used && used < len)
		used += snprintf(note + used, len - used, ": left out");
	if (nsub && used < len)
		snprintf(note + used, len - used, "; recorded %s in its place", subs);
	return 0;
}

/* append the events of list @str (@len bytes) to @evs; @group: they are one group */
static int add_list(const char *str, size_t len, bool group, struct event_desc *evs,
		    size_t *groups, size_t *n, struct errbuf *err)
{
	char *copy = strndup(str, len);
	struct event_desc *list = NULL;
	size_t k, nl = 0;
	int ret = copy ? 0 : -ENOMEM;

	if (!ret && copy[strspn(copy, ",")])
		ret = events__parse_list(copy, &list, &nl, err);
	for (k = 0; !ret && k < nl && *n < RECORD_MAX_EVENTS; k++) {
		groups[*n] = group && !k ? nl : 0;
		evs[(*n)++] = list[k];
	}
	if (!ret && k < nl)
		ret = err__set(err, -E2BIG, "more than %d events", RECORD_MAX_EVENTS);
	free(list);
	free(copy);
	return ret;
}

/*
 * One -e argument as perf takes it: events and {A,B} groups, in any order ("x,{a,b},y"). A
 * group is opened as perf record opens one (its members on the leader's fd); of a group's
 * modifiers only ':S' is taken. @groups[i]: the size of the group event i leads, or 0;
 * @group_read[i]: that group is {..}:S.
 */
static int parse_event_arg(const char *arg, struct event_desc *evs, size_t *groups,
			   bool *group_read, size_t *n, struct errbuf *err)
{
	const char *p = arg, *open, *close;
	size_t first;
	bool sread;
	int ret = 0;

	while (!ret && *p) {
		open = strchr(p, '{');
		close = strchr(p, '}');
		if (!open) {
			if (close)
				return err__set(err, -EINVAL, "'%s': '}' without '{'", arg);
			return add_list(p, strlen(p), false, evs, groups, n, err);
		}
		if (close && close < open)
			return err__set(err, -EINVAL, "'%s': '}' without '{'", arg);
		ret = add_list(p, (size_t)(open - p), false, evs, groups, n, err);
		close = strchr(open, '}');
		if (!ret && !close)
			return err__set(err, -EINVAL, "'%s': '{' without '}'", arg);
		if (!ret && memchr(open + 1, '{', (size_t)(close - open - 1)))
			return err__set(err, -EINVAL, "'%s': groups do not nest", arg);
		/* perf's :S: the leader samples and reads every member's count with it */
		sread = !strncmp(close + 1, ":S", 2) && (!close[3] || close[3] == ',');
		if (!ret && close[1] && close[1] != ',' && !sread)
			return err__set(err, -EINVAL, "'%s': group modifiers other than ':S' ('}%.8s') "
					"are not taken: give each event its own (:u, :k)", arg,
					close + 1);
		if (!ret && close == open + 1)
			return err__set(err, -EINVAL, "'%s': an empty group", arg);
		first = *n;
		if (!ret)
			ret = add_list(open + 1, (size_t)(close - open - 1), true, evs, groups, n,
				       err);
		if (!ret && sread && *n > first)
			group_read[first] = true;
		p = close + 1 + (sread ? 2 : 0);
		p += *p == ',';
	}
	return ret;
}

/*
 * The events to sample: every -e list, --sched's tracepoints, else the L1D miss event, else
 * cpu-clock with a note (into @note).
 */
static int pick_events(const struct record_opts *o, struct event_desc *evs, size_t *groups,
		       bool *group_read, size_t *n, char *note, size_t len, struct errbuf *err)
{
	size_t i;
	int ret;

	note[0] = '\0';
	*n = 0;
	for (i = 0; i < o->nr_event_args; i++) {
		ret = parse_event_arg(o->events[i], evs, groups, group_read, n, err);
		if (ret)
			return ret;
	}
	if (o->sched && (ret = pick_sched(evs, n, note, len, err)))
		return ret;
	if (*n)
		return 0;
	ret = events__default_l1d_miss(&evs[0], err);
	if (ret != -EOPNOTSUPP && ret != -ENOENT) {
		*n = !ret;
		return ret;
	}
	snprintf(note, len, "%s: sampled cpu-clock instead",
		 err->msg[0] ? err->msg : "no L1D miss event opens on this machine");
	*n = 1;
	return events__parse("cpu-clock", &evs[0], err);
}

/*
 * A frequency above kernel.perf_event_max_sample_rate is refused with EINVAL, and the kernel
 * lowers that limit itself when perf's interrupts take too long (in a QEMU guest, after a few
 * recordings): sample at the limit instead and say so, as perf record does.
 */
static void throttle_freq(struct event_desc *evs, size_t n)
{
	char buf[32];
	long max;
	size_t i;

	if (read_file_str("/proc/sys/kernel/perf_event_max_sample_rate", buf, sizeof(buf)) ||
	    parse_long(buf, 1, LONG_MAX, &max))
		return;
	for (i = 0; i < n; i++)
		if (evs[i].attr.freq && evs[i].attr.sample_freq > (uint64_t)max) {
			fprintf(stderr, "record: warning: '%s': %llu Hz is above the kernel's maximum "
				"sampling rate, %ld Hz (kernel.perf_event_max_sample_rate, which the "
				"kernel lowers when perf's interrupts take too long): sampling at %ld "
				"Hz\n", evs[i].name, (unsigned long long)evs[i].attr.sample_freq, max,
				max);
			evs[i].attr.sample_freq = (uint64_t)max;
		}
}

static void set_sampling(const struct record_opts *o, struct perf_event_attr *a)
{
	bool tp = a->type == PERF_TYPE_TRACEPOINT;

	a->sample_type |= PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
	if (o->system_wide || o->cpus || tp)
		a->sample_type |= PERF_SAMPLE_CPU;
	/* a tracepoint: every event and its payload, unless -c or -F says otherwise (perf) */
	if (tp)
		a->sample_type |= PERF_SAMPLE_RAW;
	if (tp && !o->period && !o->freq) {
		a->freq = 0;
		a->sample_period = 1;
	} else if (o->period) {
		a->freq = 0;
		a->sample_period = o->period;
	} else {
		a->freq = 1;
		a->sample_freq = o->freq ? o->freq : DEFAULT_FREQ;
	}
	if (o->callchain || o->dwarf)
		a->sample_type |= PERF_SAMPLE_CALLCHAIN;
	if (o->dwarf) {
		a->sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
		a->sample_regs_user = DWARF_REGS_MASK;
		a->sample_stack_user = o->stack_size;
		a->exclude_callchain_user = 1;
	}
	a->read_format = 0;
}

/*
 * {A,B}:S as perf record sets it up: the leader alone samples and reads the whole group with
 * each sample (READ, GROUP and ID), the members only count (no period); the sampler leaves
 * inherit off, as the kernel takes no PERF_SAMPLE_READ with it. Unlike perf, the members'
 * own read_format has no GROUP: only the leader's shapes the samples, and without it each
 * member's id reads from its own fd (libperf reads a group through the leader alone).
 */
static void set_group_read(struct event_desc *evs, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++) {
		evs[k].attr.sample_type |= PERF_SAMPLE_READ;
		evs[k].attr.read_format |= PERF_FORMAT_ID | (k ? 0 : PERF_FORMAT_GROUP);
		if (k) {
			evs[k].attr.freq = 0;
			evs[k].attr.sample_period = 0;
		}
	}
}

static int copy_file(const char *from, const char *to)
{
	char buf[65536];
	int in = open(from, O_RDONLY | O_CLOEXEC), out, ret = 0;
	ssize_t n;

	if (in < 0)
		return -errno;
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0) {
		ret = -errno;
		goto out_close;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, n) != n) {
			ret = -EIO;
			break;
		}
	if (n < 0)
		ret = -errno;
	close(out);
out_close:
	close(in);
	return ret;
}

/* this boot's vDSO image into @to (report names [vdso] samples by it) */
static int write_vdso(const char *to)
{
	unsigned char id[20];
	const void *image;
	size_t len;
	int out, ret = machine__vdso(&image, &len, id, sizeof(id));

	if (ret < 0)
		return ret;
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0)
		return -errno;
	ret = write(out, image, len) == (ssize_t)len ? 0 : -EIO;
	if (close(out) && !ret)
		ret = -errno;
	return ret;
}

/* the sample_id_all trailer @a asks for, zero but for pid -1 and @id */
static size_t id_trailer(const struct perf_event_attr *a, uint64_t id, uint64_t *out)
{
	size_t n = 0;

	if (a->sample_type & PERF_SAMPLE_TID)
		out[n++] = 0xffffffffull;
	if (a->sample_type & PERF_SAMPLE_TIME)
		out[n++] = 0;
	if (a->sample_type & PERF_SAMPLE_ID)
		out[n++] = id;
	if (a->sample_type & PERF_SAMPLE_STREAM_ID)
		out[n++] = id;
	if (a->sample_type & PERF_SAMPLE_CPU)
		out[n++] = 0;
	if (a->sample_type & PERF_SAMPLE_IDENTIFIER)
		out[n++] = id;
	return n;
}

/*
 * The kernel map perf record synthesizes ("[kernel.kallsyms]_text" at _text, or _stext where
 * kallsyms has no _text, as on arm64 6.1: perf's reference symbols in that order), which perf
 * report needs to resolve kernel samples with kallsyms.
 */
static int write_kernel_mmap(struct perf_writer *w, const uint64_t *trailer, size_t nt)
{
	struct {
		struct perf_event_header h;
		uint32_t pid, tid;
		uint64_t start, len, pgoff;
		char filename[32];
		uint64_t trailer[8];
	} rec = { .h = { .type = PERF_RECORD_MMAP, .misc = PERF_RECORD_MISC_KERNEL } };
	struct kallsyms *ks = kallsyms__load(NULL, NULL);
	const char *ref = "_text";
	const struct ksym *text = ks ? kallsyms__by_name(ks, ref) : NULL;
	unsigned char id[20];
	const void *vdso;
	size_t vlen;
	int ret = 0, n;

	if (!text && ks)
		text = kallsyms__by_name(ks, ref = "_stext");
	if (!text)
		goto out_free;
	rec.pid = 0xffffffffu;
	rec.start = text->addr;
	rec.len = ~0ull - text->addr;
	rec.pgoff = text->addr;
	snprintf(rec.filename, sizeof(rec.filename), "[kernel.kallsyms]%s", ref);
	memcpy(rec.trailer, trailer, nt * sizeof(uint64_t));
	rec.h.size = offsetof(typeof(rec), trailer) + nt * sizeof(uint64_t);
	ret = perf_writer__write(w, &rec.h);
	n = machine__kernel_build_id(id, sizeof(id));
	if (!ret && n > 0)
		ret = perf_writer__add_build_id(w, "[kernel.kallsyms]", id, (size_t)n,
						PERF_RECORD_MISC_KERNEL, -1);
	/* the vDSO every task of this boot maps (written beside the file, FILE.vdso) */
	n = machine__vdso(&vdso, &vlen, id, sizeof(id));
	if (!ret && n > 0)
		ret = perf_writer__add_build_id(w, "[vdso]", id, (size_t)n, PERF_RECORD_MISC_USER,
						-1);
out_free:
	kallsyms__delete(ks);
	return ret;
}

static int set_cmdline(struct perf_writer *w, const struct record_opts *o, const char *note)
{
	const char **v = calloc(o->orig_argc + 3, sizeof(*v));
	char *n = NULL;
	int i, c = 0, ret;

	if (!v)
		return -ENOMEM;
	v[c++] = "schedlens";
	for (i = 0; i < o->orig_argc; i++)
		v[c++] = o->orig_argv[i];
	if (note[0] && asprintf(&n, "%s%s", SYMBOLS_NOTE_PREFIX, note) > 0)
		v[c++] = n;
	ret = perf_writer__set_cmdline(w, c, v);
	free(n);
	free(v);
	return ret;
}

struct record_run {
	const struct record_opts *o;
	struct sampler_opts so;
	struct sampler *s;
	struct record_ctx r;
	struct stream_ops ops;
	const char *note;
	struct errbuf err;
};

/* open the ring buffers (on @pid, or system-wide) and the output file behind them */
static int rec_attach(void *ctx, pid_t pid)
{
	struct record_run *rr = ctx;
	const struct stream_info *info;
	const struct stream_evsel *ev;
	struct perf_writer_evsel *wev;
	uint64_t trailer[8];
	size_t i, nt;
	int ret;

	if (pid > 0 && !rr->o->system_wide && !rr->o->cpus)
		rr->so.pid = pid;
	rr->s = sampler__new(&rr->so, &rr->err);
	if (!rr->s)
		return -EINVAL;
	info = sampler__info(rr->s);
	wev = calloc(info->nr_evsels, sizeof(*wev));
	if (!wev)
		return err__set(&rr->err, -ENOMEM, "out of memory");
	for (i = 0; i < info->nr_evsels; i++) {
		wev[i].attr = info->evsels[i].attr;
		wev[i].name = info->evsels[i].name;
		wev[i].ids = info->evsels[i].ids;
		wev[i].nr_ids = info->evsels[i].nr_ids;
		/* the sampler's events: the caller's in order, then its tracking event */
		if (i < rr->so.nr_events)
			wev[i].nr_members = (uint32_t)rr->so.group_sizes[i];
	}
	ret = perf_writer__new(&rr->r.w, rr->o->output, wev, info->nr_evsels, &rr->err);
	free(wev);
	if (ret)
		return ret;
	ev = &info->evsels[0];
	nt = ev->attr.sample_id_all ? id_trailer(&ev->attr, ev->nr_ids ? ev->ids[0] : 0, trailer) : 0;
	ret = set_cmdline(rr->r.w, rr->o, rr->note);
	if (!ret)
		ret = write_kernel_mmap(rr->r.w, trailer, nt);
	/* system-wide: name and map what already runs, as perf record does; --bench: the
	 * child that runs the workload, forked before the recording and never exec'd (its
	 * tasks' forks then carry its comm, as the command's do after its exec) */
	if (!ret && (rr->o->system_wide || rr->o->cpus))
		ret = perf_writer__synthesize_tasks(rr->r.w, 0, trailer, nt, NULL, NULL);
	else if (!ret && rr->o->wl && pid > 0)
		ret = perf_writer__synthesize_tasks(rr->r.w, pid, trailer, nt, NULL, NULL);
	if (ret)
		err__set(&rr->err, ret, "cannot write '%s': %s", rr->o->output, strerror(-ret));
	return ret;
}

static int rec_phase(void *ctx, bool enable, uint64_t t_ns)
{
	struct record_run *rr = ctx;

	return enable ? sampler__enable(rr->s) : sampler__disable(rr->s);
}

static int rec_tick(void *ctx)
{
	struct record_run *rr = ctx;

	/* what a poll delivers is in time order after all before it: a round of the file */
	return sampler__poll(rr->s, 0, &rr->ops) ?: (rr->r.w ? perf_writer__round(rr->r.w) : 0);
}

static int record_all(struct record_run *rr)
{
	int rc = rec_attach(rr, 0);

	if (!rc)
		rc = sampler__enable(rr->s);
	while (!rc && !record_stop)
		rc = sampler__poll(rr->s, 100, &rr->ops) ?: perf_writer__round(rr->r.w);
	return rc;
}

static int finish(struct record_run *rr)
{
	const struct record_opts *o = rr->o;
	char kpath[4096];
	int rc;

	if (!o->quiet)
		fprintf(stderr, "record: %llu samples written to '%s', %llu lost in %llu records\n",
			(unsigned long long)perf_writer__nr_samples(rr->r.w), o->output,
			(unsigned long long)rr->r.nr_lost, (unsigned long long)rr->r.nr_lost_records);
	rc = perf_writer__close(rr->r.w, &rr->err);
	rr->r.w = NULL;
	if (rc) {
		fprintf(stderr, "record: %s\n", rr->err.msg);
		return rc;
	}
	if (rr->r.nr_lost)
		fprintf(stderr, "record: warning: %llu samples lost: lower the frequency (-F) or "
				"raise the period (-c)\n", (unsigned long long)rr->r.nr_lost);
	snprintf(kpath, sizeof(kpath), "%s.kallsyms", o->output);
	rc = copy_file("/proc/kallsyms", kpath);
	if (rc)
		fprintf(stderr, "record: warning: cannot copy '/proc/kallsyms' to '%s': %s\n", kpath,
			strerror(-rc));
	snprintf(kpath, sizeof(kpath), "%s.vdso", o->output);
	rc = write_vdso(kpath);
	if (rc && rc != -ENOENT)
		fprintf(stderr, "record: warning: cannot write the vDSO to '%s': %s\n", kpath,
			strerror(-rc));
	return 0;
}

static int run_record(const struct record_opts *o)
{
	struct record_run rr = { .o = o, .so = { .tracking = true } };
	struct target t = { .argv = o->wl ? NULL : o->argv, .wl = o->wl, .wl_cfg = o->wl_cfg };
	struct target_hooks h = { .ctx = &rr, .attach = rec_attach, .phase = rec_phase,
				  .tick = rec_tick, .poll_ms = 50 };
	struct target_result res = { 0 };
	struct sampler_event sev[RECORD_MAX_EVENTS];
	struct event_desc *evs = calloc(RECORD_MAX_EVENTS, sizeof(*evs));
	size_t groups[RECORD_MAX_EVENTS] = { 0 };
	bool group_read[RECORD_MAX_EVENTS] = { 0 };
	char note[512];
	size_t i, n = 0;
	int ret = 1, rc;

	if (!evs || pick_events(o, evs, groups, group_read, &n, note, sizeof(note), &rr.err)) {
		fprintf(stderr, "record: %s\n", evs ? rr.err.msg : "out of memory");
		free(evs);
		return evs ? 2 : 1;
	}
	if (note[0])
		fprintf(stderr, "record: warning: %s\n", note);
	for (i = 0; i < n; i++)
		set_sampling(o, &evs[i].attr);
	throttle_freq(evs, n);
	for (i = 0; i < n; i++) {
		if (group_read[i])
			set_group_read(&evs[i], groups[i]);
		sev[i].attr = evs[i].attr;
		sev[i].name = evs[i].name;
	}
	rr.note = note;
	rr.so.events = sev;
	rr.so.nr_events = n;
	rr.so.group_sizes = groups;
	rr.so.cpus = o->cpus;
	rr.so.start_disabled = o->wl || target__is_own_bench(o->argv);
	rr.ops = (struct stream_ops){ .ctx = &rr.r, .raw = rec_raw, .lost = rec_lost };
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	if (o->argv || o->wl)
		rc = target__run(&t, &h, &record_stop, &res, &rr.err);
	else
		rc = record_all(&rr);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	if (!rc && rr.s)
		rc = sampler__drain(rr.s, &rr.ops);
	json_decref(res.metrics);
	if (rc) {
		fprintf(stderr, "record: %s\n",
			rr.err.msg[0] ? rr.err.msg : strerror(rc < 0 ? -rc : EIO));
		perf_writer__abort(rr.r.w);
		goto out_free;
	}
	if (finish(&rr))
		goto out_free;
	ret = o->argv || o->wl ? target__exit_code(&res) : 0;
out_free:
	sampler__delete(rr.s);
	free(evs);
	return ret;
}

#define STR_(x) #x
#define STR(x) STR_(x)

static const char *const record_usage[] = {
	"usage: schedlens record [-e EVENT] [-c PERIOD | -F FREQ] [-g] [--call-graph fp|dwarf[,SIZE]]",
	"                        [-a] [-C CPUS] [-o FILE] (-- COMMAND [ARGS] | --bench NAME [ARGS])",
	NULL
};

static int parse_call_graph(const char *arg, struct record_opts *o)
{
	const char *comma = strchr(arg, ',');
	size_t len = comma ? (size_t)(comma - arg) : strlen(arg);
	uint64_t size;

	if (len == 2 && !strncmp(arg, "fp", 2) && !comma) {
		o->callchain = true;
		return 0;
	}
	if (len != 5 || strncmp(arg, "dwarf", 5))
		return -EINVAL;
	o->dwarf = true;
	o->stack_size = DWARF_STACK_DEFAULT;
	if (comma) {
		if (parse_u64(comma + 1, &size) || !size || size > 65528 || size % 8)
			return -EINVAL;
		o->stack_size = (uint32_t)size;
	}
	return 0;
}

/* --call-graph fp|dwarf[,SIZE] */
static int opt_call_graph(const struct option *opt, const char *arg, struct errbuf *err)
{
	if (parse_call_graph(arg, opt->data))
		return err__set(err, -EINVAL, "not fp or dwarf[,SIZE]");
	return 0;
}

/* --sched: the tracepoints sched -i reads, system-wide */
static int opt_sched(const struct option *opt, const char *arg, struct errbuf *err)
{
	struct record_opts *o = opt->data;

	o->sched = true;
	o->system_wide = true;
	return 0;
}

int cmd_record(int argc, char **argv)
{
	struct record_opts o = { .output = "perf.data", .orig_argc = argc - 1 };
	const char *bench = NULL;
	const struct option opts[] = {
		OPT_STRINGS('e', "event", o.events, &o.nr_event_args, RECORD_MAX_EVENTS, "EVENTS",
			    "events to sample, comma-separated, -e again for more\n"
			    "(default: the L1D miss event, else cpu-clock); {A,B}\n"
			    "samples A and B as one group, as perf record"),
		OPT_CALLBACK_NOARG(0, "sched", &o, opt_sched,
				   "the tracepoints 'schedlens sched -i' reads, system-wide\n"
				   "(perf sched record)"),
		OPT_UINT('c', "count", &o.period, 1, UINT64_MAX, "PERIOD",
			 "sample every PERIOD events (tracepoints: 1, every event)"),
		OPT_UINT('F', "freq", &o.freq, 1, UINT64_MAX, "FREQ",
			 "sample at FREQ Hz (default " STR(DEFAULT_FREQ) ")"),
		OPT_FLAG('g', NULL, &o.callchain, "frame-pointer callchains, kernel and user"),
		OPT_CALLBACK(0, "call-graph", &o, opt_call_graph, "M",
			     "fp, or dwarf[,SIZE]: user stacks (SIZE bytes) for unwinding"),
		OPT_FLAG('a', "all-cpus", &o.system_wide, "system-wide"),
		OPT_STRING('C', "cpu", &o.cpus, "CPUS", "system-wide on these CPUs (0-3,6)"),
		OPT_STRING('o', "output", &o.output, "FILE", "output file (default perf.data)"),
		OPT_FLAG('q', "quiet", &o.quiet, "no summary line (warnings still)"),
		OPT_STRING_STOP(0, "bench", &bench, "NAME [ARGS]",
				"run a built-in workload in-process (last option)"),
		OPT_END(),
	};
	const struct cmd_options cmd = { "record", record_usage, opts,
					 OPTIONS_STOP_AT_NON_OPTION };
	/* the command line as given, for the file's header: parsing moves the arguments */
	char **orig = calloc((size_t)argc + 1, sizeof(*orig));
	int n, code = 2;

	if (!orig) {
		fprintf(stderr, "record: out of memory\n");
		return 1;
	}
	memcpy(orig, argv, (size_t)argc * sizeof(*orig));
	o.orig_argv = orig + 1;
	n = cmd_options__parse(&cmd, argc, argv, &code);
	if (n < 0)
		goto out;
	if (o.period && o.freq) {
		fprintf(stderr, "record: -c and -F exclude each other\n");
		goto out;
	}
	if (bench) {
		struct errbuf err = { "" };

		o.wl = workload__find(bench);
		if (!o.wl) {
			fprintf(stderr, "record: '%s' is not a built-in workload; see "
					"'schedlens bench --list'\n", bench);
			goto out;
		}
		/* the workload's own options follow; its argv[0] is its name */
		argv[0] = (char *)bench;
		if (o.wl->parse(n + 1, argv, &o.wl_cfg, &err)) {
			fprintf(stderr, "record: %s (see 'schedlens bench %s --help')\n", err.msg,
				bench);
			goto out;
		}
		code = run_record(&o);
		if (o.wl->free)
			o.wl->free(o.wl_cfg);
		goto out;
	}
	if (n) {
		o.argv = argv + 1;
		o.argc = n;
	} else if (!o.system_wide && !o.cpus) {
		code = cmd_options__error(&cmd, "nothing to record: give -- COMMAND, --bench NAME, "
					  "-a or -C");
		goto out;
	}
	code = run_record(&o);
out:
	free(orig);
	return code;
}
