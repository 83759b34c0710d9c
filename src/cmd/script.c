// SPDX-License-Identifier: GPL-2.0
/*
 * schedlens script: one line per sample like perf script (comm, tid, cpu, time, period,
 * event, address, DSO; tracepoint payloads formatted by libtraceevent; callchains below; for
 * raw events the data address, data_src and weight), the fields -F chooses as perf does
 * (script-fields.c), and with --all the other records too.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <trace-seq.h>

#include "cmd-int.h"
#include "schedlens/commands.h"
#include "schedlens/datasrc.h"
#include "schedlens/kallsyms.h"
#include "schedlens/perfdata.h"
#include "schedlens/sample-filter.h"
#include "schedlens/symbols.h"
#include "schedlens/threads.h"
#include "schedlens/util.h"

#include "script-int.h"

#define MAX_UNWOUND 127		/* perf's default callchain depth */
#define MAX_INLINES 64
/*
 * The memos' bounds: past a few MB what they keep costs more in fresh memory than the text
 * they save (on the bench's sched recording the tracepoint memo grew to 17.8 MB; bound to 8
 * MB, `script` took 8 MB less and 2-7% less CPU time, for 3% more instructions; to 2 MB,
 * with the payloads that seldom repeat printed without it, 4 MB less again for 3.5% more
 * instructions and no CPU time told apart)
 */
#define SCRIPT_TRACE_MEMO_BYTES (2u << 20)
#define SCRIPT_FRAME_MEMO_BYTES (4u << 20)	/* callchain addresses' text */
#define SCRIPT_BASE_LINES 64	/* frame bases kept by thread and mode */
#define SCRIPT_FRAME_ROOM (64u << 10)	/* the most one address prints, inlines and all */
#define SCRIPT_STARTS 256		/* lines of the sample starts' memo (print_start()) */

/* a sample's start as printed (comm, pid/tid, cpu), by what it is made of */
struct start_line {
	uint32_t pid, tid, cpu, fields;
	bool wide;			/* the comm in 16 columns */
	char comm[16];			/* NUL-padded */
	uint8_t len;			/* 0: empty */
	char text[95];
};

struct script_opts {
	const char *input;
	const char *kallsyms, *symfs, *vmlinux;
	bool all;
	bool inline_frames;		/* --inline: inlined functions in every callchain entry */
	bool no_demangle;
	bool ns, reltime, deltatime;	/* --ns; times from the first sample or the last one */
	long max_stack;			/* --max-stack: frames of a callchain printed */
	struct sample_filter_opts filter;	/* --time, -C, --pid, ..., -S */
	struct script_fields fields;	/* perf's defaults and the -F given */
};

/* a kernel module's name as perf prints it (kmod_name()), decided at its first map */
struct kmod_name {
	char *kmod;			/* "[usbnet]" */
	char *name;			/* "[usbnet]", or the file the header's build-ids name */
};

struct script {
	const struct script_opts *o;
	struct perf_file *file;
	struct script_fields f;
	const struct stream_info *info;
	struct threads *threads;
	struct trace_seq ts;
	struct trace_memo *memo;	/* tracepoint payloads printed before */
	struct frame_memo *frames;	/* addresses printed before (print_addr()) */
	struct kallsyms *ksyms;		/* for %pS in tracepoints (symbols__pick_kallsyms()): */
	char *ksyms_path;		/* read at the first, only as far as the addresses go */
	bool ksyms_failed;
	struct symbols *syms;		/* the sym field: report's symbols, the same input rules */
	struct tmap kallsyms_map;	/* the kernel's, as far as its kallsyms goes */
	struct errbuf *err;		/* why the file cannot be read */
	int name_width;
	int data_src_width;		/* perf pads data_src to the widest printed so far */
	struct kmod_name *kmods;
	size_t nr_kmods;
	bool bad_fields;		/* a field asked for that the samples lack */
	uint64_t nr_seen;		/* samples begun: what space_of() keeps is this one's */
	struct {
		uint64_t sample, v[2];
		uint16_t mode;
	} space;			/* space_of()'s last answer */
	struct base_line {
		uint64_t gen;		/* threads__generation() when it was found */
		uint32_t pid, tid, fields, base;	/* base 0: empty */
		uint16_t mode;
		bool callchain, inlines;
	} bases[SCRIPT_BASE_LINES];	/* frame_base()'s recent answers, direct mapped */
	struct sample_filter *filter;	/* NULL: every sample printed */
	uint64_t first_time, last_time;	/* --reltime's and --deltatime's */
	struct start_line *starts;	/* NULL: each start printed anew */
	struct {
		char *text;		/* "%*s: " of the name */
		size_t len;
	} *evnames;			/* by evsel idx, info->nr_evsels of them */
	size_t nr_evnames;
	uint64_t sec;			/* the second of the time printed last, */
	char sec_text[32];		/* as "%5lu." */
	size_t sec_len;
};

/*
 * libtraceevent's function resolver (%pS, %ps): the kallsyms perf would use, read when a
 * payload first needs it and then only as far as its addresses (kallsyms__load_upto()), so
 * that tracepoints without kernel addresses cost no read of it and those with call sites in
 * the core kernel read part of it
 */
static char *resolve_fn(void *priv, unsigned long long *addrp, char **modp)
{
	struct script *s = priv;
	struct errbuf err = { "" };
	const struct ksym *k;

	if (s->ksyms_failed || !*addrp)	/* (0: an empty pointer, no symbol's) */
		return NULL;
	if (!s->ksyms)
		s->ksyms = kallsyms__load_upto(s->ksyms_path, *addrp, &err);
	else if (!kallsyms__covers(s->ksyms, *addrp) && kallsyms__extend(s->ksyms, *addrp, &err)) {
		kallsyms__delete(s->ksyms);
		s->ksyms = NULL;
	}
	if (!s->ksyms) {
		fprintf(stderr, "schedlens script: warning: %s\n", err.msg);
		s->ksyms_failed = true;
		return NULL;
	}
	k = kallsyms__find(s->ksyms, *addrp);
	if (!k)
		return NULL;
	*addrp = k->addr;
	if (modp)
		*modp = *kallsyms__module(s->ksyms, k) ? (char *)kallsyms__module(s->ksyms, k) : NULL;
	return (char *)k->name;
}

/* symbols as report looks them up: the kallsyms, files and build-ids the input's origin allows */
static int symbols_begin(struct script *s, const struct stream_info *info)
{
	const struct perf_file_header *h = perf_file__header(s->file);
	struct symbols_config cfg = { .symfs = s->o->symfs, .vmlinux = s->o->vmlinux,
				      .kallsyms = s->o->kallsyms, .machine = s->threads };
	char cbuf[4096];

	cfg.cache_dir = symbols__cache_dir(cbuf, sizeof(cbuf));
	cfg.no_demangle = s->o->no_demangle;
	s->syms = symbols__new_input(&cfg, s->o->input, info, h->build_ids, h->nr_build_ids,
				     s->err);
	return s->syms ? 0 : -EINVAL;
}

static void evnames_free(struct script *s)
{
	size_t i;

	for (i = 0; i < s->nr_evnames; i++)
		free(s->evnames[i].text);
	free(s->evnames);
	s->evnames = NULL;
	s->nr_evnames = 0;
}

static int sc_begin(void *ctx, const struct stream_info *info)
{
	struct script *s = ctx;
	struct errbuf ferr = { "" };
	char kbuf[4096], wbuf[512];
	const char *ks;
	size_t i;

	s->info = info;
	if (sample_filter__check(s->filter, info, s->o->input, s->err))
		return -EINVAL;
	if (script_fields__check(&s->f, info, &ferr)) {
		fprintf(stderr, "schedlens script: %s\n", ferr.msg);
		s->bad_fields = true;
		return 2;
	}
	if (symbols_begin(s, info))
		return -ENOMEM;
	/* kernel addresses in payloads resolve as perf's do, through a kallsyms that names them */
	ks = info->tep ? symbols__pick_kallsyms(s->o->input, s->o->kallsyms, &info->origin, kbuf,
						sizeof(kbuf)) : NULL;
	if (ks) {
		s->ksyms_path = strdup(ks);
		if (!s->ksyms_path)
			return -ENOMEM;
		tep_set_function_resolver(info->tep, resolve_fn, s);
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
	/* the event field of a sample (out_pad() and ": "), made once per event */
	evnames_free(s);
	s->evnames = calloc(info->nr_evsels ?: 1, sizeof(*s->evnames));
	if (!s->evnames)
		return -ENOMEM;
	s->nr_evnames = info->nr_evsels;
	for (i = 0; i < info->nr_evsels; i++) {
		int n = asprintf(&s->evnames[i].text, "%*s: ", s->name_width, info->evsels[i].name);

		if (n < 0) {
			s->evnames[i].text = NULL;
			return -ENOMEM;
		}
		s->evnames[i].len = (size_t)n;
	}
	return 0;
}

/*
 * Output: perf script prints millions of lines, and printf's format parsing and stdio's
 * per-call work were most of script's time, so the fields are formatted here into one
 * buffer, handed to stdout when full and at the end
 */
static struct {
	char buf[1 << 18];
	size_t len;
	uint64_t flushes;	/* (what was written since a mark is in buf while it stays) */
	bool failed;		/* stdout took less than it was given */
} outb;

static void out_flush(void)
{
	if (outb.len && fwrite(outb.buf, 1, outb.len, stdout) != outb.len)
		outb.failed = true;
	outb.len = 0;
	outb.flushes++;
}

/* out_write() of what does not fit in the buffer's room */
static __attribute__((noinline)) void out_write_full(const char *p, size_t n)
{
	out_flush();
	if (n > sizeof(outb.buf)) {
		outb.flushes++;
		if (fwrite(p, 1, n, stdout) != n)
			outb.failed = true;
		return;
	}
	memcpy(outb.buf, p, n);
	outb.len = n;
}

static inline void out_write(const char *p, size_t n)
{
	if (__builtin_expect(outb.len + n > sizeof(outb.buf), 0)) {
		out_write_full(p, n);
		return;
	}
	memcpy(outb.buf + outb.len, p, n);
	outb.len += n;
}

static void out_c(char c)
{
	if (outb.len == sizeof(outb.buf))
		out_flush();
	outb.buf[outb.len++] = c;
}

static void out_str(const char *str)
{
	out_write(str, strlen(str));
}

/* room for @n more bytes in the buffer (at most its size): where they are */
static char *out_room(size_t n)
{
	if (outb.len + n > sizeof(outb.buf))
		out_flush();
	return outb.buf + outb.len;
}

static void out_chars(char c, int n)
{
	while (n > 0) {
		size_t k = (size_t)n < sizeof(outb.buf) ? (size_t)n : sizeof(outb.buf);

		memset(out_room(k), c, k);
		outb.len += k;
		n -= (int)k;
	}
}

static __attribute__((format(printf, 1, 2))) void out_fmt(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof(buf)) {
		out_write(buf, n);
		return;
	}
	out_flush();
	va_start(ap, fmt);
	if (vfprintf(stdout, fmt, ap) < 0)
		outb.failed = true;
	va_end(ap);
}

/* @n spaces at @d: past them */
static char *spaces(char *d, size_t n)
{
	while (n--)
		*d++ = ' ';
	return d;
}

/* %*s (@width > 0) and %-*s (@width < 0) */
static void out_pad(const char *str, int width)
{
	size_t n = strlen(str), w = (size_t)(width < 0 ? -(long)width : width);
	size_t pad = w > n ? w - n : 0;
	char *d;

	if (n + pad > 4096) {		/* (a long name: in pieces) */
		if (width > 0)
			out_chars(' ', (int)pad);
		out_write(str, n);
		if (width < 0)
			out_chars(' ', (int)pad);
		return;
	}
	d = out_room(n + pad);
	if (width > 0)
		d = spaces(d, pad);
	memcpy(d, str, n);
	d += n;
	if (width < 0)
		d = spaces(d, pad);
	outb.len = (size_t)(d - outb.buf);
}

/* how many digits @v has in base 10 or 16 */
static size_t num_len(uint64_t v, bool hex)
{
	static const uint64_t pow10[] = {
		10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
		100000000ull, 1000000000ull, 10000000000ull, 100000000000ull,
		1000000000000ull, 10000000000000ull, 100000000000000ull, 1000000000000000ull,
		10000000000000000ull, 100000000000000000ull, 1000000000000000000ull,
		10000000000000000000ull,
	};
	size_t n = 1;

	if (hex)
		return v ? (size_t)(64 - __builtin_clzll(v) + 3) / 4 : 1;
	while (n <= sizeof(pow10) / sizeof(pow10[0]) && v >= pow10[n - 1])
		n++;
	return n;
}

/* @v's digits, at least @digits of them (zeros before), ending at @end */
static char *fmt_num(uint64_t v, bool hex, int digits, char *end)
{
	char *p = end;

	if (hex) {
		do {
			*--p = "0123456789abcdef"[v & 15];
			v >>= 4;
		} while (v);
	} else {
		p = fmt_dec_back(v, p);
	}
	while (end - p < digits)
		*--p = '0';
	return p;
}

/*
 * @v in base 10 or 16 (lower case), at least @digits digits, in @width (< 0: left), written
 * in place; @digits and @width are script's field sizes, at most 24 and 64 taken
 */
static void out_num(uint64_t v, bool hex, int digits, int width)
{
	size_t n = num_len(v, hex), w = (size_t)(width < 0 ? -(long)width : width), pad;
	char *d;

	if (digits > 0 && n < (size_t)digits)
		n = (size_t)(digits < 24 ? digits : 24);
	w = w < 64 ? w : 64;
	pad = w > n ? w - n : 0;
	d = out_room(n + pad);
	if (width > 0)
		d = spaces(d, pad);
	fmt_num(v, hex, (int)n, d + n);	/* (exactly n: the digits and the zeros before) */
	d += n;
	if (width < 0)
		d = spaces(d, pad);
	outb.len = (size_t)(d - outb.buf);
}

/* @v, below 10^@digits, in @digits digits with zeros before (%06lu, %09llu) */
static void out_fixed(uint64_t v, int digits)
{
	char *d = out_room((size_t)digits);

	fmt_num(v, false, digits, d + digits);
	outb.len += (size_t)digits;
}

/* %*d and %-*d */
static void out_int(int v, int width)
{
	char buf[16];

	if (v >= 0) {
		out_num((uint64_t)v, false, 1, width);
		return;
	}
	snprintf(buf, sizeof(buf), "%d", v);
	out_pad(buf, width);
}

/* perf_sample__fprintf_start()'s time: %5lu.%06lu (%09llu with --ns), --reltime from the
 * first one printed, --deltatime from the one before */
static void print_time(struct script *s, uint64_t t)
{
	if (s->o->reltime) {
		if (!s->first_time)
			s->first_time = t;
		t -= s->first_time;
	} else if (s->o->deltatime) {
		uint64_t prev = s->last_time;

		s->last_time = t;
		t = prev ? t - prev : 0;
	}
	if (t / 1000000000 != s->sec || !s->sec_len) {	/* (seconds change seldom) */
		s->sec = t / 1000000000;
		s->sec_len = (size_t)snprintf(s->sec_text, sizeof(s->sec_text), "%5llu.",
					      (unsigned long long)s->sec);
	}
	if (s->o->ns || s->sec_len > 16) {
		out_write(s->sec_text, s->sec_len);
		if (s->o->ns)
			out_fixed(t % 1000000000, 9);
		else
			out_fixed(t % 1000000000 / 1000, 6);
		out_write(": ", 2);
		return;
	}
	/* the common case in a few fixed moves: the seconds (sec_text holds 16 bytes and
	 * more), the microseconds two digits a step */
	{
		uint32_t us = (uint32_t)(t % 1000000000 / 1000);
		char *d = out_room(16 + 8);

		memcpy(d, s->sec_text, 16);
		d += s->sec_len;
		memcpy(d, &fmt_digit_pairs[us / 10000 * 2], 2);
		memcpy(d + 2, &fmt_digit_pairs[us / 100 % 100 * 2], 2);
		memcpy(d + 4, &fmt_digit_pairs[us % 100 * 2], 2);
		memcpy(d + 6, ": ", 2);
		outb.len += s->sec_len + 8;
	}
}

/*
 * perf's kmod_path__parse_name(): the "[name]" of a kernel module's file (its base name less
 * .ko and a .gz or .xz, '-' made '_'), or of a "[name]" that is not the kernel's or a vdso
 */
static bool kmod_name(const char *path, char *buf, size_t size)
{
	static const char *const special[] = { "[kernel.kallsyms]", "[guest.kernel.kallsyms",
					       "[vdso]", "[vdso32]", "[vdsox32]", "[vsyscall]" };
	const char *name = strrchr(path, '/'), *ext = strrchr(path, '.');
	size_t i;
	char *p;

	name = name ? name + 1 : path;
	if (name[0] == '[') {
		for (i = 0; i < sizeof(special) / sizeof(special[0]); i++)
			if (!strncmp(name, special[i], strlen(special[i])))
				return false;
		snprintf(buf, size, "%s", name);
		return true;
	}
	if (!ext)
		return false;
	if ((!strcmp(ext, ".gz") || !strcmp(ext, ".xz")) && ext - name >= 3)
		ext -= 3;
	if (ext <= name || strncmp(ext, ".ko", 3))
		return false;
	snprintf(buf, size, "[%.*s]", (int)(ext - name), name);
	for (p = buf; *p; p++)
		if (*p == '-')
			*p = '_';
	return true;
}

/*
 * The name perf prints for a module: its DSO is made at the module's first map, named
 * "[name]", unless a build-id read before (the header's, or a pipe's BUILD_ID record) made
 * it first, under the file name the build-id gives
 */
static const char *kmod_dso_name(struct script *s, const char *path)
{
	const struct perf_file_header *h = perf_file__header(s->file);
	char kmod[256], bk[256];
	const char *name;
	size_t i;
	void *n;

	if (!kmod_name(path, kmod, sizeof(kmod)))
		return NULL;
	for (i = 0; i < s->nr_kmods; i++)
		if (!strcmp(s->kmods[i].kmod, kmod))
			return s->kmods[i].name;
	name = kmod;
	for (i = 0; i < h->nr_build_ids; i++) {
		const struct perf_build_id *b = &h->build_ids[i];

		if ((b->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL &&
		    b->filename && kmod_name(b->filename, bk, sizeof(bk)) && !strcmp(bk, kmod)) {
			name = b->filename;
			break;
		}
	}
	n = realloc(s->kmods, (s->nr_kmods + 1) * sizeof(*s->kmods));
	if (!n)
		return NULL;
	s->kmods = n;
	s->kmods[s->nr_kmods].kmod = strdup(kmod);
	s->kmods[s->nr_kmods].name = strdup(name);
	if (!s->kmods[s->nr_kmods].kmod || !s->kmods[s->nr_kmods].name) {
		free(s->kmods[s->nr_kmods].kmod);
		free(s->kmods[s->nr_kmods].name);
		return NULL;
	}
	return s->kmods[s->nr_kmods++].name;
}

/* map__fprintf_dsoname(): the kernel and modules by perf's DSO names, the others' paths */
static const char *dso_name(struct script *s, const struct taddr *al)
{
	const char *name;

	if (!al->map)
		return "[unknown]";
	if (!strcmp(al->map->dso, "[kernel.kallsyms]"))
		return al->map->dso;
	if (al->level == 'k' && (name = kmod_dso_name(s, al->map->path)))
		return name;
	return al->map->path;
}

/*
 * threads__resolve(), and where it finds no map for a kernel address that the kernel's
 * kallsyms names, the kernel's: perf stretches the kernel map over its kallsyms symbols once
 * it has read them (map__fixup_start(), map__fixup_end()), so that init text, as in the idle
 * task's callchain, past the text the recorded map covers is the kernel's too
 */
static void find(struct script *s, const struct stream_sample *x, uint16_t mode, uint64_t addr,
		 struct taddr *al)
{
	struct sym_loc loc;

	if (threads__resolve(s->threads, x->pid, x->tid, mode, addr, al))
		al->map = NULL;
	if (al->map || (mode & PERF_RECORD_MISC_CPUMODE_MASK) != PERF_RECORD_MISC_KERNEL)
		return;
	symbols__resolve(s->syms, x->pid, addr, PERF_RECORD_MISC_KERNEL, 0, &loc);
	if (loc.sym && sym_dso__status(loc.dso) == SYM_DSO_KALLSYMS) {
		s->kallsyms_map = (struct tmap){ 0, ~0ULL, 0, "[kernel.kallsyms]",
						 "[kernel.kallsyms]", true, NULL };
		al->map = &s->kallsyms_map;
		al->addr = addr;
		al->level = 'k';
	}
}

/*
 * __symbol__fprintf_symname_offs(): @name (the symbol of @l, or an inlined function's),
 * "+0x" and the offset from the symbol's start with symoff; [unknown] without a symbol
 */
static void print_sym(const struct sym_loc *l, const char *name, uint32_t fields)
{
	if (!(fields & SF_SYM))
		return;
	if (!l->sym) {
		out_str(" [unknown]");
		return;
	}
	out_c(' ');
	out_str(name);
	if (fields & SF_SYMOFF) {
		out_str("+0x");
		out_num(l->addr - l->sym_start, true, 1, 0);
	}
}

/*
 * One address as perf's sample__fprintf_sym() prints it with the ip, sym and dso fields
 * chosen. User callchain entries print map-relative, kernel ones (the kernel and its
 * modules, whose maps perf keeps at their addresses) and the sample's ip as they are.
 * perf looks return addresses up as they are, not at ip - 1. With @inlines (the frames
 * of a DWARF unwinding, perf's append_inlines()), an address with line information prints
 * one line per function addr2line names there: those not the symbol's as "(inlined)",
 * without the DSO.
 */
static void print_addr_now(struct script *s, const struct stream_sample *x, uint64_t addr,
			   uint16_t misc, bool callchain, bool inlines)
{
	uint32_t fields = s->f.out[script_output_type(x->evsel->attr.type)].fields;
	uint16_t mode = misc & PERF_RECORD_MISC_CPUMODE_MASK;
	const char *names[MAX_INLINES];
	struct sym_loc loc = { 0 };
	struct taddr al;
	size_t n = 0, i;

	find(s, x, mode, addr, &al);
	if (al.map && ((fields & SF_SYM) || inlines))
		symbols__resolve(s->syms, x->pid, addr, mode, 0, &loc);
	if (inlines)
		n = symbols__inlines(s->syms, &loc, names, MAX_INLINES);
	for (i = 0; i < (n ? n : 1); i++) {
		bool inlined = n && strcmp(names[i], loc.sym);

		if (fields & SF_IP) {
			if (callchain)
				out_c('\t');
			out_num(callchain && al.map && al.level != 'k' ? al.addr : addr, true, 1, 16);
		}
		print_sym(&loc, n ? names[i] : loc.sym, fields);
		if ((fields & SF_DSO) && !inlined) {
			out_str(" (");
			out_str(dso_name(s, &al));
			out_c(')');
		}
		if (inlined)
			out_str(" (inlined)");
		if (i + 1 < n)
			out_c('\n');
	}
}

/* what print_addr() prints is a function of these and the address: its memo's base */
struct frame_key {
	uint64_t space[2];		/* threads__space()'s versions */
	uint32_t fields;
	uint16_t mode;
	bool callchain, inlines;
};

/*
 * threads__space() of sample @x's thread in @mode, kept for the sample's other frames: its
 * frames are printed one after another and change no address space. 0 or -ENOMEM.
 */
static int space_of(struct script *s, const struct stream_sample *x, uint16_t mode,
		    uint64_t v[2])
{
	int ret;

	if (s->space.sample == s->nr_seen && s->space.mode == mode) {
		v[0] = s->space.v[0];
		v[1] = s->space.v[1];
		return 0;
	}
	ret = threads__space(s->threads, x->pid, x->tid, mode, v);
	if (!ret) {
		s->space.sample = s->nr_seen;
		s->space.mode = mode;
		s->space.v[0] = v[0];
		s->space.v[1] = v[1];
	}
	return ret;
}

/* what a sample's frames in one mode share: the base of their memo's keys */
struct frame_base {
	uint32_t base;			/* 0: printed without the memo */
	uint16_t misc;			/* for print_addr_now() */
	bool callchain, inlines;
};

/*
 * The base of sample @x's frames in @misc's mode: found by the thread, mode and fields while
 * no address space changed (a thread's samples come in runs, its frames one after another),
 * else numbered from threads__space()'s versions.
 */
static void frame_base(struct script *s, const struct stream_sample *x, uint16_t misc,
		       bool callchain, bool inlines, struct frame_base *b)
{
	uint16_t mode = misc & PERF_RECORD_MISC_CPUMODE_MASK;
	uint32_t fields = s->f.out[script_output_type(x->evsel->attr.type)].fields;
	uint64_t gen = threads__generation(s->threads), h;
	struct base_line *l = &s->bases[(x->tid ^ x->tid >> 6 ^ (uint32_t)mode << 3 ^
					 (uint32_t)inlines << 5) % SCRIPT_BASE_LINES];
	struct frame_key k;

	b->callchain = callchain;
	b->inlines = inlines;
	b->misc = misc;
	b->base = 0;
	if (l->base && l->gen == gen && l->tid == x->tid && l->pid == x->pid &&
	    l->mode == mode && l->fields == fields && l->callchain == callchain &&
	    l->inlines == inlines) {
		b->base = l->base;
		return;
	}
	memset(&k, 0, sizeof(k));	/* (the padding too: the key is its bytes) */
	k.mode = mode;
	k.fields = fields;
	k.callchain = callchain;
	k.inlines = inlines;
	if (!s->frames || space_of(s, x, k.mode, k.space))
		return;
	h = k.space[0] * 0xc4ceb9fe1a85ec53ull ^ k.space[1] * 0xff51afd7ed558ccdull ^
	    (uint64_t)k.fields << 20 ^ k.mode ^ (uint64_t)k.callchain << 8 ^
	    (uint64_t)k.inlines << 9;
	b->base = frame_memo__base(s->frames, &k, h ^ h >> 29);
	if (b->base)
		*l = (struct base_line){ gen, x->pid, x->tid, fields, b->base, mode, callchain,
					 inlines };
}

/* print_frame() of an address the memo does not have (or without the memo) */
static __attribute__((noinline)) void print_frame_now(struct script *s,
						      const struct stream_sample *x,
						      const struct frame_base *b, uint64_t addr)
{
	size_t start;
	uint64_t flushes;

	if (sizeof(outb.buf) - outb.len < SCRIPT_FRAME_ROOM)
		out_flush();
	start = outb.len;
	flushes = outb.flushes;
	print_addr_now(s, x, addr, b->misc, b->callchain, b->inlines);
	if (b->callchain)
		out_c('\n');
	if (b->base && outb.flushes == flushes && outb.len >= start)
		frame_memo__put(s->frames, b->base, addr, outb.buf + start,
				(uint32_t)(outb.len - start));
}

/*
 * print_addr_now()'s text of an address, kept by its base and address: a callchain's
 * addresses recur sample after sample, and looking each up and formatting it was most of
 * script's time. A callchain's frame is a line: its text ends with the newline.
 */
static inline void print_frame(struct script *s, const struct stream_sample *x,
			       const struct frame_base *b, uint64_t addr)
{
	const char *text;
	uint32_t tlen;

	if (b->base && (text = frame_memo__get(s->frames, b->base, addr, &tlen)))
		out_write(text, tlen);
	else
		print_frame_now(s, x, b, addr);
}

static void print_addr(struct script *s, const struct stream_sample *x, uint64_t addr,
		       uint16_t misc, bool callchain, bool inlines)
{
	struct frame_base b;

	frame_base(s, x, misc, callchain, inlines, &b);
	print_frame(s, x, &b, addr);
}

static void print_callchain(struct script *s, const struct stream_sample *x)
{
	uint16_t misc = x->misc & ~PERF_RECORD_MISC_CPUMODE_MASK;
	uint16_t mode = x->misc & PERF_RECORD_MISC_CPUMODE_MASK, base_mode = UINT16_MAX;
	uint64_t i, ips[MAX_UNWOUND];
	long left = s->o->max_stack;	/* perf's --max-stack: the chain's, then the unwinding's */
	struct frame_base b;
	size_t n;

	out_c('\n');
	if (!symbols__chain_ok_upto(x, (size_t)s->o->max_stack))
		return;		/* perf discards a chain with a context it does not know */
	for (i = 0; i < x->nr_callchain; i++) {
		uint64_t ip = x->callchain[i];

		if (ip >= PERF_CONTEXT_MAX) {
			if (ip == PERF_CONTEXT_KERNEL)
				mode = PERF_RECORD_MISC_KERNEL;
			else if (ip == PERF_CONTEXT_USER)
				mode = PERF_RECORD_MISC_USER;
			continue;
		}
		if (left-- <= 0)
			break;
		if (mode != base_mode) {	/* (a chain changes mode once or twice) */
			frame_base(s, x, misc | mode, true, s->o->inline_frames, &b);
			base_mode = mode;
		}
		print_frame(s, x, &b, ip);
	}
	/* the user part of a --call-graph dwarf sample: unwound from its registers and stack,
	 * through the maps and files the symbols read (the vDSO's image too) */
	n = symbols__unwind(s->syms, x, ips,
			    s->o->max_stack < MAX_UNWOUND ? (size_t)s->o->max_stack : MAX_UNWOUND);
	if (n)
		frame_base(s, x, misc | PERF_RECORD_MISC_USER, true, true, &b);
	for (i = 0; i < n; i++)
		print_frame(s, x, &b, ips[i]);
}

/* comm, pid/tid and cpu of perf_sample__fprintf_start() */
static void print_start_now(const struct stream_sample *x, const char *comm, uint32_t fields,
			    bool wide)
{
	if (fields & SF_COMM) {
		out_pad(comm, wide ? 16 : 0);
		out_c(' ');
	}
	if ((fields & SF_PID) && (fields & SF_TID)) {
		out_int((int)x->pid, 5);
		out_c('/');
		out_int((int)x->tid, -5);
		out_c(' ');
	} else if (fields & (SF_PID | SF_TID)) {
		out_int((int)(fields & SF_PID ? x->pid : x->tid), 5);
		out_c(' ');
	}
	if (fields & SF_CPU) {
		out_c('[');
		out_num(x->cpu, false, 3, 0);
		out_str("] ");
	}
}

/*
 * perf_sample__fprintf_start(): comm, pid/tid, cpu, time; the part before the time kept by
 * what it is made of, since a task's samples on a CPU come in runs
 */
static void print_start(struct script *s, const struct stream_sample *x,
			const char *comm, uint32_t fields)
{
	const struct perf_event_attr *a = &x->evsel->attr;
	bool wide = !((fields & SF_IP) && (a->sample_type & PERF_SAMPLE_CALLCHAIN) &&
		      s->f.use_callchain);
	size_t clen = fields & SF_COMM ? strnlen(comm, 16) : 0, start;
	struct start_line *l;
	uint64_t flushes;

	if (!s->starts || clen == 16) {
		print_start_now(x, comm, fields, wide);
		goto time;
	}
	l = &s->starts[(x->tid * 0x9e3779b1u ^ x->cpu) % SCRIPT_STARTS];
	if (l->len && l->tid == x->tid && l->cpu == x->cpu && l->pid == x->pid &&
	    l->fields == fields && l->wide == wide && !l->comm[clen] &&
	    !memcmp(l->comm, comm, clen)) {
		out_write(l->text, l->len);
		goto time;
	}
	out_room(sizeof(l->text));
	start = outb.len;
	flushes = outb.flushes;
	print_start_now(x, comm, fields, wide);
	l->len = 0;
	if (outb.flushes == flushes && outb.len - start < sizeof(l->text)) {
		*l = (struct start_line){ .pid = x->pid, .tid = x->tid, .cpu = x->cpu,
					  .fields = fields, .wide = wide,
					  .len = (uint8_t)(outb.len - start) };
		memcpy(l->comm, comm, clen);
		memcpy(l->text, outb.buf + start, l->len);
	}
time:
	if (fields & SF_TIME)
		print_time(s, x->time);
}

/* perf_sample__fprintf_addr(): a page fault's address is resolved like an ip */
static void print_sample_addr(struct script *s, const struct stream_sample *x, uint32_t fields)
{
	const struct perf_event_attr *a = &x->evsel->attr;
	uint16_t mode = x->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	struct sym_loc loc = { 0 };
	struct taddr al;

	out_fmt("%16llx", (unsigned long long)x->addr);
	if (a->type != PERF_TYPE_SOFTWARE || (a->config != PERF_COUNT_SW_PAGE_FAULTS &&
					      a->config != PERF_COUNT_SW_PAGE_FAULTS_MIN &&
					      a->config != PERF_COUNT_SW_PAGE_FAULTS_MAJ))
		return;
	/* thread__find_map_fb(): the sample's cpumode, else the one the address is in */
	find(s, x, mode, x->addr, &al);
	if (!al.map && (mode == PERF_RECORD_MISC_KERNEL || mode == PERF_RECORD_MISC_USER)) {
		uint16_t other = x->addr >> 63 ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;

		if (other != mode)
			find(s, x, other, x->addr, &al);
		mode = other;
	}
	if (al.map && (fields & SF_SYM))
		symbols__resolve(s->syms, x->pid, x->addr, mode, 0, &loc);
	print_sym(&loc, loc.sym, fields);
	if (fields & SF_DSO)
		out_fmt(" (%s)", dso_name(s, &al));
}

static void print_data_src(struct script *s, uint64_t data_src)
{
	char decode[128], out[160];
	int n;

	data_src__scnprintf(decode, sizeof(decode), data_src);
	n = snprintf(out, 100, "%16llx %s", (unsigned long long)data_src, decode);
	if (n > 99)
		n = 99;
	if (n > s->data_src_width)
		s->data_src_width = n;
	out_fmt("%-*s", s->data_src_width, out);
}

static void print_trace(struct script *s, const struct stream_sample *x)
{
	struct tep_record rec = { .ts = x->time, .cpu = x->cpu, .size = x->raw_size,
				  .data = (void *)x->raw };
	const char *text;
	size_t len;

	text = trace_memo__print(s->memo, s->info->tep, &s->ts, &rec, &len);
	out_write(text, len);
}

/* perf's --dsos and --symbols: the sampled address's map (short or recorded name; none
 * without one) and symbol (machine__resolve()'s al->filtered) */
static bool place_wanted(struct script *s, const struct stream_sample *x)
{
	struct sym_loc loc = { 0 };
	struct taddr al;

	find(s, x, x->misc, x->ip, &al);
	if (al.map)
		symbols__resolve(s->syms, x->pid, x->ip, x->misc & PERF_RECORD_MISC_CPUMODE_MASK, 0,
				 &loc);
	return sample_filter__place_ok(s->filter, al.map ? al.map->dso : NULL,
				       al.map ? al.map->path : NULL, loc.sym);
}

/* perf script's process_event(): the fields in its order */
static int sc_sample(void *ctx, const struct stream_sample *x)
{
	struct script *s = ctx;
	const struct stream_evsel *e = x->evsel;
	uint32_t fields = s->f.out[script_output_type(e->attr.type)].fields;
	uint64_t st = e->attr.sample_type;
	const char *comm;

	if (!fields)
		return 0;
	s->nr_seen++;
	comm = threads__comm_of(s->threads, x->pid, x->tid);
	if (!comm)
		return -ENOMEM;
	if (!sample_filter__wants(s->filter, x, comm) ||
	    (sample_filter__by_place(s->filter) && !place_wanted(s, x)))
		return 0;
	print_start(s, x, comm, fields);
	/* a period not sampled is the attr's (perf record -c leaves PERIOD out) */
	if (fields & SF_PERIOD) {
		out_num(st & PERF_SAMPLE_PERIOD ? x->period : e->attr.sample_period, false, 1, 10);
		out_c(' ');
	}
	if (fields & SF_EVNAME) {
		if (e->idx >= 0 && (size_t)e->idx < s->nr_evnames) {
			out_write(s->evnames[e->idx].text, s->evnames[e->idx].len);
		} else {
			out_pad(e->name, s->name_width);
			out_str(": ");
		}
	}
	if ((fields & SF_TRACE) && x->raw && e->tp && s->info->tep)
		print_trace(s, x);
	if (fields & SF_ADDR)
		print_sample_addr(s, x, fields);
	if (fields & SF_DATA_SRC)
		print_data_src(s, x->data_src);
	/* perf's x86 build reads a WEIGHT_STRUCT's first 32 bits as the weight */
	if (fields & SF_WEIGHT)
		out_fmt("%16llu", (unsigned long long)(st & PERF_SAMPLE_WEIGHT ? x->weight :
						      (uint32_t)x->weight));
	if (fields & SF_IP) {
		/* perf's unwinding of a DWARF sample fails with --max-stack 0: no chain, the
		 * ip on the line */
		bool unwound = (st & PERF_SAMPLE_REGS_USER) && (st & PERF_SAMPLE_STACK_USER) &&
			       x->user_regs_abi && x->user_stack_size;

		if (s->f.use_callchain && (st & PERF_SAMPLE_CALLCHAIN) &&
		    !(unwound && !s->o->max_stack)) {
			print_callchain(s, x);
		} else {
			out_c(' ');
			print_addr(s, x, x->ip, x->misc, false, false);
		}
	}
	out_c('\n');
	return 0;
}

static int sc_comm(void *ctx, uint32_t pid, uint32_t tid, const char *comm, bool exec,
		   uint64_t time)
{
	struct script *s = ctx;

	if (s->o->all) {
		out_fmt("%16s %5u ", comm, tid);
		if (time != ~0ULL)
			print_time(s, time);
		out_fmt("PERF_RECORD_COMM%s: %s:%u/%u\n", exec ? " exec" : "", comm, pid, tid);
	}
	return threads__comm(s->threads, pid, tid, comm, exec);
}

static int sc_mmap(void *ctx, const struct stream_mmap *m)
{
	struct script *s = ctx;

	if (s->o->all) {
		out_fmt("%16s %5u ", "", m->tid);
		if (m->time != ~0ULL)
			print_time(s, m->time);
		out_fmt("PERF_RECORD_MMAP %d/%d: [%#llx(%#llx) @ %#llx]: %s\n", (int)m->pid,
		       (int)m->tid, (unsigned long long)m->start, (unsigned long long)m->len,
		       (unsigned long long)m->pgoff, m->filename);
	}
	return threads__mmap(s->threads, m);
}

static int sc_task(void *ctx, const struct stream_task *t)
{
	struct script *s = ctx;

	if (s->o->all) {
		out_fmt("%16s %5u ", "", t->tid);
		print_time(s, t->time);
		out_fmt("PERF_RECORD_%s(%u:%u):(%u:%u)\n", t->fork ? "FORK" : "EXIT", t->pid, t->tid,
		       t->ppid, t->ptid);
	}
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
		out_fmt("%16s %5s PERF_RECORD_%s size %u\n", "", "", name ?: "UNKNOWN", h->size);
		return 0;
	}
}

static int run_script(const struct script_opts *o)
{
	struct script s = { .o = o, .f = o->fields };
	struct stream_ops ops = { .ctx = &s, .begin = sc_begin, .sample = sc_sample,
				  .comm = sc_comm, .mmap = sc_mmap, .task = sc_task,
				  .raw = o->all ? sc_raw : NULL };
	struct cmd_progress progress;
	struct errbuf err = { "" };
	size_t i;
	int ret;

	s.err = &err;
	s.filter = sample_filter__new(&o->filter, &ret, &err);
	if (ret)
		goto out_delete;
	s.threads = threads__new();
	if (!s.threads) {
		ret = -ENOMEM;
		goto out_delete;
	}
	ret = perf_file__open(&s.file, o->input, &err);
	if (ret)
		goto out_delete;
	trace_seq_init(&s.ts);
	s.memo = trace_memo__new(SCRIPT_TRACE_MEMO_BYTES);	/* NULL: printed each time */
	s.frames = frame_memo__new(SCRIPT_FRAME_MEMO_BYTES, sizeof(struct frame_key));
	s.starts = calloc(SCRIPT_STARTS, sizeof(*s.starts));	/* NULL: printed each time */
	cmd_progress__attach(&progress, s.file, o->input);
	ret = perf_file__run(s.file, &ops, &err);
	cmd_progress__end(&progress);
	trace_seq_destroy(&s.ts);
	trace_memo__delete(s.memo);
	frame_memo__delete(s.frames);
	perf_file__delete(s.file);
	kallsyms__delete(s.ksyms);
	free(s.ksyms_path);
	free(s.starts);
	evnames_free(&s);
	if (s.syms)
		symbols__cache_save(s.syms);	/* a cache: what cannot be written is looked up again */
	symbols__delete(s.syms);
	for (i = 0; i < s.nr_kmods; i++) {
		free(s.kmods[i].kmod);
		free(s.kmods[i].name);
	}
	free(s.kmods);
out_delete:
	threads__delete(s.threads);
	sample_filter__delete(s.filter);
	out_flush();
	if ((fflush(stdout) || outb.failed) && !ret)
		ret = -EIO;
	if (ret < 0)
		fprintf(stderr, "schedlens script: %s\n", err.msg[0] ? err.msg : strerror(-ret));
	if (s.bad_fields)
		return 2;
	return ret ? 1 : 0;
}

static const char *const script_usage[] = {
	"usage: schedlens script [-i FILE] [-F FIELDS] [--all] [--kallsyms FILE]",
	"                        [--symfs DIR] [--vmlinux FILE] [--inline] [-G] [--ns]",
	"                        [--reltime|--deltatime] [-C CPUS] [--pid PIDS]",
	"                        [--tid TIDS] [--comms COMMS] [--time START,STOP]",
	"                        [--dsos DSOS] [-S SYMBOLS]",
	NULL
};

/* -F FIELDS: perf script's field list, applied to the ones before */
static int opt_fields(const struct option *opt, const char *arg, struct errbuf *err)
{
	return script_fields__parse(opt->data, arg, err);
}

int cmd_script(int argc, char **argv)
{
	struct script_opts o = { .input = "perf.data", .max_stack = MAX_UNWOUND };
	const struct option opts[] = {
		OPT_STRING('i', "input", &o.input, "FILE",
			   "perf.data file, '-' for stdin (default perf.data)"),
		OPT_CALLBACK('F', "fields", &o.fields, opt_fields, "LIST",
			     "fields as perf script's: comm, tid, pid, time, cpu,\n"
			     "event, trace, ip, sym, symoff, dso, addr, period,\n"
			     "data_src, weight, callindent; +f adds, -f removes,\n"
			     "TYPE:LIST (hw, sw, trace, raw, break) sets one type's"),
		OPT_FLAG('a', "all", &o.all, "also the records other than samples"),
		OPT_STRING(0, "kallsyms", &o.kallsyms, "FILE",
			   "the recording kernel's kallsyms, for kernel symbols\n"
			   "and addresses in tracepoint fields (default:\n"
			   "FILE.kallsyms, else /proc/kallsyms when the file\n"
			   "was recorded this boot)"),
		OPT_STRING(0, "symfs", &o.symfs, "DIR", "look for DSOs and debug files under DIR"),
		OPT_STRING(0, "vmlinux", &o.vmlinux, "FILE",
			   "kernel symbols from a vmlinux (default: the recorded\n"
			   "kernel's, by its build-id, where perf looks for it)"),
		OPT_FLAG(0, "no-demangle", &o.no_demangle,
			 "C++ names as the symbol table has them"),
		OPT_FLAG(0, "inline", &o.inline_frames,
			 "the functions inlined at each callchain entry, as\n"
			 "addr2line -i names them (perf 6.1: DWARF-unwound only)"),
		OPT_FLAG_OFF('G', "hide-call-graph", &o.fields.use_callchain,
			     "the sampled address alone, not the callchain"),
		OPT_FLAG(0, "ns", &o.ns, "times in nanoseconds (9 decimals)"),
		OPT_INT(0, "max-stack", &o.max_stack, 0, LONG_MAX, "N",
			"callchain frames printed at most (default 127, as perf)"),
		OPT_FLAG(0, "reltime", &o.reltime, "times from the first sample's"),
		OPT_FLAG(0, "deltatime", &o.deltatime, "times from the sample before's"),
		CMD_SAMPLE_FILTER_OPTS(&o.filter),
		OPT_STRING(0, "dsos", &o.filter.dsos, "DSOS",
			   "samples in these DSOs only (a short or recorded name)"),
		OPT_STRING('S', "symbols", &o.filter.symbols, "SYMBOLS",
			   "samples in these functions only"),
		OPT_END(),
	};
	const struct cmd_options cmd = { "schedlens script", script_usage, opts,
					 OPTIONS_NO_ARGUMENTS };
	int code;

	script_fields__init(&o.fields);
	if (cmd_options__parse(&cmd, argc, argv, &code) < 0)
		return code;
	return run_script(&o);
}
