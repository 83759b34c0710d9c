// SPDX-License-Identifier: GPL-2.0
/*
 * perf.data reader and writer: synthetic files in both byte orders, time ordering, bad
 * input, and a fixture copied through the writer and read back. With PERFDATA_KEEP=DIR the
 * written files stay in DIR (tests/shell/perfdata-roundtrip.sh hands them to perf).
 */
#include <byteswap.h>
#include <check.h>

#include "skip.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "schedlens/perfdata.h"
#include "schedlens/topology.h"

static char tmpdir[256];

static const char *tmp_path(const char *name)
{
	static char p[512];

	snprintf(p, sizeof(p), "%s/%s", tmpdir, name);
	return p;
}

static const char *fixtures_dir(void)
{
	return getenv("FIXTURES") ?: "../shared/fixtures";
}

static const char *fixture(const char *name)
{
	static char p[512];

	snprintf(p, sizeof(p), "%s/%s", fixtures_dir(), name);
	return p;
}

/* the fixtures are in shared/, beside the checkout: a test that reads them skips without */
#define need_fixtures()                                                            \
	do {                                                                       \
		if (access(fixtures_dir(), R_OK))                                  \
			ck_skip("fixtures not found at '%s'", fixtures_dir());     \
	} while (0)

/* what a reader saw */
struct seen {
	size_t begins, ends, samples, comms, mmaps, tasks, lost;
	uint64_t last_time, out_of_order, sum_ip, sum_period;
	size_t per_evsel[16];
	char comm[32], mmap_name[64];
	uint32_t pid, tid, cpu;
};

static int s_begin(void *ctx, const struct stream_info *info)
{
	((struct seen *)ctx)->begins++;
	return 0;
}

static int s_sample(void *ctx, const struct stream_sample *s)
{
	struct seen *x = ctx;

	x->samples++;
	if (s->evsel->idx < 16)
		x->per_evsel[s->evsel->idx]++;
	if (s->time < x->last_time)
		x->out_of_order++;
	x->last_time = s->time;
	x->sum_ip += s->ip;
	x->sum_period += s->period;
	x->pid = s->pid;
	x->tid = s->tid;
	x->cpu = s->cpu;
	return 0;
}

static int s_comm(void *ctx, uint32_t pid, uint32_t tid, const char *comm, bool exec,
		  uint64_t time)
{
	struct seen *x = ctx;

	x->comms++;
	snprintf(x->comm, sizeof(x->comm), "%s", comm);
	return 0;
}

static int s_mmap(void *ctx, const struct stream_mmap *m)
{
	struct seen *x = ctx;

	x->mmaps++;
	snprintf(x->mmap_name, sizeof(x->mmap_name), "%s", m->filename);
	return 0;
}

static int s_end(void *ctx, const struct stream_stats *st)
{
	((struct seen *)ctx)->ends++;
	return 0;
}

static const struct stream_ops seen_ops = {
	.begin = s_begin, .sample = s_sample, .comm = s_comm, .mmap = s_mmap, .end = s_end,
};

static int read_file(const char *path, struct seen *x, struct errbuf *err)
{
	struct stream_ops ops = seen_ops;

	memset(x, 0, sizeof(*x));
	ops.ctx = x;
	return perf_file__process(path, &ops, err);
}

/* ---- synthetic records ---- */

#define ST (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | \
	    PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD)

struct rec {
	struct perf_event_header h;
	uint64_t v[64];
};

static void rec_sample(struct rec *r, uint64_t ip, uint32_t pid, uint64_t time, uint64_t id,
		       uint32_t cpu)
{
	r->h = (struct perf_event_header){ PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, 8 + 6 * 8 };
	r->v[0] = ip;
	r->v[1] = (uint64_t)pid << 32 | pid;	/* little-endian: pid then tid */
	r->v[2] = time;
	r->v[3] = id;
	r->v[4] = cpu;
	r->v[5] = 1000;
}

/* COMM with a sample_id trailer (TID, TIME, ID, CPU) */
static void rec_comm(struct rec *r, uint32_t pid, const char *comm, uint64_t time, uint64_t id)
{
	memset(r, 0, sizeof(*r));
	r->h = (struct perf_event_header){ PERF_RECORD_COMM, 0, 8 + 8 + 16 + 4 * 8 };
	r->v[0] = (uint64_t)pid << 32 | pid;
	strncpy((char *)&r->v[1], comm, 15);
	r->v[3] = (uint64_t)pid << 32 | pid;
	r->v[4] = time;
	r->v[5] = id;
	r->v[6] = 0;
}

static struct perf_writer *synth_writer(const char *path, size_t nev)
{
	static const uint64_t ids[2][2] = { { 11, 12 }, { 21, 22 } };
	struct perf_writer_evsel ev[2];
	struct perf_writer *w = NULL;
	struct errbuf err = { "" };
	size_t i;

	for (i = 0; i < nev; i++) {
		memset(&ev[i], 0, sizeof(ev[i]));
		ev[i].attr.type = PERF_TYPE_SOFTWARE;
		ev[i].attr.config = i ? PERF_COUNT_SW_TASK_CLOCK : PERF_COUNT_SW_CPU_CLOCK;
		ev[i].attr.size = sizeof(ev[i].attr);
		ev[i].attr.sample_period = 1000;
		ev[i].attr.sample_type = ST;
		ev[i].attr.sample_id_all = 1;
		ev[i].attr.exclude_guest = 1;
		ev[i].attr.comm = ev[i].attr.mmap = !i;
		ev[i].ids = ids[i];
		ev[i].nr_ids = 2;
	}
	ck_assert_msg(!perf_writer__new(&w, path, ev, nev, &err), "%s", err.msg);
	return w;
}

START_TEST(test_write_read_synthetic)
{
	const char *path = tmp_path("synth.data");
	struct perf_writer *w = synth_writer(path, 2);
	const char *argv[] = { "schedlens", "record", "x" };
	struct errbuf err = { "" };
	struct seen x;
	struct rec r;
	uint64_t i, ips = 0;

	ck_assert_int_eq(perf_writer__set_cmdline(w, 3, argv), 0);
	rec_comm(&r, 42, "worker", 1, 11);
	ck_assert_int_eq(perf_writer__write(w, &r.h), 0);
	for (i = 0; i < 1000; i++) {
		rec_sample(&r, 0x400000 + i, 42, 1000 + i, i % 2 ? 21 : 12, i % 4);
		ips += 0x400000 + i;
		ck_assert_int_eq(perf_writer__write(w, &r.h), 0);
	}
	ck_assert_uint_eq(perf_writer__nr_samples(w), 1000);
	ck_assert_msg(!perf_writer__close(w, &err), "%s", err.msg);

	ck_assert_msg(!read_file(path, &x, &err), "%s", err.msg);
	ck_assert_uint_eq(x.samples, 1000);
	ck_assert_uint_eq(x.per_evsel[0], 500);
	ck_assert_uint_eq(x.per_evsel[1], 500);
	ck_assert_uint_eq(x.sum_ip, ips);
	ck_assert_uint_eq(x.sum_period, 1000 * 1000);
	ck_assert_uint_eq(x.out_of_order, 0);
	ck_assert_str_eq(x.comm, "worker");
	ck_assert_uint_eq(x.pid, 42);
	ck_assert_uint_eq(x.begins, 1);
	ck_assert_uint_eq(x.ends, 1);

	{
		struct perf_file *f;
		const struct perf_file_header *h;

		ck_assert_int_eq(perf_file__open(&f, path, &err), 0);
		h = perf_file__header(f);
		ck_assert_ptr_nonnull(h->hostname);
		ck_assert_ptr_nonnull(h->cmdline);
		ck_assert_str_eq(h->cmdline, "schedlens record x ");
		ck_assert_uint_gt(h->nr_cpus_online, 0);
		ck_assert_str_eq(perf_file__info(f)->evsels[1].name, "task-clock");
		perf_file__delete(f);
	}
}
END_TEST

/* what a reader saw of callchain and raw samples */
struct tails {
	size_t samples;
	uint64_t nr[4], last_ip[4];
	uint32_t raw_size[4];
	uint8_t raw0[4];
};

static int t_sample(void *ctx, const struct stream_sample *s)
{
	struct tails *t = ctx;

	if (t->samples < 4) {
		t->nr[t->samples] = s->nr_callchain;
		t->last_ip[t->samples] = s->nr_callchain ? s->callchain[s->nr_callchain - 1] : 0;
		t->raw_size[t->samples] = s->raw_size;
		t->raw0[t->samples] = s->raw_size ? *(const uint8_t *)s->raw : 0;
	}
	t->samples++;
	return 0;
}

/* a sample of sample_type ST | @extra: the fixed fields, then @tail's @n u64s */
static void rec_tail(struct rec *r, uint64_t time, const uint64_t *tail, size_t n)
{
	rec_sample(r, 0x401000, 7, time, 11, 0);
	memcpy(&r->v[6], tail, n * 8);
	r->h.size = (uint16_t)(8 + (6 + n) * 8);
}

static int write_tails(const char *path, uint64_t extra, const uint64_t (*tails)[8],
		       const size_t *lens, size_t nr, struct tails *t, struct errbuf *err)
{
	static const uint64_t ids[] = { 11 };
	struct perf_writer_evsel ev = { .ids = ids, .nr_ids = 1 };
	struct stream_ops ops = { .sample = t_sample };
	struct perf_writer *w = NULL;
	struct rec r;
	size_t i;

	ev.attr.type = PERF_TYPE_SOFTWARE;
	ev.attr.config = PERF_COUNT_SW_CPU_CLOCK;
	ev.attr.size = sizeof(ev.attr);
	ev.attr.sample_period = 1000;
	ev.attr.sample_type = ST | extra;
	ck_assert_msg(!perf_writer__new(&w, path, &ev, 1, err), "%s", err->msg);
	for (i = 0; i < nr; i++) {
		rec_tail(&r, 100 + i, tails[i], lens[i]);
		ck_assert_int_eq(perf_writer__write(w, &r.h), 0);
	}
	ck_assert_msg(!perf_writer__close(w, err), "%s", err->msg);
	memset(t, 0, sizeof(*t));
	ops.ctx = t;
	return perf_file__process(path, &ops, err);
}

/*
 * The tails the reader parses in place over the event's last sample (a callchain, a raw
 * payload, both): each sample's own, and one that runs past its record an error
 */
START_TEST(test_short_tails)
{
	const char *path = tmp_path("tails.data");
	const uint64_t cc[3][8] = {
		{ 3, PERF_CONTEXT_KERNEL, 0xffffffff81000000ull, 0xffffffff81000100ull },
		{ 1, PERF_CONTEXT_USER },
		{ 0 },
	};
	/* callchain, then raw: u32 size, bytes, padded to 8 */
	const uint64_t ccraw[2][8] = {
		{ 2, PERF_CONTEXT_KERNEL, 0xffffffff81000200ull, 4 | 0xabull << 32 },
		{ 0, 12 | 0xcdull << 32, 0 },
	};
	const uint64_t bad[1][8] = { { 5, PERF_CONTEXT_KERNEL, 1 } };
	const size_t cc_lens[] = { 4, 2, 1 }, ccraw_lens[] = { 4, 3 }, bad_lens[] = { 3 };
	struct errbuf err = { "" };
	struct tails t;

	ck_assert_msg(!write_tails(path, PERF_SAMPLE_CALLCHAIN, cc, cc_lens, 3, &t, &err), "%s",
		      err.msg);
	ck_assert_uint_eq(t.samples, 3);
	ck_assert_uint_eq(t.nr[0], 3);
	ck_assert_uint_eq(t.last_ip[0], 0xffffffff81000100ull);
	ck_assert_uint_eq(t.nr[1], 1);
	ck_assert_uint_eq(t.last_ip[1], PERF_CONTEXT_USER);
	ck_assert_uint_eq(t.nr[2], 0);	/* not the sample's before */

	ck_assert_msg(!write_tails(path, PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW, ccraw,
				   ccraw_lens, 2, &t, &err), "%s", err.msg);
	ck_assert_uint_eq(t.samples, 2);
	ck_assert_uint_eq(t.nr[0], 2);
	ck_assert_uint_eq(t.raw_size[0], 4);
	ck_assert_uint_eq(t.raw0[0], 0xab);
	ck_assert_uint_eq(t.nr[1], 0);
	ck_assert_uint_eq(t.raw_size[1], 12);
	ck_assert_uint_eq(t.raw0[1], 0xcd);

	ck_assert_int_eq(write_tails(path, PERF_SAMPLE_CALLCHAIN, bad, bad_lens, 1, &t, &err),
			 -EINVAL);
	ck_assert_msg(strstr(err.msg, "too short for its sample_type"), "%s", err.msg);
	ck_assert_uint_eq(t.samples, 0);
}
END_TEST

/* FINISHED_ROUND: records older than the previous round's newest wait; the end flushes */
START_TEST(test_ordering)
{
	const char *path = tmp_path("order.data");
	struct perf_writer *w = synth_writer(path, 1);
	struct perf_event_header round = { 68, 0, 8 };
	struct errbuf err = { "" };
	struct seen x;
	struct rec r;
	int i, k;

	/* four rounds, each in reverse time order, overlapping the previous one */
	for (k = 0; k < 4; k++) {
		for (i = 99; i >= 0; i--) {
			rec_sample(&r, 1, 7, 1000 + k * 80 + i, 11, 0);
			ck_assert_int_eq(perf_writer__write(w, &r.h), 0);
		}
		ck_assert_int_eq(perf_writer__write(w, &round), 0);
	}
	ck_assert_msg(!perf_writer__close(w, &err), "%s", err.msg);
	ck_assert_msg(!read_file(path, &x, &err), "%s", err.msg);
	ck_assert_uint_eq(x.samples, 400);
	ck_assert_uint_eq(x.out_of_order, 0);

	/* a small queue limit: still complete, order only as good as the limit allows */
	{
		struct perf_file *f;
		struct stream_ops ops = seen_ops;

		memset(&x, 0, sizeof(x));
		ops.ctx = &x;
		ck_assert_int_eq(perf_file__open(&f, path, &err), 0);
		perf_file__set_queue_limit(f, 16);
		ck_assert_int_eq(perf_file__run(f, &ops, &err), 0);
		perf_file__delete(f);
		ck_assert_uint_eq(x.samples, 400);
		ck_assert_uint_gt(x.out_of_order, 0);
	}
}
END_TEST

/*
 * Rounds of tens of MB, as a system-wide recording at a high rate has: a run a CPU a round,
 * interleaved in time; 8 CPUs, then 40 (more runs than the reader's large windows). The
 * reader keeps a few MB of them and reads the rest again from the file when they are
 * delivered: each sample must come back whole, in time order, the ip it was written with
 * (ip = 7 * time + 1). And a file cut while it is read fails with an error that says so, not
 * with wrong samples.
 */
#define BIG_SAMPLES	192000	/* a round: 10.8 MB */

struct big_seen {
	size_t samples, bad_ip, out_of_order;
	uint64_t last_time;
	const char *cut;	/* truncated to half at the first sample */
};

static int big_sample(void *ctx, const struct stream_sample *s)
{
	struct big_seen *x = ctx;

	if (x->cut && !x->samples) {
		struct stat st;

		ck_assert_int_eq(stat(x->cut, &st), 0);
		ck_assert_int_eq(truncate(x->cut, st.st_size / 2), 0);
	}
	x->samples++;
	x->bad_ip += s->ip != 7 * s->time + 1;
	x->out_of_order += s->time < x->last_time;
	x->last_time = s->time;
	return 0;
}

static void write_big(const char *path, int rounds, int cpus)
{
	struct perf_writer *w = synth_writer(path, 1);
	struct perf_event_header round = { 68, 0, 8 };
	struct errbuf err = { "" };
	int k, c, j, run = BIG_SAMPLES / cpus;
	struct rec r;

	for (k = 0; k < rounds; k++) {
		/* a round starts a little before the last one's newest record */
		uint64_t base = 1000000 + (uint64_t)k * (run - 100) * cpus;

		for (c = 0; c < cpus; c++)
			for (j = 0; j < run; j++) {
				uint64_t t = base + (uint64_t)j * cpus + c;

				rec_sample(&r, 7 * t + 1, 7, t, 11, c);
				ck_assert_int_eq(perf_writer__write(w, &r.h), 0);
			}
		ck_assert_int_eq(perf_writer__write(w, &round), 0);
	}
	ck_assert_msg(!perf_writer__close(w, &err), "%s", err.msg);
}

START_TEST(test_big_rounds)
{
	static const int cpus[] = { 8, 40 };
	const char *path = tmp_path("big.data");
	struct big_seen x = { 0 };
	struct stream_ops ops = { .ctx = &x, .sample = big_sample };
	struct errbuf err = { "" };
	size_t i;

	for (i = 0; i < 2; i++) {
		write_big(path, 3, cpus[i]);
		memset(&x, 0, sizeof(x));
		ck_assert_msg(!perf_file__process(path, &ops, &err), "%s", err.msg);
		ck_assert_uint_eq(x.samples, 3 * BIG_SAMPLES);
		ck_assert_uint_eq(x.bad_ip, 0);
		ck_assert_uint_eq(x.out_of_order, 0);
	}

	/* cut to half while the first round is being delivered */
	memset(&x, 0, sizeof(x));
	x.cut = path;
	ck_assert_int_ne(perf_file__process(path, &ops, &err), 0);
	ck_assert_msg(strstr(err.msg, "was the file changed?") || strstr(err.msg, "end of file"),
		      "%s", err.msg);
	ck_assert_uint_lt(x.samples, 3 * BIG_SAMPLES / 2);
	ck_assert_uint_eq(x.bad_ip, 0);
	unlink(path);
}
END_TEST

/* ---- big-endian file, built by hand ---- */

struct bebuf {
	uint8_t b[8192];
	size_t n;
};

static void be64(struct bebuf *b, uint64_t v)
{
	v = bswap_64(v);
	memcpy(b->b + b->n, &v, 8);
	b->n += 8;
}

static void be32(struct bebuf *b, uint32_t v)
{
	v = bswap_32(v);
	memcpy(b->b + b->n, &v, 4);
	b->n += 4;
}

static void be16(struct bebuf *b, uint16_t v)
{
	v = bswap_16(v);
	memcpy(b->b + b->n, &v, 2);
	b->n += 2;
}

static void behdr(struct bebuf *b, uint32_t type, uint16_t misc, uint16_t size)
{
	be32(b, type);
	be16(b, misc);
	be16(b, size);
}

START_TEST(test_big_endian)
{
	const char *path = tmp_path("be.data");
	struct bebuf d = { .n = 0 };
	struct errbuf err = { "" };
	uint64_t attr_off = 104 + 8, data_off, bf;
	struct seen x;
	size_t start;
	FILE *fp;
	int i;

	/* header, filled in below; one id; attr (size 120) + ids section */
	d.n = 104;
	be64(&d, 99);
	be32(&d, PERF_TYPE_SOFTWARE);
	be32(&d, 120);
	be64(&d, PERF_COUNT_SW_CPU_CLOCK);
	be64(&d, 4000);
	be64(&d, PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD);
	be64(&d, 0);
	/* bitfield in big-endian bit order: bit n is bit (7 - n % 8) of byte n / 8 */
	bf = 0;
	/* disabled, inherit, sample_id_all (bit 18), exclude_guest (bit 20) */
	memcpy(&bf, (uint8_t[8]){ 0x01 << (7 - 0) | 0x01 << (7 - 1), 0,
				  0x01 << (7 - 2) | 0x01 << (7 - 4), 0, 0, 0, 0, 0 }, 8);
	memcpy(d.b + d.n, &bf, 8);
	d.n += 8;
	memset(d.b + d.n, 0, 120 - 48);
	d.n += 120 - 48;
	be64(&d, 104);
	be64(&d, 8);
	data_off = d.n;
	/* COMM 5/5 "be-task", then three samples */
	behdr(&d, PERF_RECORD_COMM, 0, 8 + 8 + 8 + 16);
	be32(&d, 5);
	be32(&d, 5);
	memcpy(d.b + d.n, "be-task", 8);
	d.n += 8;
	be32(&d, 5);		/* sample_id: TID, TIME */
	be32(&d, 5);
	be64(&d, 50);
	for (i = 0; i < 3; i++) {
		behdr(&d, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, 8 + 32);
		be64(&d, 0x1000 + i);
		be32(&d, 5);
		be32(&d, 6);
		be64(&d, 100 + i);
		be64(&d, 7);
	}
	start = d.n;
	d.n = 0;
	memcpy(d.b, "2ELIFREP", 8);
	d.n = 8;
	be64(&d, 104);
	be64(&d, 120 + 16);
	be64(&d, attr_off);
	be64(&d, 120 + 16);
	be64(&d, data_off);
	be64(&d, start - data_off);
	d.n = start;
	fp = fopen(path, "w");
	ck_assert_ptr_nonnull(fp);
	ck_assert_uint_eq(fwrite(d.b, 1, d.n, fp), d.n);
	fclose(fp);

	ck_assert_msg(!read_file(path, &x, &err), "%s", err.msg);
	ck_assert_uint_eq(x.samples, 3);
	ck_assert_uint_eq(x.sum_ip, 0x1000 * 3 + 3);
	ck_assert_uint_eq(x.sum_period, 21);
	ck_assert_uint_eq(x.pid, 5);
	ck_assert_uint_eq(x.tid, 6);
	ck_assert_str_eq(x.comm, "be-task");
	{
		struct perf_file *f;

		ck_assert_int_eq(perf_file__open(&f, path, &err), 0);
		ck_assert(perf_file__header(f)->big_endian);
		ck_assert(perf_file__info(f)->evsels[0].attr.disabled);
		ck_assert(perf_file__info(f)->evsels[0].attr.inherit);
		ck_assert(perf_file__info(f)->evsels[0].attr.sample_id_all);
		ck_assert(!perf_file__info(f)->evsels[0].attr.freq);
		ck_assert_uint_eq(perf_file__info(f)->evsels[0].attr.sample_period, 4000);
		ck_assert_str_eq(perf_file__info(f)->evsels[0].name, "cpu-clock");
		perf_file__delete(f);
	}
}
END_TEST

/* ---- bad input ---- */

static size_t load(const char *path, uint8_t **buf)
{
	FILE *fp = fopen(path, "r");
	long n;

	ck_assert_msg(fp != NULL, "cannot open '%s'", path);
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	rewind(fp);
	*buf = malloc(n);
	ck_assert_uint_eq(fread(*buf, 1, n, fp), (size_t)n);
	fclose(fp);
	return n;
}

static void store(const char *path, const uint8_t *buf, size_t n)
{
	FILE *fp = fopen(path, "w");

	ck_assert_ptr_nonnull(fp);
	ck_assert_uint_eq(fwrite(buf, 1, n, fp), n);
	fclose(fp);
}

START_TEST(test_truncated)
{
	const char *src = fixture("real/celeron-hwevents-3.4.data");
	const char *path = tmp_path("trunc.data");
	struct errbuf err = { "" };
	struct seen x;
	uint8_t *buf;
	size_t n, cut;
	int ret;

	need_fixtures();
	n = load(src, &buf);

	/* cut inside the data: the records before the cut are delivered, the error names it */
	for (cut = 1208 + 5000; cut < n - 3000; cut += 77777) {
		store(path, buf, cut);
		ret = read_file(path, &x, &err);
		ck_assert_int_eq(ret, -EINVAL);
		ck_assert_msg(strstr(err.msg, "byte offset") && strstr(err.msg, "trunc.data"), "%s",
			      err.msg);
		ck_assert_uint_eq(x.ends, 1);
		ck_assert_uint_gt(x.samples + x.comms + x.mmaps, 0);
	}
	/* cut in the header and attrs */
	for (cut = 0; cut < 1208; cut += 97) {
		store(path, buf, cut);
		ck_assert_int_lt(read_file(path, &x, &err), 0);
		ck_assert(err.msg[0]);
	}
	free(buf);
}
END_TEST

START_TEST(test_corrupt_fields)
{
	const char *src = fixture("real/celeron-hwevents-3.4.data");
	const char *path = tmp_path("corrupt.data");
	struct errbuf err = { "" };
	uint8_t *buf, *b2;
	struct seen x;
	size_t n;
	uint64_t v;
	uint16_t sz;

	need_fixtures();
	n = load(src, &buf);

	b2 = malloc(n);
	/* data size far past the end */
	memcpy(b2, buf, n);
	v = 1ULL << 60;
	memcpy(b2 + 48, &v, 8);
	store(path, b2, n);
	ck_assert_int_lt(read_file(path, &x, &err), 0);
	ck_assert_msg(strstr(err.msg, "byte offset"), "%s", err.msg);
	/* absurd attr section */
	memcpy(b2, buf, n);
	memcpy(b2 + 32, &v, 8);
	store(path, b2, n);
	ck_assert_int_lt(read_file(path, &x, &err), 0);
	/* a zero-size record in the middle of the data */
	memcpy(b2, buf, n);
	sz = 0;
	memcpy(b2 + 1208 + 6, &sz, 2);
	store(path, b2, n);
	ck_assert_int_eq(read_file(path, &x, &err), -EINVAL);
	ck_assert_msg(strstr(err.msg, "bad record size 0") && strstr(err.msg, "offset 1208"), "%s",
		      err.msg);
	/* not a perf.data file */
	store(path, (const uint8_t *)"hello world, not perf data", 26);
	ck_assert_int_eq(read_file(path, &x, &err), -EINVAL);
	ck_assert_msg(strstr(err.msg, "not a perf.data file"), "%s", err.msg);
	free(b2);
	free(buf);
}
END_TEST

/* ---- a fixture through the writer ---- */

struct copy {
	struct perf_writer *w;
	struct perf_file *f;
	const char *out;
	size_t per_evsel[16];
	uint8_t *kept;		/* --replicate: the kernel records, to write again */
	size_t kept_len, kept_alloc;
};

static int c_begin(void *ctx, const struct stream_info *info)
{
	struct copy *c = ctx;
	const struct perf_file_header *h = perf_file__header(c->f);
	struct perf_writer_evsel ev[16] = { 0 };
	struct errbuf err = { "" };
	const void *td;
	size_t i, tds;

	if (info->nr_evsels > 16)
		return -E2BIG;
	for (i = 0; i < info->nr_evsels; i++) {
		ev[i].attr = info->evsels[i].attr;
		ev[i].name = info->evsels[i].name;
		ev[i].ids = info->evsels[i].ids;
		ev[i].nr_ids = info->evsels[i].nr_ids;
	}
	if (perf_writer__new(&c->w, c->out, ev, info->nr_evsels, &err)) {
		fprintf(stderr, "%s\n", err.msg);
		return -EIO;
	}
	/* the source's build-ids, so that readers tell its kernel from this one as they did */
	for (i = 0; i < h->nr_build_ids; i++)
		if (perf_writer__add_build_id(c->w, h->build_ids[i].filename, h->build_ids[i].id,
					      h->build_ids[i].size, h->build_ids[i].misc,
					      h->build_ids[i].pid))
			return -ENOMEM;
	if (!perf_file__tracing_data(c->f, &td, &tds))
		return perf_writer__set_tracing_data(c->w, td, tds);
	return 0;
}

static int c_raw(void *ctx, const struct perf_event_header *h, const void *rec)
{
	struct copy *c = ctx;

	if (h->type >= 64)
		return 0;
	if (c->kept_alloc) {
		if (c->kept_len + h->size > c->kept_alloc) {
			c->kept_alloc = (c->kept_len + h->size) * 2;
			c->kept = realloc(c->kept, c->kept_alloc);
			if (!c->kept)
				return -ENOMEM;
		}
		memcpy(c->kept + c->kept_len, h, h->size);
		c->kept_len += h->size;
	}
	return perf_writer__write(c->w, h);
}

/*
 * Not a test: "--replicate IN OUT N" writes IN's records N times into OUT through the
 * writer (scripts/bench-perfdata.sh makes its large file so). Prints the samples written.
 */
static int replicate(const char *in, const char *out, long n)
{
	struct copy c = { .out = out, .kept_alloc = 1 };
	struct stream_ops ops = { .ctx = &c, .begin = c_begin, .raw = c_raw };
	struct errbuf err = { "" };
	size_t pos;
	long i;
	int ret;

	struct perf_event_header round = { 68 /* FINISHED_ROUND */, 0, 8 };

	ret = perf_file__open(&c.f, in, &err) ?: perf_file__run(c.f, &ops, &err);
	if (!ret)
		ret = perf_writer__write(c.w, &round);
	for (i = 1; !ret && i < n; i++, ret = ret ?: perf_writer__write(c.w, &round))
		for (pos = 0; !ret && pos < c.kept_len;) {
			const struct perf_event_header *h = (const void *)(c.kept + pos);

			ret = perf_writer__write(c.w, h);
			pos += h->size;
		}
	if (!ret)
		printf("%llu\n", (unsigned long long)perf_writer__nr_samples(c.w));
	if (c.w && perf_writer__close(c.w, &err) && !ret)
		ret = -EIO;
	perf_file__delete(c.f);
	free(c.kept);
	if (ret)
		fprintf(stderr, "replicate: %s\n", err.msg);
	return ret ? EXIT_FAILURE : EXIT_SUCCESS;
}

static int c_sample(void *ctx, const struct stream_sample *s)
{
	((struct copy *)ctx)->per_evsel[s->evsel->idx]++;
	return 0;
}

static void copy_through_writer(const char *src, const char *out)
{
	struct copy c = { .out = out };
	struct stream_ops ops = { .ctx = &c, .begin = c_begin, .raw = c_raw, .sample = c_sample };
	struct errbuf err = { "" };
	struct seen x;
	size_t i;

	ck_assert_msg(!perf_file__open(&c.f, src, &err), "%s", err.msg);
	ck_assert_msg(!perf_file__run(c.f, &ops, &err), "%s", err.msg);
	ck_assert_msg(!perf_writer__close(c.w, &err), "%s", err.msg);
	perf_file__delete(c.f);
	ck_assert_msg(!read_file(out, &x, &err), "%s", err.msg);
	for (i = 0; i < 16; i++)
		ck_assert_uint_eq(x.per_evsel[i], c.per_evsel[i]);
	ck_assert_uint_gt(x.samples, 0);
}

START_TEST(test_copy_fixtures)
{
	need_fixtures();
	copy_through_writer(fixture("local/sched-pingpong.data"), tmp_path("copy-sched.data"));
	copy_through_writer(fixture("real/zen2-sched-switch-zstd-5.18.data"),
			    tmp_path("copy-zen2.data"));
	copy_through_writer(fixture("real/celeron-hwevents-3.4.data"),
			    tmp_path("copy-celeron.data"));
}
END_TEST

/* the recording machine's topology from the header: a Ryzen 9 3900X, four L3s of 3 cores x 2 */
START_TEST(test_topology)
{
	struct errbuf err = { "" };
	struct perf_file *f;
	struct topology *t;

	need_fixtures();

	ck_assert_int_eq(perf_file__open(&f, fixture("real/zen2-sched-switch-zstd-5.18.data"),
					 &err), 0);
	t = perf_file__topology(f, &err);
	ck_assert_msg(t, "%s", err.msg);
	ck_assert_int_eq(topology__nr_cpus(t), 24);
	ck_assert(topology__llc_from_cache(t));
	ck_assert_int_eq(topology__core(t, 12), 0);
	ck_assert_int_eq(topology__llc(t, 14), 0);
	ck_assert_int_eq(topology__llc(t, 15), 3);
	ck_assert_int_eq(topology__llc(t, 23), 9);
	ck_assert_int_eq(topology__node(t, 23), 0);
	ck_assert_int_eq(topology__classify(t, 0, 12), MIGR_SAME_CORE);
	ck_assert_int_eq(topology__classify(t, 0, 14), MIGR_SAME_LLC);
	ck_assert_int_eq(topology__classify(t, 2, 3), MIGR_OTHER_LLC);
	ck_assert_int_eq(topology__classify(t, 2, 24), MIGR_UNKNOWN);
	topology__delete(t);
	perf_file__delete(f);

	/* a file without CPU_TOPOLOGY says so */
	ck_assert_int_eq(perf_file__open(&f, fixture("real/piped-hwevents-3.8.data"), &err), 0);
	ck_assert_ptr_null(perf_file__topology(f, &err));
	ck_assert_msg(strstr(err.msg, "no CPU topology"), "%s", err.msg);
	perf_file__delete(f);
}
END_TEST

START_TEST(test_names)
{
	struct perf_event_attr a = { .type = PERF_TYPE_HW_CACHE, .config = 0x10000,
				     .exclude_guest = 1 };
	char buf[64];

	perf_attr__name(&a, buf, sizeof(buf));
	ck_assert_str_eq(buf, "L1-dcache-load-misses");
	a = (struct perf_event_attr){ .type = PERF_TYPE_HARDWARE, .exclude_kernel = 1,
				      .exclude_hv = 1, .exclude_guest = 1 };
	perf_attr__name(&a, buf, sizeof(buf));
	ck_assert_str_eq(buf, "cycles:uH");
	a = (struct perf_event_attr){ .type = PERF_TYPE_HARDWARE, .config = 1, .precise_ip = 2 };
	perf_attr__name(&a, buf, sizeof(buf));
	ck_assert_str_eq(buf, "instructions:pp");
	ck_assert_str_eq(perf_record__name(PERF_RECORD_MMAP2), "MMAP2");
	ck_assert_str_eq(perf_feat__name(PERF_FEAT_CPUID), "CPUID");
}
END_TEST

int main(int argc, char **argv)
{
	const char *keep = getenv("PERFDATA_KEEP");
	Suite *s;
	TCase *tc;
	SRunner *sr;
	int nf;

	/* (before the suite is made: it would be left allocated, a leak to the sanitizer build) */
	if (argc == 5 && !strcmp(argv[1], "--replicate"))
		return replicate(argv[2], argv[3], strtol(argv[4], NULL, 10));
	s = suite_create("perfdata");
	tc = tcase_create("core");
	snprintf(tmpdir, sizeof(tmpdir), "%s", keep ?: "/tmp/test-perfdata-XXXXXX");
	if (!keep && !mkdtemp(tmpdir))
		return EXIT_FAILURE;

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_write_read_synthetic);
	tcase_add_test(tc, test_ordering);
	tcase_add_test(tc, test_big_rounds);
	tcase_add_test(tc, test_short_tails);
	tcase_add_test(tc, test_big_endian);
	tcase_add_test(tc, test_truncated);
	tcase_add_test(tc, test_corrupt_fields);
	tcase_add_test(tc, test_copy_fixtures);
	tcase_add_test(tc, test_topology);
	tcase_add_test(tc, test_names);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	if (!keep) {
		char cmd[512];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
		if (system(cmd))
			nf++;
	}
	return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
