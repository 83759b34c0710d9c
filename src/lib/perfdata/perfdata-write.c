// SPDX-License-Identifier: GPL-2.0
/*
 * perf.data writer, file mode (tools/perf/util/header.c): the header at 0, the ids and
 * attrs after it, the data, then the feature table and sections, and finally the header
 * rewritten with the sizes. Host byte order.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "perfdata-int.h"
#include "schedlens/machine.h"

#define WBUF_LEN	(256u << 10)
#define ATTR_SZ		PERF_ATTR_SIZE_VER7	/* what perf 6.1 reads */
#define NAME_ALIGN	64
#ifndef PERF_RECORD_MISC_BUILD_ID_SIZE
#define PERF_RECORD_MISC_BUILD_ID_SIZE	(1 << 15)	/* the id's size is in byte 20 */
#endif

struct perf_writer {
	char *path;
	int fd;
	struct perf_writer_evsel *evsels;
	size_t nr;
	char **argv;
	int argc;
	void *td;
	size_t td_size;
	bool td_set;
	uint64_t data_offset, attr_offset, off, nr_samples;
	uint64_t since_round;	/* records written since the last FINISHED_ROUND */
	uint8_t *buf;
	size_t buf_len;
	int error;		/* first write error */
	struct wr_build_id {	/* the BUILD_ID feature: every file an MMAP2 gave one for */
		char *name;
		uint8_t id[20], size;
		uint16_t misc;	/* cpumode */
		int32_t pid;
	} *bids;
	size_t nr_bids, cap_bids;
};

static int wr_flush(struct perf_writer *w)
{
	size_t done = 0;

	while (done < w->buf_len && !w->error) {
		ssize_t n = write(w->fd, w->buf + done, w->buf_len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			w->error = n < 0 ? -errno : -EIO;
		else
			done += n;
	}
	w->buf_len = 0;
	return w->error;
}

static int wr(struct perf_writer *w, const void *p, size_t len)
{
	while (len && !w->error) {
		size_t n = WBUF_LEN - w->buf_len;

		if (n > len)
			n = len;
		memcpy(w->buf + w->buf_len, p, n);
		w->buf_len += n;
		w->off += n;
		p = (const char *)p + n;
		len -= n;
		if (w->buf_len == WBUF_LEN)
			wr_flush(w);
	}
	return w->error;
}

static int wr32(struct perf_writer *w, uint32_t v)
{
	return wr(w, &v, 4);
}

static int wr64(struct perf_writer *w, uint64_t v)
{
	return wr(w, &v, 8);
}

/* perf's do_write_string: u32 padded length, the string, NULs up to NAME_ALIGN */
static int wrstr(struct perf_writer *w, const char *s)
{
	static const char zero[NAME_ALIGN];
	uint32_t olen = strlen(s) + 1, len = (olen + NAME_ALIGN - 1) & ~(NAME_ALIGN - 1);

	wr32(w, len);
	wr(w, s, olen);
	return wr(w, zero, len - olen);
}

/* one line of a sysfs file of cpu @cpu's topology, without the newline; "" when missing */
static void topo_read(int cpu, const char *name, char *buf, size_t len)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, name);
	buf[0] = 0;
	f = fopen(path, "re");
	if (!f)
		return;
	if (!fgets(buf, len, f))
		buf[0] = 0;
	buf[strcspn(buf, "\n")] = 0;
	fclose(f);
}

/* the distinct cpu lists of @name (then @alt) over the online cpus, in first-seen order */
static int topo_lists(struct perf_writer *w, int nr_cpus, const char *name, const char *alt)
{
	char (*seen)[256] = calloc(nr_cpus ?: 1, sizeof(*seen));
	int cpu, i, n = 0;

	if (!seen)
		return -ENOMEM;
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		char on[8] = "1", path[64], buf[256];
		FILE *f;

		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
		if ((f = fopen(path, "re"))) {
			if (!fgets(on, sizeof(on), f))
				on[0] = '0';
			fclose(f);
		}
		if (on[0] != '1')
			continue;
		topo_read(cpu, name, buf, sizeof(buf));
		if (!buf[0] && alt)
			topo_read(cpu, alt, buf, sizeof(buf));
		if (!buf[0])
			continue;
		for (i = 0; i < n && strcmp(seen[i], buf); i++)
			;
		if (i == n)
			snprintf(seen[n++], sizeof(seen[0]), "%s", buf);
	}
	wr32(w, n);
	for (i = 0; i < n; i++)
		wrstr(w, seen[i]);
	free(seen);
	return n;
}

static void topo_ids(struct perf_writer *w, int nr_cpus, const char *name)
{
	char buf[32];
	int cpu;

	for (cpu = 0; cpu < nr_cpus; cpu++) {
		int32_t id = -1;

		topo_read(cpu, name, buf, sizeof(buf));
		if (buf[0])
			id = strtol(buf, NULL, 10);
		wr32(w, id);
	}
}

/*
 * CPU_TOPOLOGY as perf's write_cpu_topology: package and core sibling lists, then per
 * configured cpu its core and socket ids, then die lists and die ids where sysfs has dies.
 */
static void write_cpu_topology(struct perf_writer *w)
{
	int nr = sysconf(_SC_NPROCESSORS_CONF), cpu;
	char buf[256];

	topo_lists(w, nr, "package_cpus_list", "core_siblings_list");
	topo_lists(w, nr, "core_cpus_list", "thread_siblings_list");
	for (cpu = 0; cpu < nr; cpu++) {
		int32_t core = -1, socket = -1;

		topo_read(cpu, "core_id", buf, sizeof(buf));
		if (buf[0])
			core = strtol(buf, NULL, 10);
		topo_read(cpu, "physical_package_id", buf, sizeof(buf));
		if (buf[0])
			socket = strtol(buf, NULL, 10);
		wr32(w, core);
		wr32(w, socket);
	}
	topo_read(0, "die_cpus_list", buf, sizeof(buf));
	if (!buf[0])
		return;
	topo_lists(w, nr, "die_cpus_list", NULL);
	topo_ids(w, nr, "die_id");
}

static void free_evsels(struct perf_writer_evsel *ev, size_t nr)
{
	size_t i;

	for (i = 0; ev && i < nr; i++) {
		free((void *)ev[i].name);
		free((void *)ev[i].ids);
	}
	free(ev);
}

static void writer_free(struct perf_writer *w)
{
	int i;

	if (w->fd >= 0)
		close(w->fd);
	free_evsels(w->evsels, w->nr);
	for (i = 0; i < w->argc; i++)
		free(w->argv[i]);
	free(w->argv);
	for (i = 0; i < (int)w->nr_bids; i++)
		free(w->bids[i].name);
	free(w->bids);
	free(w->td);
	free(w->buf);
	free(w->path);
	free(w);
}

static int check_evsels(const struct perf_writer_evsel *ev, size_t nr, struct errbuf *err)
{
	size_t i, group_end = 0;

	if (!nr)
		return err__set(err, -EINVAL, "no events to write");
	for (i = 0; i < nr; i++) {
		if (nr > 1 && !(ev[i].attr.sample_type & (PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER)))
			return err__set(err, -EINVAL,
					"event '%s': several events need PERF_SAMPLE_ID or IDENTIFIER",
					ev[i].name ?: "?");
		if (ev[i].attr.sample_id_all != ev[0].attr.sample_id_all)
			return err__set(err, -EINVAL, "event '%s': sample_id_all differs",
					ev[i].name ?: "?");
		if (ev[i].nr_members > 1 && (ev[i].nr_members > nr - i || group_end > i))
			return err__set(err, -EINVAL, "event '%s': a group of %u past the events "
					"or inside another", ev[i].name ?: "?", ev[i].nr_members);
		if (ev[i].nr_members > 1)
			group_end = i + ev[i].nr_members;
	}
	return 0;
}

int perf_writer__new(struct perf_writer **out, const char *path,
		     const struct perf_writer_evsel *evsels, size_t nr, struct errbuf *err)
{
	struct perf_writer *w;
	uint8_t zero[PERF_FILE_HDR_SZ] = { 0 };
	struct perf_event_attr a;
	size_t i;
	int ret;

	ret = check_evsels(evsels, nr, err);
	if (ret)
		return ret;
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->fd = -1;
	w->path = strdup(path);
	w->buf = malloc(WBUF_LEN);
	w->evsels = calloc(nr, sizeof(*w->evsels));
	if (!w->path || !w->buf || !w->evsels) {
		ret = -ENOMEM;
		goto out_free;
	}
	w->nr = nr;
	for (i = 0; i < nr; i++) {
		uint64_t *ids = malloc((evsels[i].nr_ids ?: 1) * 8);
		char name[128];

		if (!ids) {
			ret = -ENOMEM;
			goto out_free;
		}
		memcpy(ids, evsels[i].ids, evsels[i].nr_ids * 8);
		w->evsels[i] = evsels[i];
		w->evsels[i].ids = ids;
		if (!evsels[i].name)
			perf_attr__name(&evsels[i].attr, name, sizeof(name));
		w->evsels[i].name = strdup(evsels[i].name ?: name);
		if (!w->evsels[i].name) {
			ret = -ENOMEM;
			goto out_free;
		}
	}
	w->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (w->fd < 0) {
		ret = err__set(err, -errno, "cannot create '%s': %s", path, strerror(errno));
		goto out_free;
	}
	/* header placeholder, ids, attrs; the data follows */
	wr(w, zero, sizeof(zero));
	for (i = 0; i < nr; i++)
		wr(w, w->evsels[i].ids, w->evsels[i].nr_ids * 8);
	w->attr_offset = w->off;
	{
		uint64_t ioff = PERF_FILE_HDR_SZ;

		for (i = 0; i < nr; i++) {
			memset(&a, 0, sizeof(a));
			memcpy(&a, &w->evsels[i].attr, ATTR_SZ < sizeof(a) ? ATTR_SZ : sizeof(a));
			a.size = ATTR_SZ;
			wr(w, &a, ATTR_SZ);
			wr64(w, ioff);
			wr64(w, w->evsels[i].nr_ids * 8);
			ioff += w->evsels[i].nr_ids * 8;
		}
	}
	w->data_offset = w->off;
	if (w->error) {
		ret = err__set(err, w->error, "cannot write '%s': %s", path, strerror(-w->error));
		goto out_unlink;
	}
	*out = w;
	return 0;
out_unlink:
	unlink(path);
out_free:
	writer_free(w);
	return ret;
}

int perf_writer__set_cmdline(struct perf_writer *w, int argc, const char *const *argv)
{
	char **v = calloc(argc + 1, sizeof(*v));
	int i;

	if (!v)
		return -ENOMEM;
	for (i = 0; i < argc; i++) {
		v[i] = strdup(argv[i]);
		if (!v[i]) {
			while (i--)
				free(v[i]);
			free(v);
			return -ENOMEM;
		}
	}
	for (i = 0; i < w->argc; i++)
		free(w->argv[i]);
	free(w->argv);
	w->argv = v;
	w->argc = argc;
	return 0;
}

int perf_writer__set_tracing_data(struct perf_writer *w, const void *data, size_t size)
{
	void *p = malloc(size ?: 1);

	if (!p)
		return -ENOMEM;
	memcpy(p, data, size);
	free(w->td);
	w->td = p;
	w->td_size = size;
	w->td_set = true;
	return 0;
}

int perf_writer__add_build_id(struct perf_writer *w, const char *name, const uint8_t *id,
			      size_t size, uint16_t misc, int32_t pid)
{
	struct wr_build_id *b;
	size_t i;

	if (!size || size > sizeof(b->id))
		return -EINVAL;
	for (i = 0; i < w->nr_bids; i++) {
		b = &w->bids[i];
		if (b->size == size && !memcmp(b->id, id, size) && !strcmp(b->name, name))
			return 0;
	}
	if (w->nr_bids == w->cap_bids) {
		size_t cap = w->cap_bids ? 2 * w->cap_bids : 16;

		b = realloc(w->bids, cap * sizeof(*b));
		if (!b)
			return -ENOMEM;
		w->bids = b;
		w->cap_bids = cap;
	}
	b = &w->bids[w->nr_bids];
	*b = (struct wr_build_id){ .name = strdup(name), .size = (uint8_t)size, .misc = misc,
				   .pid = pid };
	if (!b->name)
		return -ENOMEM;
	memcpy(b->id, id, size);
	w->nr_bids++;
	return 0;
}

/* an MMAP2 that carries its file's build-id (PERF_RECORD_MISC_MMAP_BUILD_ID) */
static int note_mmap2_build_id(struct perf_writer *w, const struct perf_event_header *rec)
{
	const uint8_t *p = (const uint8_t *)(rec + 1);
	char name[4096];
	size_t n, max;
	uint32_t pid;

	if (rec->size < 8 + 64 + 1 || p[32] == 0 || p[32] > 20)
		return 0;
	max = rec->size - 8 - 64;
	n = strnlen((const char *)p + 64, max < sizeof(name) ? max : sizeof(name) - 1);
	memcpy(name, p + 64, n);
	name[n] = '\0';
	memcpy(&pid, p, 4);
	return perf_writer__add_build_id(w, name, p + 36, p[32],
					 rec->misc & PERF_RECORD_MISC_CPUMODE_MASK, (int32_t)pid);
}

int perf_writer__write(struct perf_writer *w, const struct perf_event_header *rec)
{
	int ret;

	if (rec->size < sizeof(*rec) || rec->size % 8)
		return -EINVAL;
	if (rec->type == PERF_RECORD_SAMPLE)
		w->nr_samples++;
	if (rec->type != PERF_REC_FINISHED_ROUND)
		w->since_round++;
	if (rec->type == PERF_RECORD_MMAP2 && (rec->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) &&
	    (ret = note_mmap2_build_id(w, rec)))
		return ret;
	return wr(w, rec, rec->size);
}

int perf_writer__round(struct perf_writer *w)
{
	static const struct perf_event_header round = { PERF_REC_FINISHED_ROUND, 0, 8 };

	if (!w->since_round)
		return 0;
	w->since_round = 0;
	return wr(w, &round, sizeof(round));
}

/*
 * The BUILD_ID feature as perf writes it (write_buildid()): a header, the pid, 20 bytes of id
 * padded to 24 with its size in the 21st (PERF_RECORD_MISC_BUILD_ID_SIZE), the file name
 * padded to NAME_ALIGN; a kernel's under pid -1 (perf's HOST_KERNEL_ID)
 */
static void write_build_ids(struct perf_writer *w)
{
	size_t i;

	for (i = 0; i < w->nr_bids; i++) {
		const struct wr_build_id *b = &w->bids[i];
		size_t len = (strlen(b->name) + 1 + NAME_ALIGN - 1) / NAME_ALIGN * NAME_ALIGN;
		struct {
			struct perf_event_header h;
			int32_t pid;
			uint8_t id[24];
		} __attribute__((packed)) r;
		char name[4096 + NAME_ALIGN] = "";

		memset(&r, 0, sizeof(r));
		r.h.misc = b->misc | PERF_RECORD_MISC_BUILD_ID_SIZE;
		r.h.size = (uint16_t)(sizeof(r) + len);
		r.pid = b->pid;
		memcpy(r.id, b->id, b->size);
		r.id[20] = b->size;
		snprintf(name, sizeof(name), "%s", b->name);
		wr(w, &r, sizeof(r));
		wr(w, name, len);
	}
}

uint64_t perf_writer__nr_samples(const struct perf_writer *w)
{
	return w->nr_samples;
}

static int cpuinfo(const char *key, char *buf, size_t len)
{
	char line[512];
	size_t kl = strlen(key);
	FILE *f = fopen("/proc/cpuinfo", "re");
	int ret = -ENOENT;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *v;

		if (strncmp(line, key, kl) || (line[kl] != ' ' && line[kl] != '\t' && line[kl] != ':'))
			continue;
		v = strchr(line, ':');
		if (!v)
			continue;
		v += 1 + (v[1] == ' ');
		v[strcspn(v, "\n")] = 0;
		snprintf(buf, len, "%s", v);
		ret = 0;
		break;
	}
	fclose(f);
	return ret;
}

/* perf's get_cpuid(): "GenuineIntel,6,85,4" on x86, the MIDR on arm64 */
static void cpuid_str(char *buf, size_t len)
{
	char v[64], fam[16], model[16], step[16];

	buf[0] = 0;
	if (!cpuinfo("vendor_id", v, sizeof(v)) && !cpuinfo("cpu family", fam, sizeof(fam)) &&
	    !cpuinfo("model", model, sizeof(model)) && !cpuinfo("stepping", step, sizeof(step)))
		snprintf(buf, len, "%s,%s,%s,%s", v, fam, model, step);
	else
		read_file_str("/sys/devices/system/cpu/cpu0/regs/identification/midr_el1", buf, len);
}

static uint64_t total_mem_kb(void)
{
	char line[256];
	unsigned long long kb = 0;
	FILE *f = fopen("/proc/meminfo", "re");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemTotal: %llu kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

static void write_event_desc(struct perf_writer *w)
{
	struct perf_event_attr a;
	size_t i;

	wr32(w, w->nr);
	wr32(w, ATTR_SZ);
	for (i = 0; i < w->nr; i++) {
		memset(&a, 0, sizeof(a));
		memcpy(&a, &w->evsels[i].attr, ATTR_SZ < sizeof(a) ? ATTR_SZ : sizeof(a));
		a.size = ATTR_SZ;
		wr(w, &a, ATTR_SZ);
		wr32(w, w->evsels[i].nr_ids);
		wrstr(w, w->evsels[i].name);
		wr(w, w->evsels[i].ids, w->evsels[i].nr_ids * 8);
	}
}

/* the events that lead a group of two or more */
static uint32_t nr_groups(const struct perf_writer *w)
{
	uint32_t n = 0;
	size_t i;

	for (i = 0; i < w->nr; i++)
		n += w->evsels[i].nr_members > 1;
	return n;
}

/*
 * GROUP_DESC as perf writes it (write_group_desc()): the number of groups, then each one's
 * name ("{anon_group}" for one given as {A,B}), its leader's index and its size
 */
static void write_group_desc(struct perf_writer *w)
{
	size_t i;

	wr32(w, nr_groups(w));
	for (i = 0; i < w->nr; i++) {
		if (w->evsels[i].nr_members < 2)
			continue;
		wrstr(w, "{anon_group}");
		wr32(w, (uint32_t)i);
		wr32(w, w->evsels[i].nr_members);
	}
}

static int tracing_data(struct perf_writer *w, struct errbuf *err)
{
	const char **tps;
	size_t i, n = 0;
	int ret;

	if (w->td_set)
		return 0;
	tps = calloc(w->nr + 1, sizeof(*tps));
	if (!tps)
		return -ENOMEM;
	for (i = 0; i < w->nr; i++)
		if (w->evsels[i].attr.type == PERF_TYPE_TRACEPOINT)
			tps[n++] = w->evsels[i].name;
	ret = n ? perf_tracing_data__generate(tps, &w->td, &w->td_size, err) : 0;
	w->td_set = n && !ret;
	free(tps);
	return ret;
}

/* one feature section: writes it, records {offset, size} */
static void feature(struct perf_writer *w, int feat, uint64_t (*sec)[2], uint64_t *bits)
{
	struct utsname u;
	char buf[512];
	int i;

	sec[feat][0] = w->off;
	uname(&u);
	switch (feat) {
	case PERF_FEAT_TRACING_DATA:
		wr(w, w->td, w->td_size);
		break;
	case PERF_FEAT_HOSTNAME:
		wrstr(w, u.nodename);
		break;
	case PERF_FEAT_OSRELEASE:
		wrstr(w, u.release);
		break;
	case PERF_FEAT_VERSION:
		wrstr(w, "schedlens-" SCHEDLENS_VERSION);
		break;
	case PERF_FEAT_ARCH:
		wrstr(w, u.machine);
		break;
	case PERF_FEAT_NRCPUS:
		wr32(w, sysconf(_SC_NPROCESSORS_CONF));
		wr32(w, sysconf(_SC_NPROCESSORS_ONLN));
		break;
	case PERF_FEAT_CPUDESC:
		if (machine__cpu_model(buf, sizeof(buf)))
			snprintf(buf, sizeof(buf), "unknown");
		wrstr(w, buf);
		break;
	case PERF_FEAT_CPUID:
		cpuid_str(buf, sizeof(buf));
		wrstr(w, buf[0] ? buf : "unknown");
		break;
	case PERF_FEAT_TOTAL_MEM:
		wr64(w, total_mem_kb());
		break;
	case PERF_FEAT_CMDLINE:
		wr32(w, w->argc);
		for (i = 0; i < w->argc; i++)
			wrstr(w, w->argv[i]);
		break;
	case PERF_FEAT_EVENT_DESC:
		write_event_desc(w);
		break;
	case PERF_FEAT_CPU_TOPOLOGY:
		write_cpu_topology(w);
		break;
	case PERF_FEAT_GROUP_DESC:
		write_group_desc(w);
		break;
	case PERF_FEAT_BUILD_ID:
		write_build_ids(w);
		break;
	default:
		break;
	}
	sec[feat][1] = w->off - sec[feat][0];
	bits[feat / 64] |= 1ULL << (feat % 64);
}

/* tracing data, build-ids and groups only when there are some */
static bool wanted(const struct perf_writer *w, int feat)
{
	return (feat != PERF_FEAT_TRACING_DATA || w->td_set) &&
	       (feat != PERF_FEAT_BUILD_ID || w->nr_bids) &&
	       (feat != PERF_FEAT_GROUP_DESC || nr_groups(w));
}

int perf_writer__close(struct perf_writer *w, struct errbuf *err)
{
	static const int feats[] = {
		PERF_FEAT_TRACING_DATA, PERF_FEAT_BUILD_ID, PERF_FEAT_HOSTNAME, PERF_FEAT_OSRELEASE,
		PERF_FEAT_VERSION, PERF_FEAT_ARCH, PERF_FEAT_NRCPUS, PERF_FEAT_CPUDESC,
		PERF_FEAT_CPUID, PERF_FEAT_TOTAL_MEM, PERF_FEAT_CMDLINE, PERF_FEAT_EVENT_DESC,
		PERF_FEAT_CPU_TOPOLOGY, PERF_FEAT_GROUP_DESC,
	};
	uint64_t sec[PERF_FEAT_MAX][2] = { { 0 } }, bits[4] = { 0 }, hdr[13];
	uint64_t data_size, table;
	size_t i, nf = 0;
	int ret;

	ret = tracing_data(w, err);
	if (ret)
		goto out;
	data_size = w->off - w->data_offset;
	for (i = 0; i < ARRAY_SIZE(feats); i++)
		if (wanted(w, feats[i]))
			nf++;
	/* table first (contents follow), then rewrite it with the offsets */
	table = w->off;
	for (i = 0; i < nf; i++) {
		wr64(w, 0);
		wr64(w, 0);
	}
	for (i = 0; i < ARRAY_SIZE(feats); i++)
		if (wanted(w, feats[i]))
			feature(w, feats[i], sec, bits);
	if (wr_flush(w))
		goto out_io;
	for (i = 0, nf = 0; i < ARRAY_SIZE(feats); i++) {
		if (!(bits[0] & (1ULL << feats[i])))
			continue;
		if (pwrite(w->fd, sec[feats[i]], 16, table + 16 * nf++) != 16)
			goto out_errno;
	}
	hdr[0] = PERF_MAGIC2;
	hdr[1] = PERF_FILE_HDR_SZ;
	hdr[2] = ATTR_SZ + 16;
	hdr[3] = w->attr_offset;
	hdr[4] = w->data_offset - w->attr_offset;
	hdr[5] = w->data_offset;
	hdr[6] = data_size;
	hdr[7] = hdr[8] = 0;
	memcpy(&hdr[9], bits, sizeof(bits));
	if (pwrite(w->fd, hdr, sizeof(hdr), 0) != sizeof(hdr))
		goto out_errno;
	if (fsync(w->fd) && errno != EINVAL)
		goto out_errno;
	ret = close(w->fd) ? -errno : 0;
	w->fd = -1;
	if (ret)
		ret = err__set(err, ret, "cannot write '%s': %s", w->path, strerror(-ret));
	goto out;
out_errno:
	w->error = -errno;
out_io:
	ret = err__set(err, w->error, "cannot write '%s': %s", w->path, strerror(-w->error));
out:
	writer_free(w);
	return ret;
}

void perf_writer__abort(struct perf_writer *w)
{
	if (!w)
		return;
	unlink(w->path);
	writer_free(w);
}
