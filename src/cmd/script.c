// SPDX-License-Identifier: GPL-2.0
/*
 * schedlens script: one line per sample like perf script (comm, tid, cpu, time, period,
 * event, address, DSO; tracepoint payloads formatted by libtraceevent; callchains below),
 * and with --all the other records too.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <trace-seq.h>

#include "schedlens/commands.h"
#include "schedlens/kallsyms.h"
#include "schedlens/perfdata.h"
#include "schedlens/symbols.h"
#include "schedlens/threads.h"
#include "schedlens/unwind.h"
#include "schedlens/util.h"

#define MAX_UNWOUND 127		/* perf's default callchain depth */

struct script_opts {
	const char *input;
	const char *kallsyms;
	bool all;
};

struct script {
	const struct script_opts *o;
	const struct stream_info *info;
	struct threads *threads;
	struct trace_seq ts;
	struct kallsyms *ksyms;		/* for %pS in tracepoints (symbols__pick_kallsyms()) */
	struct unwinder *uw;		/* --call-graph dwarf recordings */
	uint64_t gen;			/* bumped when an address space may change */
	int name_width;
};

static char *resolve_fn(void *priv, unsigned long long *addrp, char **modp)
{
	const struct ksym *k = kallsyms__find(priv, *addrp);

	if (!k)
		return NULL;
	*addrp = k->addr;
	if (modp)
		*modp = k->module[0] ? (char *)k->module : NULL;
	return (char *)k->name;
}

static int sc_begin(void *ctx, const struct stream_info *info)
{
	struct script *s = ctx;
	char kbuf[4096], wbuf[512];
	const char *ks;
	size_t i;

	s->info = info;
	/* kernel addresses in payloads resolve as perf's do, through a kallsyms that names them */
	ks = info->tep ? symbols__pick_kallsyms(s->o->input, s->o->kallsyms, &info->origin, kbuf,
						sizeof(kbuf)) : NULL;
	if (ks) {
		struct errbuf err = { "" };

		s->ksyms = kallsyms__load(ks, &err);
		if (!s->ksyms)
			fprintf(stderr, "schedlens script: warning: %s\n", err.msg);
		else
			tep_set_function_resolver(info->tep, resolve_fn, s->ksyms);
	} else if (info->tep &&
		   origin__warning(&info->origin, "/proc/kallsyms not used, kernel addresses in "
				   "tracepoint fields left as numbers (give --kallsyms FILE)",
				   wbuf, sizeof(wbuf))) {
		fprintf(stderr, "schedlens script: warning: '%s' %s\n", info->path, wbuf);
	}
	for (i = 0; i < info->nr_evsels; i++) {
		int n = strlen(info->evsels[i].name);

		if (n > s->name_width)
			s->name_width = n;
	}
	return 0;
}

static void print_time(uint64_t t)
{
	printf("%5llu.%06llu: ", (unsigned long long)(t / 1000000000),
	       (unsigned long long)(t % 1000000000 / 1000));
}

/*
 * perf prints user callchain entries map-relative, kernel ones (the kernel and its modules,
 * whose maps perf keeps at their addresses) and the sample's ip as they are
 */
static void print_addr(struct script *s, const struct stream_sample *x, uint64_t addr,
		       uint16_t misc, bool callchain)
{
	struct taddr al;

	if (threads__resolve(s->threads, x->pid, x->tid, misc, addr, &al) || !al.map) {
		printf("%16llx [unknown] ([unknown])", (unsigned long long)addr);
		return;
	}
	printf("%16llx [unknown] (%s)",
	       (unsigned long long)(callchain && al.level != 'k' ? al.addr : addr),
	       !strcmp(al.map->dso, "[kernel.kallsyms]") ? al.map->dso : al.map->path);
}

static int find_map(void *ctx, uint32_t pid, uint64_t addr, struct unwind_map *out)
{
	struct script *s = ctx;
	struct taddr al;

	if (threads__resolve(s->threads, pid, pid, PERF_RECORD_MISC_USER, addr, &al) || !al.map ||
	    al.map->identity)
		return -ENOENT;
	*out = (struct unwind_map){ al.map->start, al.map->end, al.map->pgoff, al.map->path };
	return 0;
}

static bool has_user_stack(const struct stream_sample *x)
{
	return x->user_stack_size && x->user_regs_abi;
}

static void print_callchain(struct script *s, const struct stream_sample *x)
{
	uint16_t misc = x->misc & ~PERF_RECORD_MISC_CPUMODE_MASK;
	uint16_t mode = x->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	uint64_t i, ips[MAX_UNWOUND];
	int n;

	putchar('\n');
	for (i = 0; i < x->nr_callchain; i++) {
		uint64_t ip = x->callchain[i];

		if (ip >= PERF_CONTEXT_MAX) {
			if (ip == PERF_CONTEXT_KERNEL)
				mode = PERF_RECORD_MISC_KERNEL;
			else if (ip == PERF_CONTEXT_USER)
				mode = PERF_RECORD_MISC_USER;
			continue;
		}
		putchar('\t');
		print_addr(s, x, ip, misc | mode, true);
		putchar('\n');
	}
	/* the user part of a --call-graph dwarf sample: unwound from its registers and stack */
	if (!has_user_stack(x) || !s->uw)
		return;
	n = unwinder__unwind(s->uw, x, s->gen, ips, MAX_UNWOUND);
	for (i = 0; n > 0 && i < (uint64_t)n; i++) {
		putchar('\t');
		print_addr(s, x, ips[i], misc | PERF_RECORD_MISC_USER, true);
		putchar('\n');
	}
}

static int sc_sample(void *ctx, const struct stream_sample *x)
{
	struct script *s = ctx;
	const struct stream_evsel *e = x->evsel;
	uint64_t st = e->attr.sample_type;
	bool chain = (st & PERF_SAMPLE_CALLCHAIN) && (x->nr_callchain || has_user_stack(x));
	struct taddr al;

	if (threads__resolve(s->threads, x->pid, x->tid, x->misc, x->ip, &al))
		return -ENOMEM;
	printf(chain ? "%s " : "%16s ", al.comm);
	printf("%5d ", (int)x->tid);
	if (st & PERF_SAMPLE_CPU)
		printf("[%03u] ", x->cpu);
	if (st & PERF_SAMPLE_TIME)
		print_time(x->time);
	if (e->tp) {
		struct tep_record rec = { .ts = x->time, .cpu = x->cpu, .size = x->raw_size,
					  .data = (void *)x->raw };

		printf("%*s: ", s->name_width, e->name);
		if (x->raw && s->info->tep) {
			trace_seq_reset(&s->ts);
			tep_print_event(s->info->tep, &s->ts, &rec, "%s", TEP_PRINT_INFO);
			trace_seq_terminate(&s->ts);
			fputs(s->ts.buffer, stdout);
		}
		if (chain)
			print_callchain(s, x);
		putchar('\n');
		return 0;
	}
	/* a fixed period not sampled is the attr's, and perf prints it so */
	if (st & PERF_SAMPLE_PERIOD)
		printf("%10llu ", (unsigned long long)x->period);
	else if (!e->attr.freq)
		printf("%10llu ", (unsigned long long)e->attr.sample_period);
	printf("%*s: ", s->name_width, e->name);
	if (chain) {
		print_callchain(s, x);
	} else if (st & PERF_SAMPLE_IP) {
		putchar(' ');
		print_addr(s, x, x->ip, x->misc, false);
	}
	putchar('\n');
	return 0;
}

static int sc_comm(void *ctx, uint32_t pid, uint32_t tid, const char *comm, bool exec,
		   uint64_t time)
{
	struct script *s = ctx;

	if (s->o->all) {
		printf("%16s %5u ", comm, tid);
		if (time != ~0ULL)
			print_time(time);
		printf("PERF_RECORD_COMM%s: %s:%u/%u\n", exec ? " exec" : "", comm, pid, tid);
	}
	s->gen += exec;
	return threads__comm(s->threads, pid, tid, comm, exec);
}

static int sc_mmap(void *ctx, const struct stream_mmap *m)
{
	struct script *s = ctx;

	if (s->o->all) {
		printf("%16s %5u ", "", m->tid);
		if (m->time != ~0ULL)
			print_time(m->time);
		printf("PERF_RECORD_MMAP %d/%d: [%#llx(%#llx) @ %#llx]: %s\n", (int)m->pid,
		       (int)m->tid, (unsigned long long)m->start, (unsigned long long)m->len,
		       (unsigned long long)m->pgoff, m->filename);
	}
	s->gen++;
	return threads__mmap(s->threads, m);
}

static int sc_task(void *ctx, const struct stream_task *t)
{
	struct script *s = ctx;

	if (s->o->all) {
		printf("%16s %5u ", "", t->tid);
		print_time(t->time);
		printf("PERF_RECORD_%s(%u:%u):(%u:%u)\n", t->fork ? "FORK" : "EXIT", t->pid, t->tid,
		       t->ppid, t->ptid);
	}
	s->gen++;
	return threads__task(s->threads, t, t->misc);
}

/* with --all: the records sc_comm, sc_mmap and sc_task do not print */
static int sc_raw(void *ctx, const struct perf_event_header *h, const void *rec)
{
	const char *name;

	switch (h->type) {
	case PERF_RECORD_SAMPLE:
	case PERF_RECORD_COMM:
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		return 0;
	default:
		name = perf_record__name(h->type);
		printf("%16s %5s PERF_RECORD_%s size %u\n", "", "", name ?: "UNKNOWN", h->size);
		return 0;
	}
}

static int run_script(const struct script_opts *o)
{
	struct script s = { .o = o };
	struct stream_ops ops = { .ctx = &s, .begin = sc_begin, .sample = sc_sample,
				  .comm = sc_comm, .mmap = sc_mmap, .task = sc_task,
				  .raw = o->all ? sc_raw : NULL };
	struct errbuf err = { "" };
	int ret;

	s.threads = threads__new();
	s.uw = unwinder__new(find_map, &s);
	if (!s.threads || !s.uw) {
		threads__delete(s.threads);
		unwinder__delete(s.uw);
		return 1;
	}
	trace_seq_init(&s.ts);
	ret = perf_file__process(o->input, &ops, &err);
	trace_seq_destroy(&s.ts);
	kallsyms__delete(s.ksyms);
	unwinder__delete(s.uw);
	threads__delete(s.threads);
	if (fflush(stdout) && !ret)
		ret = -EIO;
	if (ret < 0)
		fprintf(stderr, "schedlens script: %s\n", err.msg[0] ? err.msg : strerror(-ret));
	return ret ? 1 : 0;
}

static void usage(FILE *fp)
{
	fprintf(fp, "usage: schedlens script [-i FILE] [--all] [--kallsyms FILE]\n"
		    "  -i, --input FILE    perf.data file, '-' for stdin (default perf.data)\n"
		    "  -a, --all           also the records other than samples\n"
		    "      --kallsyms FILE the recording kernel's kallsyms, for addresses in\n"
		    "                      tracepoint fields (default: FILE.kallsyms, else\n"
		    "                      /proc/kallsyms when the file was recorded this boot)\n");
}

int cmd_script(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "all", no_argument, NULL, 'a' },
		{ "kallsyms", required_argument, NULL, 'K' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct script_opts o = { .input = "perf.data" };
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "i:ah", longopts, NULL)) != -1) {
		switch (c) {
		case 'i':
			o.input = optarg;
			break;
		case 'a':
			o.all = true;
			break;
		case 'K':
			o.kallsyms = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "schedlens script: unexpected argument '%s'\n", argv[optind]);
		usage(stderr);
		return 2;
	}
	return run_script(&o);
}
