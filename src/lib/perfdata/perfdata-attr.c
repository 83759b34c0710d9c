// SPDX-License-Identifier: GPL-2.0
/* perf.data reader: attrs, events and their ids, event names. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "perfdata-int.h"

#define ATTR_OFF(field) offsetof(struct perf_event_attr, field)

/* the u64/u32/u16 fields of perf_event_attr, for byte swapping */
static const struct {
	unsigned short off, width;
} attr_fields[] = {
	{ ATTR_OFF(type), 4 }, { ATTR_OFF(size), 4 }, { ATTR_OFF(config), 8 },
	{ ATTR_OFF(sample_period), 8 }, { ATTR_OFF(sample_type), 8 },
	{ ATTR_OFF(read_format), 8 }, { ATTR_OFF(read_format) + 8, 0 /* bitfield */ },
	{ ATTR_OFF(wakeup_events), 4 }, { ATTR_OFF(bp_type), 4 }, { ATTR_OFF(config1), 8 },
	{ ATTR_OFF(config2), 8 }, { ATTR_OFF(branch_sample_type), 8 },
	{ ATTR_OFF(sample_regs_user), 8 }, { ATTR_OFF(sample_stack_user), 4 },
	{ ATTR_OFF(clockid), 4 }, { ATTR_OFF(sample_regs_intr), 8 },
	{ ATTR_OFF(aux_watermark), 4 }, { ATTR_OFF(sample_max_stack), 2 },
	{ ATTR_OFF(sample_max_stack) + 2, 2 }, { ATTR_OFF(aux_sample_size), 4 },
	{ ATTR_OFF(aux_sample_size) + 4, 4 }, { ATTR_OFF(sig_data), 8 },
};

static uint8_t revbits(uint8_t b)
{
	b = (b & 0xf0) >> 4 | (b & 0x0f) << 4;
	b = (b & 0xcc) >> 2 | (b & 0x33) << 2;
	return (b & 0xaa) >> 1 | (b & 0x55) << 1;
}

/* a big-endian bitfield u64: bit 0 is the MSB of byte 0 */
void pd_attr_swap_bitfield(struct perf_event_attr *attr)
{
	uint8_t *p = (uint8_t *)&attr->read_format + 8;
	int i;

	for (i = 0; i < 8; i++)
		p[i] = revbits(p[i]);
}

int pd_attr_read(struct perf_file *f, const void *p, size_t avail, struct perf_event_attr *attr,
		 size_t *consumed, uint64_t off)
{
	uint32_t size;
	size_t i, n;

	if (avail < PERF_ATTR_SIZE_VER0)
		return pd_bad(f, off, "attr of %zu bytes is too short", avail);
	size = pd_get32(f, (const char *)p + 4);
	if (!size)
		size = PERF_ATTR_SIZE_VER0;
	if (size < PERF_ATTR_SIZE_VER0 || size > avail || size > 4096)
		return pd_bad(f, off, "bad attr size %u", size);
	memset(attr, 0, sizeof(*attr));
	n = size < sizeof(*attr) ? size : sizeof(*attr);
	memcpy(attr, p, n);
	if (f->swap) {
		for (i = 0; i < ARRAY_SIZE(attr_fields); i++) {
			char *q = (char *)attr + attr_fields[i].off;

			if ((size_t)attr_fields[i].off + (attr_fields[i].width ?: 8) > n)
				break;
			if (attr_fields[i].width == 8)
				*(uint64_t *)q = bswap_64(*(uint64_t *)q);
			else if (attr_fields[i].width == 4)
				*(uint32_t *)q = bswap_32(*(uint32_t *)q);
			else if (attr_fields[i].width == 2)
				*(uint16_t *)q = bswap_16(*(uint16_t *)q);
			else
				pd_attr_swap_bitfield(attr);
		}
	}
	attr->size = size;
	*consumed = size;
	return 0;
}

static const char *const hw_names[] = {
	"cycles", "instructions", "cache-references", "cache-misses", "branches",
	"branch-misses", "bus-cycles", "stalled-cycles-frontend", "stalled-cycles-backend",
	"ref-cycles",
};
static const char *const sw_names[] = {
	"cpu-clock", "task-clock", "page-faults", "context-switches", "cpu-migrations",
	"minor-faults", "major-faults", "alignment-faults", "emulation-faults", "dummy",
	"bpf-output", "cgroup-switches",
};
static const char *const cache_names[] = {
	"L1-dcache", "L1-icache", "LLC", "dTLB", "iTLB", "branch", "node",
};
static const char *const cache_op[][2] = {
	{ "load", "loads" }, { "store", "stores" }, { "prefetch", "prefetches" },
};

/* perf's evsel__add_modifiers() */
static size_t add_modifiers(const struct perf_event_attr *a, char *bf, size_t size)
{
	bool excl_guest_default = false;
	size_t colon = 0, r = 0;

#define MOD(ctx, c)                                                       \
	do {                                                              \
		if (!a->exclude_##ctx) {                                  \
			if (!colon)                                       \
				colon = ++r;                              \
			r += snprintf(bf + r, size > r ? size - r : 0, "%c", c); \
		}                                                         \
	} while (0)
	if (a->exclude_kernel || a->exclude_user || a->exclude_hv) {
		MOD(kernel, 'k');
		MOD(user, 'u');
		MOD(hv, 'h');
		excl_guest_default = true;
	}
	if (a->precise_ip) {
		if (!colon)
			colon = ++r;
		r += snprintf(bf + r, size > r ? size - r : 0, "%.*s", (int)a->precise_ip, "ppp");
		excl_guest_default = true;
	}
	if (a->exclude_host || a->exclude_guest == excl_guest_default) {
		MOD(host, 'H');
		MOD(guest, 'G');
	}
#undef MOD
	if (colon && colon - 1 < size)
		bf[colon - 1] = ':';
	return r;
}

void perf_attr__name(const struct perf_event_attr *a, char *buf, size_t len)
{
	uint64_t c = a->config;
	size_t n;

	switch (a->type) {
	case PERF_TYPE_HARDWARE:
		if (c < ARRAY_SIZE(hw_names))
			n = snprintf(buf, len, "%s", hw_names[c]);
		else
			n = snprintf(buf, len, "unknown-hardware");
		break;
	case PERF_TYPE_SOFTWARE:
		if (c < ARRAY_SIZE(sw_names))
			n = snprintf(buf, len, "%s", sw_names[c]);
		else
			n = snprintf(buf, len, "unknown-software");
		break;
	case PERF_TYPE_HW_CACHE: {
		unsigned t = c & 0xff, op = (c >> 8) & 0xff, res = (c >> 16) & 0xff;

		if (t >= ARRAY_SIZE(cache_names) || op >= ARRAY_SIZE(cache_op) || res > 1)
			n = snprintf(buf, len, "invalid-cache");
		else if (res == PERF_COUNT_HW_CACHE_RESULT_MISS)
			n = snprintf(buf, len, "%s-%s-misses", cache_names[t], cache_op[op][0]);
		else
			n = snprintf(buf, len, "%s-%s", cache_names[t], cache_op[op][1]);
		break;
	}
	case PERF_TYPE_RAW:
		n = snprintf(buf, len, "raw 0x%llx", (unsigned long long)c);
		break;
	case PERF_TYPE_BREAKPOINT:
		n = snprintf(buf, len, "mem:0x%llx:%s%s%s", (unsigned long long)a->bp_addr,
			     a->bp_type & 1 ? "r" : "", a->bp_type & 2 ? "w" : "",
			     a->bp_type & 4 ? "x" : "");
		break;
	case PERF_TYPE_TRACEPOINT:
		snprintf(buf, len, "unknown tracepoint %llu", (unsigned long long)c);
		return;
	default:
		snprintf(buf, len, "unknown attr type: %u", a->type);
		return;
	}
	if (n < len)
		add_modifiers(a, buf + n, len - n);
}

/* bytes of the fixed-size sample fields, and the position of the id in samples (in u64s) */
static int id_pos(uint64_t t)
{
	int pos = 0;

	if (t & PERF_SAMPLE_IDENTIFIER)
		return 0;
	if (!(t & PERF_SAMPLE_ID))
		return -1;
	pos += !!(t & PERF_SAMPLE_IP) + !!(t & PERF_SAMPLE_TID) + !!(t & PERF_SAMPLE_TIME) +
	       !!(t & PERF_SAMPLE_ADDR);
	return pos;
}

/* position of the id counted back from the end of a sample_id trailer (1 = last u64) */
static int is_pos(uint64_t t)
{
	if (t & PERF_SAMPLE_IDENTIFIER)
		return 1;
	if (!(t & PERF_SAMPLE_ID))
		return -1;
	return 1 + !!(t & PERF_SAMPLE_CPU) + !!(t & PERF_SAMPLE_STREAM_ID);
}

int pd_evsel_add(struct perf_file *f, const struct perf_event_attr *attr, const uint64_t *ids,
		 size_t nr_ids, bool swap_ids)
{
	struct pd_evsel *e, **ev;
	void *idv;
	size_t i;

	if (f->nr_evsels >= 4096)
		return -E2BIG;
	if (nr_ids > (1u << 20) || f->nr_ids + nr_ids > (1u << 22))
		return -E2BIG;
	ev = realloc(f->evsels, (f->nr_evsels + 1) * sizeof(*ev));
	if (!ev)
		return -ENOMEM;
	f->evsels = ev;
	e = calloc(1, sizeof(*e));
	if (!e)
		return -ENOMEM;
	e->ev.attr = *attr;
	e->sample_type = attr->sample_type;
	{
		uint64_t t = attr->sample_type;

		e->time_off = t & PERF_SAMPLE_TIME ?
			8 + 8 * (!!(t & PERF_SAMPLE_IDENTIFIER) + !!(t & PERF_SAMPLE_IP) +
				 !!(t & PERF_SAMPLE_TID)) : -1;
		e->sid_len = stream_trailer_len(attr);
		e->sid_time_off = attr->sample_id_all && (t & PERF_SAMPLE_TIME) ?
			8 * !!(t & PERF_SAMPLE_TID) : -1;
	}
	sample_layout__init(&e->layout, attr);
	e->ev.idx = f->nr_evsels;
	if (nr_ids) {
		e->ev.ids = malloc(nr_ids * sizeof(uint64_t));
		idv = realloc(f->ids, (f->nr_ids + nr_ids) * sizeof(*f->ids));
		if (!e->ev.ids || !idv) {
			free(e->ev.ids);
			free(e);
			if (idv)
				f->ids = idv;
			return -ENOMEM;
		}
		f->ids = idv;
		for (i = 0; i < nr_ids; i++) {
			uint64_t id;

			memcpy(&id, &ids[i], 8);
			if (swap_ids)
				id = pd_u64(f, id);
			e->ev.ids[i] = id;
			f->ids[f->nr_ids].id = id;
			f->ids[f->nr_ids++].evsel = e;
		}
		e->ev.nr_ids = nr_ids;
		f->ids_sorted = false;
		free(f->id_dense);
		f->id_dense = NULL;
		memset(f->idcache, 0, sizeof(f->idcache));
	}
	perf_attr__name(attr, e->ev.name, sizeof(e->ev.name));
	ev[f->nr_evsels++] = e;
	return 0;
}

static int cmp_id(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* after all attrs: stream_info's array, tracepoint names, id positions */
void pd_evsels_finish(struct perf_file *f)
{
	struct stream_evsel *arr;
	size_t i;

	if (!f->ids_sorted && f->nr_ids) {
		qsort(f->ids, f->nr_ids, sizeof(*f->ids), cmp_id);
		f->ids_sorted = true;
	}
	/* the kernel hands out ids from one counter: a table indexed by id is usually small */
	free(f->id_dense);
	f->id_dense = NULL;
	if (f->nr_ids && f->ids[f->nr_ids - 1].id - f->ids[0].id < 4 * f->nr_ids + 4096) {
		f->id_min = f->ids[0].id;
		f->id_span = f->ids[f->nr_ids - 1].id - f->id_min + 1;
		f->id_dense = calloc(f->id_span, sizeof(*f->id_dense));
		for (i = 0; f->id_dense && i < f->nr_ids; i++)
			f->id_dense[f->ids[i].id - f->id_min] = f->ids[i].evsel;
	}
	if (f->nr_evsels) {
		f->id_pos = id_pos(f->evsels[0]->sample_type);
		f->is_pos = is_pos(f->evsels[0]->sample_type);
	}
	for (i = 0; i < f->nr_evsels; i++) {
		struct pd_evsel *e = f->evsels[i];

		memset(&e->tmpl, 0, sizeof(e->tmpl));
		e->tmpl.evsel = &e->ev;
		pd_sample_defaults(e, &e->tmpl);
	}
	arr = realloc(f->info.evsels, (f->nr_evsels ?: 1) * sizeof(*arr));
	if (!arr)
		return;
	for (i = 0; i < f->nr_evsels; i++) {
		struct pd_evsel *e = f->evsels[i];
		size_t j;

		if (e->ev.attr.type == PERF_TYPE_TRACEPOINT && f->tep)
			e->ev.tp = tep_find_event(f->tep, (int)e->ev.attr.config);
		for (j = 0; e->ev.attr.type == PERF_TYPE_TRACEPOINT && !e->named &&
			    j < f->nr_tp_names; j++)
			if (f->tp_names[j].id == e->ev.attr.config)
				break;
		if (e->ev.attr.type == PERF_TYPE_TRACEPOINT && !e->named && j < f->nr_tp_names)
			snprintf(e->ev.name, sizeof(e->ev.name), "%s", f->tp_names[j].name);
		else if (e->ev.attr.type == PERF_TYPE_TRACEPOINT && !e->named) {
			for (j = 0; j < f->nr_event_types; j++)
				if (f->event_types[j].id == e->ev.attr.config)
					snprintf(e->ev.name, sizeof(e->ev.name), "%s",
						 f->event_types[j].name);
		}
		arr[i] = e->ev;
	}
	f->info.evsels = arr;
	f->info.nr_evsels = f->nr_evsels;
	for (i = 0; i < f->nr_evsels; i++)
		f->evsels[i]->tmpl.evsel = &arr[i];
}

struct pd_evsel *pd_evsel_for_id(struct perf_file *f, uint64_t id)
{
	size_t lo = 0, hi = f->nr_ids, c = id & (ARRAY_SIZE(f->idcache) - 1);

	if (!f->nr_ids)
		return NULL;
	if (f->idcache[c].evsel && f->idcache[c].id == id)
		return f->idcache[c].evsel;
	if (!f->ids_sorted) {
		qsort(f->ids, f->nr_ids, sizeof(*f->ids), cmp_id);
		f->ids_sorted = true;
	}
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (f->ids[mid].id == id) {
			f->idcache[c].id = id;
			f->idcache[c].evsel = f->ids[mid].evsel;
			return f->ids[mid].evsel;
		}
		if (f->ids[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const struct stream_evsel *perf_file__evsel_by_id(const struct perf_file *f, uint64_t id)
{
	struct pd_evsel *e = pd_evsel_by_id((struct perf_file *)f, id);

	return e && (size_t)e->ev.idx < f->info.nr_evsels ? &f->info.evsels[e->ev.idx] : NULL;
}

void pd_evsels_free(struct perf_file *f)
{
	size_t i;

	for (i = 0; i < f->nr_evsels; i++) {
		free(f->evsels[i]->ev.ids);
		free(f->evsels[i]);
	}
	free(f->evsels);
	free(f->ids);
	free(f->id_dense);
	free(f->info.evsels);
	free(f->event_types);
	free(f->tp_names);
}

struct bitname {
	uint64_t bit;
	const char *name;
};

/* in perf's print order */
static const struct bitname sample_bits[] = {
	{ PERF_SAMPLE_IP, "IP" }, { PERF_SAMPLE_TID, "TID" }, { PERF_SAMPLE_TIME, "TIME" },
	{ PERF_SAMPLE_ADDR, "ADDR" }, { PERF_SAMPLE_READ, "READ" },
	{ PERF_SAMPLE_CALLCHAIN, "CALLCHAIN" }, { PERF_SAMPLE_ID, "ID" },
	{ PERF_SAMPLE_CPU, "CPU" }, { PERF_SAMPLE_PERIOD, "PERIOD" },
	{ PERF_SAMPLE_STREAM_ID, "STREAM_ID" }, { PERF_SAMPLE_RAW, "RAW" },
	{ PERF_SAMPLE_BRANCH_STACK, "BRANCH_STACK" }, { PERF_SAMPLE_REGS_USER, "REGS_USER" },
	{ PERF_SAMPLE_STACK_USER, "STACK_USER" }, { PERF_SAMPLE_IDENTIFIER, "IDENTIFIER" },
	{ PERF_SAMPLE_REGS_INTR, "REGS_INTR" }, { PERF_SAMPLE_DATA_SRC, "DATA_SRC" },
	{ PERF_SAMPLE_WEIGHT, "WEIGHT" }, { PERF_SAMPLE_PHYS_ADDR, "PHYS_ADDR" },
	{ PERF_SAMPLE_AUX, "AUX" }, { PERF_SAMPLE_CGROUP, "CGROUP" },
	{ PERF_SAMPLE_DATA_PAGE_SIZE, "DATA_PAGE_SIZE" },
	{ PERF_SAMPLE_CODE_PAGE_SIZE, "CODE_PAGE_SIZE" },
	{ PERF_SAMPLE_WEIGHT_STRUCT, "WEIGHT_STRUCT" }, { PERF_SAMPLE_TRANSACTION, "TRANSACTION" },
};
static const struct bitname read_bits[] = {
	{ PERF_FORMAT_TOTAL_TIME_ENABLED, "TOTAL_TIME_ENABLED" },
	{ PERF_FORMAT_TOTAL_TIME_RUNNING, "TOTAL_TIME_RUNNING" }, { PERF_FORMAT_ID, "ID" },
	{ PERF_FORMAT_GROUP, "GROUP" }, { PERF_FORMAT_LOST, "LOST" },
};

static size_t bits_str(char *b, size_t len, uint64_t v, const struct bitname *names, size_t n)
{
	size_t r = 0, i;

	for (i = 0; i < n; i++)
		if (v & names[i].bit)
			r += snprintf(b + r, len > r ? len - r : 0, "%s%s", r ? "|" : "",
				      names[i].name);
	return r;
}

#define PUT(...) (r += snprintf(buf + r, len > r ? len - r : 0, __VA_ARGS__))

/* perf's perf_event_attr__fprintf() as one line: "size: 80, config: 0x1, ..." */
void perf_attr__snprintf(const struct perf_event_attr *a, char *buf, size_t len,
			 const char *eq)
{
	static const struct {
		const char *name;
		unsigned short bit;
	} flags[] = {
		{ "disabled", 0 }, { "inherit", 1 }, { "pinned", 2 }, { "exclusive", 3 },
		{ "exclude_user", 4 }, { "exclude_kernel", 5 }, { "exclude_hv", 6 },
		{ "exclude_idle", 7 }, { "mmap", 8 }, { "comm", 9 }, { "freq", 10 },
		{ "inherit_stat", 11 }, { "enable_on_exec", 12 }, { "task", 13 },
		{ "watermark", 14 }, { "precise_ip", 15 }, { "mmap_data", 17 },
		{ "sample_id_all", 18 }, { "exclude_host", 19 }, { "exclude_guest", 20 },
		{ "exclude_callchain_kernel", 21 }, { "exclude_callchain_user", 22 },
		{ "mmap2", 23 }, { "comm_exec", 24 }, { "use_clockid", 25 },
		{ "context_switch", 26 }, { "write_backward", 27 }, { "namespaces", 28 },
		{ "ksymbol", 29 }, { "bpf_event", 30 }, { "aux_output", 31 }, { "cgroup", 32 },
		{ "text_poke", 33 }, { "build_id", 34 }, { "inherit_thread", 35 },
		{ "remove_on_exec", 36 }, { "sigtrap", 37 },
	};
	uint64_t bf;
	size_t r = 0, i;

	memcpy(&bf, (const char *)&a->read_format + 8, 8);
	if (a->type)
		PUT("type%s%u, ", eq, a->type);
	PUT("size%s%u", eq, a->size);
	if (a->config)
		PUT(", config%s%#llx", eq, (unsigned long long)a->config);
	if (a->sample_period)
		PUT(", { sample_period, sample_freq }%s%llu", eq,
		    (unsigned long long)a->sample_period);
	if (a->sample_type) {
		PUT(", sample_type%s", eq);
		r += bits_str(buf + r, len > r ? len - r : 0, a->sample_type, sample_bits,
			      ARRAY_SIZE(sample_bits));
	}
	if (a->read_format) {
		PUT(", read_format%s", eq);
		r += bits_str(buf + r, len > r ? len - r : 0, a->read_format, read_bits,
			      ARRAY_SIZE(read_bits));
	}
	for (i = 0; i < ARRAY_SIZE(flags); i++) {
		uint64_t v = (bf >> flags[i].bit) & (flags[i].bit == 15 ? 3 : 1);

		if (v)
			PUT(", %s%s%llu", flags[i].name, eq, (unsigned long long)v);
	}
	if (a->clockid)
		PUT(", clockid%s%d", eq, a->clockid);
	if (a->wakeup_events)
		PUT(", { wakeup_events, wakeup_watermark }%s%u", eq, a->wakeup_events);
	if (a->bp_type)
		PUT(", bp_type%s%u", eq, a->bp_type);
	if (a->config1)
		PUT(", config1%s%#llx", eq, (unsigned long long)a->config1);
	if (a->config2)
		PUT(", config2%s%#llx", eq, (unsigned long long)a->config2);
	if (a->branch_sample_type)
		PUT(", branch_sample_type%s%#llx", eq, (unsigned long long)a->branch_sample_type);
	if (a->sample_regs_user)
		PUT(", sample_regs_user%s%#llx", eq, (unsigned long long)a->sample_regs_user);
	if (a->sample_stack_user)
		PUT(", sample_stack_user%s%u", eq, a->sample_stack_user);
	if (a->sample_regs_intr)
		PUT(", sample_regs_intr%s%#llx", eq, (unsigned long long)a->sample_regs_intr);
	if (a->aux_watermark)
		PUT(", aux_watermark%s%u", eq, a->aux_watermark);
	if (a->sample_max_stack)
		PUT(", sample_max_stack%s%u", eq, a->sample_max_stack);
}
