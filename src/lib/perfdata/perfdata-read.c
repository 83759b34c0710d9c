// SPDX-License-Identifier: GPL-2.0
/* perf.data reader: the file and pipe headers, the data section, user records. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zstd.h>

#include <event-parse.h>

#include "perfdata-int.h"

#define PIPE_CHUNK	(256u << 10)
/* a chunk is half a transparent huge page (its 4 kB pages would fault one by one, ~13 us
 * each on a VM), two kept ones one page; > PERF_MAX_REC, so a record always fits. 1 MB
 * rather than 2: on (c) of the bench corpus `sched -i` 22.1 -> 18.2 MB, `script` 28.5 ->
 * 26.4 MB, for 2% more instructions (records read again) */
#define FILE_CHUNK	(1u << 20)
#define DECOMP_MAX	(64ull << 20)	/* per record: perf's buffers are far smaller */

int pd_bad(struct perf_file *f, uint64_t off, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return err__set(f->err, -EINVAL, "'%s': %s at byte offset %llu", f->path, msg,
			(unsigned long long)off);
}

static const char *const rec_names[] = {
	[PERF_RECORD_MMAP] = "MMAP", [PERF_RECORD_LOST] = "LOST", [PERF_RECORD_COMM] = "COMM",
	[PERF_RECORD_EXIT] = "EXIT", [PERF_RECORD_THROTTLE] = "THROTTLE",
	[PERF_RECORD_UNTHROTTLE] = "UNTHROTTLE", [PERF_RECORD_FORK] = "FORK",
	[PERF_RECORD_READ] = "READ", [PERF_RECORD_SAMPLE] = "SAMPLE", [PERF_RECORD_MMAP2] = "MMAP2",
	[PERF_RECORD_AUX] = "AUX", [PERF_RECORD_ITRACE_START] = "ITRACE_START",
	[PERF_RECORD_LOST_SAMPLES] = "LOST_SAMPLES", [PERF_RECORD_SWITCH] = "SWITCH",
	[PERF_RECORD_SWITCH_CPU_WIDE] = "SWITCH_CPU_WIDE", [PERF_RECORD_NAMESPACES] = "NAMESPACES",
	[PERF_RECORD_KSYMBOL] = "KSYMBOL", [PERF_RECORD_BPF_EVENT] = "BPF_EVENT",
	[PERF_RECORD_CGROUP] = "CGROUP", [PERF_RECORD_TEXT_POKE] = "TEXT_POKE",
	[PERF_RECORD_AUX_OUTPUT_HW_ID] = "AUX_OUTPUT_HW_ID",
	[PERF_REC_HEADER_ATTR] = "ATTR", [PERF_REC_HEADER_EVENT_TYPE] = "EVENT_TYPE",
	[PERF_REC_HEADER_TRACING_DATA] = "TRACING_DATA", [PERF_REC_HEADER_BUILD_ID] = "BUILD_ID",
	[PERF_REC_FINISHED_ROUND] = "FINISHED_ROUND", [PERF_REC_ID_INDEX] = "ID_INDEX",
	[PERF_REC_AUXTRACE_INFO] = "AUXTRACE_INFO", [PERF_REC_AUXTRACE] = "AUXTRACE",
	[PERF_REC_AUXTRACE_ERROR] = "AUXTRACE_ERROR", [PERF_REC_THREAD_MAP] = "THREAD_MAP",
	[PERF_REC_CPU_MAP] = "CPU_MAP", [PERF_REC_STAT_CONFIG] = "STAT_CONFIG",
	[PERF_REC_STAT] = "STAT", [PERF_REC_STAT_ROUND] = "STAT_ROUND",
	[PERF_REC_EVENT_UPDATE] = "EVENT_UPDATE", [PERF_REC_TIME_CONV] = "TIME_CONV",
	[PERF_REC_HEADER_FEATURE] = "FEATURE", [PERF_REC_COMPRESSED] = "COMPRESSED",
	[PERF_REC_FINISHED_INIT] = "FINISHED_INIT", [PERF_REC_COMPRESSED2] = "COMPRESSED2",
};

const char *perf_record__name(uint32_t type)
{
	return type < ARRAY_SIZE(rec_names) ? rec_names[type] : NULL;
}

static int begin(struct perf_file *f)
{
	int ret = 0;

	if (f->begun)
		return 0;
	f->begun = true;
	if (f->pipe)	/* file mode finished its events at open: pointers stay valid */
		pd_evsels_finish(f);
	if (f->nr_evsels && !f->info.evsels)
		return -ENOMEM;
	if (!f->ops->no_formats && pd_formats(f))
		return -ENOMEM;
	f->info.tep = f->tep;
	if (f->pipe)	/* its features came with the records read so far */
		pd_origin(f);
	if (f->ops->begin)
		ret = f->ops->begin(f->ops->ctx, &f->info);
	f->unordered = f->ops->unordered;
	return ret;
}

static int process_records(struct perf_file *f, uint8_t *p, size_t len, uint64_t off,
			   size_t *used);

/* a FILE_CHUNK buffer, aligned to its size and advised as huge pages */
static struct stream_chunk *chunk_alloc(void)
{
	struct stream_chunk *c;
	void *mem;

	if (posix_memalign(&mem, FILE_CHUNK, FILE_CHUNK))
		return NULL;
	madvise(mem, FILE_CHUNK, MADV_HUGEPAGE);
	c = mem;
	c->len = FILE_CHUNK - sizeof(*c);
	return c;
}

/*
 * chunks holding queued records: at most this many before records are queued by offset. Two
 * rather than four: on (c) of the bench corpus (rounds of 13-18 MB) `sched -i` 30.2 -> 22.2 MB,
 * `report --sort comm,dso,sym` 25.9 -> 19.8 MB, `script` 32 -> 28 MB, for 3% more instructions
 * (what is read again) and no CPU time told apart from the VM's spread. Samples with user
 * stacks, when read (has_stacks()), keep up to PD_KEPT_STACKS: their rounds are megabytes of
 * few records, and with two chunks every byte of them was read twice (the bench's dwarf.data,
 * rounds of 2.7 MB on average: 601 MB read for its 337, 361 MB with 8 chunks, 337 MB with 16).
 */
#define PD_KEPT_CHUNKS	2
#define PD_KEPT_STACKS	8
#define PD_REREAD_BUF	(512u << 10)	/* each of the two read buffers past them */

static bool chunk_tracked(const struct perf_file *f, const struct stream_chunk *c)
{
	return c != f->rbuf[0] && c != f->rbuf[1];
}

/*
 * The buffer to read the data from @lo on into: a FILE_CHUNK buffer from the free list (warm)
 * or a new one, kept while a queued record lies in it. Once PD_KEPT_CHUNKS are kept (a round of
 * a system-wide recording is tens of MB, and the queue spans two), but for a byte-swapped file
 * (its headers are swapped in the buffer), two buffers of PD_REREAD_BUF take turns instead (a record cut at the end of one moves to the
 * start of the other): their records are queued by offset and read again when delivered
 * (pd_fetch()), so what the queue spans stays in the page cache, not in fresh memory.
 */
static struct stream_chunk *chunk_get(struct perf_file *f, uint64_t lo)
{
	struct stream_chunk *c = f->chunk_pool;
	size_t kept = 0;

	/* a small data section fits one plain buffer: no huge page to clear */
	if (f->hdr.data_size + sizeof(*c) < FILE_CHUNK / 2) {
		c = stream_chunk__new(f->hdr.data_size ?: 1);
		if (c)
			stream_queue__track(&f->q, c, lo);
		return c;
	}
	if (!f->swap)
		for (c = f->q.chunks; c && kept < f->kept_max; c = c->next)
			kept += c->pool != NULL;	/* not the few records repacked */
	if (kept == f->kept_max) {
		f->rb_cur ^= 1;
		if (!f->rbuf[f->rb_cur] &&
		    !(f->rbuf[f->rb_cur] = stream_chunk__new(PD_REREAD_BUF)))
			return NULL;
		c = f->rbuf[f->rb_cur];
		f->rb_lo = c->data;
		f->rb_hi = c->data + c->len;
		return c;
	}
	f->rb_lo = f->rb_hi = NULL;
	c = f->chunk_pool;
	if (c)
		f->chunk_pool = c->next;
	else if (!(c = chunk_alloc()))
		return NULL;
	c->live = true;
	c->pool = &f->chunk_pool;
	stream_queue__track(&f->q, c, lo);
	return c;
}

/* COMPRESSED (zstd frame after the header) and COMPRESSED2 (u64 data_size first) */
static int decompress(struct perf_file *f, const struct perf_event_header *h, uint64_t off)
{
	const uint8_t *src = (const uint8_t *)h + 8;
	size_t src_len = h->size - 8, cap, used = 0, out_len;
	ZSTD_inBuffer in;
	struct stream_chunk *c;
	int ret;

	if (h->type == PERF_REC_COMPRESSED2) {
		uint64_t dsz;

		if (src_len < 8)
			return pd_bad(f, off, "COMPRESSED2 record of %u bytes is too short", h->size);
		dsz = pd_get64(f, src);
		src += 8;
		src_len -= 8;
		if (dsz > src_len)
			return pd_bad(f, off, "COMPRESSED2 data size %llu past the record",
				      (unsigned long long)dsz);
		src_len = dsz;
	}
	if (!f->zstd) {
		f->zstd = ZSTD_createDCtx();
		if (!f->zstd)
			return -ENOMEM;
	}
	cap = f->decomp_rem_len + 8 * src_len + 65536;	/* doubled as needed */
	c = stream_chunk__new(cap);
	if (!c)
		return -ENOMEM;
	if (f->decomp_rem_len)
		memcpy(c->data, f->decomp_rem, f->decomp_rem_len);
	out_len = f->decomp_rem_len;
	in = (ZSTD_inBuffer){ src, src_len, 0 };
	for (;;) {
		ZSTD_outBuffer out = { c->data, cap, out_len };
		size_t r = ZSTD_decompressStream(f->zstd, &out, &in);

		if (ZSTD_isError(r)) {
			free(c);
			return pd_bad(f, off, "cannot decompress: %s", ZSTD_getErrorName(r));
		}
		out_len = out.pos;
		/* done when the input is used up and zstd had room to flush everything */
		if (in.pos == in.size && out_len < cap)
			break;
		if (out_len == cap) {
			struct stream_chunk *n;

			if (cap * 2 > DECOMP_MAX) {
				free(c);
				return pd_bad(f, off, "decompressed data over %llu bytes",
					      (unsigned long long)DECOMP_MAX);
			}
			cap *= 2;
			n = realloc(c, sizeof(*c) + cap);
			if (!n) {
				free(c);
				return -ENOMEM;
			}
			c = n;
		}
	}
	stream_queue__track(&f->q, c, off);	/* its records carry the COMPRESSED record's offset */
	ret = process_records(f, (uint8_t *)c->data, out_len, off, &used);
	if (!ret) {
		size_t rem = out_len - used;
		uint8_t *nr = NULL;

		if (rem) {
			nr = malloc(rem);
			if (!nr)
				ret = -ENOMEM;
			else
				memcpy(nr, c->data + used, rem);
		}
		free(f->decomp_rem);
		f->decomp_rem = nr;
		f->decomp_rem_len = nr ? rem : 0;
	}
	stream_queue__done(&f->q, c, off + 1);
	return ret;
}

static int user_record(struct perf_file *f, const struct perf_event_header *h, uint64_t off)
{
	const uint8_t *p = (const uint8_t *)h + 8;
	size_t len = h->size - 8;
	struct perf_event_attr attr;
	size_t used;
	int ret = 0;

	switch (h->type) {
	case PERF_REC_HEADER_ATTR:
		if (f->begun)
			return pd_bad(f, off, "ATTR record after the data started");
		ret = pd_attr_read(f, p, len, &attr, &used, off);
		if (!ret)
			ret = pd_evsel_add(f, &attr, (const uint64_t *)(p + used), (len - used) / 8,
					   true);
		if (ret == -E2BIG)
			ret = pd_bad(f, off, "too many events or ids");
		return ret;
	case PERF_REC_HEADER_EVENT_TYPE: {
		void *n;

		if (len < 8 + 64 || f->nr_event_types >= 4096)
			return 0;
		n = realloc(f->event_types, (f->nr_event_types + 1) * sizeof(*f->event_types));
		if (!n)
			return -ENOMEM;
		f->event_types = n;
		f->event_types[f->nr_event_types].id = pd_get64(f, p);
		memcpy(f->event_types[f->nr_event_types].name, p + 8, 63);
		f->event_types[f->nr_event_types++].name[63] = 0;
		return 0;
	}
	case PERF_REC_HEADER_BUILD_ID: {
		uint8_t tmp[8 + 4096];
		size_t n = h->size < sizeof(tmp) ? h->size : sizeof(tmp);

		/* the BUILD_ID feature parser reads the same records: prefix a u64 size */
		memcpy(tmp, h, n);
		return pd_feature(f, -PERF_FEAT_BUILD_ID, tmp, n, off);
	}
	case PERF_REC_HEADER_FEATURE:
		if (len < 8)
			return pd_bad(f, off, "FEATURE record too short");
		return pd_feature(f, (int)pd_get64(f, p), p + 8, len - 8, off);
	case PERF_REC_FINISHED_ROUND:
		ret = begin(f);
		if (!ret)
			ret = stream_queue__flush(&f->q, f->q.next_flush);
		f->q.next_flush = f->q.max_time;
		return ret;
	case PERF_REC_FINISHED_INIT:
		ret = begin(f);
		return ret ?: stream_queue__flush(&f->q, ~0ULL);
	case PERF_REC_COMPRESSED:
	case PERF_REC_COMPRESSED2:
		ret = begin(f);
		return ret ?: decompress(f, h, off);
	default:
		return 0;
	}
}

static int one_record(struct perf_file *f, const struct perf_event_header *h, uint64_t off)
{
	struct pd_evsel *e;
	uint64_t t;
	int ret;

	f->stats.nr_records++;
	f->stats.nr_by_type[h->type < 128 ? h->type : 127]++;
	if (h->type >= PERF_REC_HEADER_ATTR) {
		ret = user_record(f, h, off);
		if (!ret && f->begun && f->ops->raw)
			ret = f->ops->raw(f->ops->ctx, h, h + 1);
		if (h->type > PERF_REC_COMPRESSED2)
			f->stats.nr_unknown++;
		return ret;
	}
	if (!f->begun && (ret = begin(f)))
		return ret;
	if (!stream_record_known(h->type)) {
		f->stats.nr_unknown++;
		return 0;
	}
	e = h->type == PERF_RECORD_SAMPLE ? pd_evsel_of_sample(f, h) : NULL;
	t = pd_record_time(f, h, e);
	if (!t || t == ~0ULL)
		return pd_deliver(f, h, e, off);
	return stream_queue__push(&f->q, pd_queued_rec(f, h), t, pd_evsel_tag(e), off);
}

static void swap_header(struct perf_file *f, struct perf_event_header *h)
{
	if (f->swap) {
		h->type = bswap_32(h->type);
		h->misc = bswap_16(h->misc);
		h->size = bswap_16(h->size);
	}
}

/* the header at p, host order, without touching p (it may be unaligned) */
static struct perf_event_header peek_header(struct perf_file *f, const uint8_t *p)
{
	struct perf_event_header h;

	memcpy(&h, p, sizeof(h));
	swap_header(f, &h);
	return h;
}

/*
 * One record at p (writable), header h already checked. Records are 8-byte aligned in any
 * sane file; one that is not is copied to an aligned chunk first so its fields can be used.
 */
static int record_at(struct perf_file *f, uint8_t *p, const struct perf_event_header *h,
		     uint64_t off)
{
	struct stream_chunk *own = NULL;
	int ret;

	if ((uintptr_t)p & 7) {
		own = stream_chunk__new(h->size);
		if (!own)
			return -ENOMEM;
		stream_queue__track(&f->q, own, off);
		memcpy(own->data, p, h->size);
		p = (uint8_t *)own->data;
	}
	if (f->swap)
		memcpy(p, h, sizeof(*h));	/* the header in host order from here on */
	ret = one_record(f, (struct perf_event_header *)p, off);
	if (own)
		stream_queue__done(&f->q, own, off + 1);
	return ret;
}

/* records in p[0..len): stops before an incomplete record, *used says where */
static int process_records(struct perf_file *f, uint8_t *p, size_t len, uint64_t off,
			   size_t *used)
{
	size_t pos = 0;
	int ret = 0;

	while (len - pos >= 8) {
		struct perf_event_header h = peek_header(f, p + pos);

		if (h.size < 8) {
			ret = pd_bad(f, off, "bad record size %u (type %u)", h.size, h.type);
			break;
		}
		if (h.size > len - pos)
			break;
		ret = record_at(f, p + pos, &h, off);
		if (ret)
			break;
		pos += h.size;
	}
	*used = pos;
	return ret;
}

/* one_record() for a SAMPLE in host order, 8-byte aligned, after begin(): the common case */
static inline int sample_at(struct perf_file *f, const struct perf_event_header *h, uint64_t off)
{
	struct pd_evsel *e = pd_evsel_of_sample(f, h);
	uint64_t t = ~0ULL;

	f->stats.nr_records++;
	f->stats.nr_by_type[PERF_RECORD_SAMPLE]++;
	if (e && e->time_off >= 0 && e->time_off + 8 <= h->size)
		memcpy(&t, (const uint8_t *)h + e->time_off, 8);
	if (f->unordered && e && (f->unordered >> (h->misc & PERF_RECORD_MISC_CPUMODE_MASK) & 1)) {
		stream_queue__saw(&f->q, t);
		if (!pd_parse_common(f, e, h))
			return pd_deliver(f, h, e, off);
		return f->ops->sample ? f->ops->sample(f->ops->ctx, &e->cur) : 0;
	}
	if (!t || t == ~0ULL)
		return pd_deliver(f, h, e, off);
	return stream_queue__push_inl(&f->q, pd_queued_rec(f, h), t, pd_evsel_tag(e), off);
}

/*
 * Samples with user stacks (--call-graph dwarf: kilobytes each, read by the unwinder alone
 * where by anything) are parsed where the file is mapped, where that is the cheaper way
 * (map_cheaper()). The mapping is read-only, so its pages behind the record being parsed can
 * be given back at any time (a queued record there faults in again from the page cache when
 * delivered): every PD_DROP_STEP parsed and every PD_DROP_STEP delivered (a round delivered at
 * once faults in all of it), so memory stays flat however large the file.
 */
static bool has_stacks(const struct perf_file *f)
{
	size_t i;

	for (i = 0; i < f->nr_evsels; i++)
		if (f->evsels[i]->sample_type & PERF_SAMPLE_STACK_USER)
			return true;
	return false;
}

static uint64_t thread_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/*
 * Whether a page of the file costs less where it is mapped (its first touch) than read (copied
 * into a buffer in use), told by timing both on the data's first PD_PROBE_BYTES. Machines
 * differ by far: on one VM of this project's kind the mapped dwarf.data of the bench corpus
 * gave `report --sort sym` in 8-10 ms against 80 ms read (every byte read twice then); on
 * another one a page touched cost ~2 us and one copied ~0.5 us, and mapped took 31-58 ms
 * (more on a file just written: 136-234 ms, against 43-53 ms read) against 25 ms read once.
 * A file too small to tell is mapped. The outputs are the same either way.
 */
#define PD_PROBE_BYTES	(256u << 10)
#define PD_PROBE_PIECE	(64u << 10)

static bool map_cheaper(struct perf_file *f)
{
	uint64_t lo = f->hdr.data_offset & ~(uint64_t)4095, t0, t1, t2;
	volatile const char *m = (const char *)f->map;
	char *buf;
	size_t i;
	int ok = 1;

	if (f->hdr.data_size < 2 * PD_PROBE_BYTES || lo + PD_PROBE_BYTES > f->map_len)
		return true;
	buf = malloc(PD_PROBE_PIECE);
	if (!buf)
		return true;
	ok &= pread(f->fd, buf, PD_PROBE_PIECE, (off_t)lo) == PD_PROBE_PIECE;	/* warm */
	t0 = thread_ns();
	for (i = 0; i < PD_PROBE_BYTES; i += PD_PROBE_PIECE)
		ok &= pread(f->fd, buf, PD_PROBE_PIECE, (off_t)(lo + i)) == PD_PROBE_PIECE;
	t1 = thread_ns();
	for (i = 0; i < PD_PROBE_BYTES; i += 4096)
		(void)m[lo + i];
	t2 = thread_ns();
	free(buf);
	madvise((void *)(f->map + lo), PD_PROBE_BYTES, MADV_DONTNEED);
	return !ok || t2 - t1 < t1 - t0;
}

void pd_drop_behind(struct perf_file *f)
{
	uint64_t lo = f->hdr.data_offset & ~(uint64_t)4095, hi = f->map_at & ~(uint64_t)4095;

	if (hi > lo)
		madvise((void *)(f->map + lo), hi - lo, MADV_DONTNEED);
	f->drop_next = f->map_at + PD_DROP_STEP;
	f->drop_count = 0;
}

/*
 * The records of the data section parsed where the file is mapped: SCHEDLENS_MMAP (the
 * mapping populated beforehand), or samples with user stacks (has_stacks(), @drop set)
 */
static int run_mapped(struct perf_file *f, bool drop)
{
	uint64_t off = f->hdr.data_offset, end = off + f->hdr.data_size;
	int ret = 0;

	f->map_drop = drop;
	f->drop_next = off + PD_DROP_STEP;

	while (off < end) {
		struct perf_event_header h;

		if (end - off < 8) {
			ret = pd_bad(f, off, "truncated record header");
			break;
		}
		h = peek_header(f, f->map + off);
		if (h.size < 8) {
			ret = pd_bad(f, off, "bad record size %u (type %u)", h.size, h.type);
			break;
		}
		if (h.size > end - off) {
			ret = pd_bad(f, off, "record of %u bytes runs past the end of the data",
				     h.size);
			break;
		}
		pd_progress(f, off - f->hdr.data_offset, f->hdr.data_size);
		if (drop) {
			f->map_at = off;
			if (off >= f->drop_next)
				pd_drop_behind(f);
		}
		if (h.type == PERF_RECORD_SAMPLE && f->begun && !f->swap && !(off & 7))
			ret = sample_at(f, (const struct perf_event_header *)(f->map + off), off);
		else
			ret = record_at(f, (uint8_t *)f->map + off, &h, off);
		if (ret)
			break;
		off += h.size;
	}
	return ret;
}

/*
 * The windows: a run of queued records is delivered in file order, so each run reads forward
 * through a window of its own. A window is found by the 16 kB grain its start lies in (win_at,
 * direct-mapped): a record's window, or the one its run was reading (ending at most
 * PD_WIN_SLACK before it), starts in its grain or one of the PD_WIN_PROBES - 1 before. A record
 * in none refills its run's window, else a new one while there are fewer than PD_WIN_MAX (one
 * a CPU ring buffer, as a round holds a run a CPU) and than two a run in the queue plus 4,
 * else the one used longest ago (sparse runs, user samples among kernel ones counted as read,
 * found none of their own past PD_WIN_SLACK and took a window each: 67 on the bench's
 * system-wide file for `report --sort sym`, 12 so, and fewer reads). The first
 * PD_WIN_BIG windows hold 128 kB, the next ones 16 kB (a record larger grows its window to
 * 64 kB): memory stays under 20 MB where a round has hundreds of runs (578 in a copy of the
 * bench's system-wide file replicated past 2 GB, a round a copy).
 */
#define PD_WIN_GRAIN	14
#define PD_WIN_SIZE	(128u << 10)
#define PD_WIN_SMALL	(16u << 10)
#define PD_WIN_LARGEST	(64u << 10)	/* any record: sizes are u16 */
#define PD_WIN_BIG	32
#define PD_WIN_MAX	1024
#define PD_WIN_SLACK	4096
#define PD_WIN_PROBES	((PD_WIN_SIZE + PD_WIN_SLACK) / (1u << PD_WIN_GRAIN) + 1)

static inline uint16_t *win_slot(struct perf_file *f, uint64_t grain)
{
	return &f->win_at[grain & (PD_WIN_HASH - 1)];
}

/*
 * The window that holds the record at @off whole (*whole set), else the one its run was
 * reading (the highest start at or below it, ending at most PD_WIN_SLACK before it), or NULL
 */
static struct pd_window *win_near(struct perf_file *f, uint64_t off, bool *whole)
{
	uint64_t g = off >> PD_WIN_GRAIN;
	struct pd_window *run = NULL;
	unsigned int k;

	*whole = false;
	for (k = 0; k < PD_WIN_PROBES && k <= g; k++) {
		uint16_t i = *win_slot(f, g - k);
		struct pd_window *x = &f->win[i];

		if (i >= f->nr_win || x->lo >> PD_WIN_GRAIN != g - k)
			continue;
		if (pd_win_has(x, off)) {
			*whole = true;
			return x;
		}
		if (x->lo <= off && off <= x->hi + PD_WIN_SLACK && (!run || x->lo > run->lo))
			run = x;
	}
	return run;
}

/* a window for a run that has none: a new one, or the one used longest ago; NULL: no memory */
static struct pd_window *win_new(struct perf_file *f)
{
	struct pd_window *w = NULL;
	size_t i;

	if (f->nr_win == PD_WIN_MAX || f->nr_win >= 2 * f->q.nr_runs + 4) {
		for (i = 0; i < f->nr_win; i++)
			if (!w || f->win[i].used < w->used)
				w = &f->win[i];
		return w;
	}
	if (f->nr_win == f->win_alloc) {
		size_t na = f->win_alloc ? 2 * f->win_alloc : 8;
		void *p = realloc(f->win, na * sizeof(*f->win));

		if (!p)
			return NULL;
		f->win = p;
		f->win_alloc = na;
	}
	w = &f->win[f->nr_win];
	w->size = f->nr_win < PD_WIN_BIG ? PD_WIN_SIZE : PD_WIN_SMALL;
	w->buf = malloc(w->size);
	if (!w->buf)
		return NULL;
	w->lo = w->hi = 0;
	f->nr_win++;
	return w;
}

/* the data from @off on (up to @end) into @w: bytes read, or -1 (errno) */
static ssize_t win_read(struct perf_file *f, struct pd_window *w, uint64_t off, uint64_t end)
{
	if (off < f->hdr.data_offset || off >= end)
		return 0;
	return pread(f->fd, w->buf, end - off < w->size ? end - off : w->size, off);
}

const struct perf_event_header *pd_fetch_slow(struct perf_file *f, uint64_t off)
{
	uint64_t end = f->hdr.data_offset + f->hdr.data_size;
	struct pd_window *w = NULL;
	bool whole = false;
	ssize_t n;

	f->win_tick++;
	if (!f->win_at && !(f->win_at = calloc(PD_WIN_HASH, sizeof(*f->win_at))))
		goto nomem;
	if (f->nr_win)
		w = win_near(f, off, &whole);
	if (whole) {
		w->used = f->win_tick;
		f->win_last = w - f->win;
		return (const void *)(w->buf + (off - w->lo));
	}
	if (!w && !(w = win_new(f)))
		goto nomem;
	n = win_read(f, w, off, end);
	if (n >= 8 && (size_t)n == w->size && w->size < PD_WIN_LARGEST &&
	    ((const struct perf_event_header *)w->buf)->size > n) {
		char *big = realloc(w->buf, PD_WIN_LARGEST);

		if (!big)
			goto nomem;
		w->buf = big;
		w->size = PD_WIN_LARGEST;
		n = win_read(f, w, off, end);
	}
	if (n < 0) {
		err__set(f->err, -errno, "cannot read '%s': %s", f->path, strerror(errno));
		return NULL;
	}
	w->lo = off;
	w->hi = off + n;
	w->used = f->win_tick;
	f->win_last = w - f->win;
	*win_slot(f, off >> PD_WIN_GRAIN) = f->win_last;
	if (pd_win_has(w, off))
		return (const void *)w->buf;
	w->hi = w->lo;
	pd_bad(f, off, "the record there is not the one read before: was the file changed?");
	return NULL;
nomem:
	err__set(f->err, -ENOMEM, "out of memory");
	return NULL;
}

/*
 * The data section is read, not mapped: on a virtual machine a page-table entry costs more
 * than copying its page (here `report --no-symbols` of 437,800 samples: 25 ms read against
 * 49 ms mapped and populated, zero-copy), and a chunk that goes back to the pool is reused
 * warm. A record that straddles two chunks moves to the start of the next one; a chunk
 * with queued records stays until they are delivered, up to PD_KEPT_CHUNKS of them, and past
 * that records are queued by offset and read again when delivered (chunk_get()). On the
 * bench's system-wide recording (rounds of up to 21.7 MB, two in the queue) peak RSS of
 * `report --sort sym` went 88 -> 40 MB so. Samples with user stacks are parsed in the mapping
 * where that costs less here (map_cheaper()), and so is everything with SCHEDLENS_MMAP=1
 * (run_mapped).
 */
static int run_file(struct perf_file *f)
{
	uint64_t off = f->hdr.data_offset, end = off + f->hdr.data_size;
	struct stream_chunk *c = NULL, *prev = NULL;
	size_t have = 0, pos = 0;
	int ret = 0;

	f->kept_max = PD_KEPT_CHUNKS;
	if (f->in_place) {
		ret = run_mapped(f, false);
		goto out;
	}
	if (has_stacks(f)) {
		if (!f->swap && !f->pipe && f->map && !f->chunks_only &&
		    (f->stacks_mapped || map_cheaper(f))) {
			ret = run_mapped(f, true);
			goto out;
		}
		f->kept_max = PD_KEPT_STACKS;
	}
	while (off < end) {
		struct perf_event_header h;

		if (have - pos < 8 || (h = peek_header(f, (uint8_t *)c->data + pos),
				       h.size > have - pos && h.size >= 8)) {
			size_t keep = have - pos, want;
			ssize_t n;

			if (keep >= end - off) {
				ret = keep < 8 ? pd_bad(f, off, "truncated record header")
					       : pd_bad(f, off, "record of %u bytes runs past the "
							"end of the data", h.size);
				break;
			}
			prev = c;
			c = chunk_get(f, off);
			if (!c) {
				ret = -ENOMEM;
				break;
			}
			want = c->len - keep < end - off - keep ? c->len - keep : end - off - keep;
			if (keep)
				memcpy(c->data, prev->data + pos, keep);
			if (prev && chunk_tracked(f, prev))
				stream_queue__done(&f->q, prev, off);
			pd_progress(f, off - f->hdr.data_offset, f->hdr.data_size);
			n = pread(f->fd, c->data + keep, want, off + keep);
			if (n <= 0) {
				ret = n < 0 ? err__set(f->err, -errno, "cannot read '%s': %s",
						       f->path, strerror(errno))
					    : pd_bad(f, off + keep, "unexpected end of file");
				break;
			}
			have = keep + n;
			pos = 0;
			continue;
		}
		if (h.size < 8) {
			ret = pd_bad(f, off, "bad record size %u (type %u)", h.size, h.type);
			break;
		}
		if (h.type == PERF_RECORD_SAMPLE && f->begun && !f->swap && !(pos & 7))
			ret = sample_at(f, (struct perf_event_header *)(c->data + pos), off);
		else
			ret = record_at(f, (uint8_t *)c->data + pos, &h, off);
		if (ret)
			break;
		pos += h.size;
		off += h.size;
	}
	if (c && chunk_tracked(f, c))
		stream_queue__done(&f->q, c, off);
	f->rb_lo = f->rb_hi = NULL;	/* what is still queued is delivered by offset */
out:
	if (!ret && f->truncated)
		ret = pd_bad(f, off, "file truncated: %llu of %llu bytes of data",
			     (unsigned long long)f->hdr.data_size, (unsigned long long)f->truncated);
	return ret;
}

/* read exactly len bytes from the pipe; 0, 1 at a clean EOF before any byte, or -errno */
static int pipe_read(struct perf_file *f, void *buf, size_t len)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = read(f->fd, (char *)buf + got, len - got);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return err__set(f->err, -errno, "cannot read '%s': %s", f->path,
					strerror(errno));
		}
		if (!n)
			return got ? pd_bad(f, f->pipe_off + got, "unexpected end of file") : 1;
		got += n;
	}
	f->pipe_off += len;
	return 0;
}

static int pipe_tracing_data(struct perf_file *f, const struct perf_event_header *h,
			     uint64_t off)
{
	uint32_t size;
	uint8_t *buf;
	size_t len;
	int ret;

	if (h->size < 12)
		return pd_bad(f, off, "TRACING_DATA record too short");
	size = pd_get32(f, h + 1);
	if (size > (256u << 20))
		return pd_bad(f, off, "tracing data of %u bytes", size);
	len = (size + 7) & ~7ul;
	buf = malloc(len ?: 1);
	if (!buf)
		return -ENOMEM;
	ret = pipe_read(f, buf, len);
	if (ret > 0)
		ret = pd_bad(f, f->pipe_off, "unexpected end of file in tracing data");
	if (!ret)
		ret = pd_tracing_data(f, buf, size, off + h->size);
	free(buf);
	return ret;
}

static int run_pipe(struct perf_file *f)
{
	struct stream_chunk *c = NULL;
	size_t pos = 0;
	int ret = 0;

	for (;;) {
		struct perf_event_header *h;
		uint64_t off = f->pipe_off;

		if (!c || c->len - pos < PERF_MAX_REC) {
			pd_progress(f, off, 0);
			if (c)
				stream_queue__done(&f->q, c, off);
			c = stream_chunk__new(PIPE_CHUNK);
			if (!c)
				return -ENOMEM;
			stream_queue__track(&f->q, c, off);
			pos = 0;
		}
		h = (struct perf_event_header *)(c->data + pos);
		ret = pipe_read(f, h, 8);
		if (ret) {
			ret = ret > 0 ? 0 : ret;
			break;
		}
		swap_header(f, h);
		if (h->size < 8) {
			ret = pd_bad(f, off, "bad record size %u (type %u)", h->size, h->type);
			break;
		}
		ret = pipe_read(f, h + 1, h->size - 8);
		if (ret) {
			ret = ret > 0 ? pd_bad(f, off, "truncated record") : ret;
			break;
		}
		pos += (h->size + 7) & ~7u;
		if (h->type == PERF_REC_HEADER_TRACING_DATA) {
			f->stats.nr_records++;
			f->stats.nr_by_type[h->type]++;
			ret = pipe_tracing_data(f, h, off);
		} else {
			ret = one_record(f, h, off);
		}
		if (ret)
			break;
	}
	if (c)
		stream_queue__done(&f->q, c, f->pipe_off);
	return ret;
}

int perf_file__open(struct perf_file **out, const char *path, struct errbuf *err)
{
	struct perf_file *f = calloc(1, sizeof(*f));
	uint64_t magic, size;
	uint8_t hdr[16];
	int ret;

	if (!f)
		return -ENOMEM;
	stream_queue__init(&f->q, pd_deliver_queued, f);
	f->q.flushed = pd_flushed;
	f->err = err;
	f->path = strdup(!strcmp(path, "-") ? "(stdin)" : path);
	f->fd = !strcmp(path, "-") ? 0 : open(path, O_RDONLY | O_CLOEXEC);
	if (!f->path || f->fd < 0) {
		ret = f->path ? err__set(err, -errno, "cannot open '%s': %s", path, strerror(errno))
			      : -ENOMEM;
		goto out_free;
	}
	ret = pd_map_file(f);
	if (ret < 0)
		goto out_free;
	if (ret == 0 && f->file_size >= 16) {
		memcpy(hdr, f->map, 16);
	} else {
		f->pipe = true;
		ret = pipe_read(f, hdr, 16);
		if (ret) {
			ret = ret > 0 ? pd_bad(f, 0, "empty file") : ret;
			goto out_free;
		}
	}
	memcpy(&magic, hdr, 8);
	if (magic == PERF_MAGIC2_SW)
		f->swap = true;
	else if (magic != PERF_MAGIC2) {
		ret = pd_bad(f, 0, "not a perf.data file (bad magic)");
		goto out_free;
	}
	size = pd_get64(f, hdr + 8);
	f->hdr.big_endian = f->info.big_endian = (__BYTE_ORDER == __LITTLE_ENDIAN) == f->swap;
	if (size == PERF_PIPE_HDR_SZ) {
		if (!f->pipe)
			f->pipe_off = 16;	/* a pipe-mode file: stream it from there */
		if (!f->pipe && lseek(f->fd, 16, SEEK_SET) < 0) {
			ret = err__set(err, -errno, "cannot seek '%s': %s", path, strerror(errno));
			goto out_free;
		}
		f->pipe = true;
	} else if (f->pipe) {
		ret = pd_bad(f, 8, "a file-mode perf.data (header size %llu) cannot be streamed: "
			     "give it as a file", (unsigned long long)size);
		goto out_free;
	} else if (size < PERF_FILE_HDR_SZ) {
		ret = pd_bad(f, 8, "unsupported header size %llu", (unsigned long long)size);
		goto out_free;
	} else {
		ret = pd_open_file_mode(f);
		if (ret)
			goto out_free;
	}
	f->hdr.pipe_mode = f->info.pipe_mode = f->pipe;
	f->info.path = f->path;
	if (!f->pipe)
		pd_origin(f);
	*out = f;
	return 0;
out_free:
	perf_file__delete(f);
	return ret;
}

/* the buffers records are read into and queued from: a file is read once (perf_file__run) */
static void free_buffers(struct perf_file *f)
{
	stream_queue__exit(&f->q);
	while (f->chunk_pool) {
		struct stream_chunk *c = f->chunk_pool;

		f->chunk_pool = c->next;
		free(c);
	}
	free(f->rbuf[0]);
	free(f->rbuf[1]);
	f->rbuf[0] = f->rbuf[1] = NULL;
	f->rb_lo = f->rb_hi = NULL;
	while (f->nr_win)
		free(f->win[--f->nr_win].buf);
	free(f->win);
	free(f->win_at);
	f->win = NULL;
	f->win_at = NULL;
	f->win_alloc = f->win_last = 0;
}

void perf_file__delete(struct perf_file *f)
{
	if (!f)
		return;
	free_buffers(f);
	if (f->map)
		munmap((void *)f->map, f->map_len);
	if (f->fd > 0)
		close(f->fd);
	pd_evsels_free(f);
	pd_header_free(&f->hdr);
	if (f->tep)
		tep_free(f->tep);
	if (f->zstd)
		ZSTD_freeDCtx(f->zstd);
	free(f->tracing_data);
	free(f->decomp_rem);
	free(f->scratch);
	free(f->path);
	free(f);
}

int perf_file__run(struct perf_file *f, const struct stream_ops *ops, struct errbuf *err)
{
	static const struct stream_ops none;
	int ret, ret2;

	if (f->ran)
		return err__set(err, -EALREADY, "'%s': already read", f->path);
	f->ran = true;
	f->err = err;
	f->ops = ops ?: &none;
	ret = f->pipe ? run_pipe(f) : run_file(f);
	if (!f->begun && !ret)
		ret = begin(f);
	if (f->begun) {
		ret2 = stream_queue__flush(&f->q, ~0ULL);
		if (!ret)
			ret = ret2;
		if (f->ops->end) {
			ret2 = f->ops->end(f->ops->ctx, &f->stats);
			if (!ret)
				ret = ret2;
		}
	}
	/* what comes next (a report's tables, printing) takes that memory, not more */
	free_buffers(f);
	return ret;
}

void perf_file__set_progress(struct perf_file *f,
			     void (*fn)(void *ctx, uint64_t done, uint64_t total), void *ctx)
{
	f->progress = fn;
	f->progress_ctx = ctx;
	f->progress_next = 0;
}

int perf_file__process(const char *path, const struct stream_ops *ops, struct errbuf *err)
{
	struct perf_file *f;
	int ret = perf_file__open(&f, path, err);

	if (ret)
		return ret;
	ret = perf_file__run(f, ops, err);
	perf_file__delete(f);
	return ret;
}

const struct perf_file_header *perf_file__header(const struct perf_file *f)
{
	return &f->hdr;
}

const struct stream_info *perf_file__info(const struct perf_file *f)
{
	return &f->info;
}

const struct stream_stats *perf_file__stats(const struct perf_file *f)
{
	return &f->stats;
}

void perf_file__set_queue_limit(struct perf_file *f, size_t max_records)
{
	f->q.limit = max_records;
}

int perf_file__tracing_data(const struct perf_file *f, const void **data, size_t *size)
{
	*data = f->tracing_data;
	*size = f->tracing_data_size;
	return f->tracing_data ? 0 : -ENOENT;
}
