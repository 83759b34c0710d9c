// SPDX-License-Identifier: GPL-2.0
/* Event names -> perf_event_attr. The map files are in evmap.c. */
#include "schedlens/events.h"

#include <errno.h>
#include <perfmon/pfmlib_perf_event.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

struct name_map {
	const char *name;
	uint32_t type;
	uint64_t config;
};

static const struct name_map generic[] = {
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	{ "bus-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES },
	{ "stalled-cycles-frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "stalled-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES },
	{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "alignment-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS },
	{ "emulation-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS },
	{ "dummy", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY },
};

/* perf's hardware-cache names: <cache>-<op>[-misses] with perf's spellings */
static const char *const cache_names[PERF_COUNT_HW_CACHE_MAX] = {
	[PERF_COUNT_HW_CACHE_L1D] = "L1-dcache", [PERF_COUNT_HW_CACHE_L1I] = "L1-icache",
	[PERF_COUNT_HW_CACHE_LL] = "LLC",	 [PERF_COUNT_HW_CACHE_DTLB] = "dTLB",
	[PERF_COUNT_HW_CACHE_ITLB] = "iTLB",	 [PERF_COUNT_HW_CACHE_BPU] = "branch",
	[PERF_COUNT_HW_CACHE_NODE] = "node",
};
static const char *const cache_ops[PERF_COUNT_HW_CACHE_OP_MAX] = {
	[PERF_COUNT_HW_CACHE_OP_READ] = "load",
	[PERF_COUNT_HW_CACHE_OP_WRITE] = "store",
	[PERF_COUNT_HW_CACHE_OP_PREFETCH] = "prefetch",
};

static const char *const tracefs_roots[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };

static int parse_cache(const char *name, struct perf_event_attr *attr)
{
	size_t c, o, len;
	const char *rest;
	char want[64];

	for (c = 0; c < PERF_COUNT_HW_CACHE_MAX; c++) {
		len = strlen(cache_names[c]);
		if (strncmp(name, cache_names[c], len) || name[len] != '-')
			continue;
		rest = name + len + 1;
		for (o = 0; o < PERF_COUNT_HW_CACHE_OP_MAX; o++) {
			snprintf(want, sizeof(want), "%ss", cache_ops[o]);
			if (!strcmp(rest, want)) {
				attr->config = c | o << 8 | (uint64_t)PERF_COUNT_HW_CACHE_RESULT_ACCESS << 16;
				goto found;
			}
			snprintf(want, sizeof(want), "%s-misses", cache_ops[o]);
			if (!strcmp(rest, want)) {
				attr->config = c | o << 8 | (uint64_t)PERF_COUNT_HW_CACHE_RESULT_MISS << 16;
				goto found;
			}
		}
	}
	return -ENOENT;
found:
	attr->type = PERF_TYPE_HW_CACHE;
	return 0;
}

/*
 * 0 found; 1 not a tracepoint (no such subsystem, or not sys:name); -ENOENT when the
 * subsystem exists but not the event. *no_tracefs says tracefs was not found at all.
 */
static int parse_tracepoint(const char *name, struct perf_event_attr *attr, bool *no_tracefs,
			    struct errbuf *err)
{
	char sys[64], ev[96], path[512], buf[32];
	const char *colon = strchr(name, ':');
	uint64_t id;
	size_t i;

	*no_tracefs = false;
	if (!colon || colon == name || !colon[1] || strchr(colon + 1, ':') ||
	    (size_t)(colon - name) >= sizeof(sys) || strlen(colon + 1) >= sizeof(ev) ||
	    strpbrk(name, "/. "))
		return 1;
	snprintf(sys, sizeof(sys), "%.*s", (int)(colon - name), name);
	snprintf(ev, sizeof(ev), "%s", colon + 1);
	*no_tracefs = true;
	for (i = 0; i < ARRAY_SIZE(tracefs_roots); i++) {
		snprintf(path, sizeof(path), "%s/events", tracefs_roots[i]);
		if (access(path, F_OK))
			continue;
		*no_tracefs = false;
		snprintf(path, sizeof(path), "%s/events/%s", tracefs_roots[i], sys);
		if (access(path, F_OK))
			return 1;
		snprintf(path, sizeof(path), "%s/events/%s/%s/id", tracefs_roots[i], sys, ev);
		if (read_file_str(path, buf, sizeof(buf)) || parse_u64(buf, &id))
			return err__set(err, -ENOENT,
					"tracepoint '%s' does not exist on this kernel (see %s/events/%s/)",
					name, tracefs_roots[i], sys);
		attr->type = PERF_TYPE_TRACEPOINT;
		attr->config = id;
		return 0;
	}
	return 1;
}

static pthread_once_t pfm_once = PTHREAD_ONCE_INIT;
static int pfm_status = PFM_ERR_NOINIT;

static void pfm_init_once(void)
{
	pfm_status = pfm_initialize();
}

int events__pfm_encode(const char *native, struct perf_event_attr *attr, struct errbuf *err)
{
	pfm_perf_encode_arg_t arg;
	struct perf_event_attr pa;
	int r;

	pthread_once(&pfm_once, pfm_init_once);
	if (pfm_status != PFM_SUCCESS)
		return err__set(err, -ENOSYS, "libpfm4 failed to initialise: %s",
				pfm_strerror(pfm_status));
	memset(&pa, 0, sizeof(pa));
	memset(&arg, 0, sizeof(arg));
	arg.attr = &pa;
	arg.size = sizeof(arg);
	r = pfm_get_os_event_encoding(native, PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg);
	if (r != PFM_SUCCESS)
		return err__set(err, r == PFM_ERR_NOTFOUND ? -ENOENT : -EINVAL,
				"event '%s': %s (libpfm4)", native, pfm_strerror(r));
	attr->type = pa.type;
	attr->config = pa.config;
	attr->config1 = pa.config1;
	attr->config2 = pa.config2;
	attr->exclude_user = pa.exclude_user;
	attr->exclude_kernel = pa.exclude_kernel;
	attr->exclude_hv = pa.exclude_hv;
	attr->precise_ip = pa.precise_ip;
	return 0;
}

/* ":u", ":k", ":ppp", ":uk" after a perf name; returns the length without the suffix */
static size_t split_modifiers(const char *name, struct perf_event_attr *mods, bool *any)
{
	const char *colon = strrchr(name, ':');
	const char *p;
	bool u = false, k = false, h = false;
	int precise = 0;

	*any = false;
	if (!colon || !colon[1])
		return strlen(name);
	for (p = colon + 1; *p; p++) {
		if (*p == 'u')
			u = true;
		else if (*p == 'k')
			k = true;
		else if (*p == 'h')
			h = true;
		else if (*p == 'p' && precise < 3)
			precise++;
		else
			return strlen(name);
	}
	*any = true;
	if (u || k || h) {
		mods->exclude_user = !u;
		mods->exclude_kernel = !k;
		mods->exclude_hv = !h;
	}
	mods->precise_ip = precise;
	return (size_t)(colon - name);
}

int events__parse(const char *name, struct event_desc *ev, struct errbuf *err)
{
	struct perf_event_attr *attr = &ev->attr, mods;
	char base[EVENT_NAME_MAX];
	bool has_mods, no_tracefs;
	size_t i, len;
	int ret;

	memset(ev, 0, sizeof(*ev));
	if (!name || !*name || strlen(name) >= EVENT_NAME_MAX)
		return err__set(err, -EINVAL, "event '%s': empty or too long", name ?: "");
	snprintf(ev->name, sizeof(ev->name), "%s", name);
	attr->size = sizeof(*attr);
	attr->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	memset(&mods, 0, sizeof(mods));
	len = split_modifiers(name, &mods, &has_mods);
	snprintf(base, sizeof(base), "%.*s", (int)len, name);

	for (i = 0; i < ARRAY_SIZE(generic); i++) {
		if (!strcmp(base, generic[i].name)) {
			attr->type = generic[i].type;
			attr->config = generic[i].config;
			goto apply_mods;
		}
	}
	if (!parse_cache(base, attr))
		goto apply_mods;
	if (base[0] == 'r' && base[1] && strspn(base + 1, "0123456789abcdefABCDEF") == len - 1) {
		attr->type = PERF_TYPE_RAW;
		attr->config = strtoull(base + 1, NULL, 16);
		goto apply_mods;
	}
	/* whole name: tracepoints and libpfm4 names carry their own colons */
	ret = parse_tracepoint(name, attr, &no_tracefs, err);
	if (ret <= 0)
		return ret;
	if (!events__pfm_encode(name, attr, NULL))
		return 0;
	return err__set(err, -ENOENT,
			"event '%s' is not known: not a perf event name, a tracepoint (sys:name), "
			"a raw rNNNN or a native event of this machine's PMU (see 'schedlens list')%s",
			name,
			no_tracefs ? "; tracefs is not mounted, so no tracepoint can be found (mount "
				     "-t tracefs nodev /sys/kernel/tracing)"
				   : "");
apply_mods:
	if (has_mods) {
		attr->exclude_user = mods.exclude_user;
		attr->exclude_kernel = mods.exclude_kernel;
		attr->exclude_hv = mods.exclude_hv;
		attr->precise_ip = mods.precise_ip;
	}
	return 0;
}

int events__parse_list(const char *list, struct event_desc **out, size_t *n, struct errbuf *err)
{
	struct event_desc *evs = NULL, *tmp;
	char *copy, *tok, *save = NULL;
	size_t cnt = 0;
	int ret = 0;

	*out = NULL;
	*n = 0;
	copy = strdup(list ?: "");
	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		tmp = realloc(evs, (cnt + 1) * sizeof(*evs));
		if (!tmp) {
			ret = -ENOMEM;
			goto out_free;
		}
		evs = tmp;
		ret = events__parse(tok, &evs[cnt], err);
		if (ret)
			goto out_free;
		cnt++;
	}
	if (!cnt) {
		ret = err__set(err, -EINVAL, "empty event list");
		goto out_free;
	}
	*out = evs;
	*n = cnt;
	free(copy);
	return 0;
out_free:
	free(evs);
	free(copy);
	return ret;
}

const char *events__known_name(size_t i, char *buf, size_t len)
{
	size_t c, o, r;

	if (i < ARRAY_SIZE(generic))
		return generic[i].name;
	i -= ARRAY_SIZE(generic);
	c = i / (PERF_COUNT_HW_CACHE_OP_MAX * 2);
	o = i / 2 % PERF_COUNT_HW_CACHE_OP_MAX;
	r = i % 2;
	if (c >= PERF_COUNT_HW_CACHE_MAX)
		return NULL;
	snprintf(buf, len, "%s-%s%s", cache_names[c], cache_ops[o], r ? "-misses" : "s");
	return buf;
}

int events__probe(const struct perf_event_attr *attr)
{
	struct perf_event_attr a = *attr;
	int fd;

	a.disabled = 1;
	a.inherit = 0;
	a.enable_on_exec = 0;
	fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

bool events__is_hardware(const struct perf_event_attr *attr)
{
	return attr->type == PERF_TYPE_HARDWARE || attr->type == PERF_TYPE_HW_CACHE ||
	       attr->type == PERF_TYPE_RAW || attr->type >= PERF_TYPE_MAX;
}

void events__open_advice(const char *name, int errnum, char *buf, size_t len)
{
	char paranoid[16] = "?";

	if (errnum < 0)
		errnum = -errnum;
	read_file_str("/proc/sys/kernel/perf_event_paranoid", paranoid, sizeof(paranoid));
	switch (errnum) {
	case EACCES:
	case EPERM:
		snprintf(buf, len,
			 "'%s': permission denied (kernel.perf_event_paranoid is %s): run as root, "
			 "grant CAP_PERFMON, or lower it with 'sysctl kernel.perf_event_paranoid=1'",
			 name, paranoid);
		break;
	case ENOENT:
	case EOPNOTSUPP:
	case ENODEV:
		snprintf(buf, len,
			 "'%s': this machine has no such counter (no hardware PMU, e.g. in a VM, or "
			 "the event is not on this CPU)",
			 name);
		break;
	case EMFILE:
		snprintf(buf, len, "'%s': too many open files: raise 'ulimit -n'", name);
		break;
	case EBUSY:
		snprintf(buf, len, "'%s': the counter is in use by another tool (e.g. the NMI watchdog)",
			 name);
		break;
	case EINVAL:
		snprintf(buf, len, "'%s': the kernel rejects this event configuration (%s)", name,
			 strerror(errnum));
		break;
	default:
		snprintf(buf, len, "'%s': %s", name, strerror(errnum));
	}
}
