// SPDX-License-Identifier: GPL-2.0
/* Per-microarchitecture event maps: data/events/<arch>.map. */
#include "schedlens/events.h"

#include <errno.h>
#include <perfmon/pfmlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const evmap_arches[] = { "snb", "clx", "skx", "icx", "zen2", "neoverse-n1",
				     "kunpeng920", NULL };

/* libpfm4 core PMU name -> map */
static const struct {
	const char *pmu, *arch;
} pmu_to_arch[] = {
	{ "snb", "snb" }, { "snb_ep", "snb" }, { "ivb", "snb" }, { "ivb_ep", "snb" },
	{ "clx", "clx" }, { "skx", "skx" },    { "icx", "icx" }, { "amd64_fam17h_zen2", "zen2" },
};

static const char *datadir(void)
{
	return getenv("SCHEDLENS_DATADIR") ?: SCHEDLENS_DATADIR;
}

static int parse_line(struct evmap *m, char *line, const char *path, int lineno,
		      struct errbuf *err)
{
	char key[32], native[96], enc[32];
	struct evmap_entry *e;
	char *note;
	int off = 0, off2 = 0;

	line[strcspn(line, "#\n")] = '\0';
	if (sscanf(line, "%31s%n", key, &off) != 1)
		return 0;
	if (!strcmp(key, "libpfm")) {
		if (sscanf(line + off, "%47s", m->libpfm) != 1)
			return err__set(err, -EINVAL, "'%s' line %d: libpfm without a name", path,
					lineno);
		return 0;
	}
	if (!strcmp(key, "arch") || !strcmp(key, "pmu") || !strcmp(key, "desc")) {
		char *v = line + off;

		while (*v == ' ' || *v == '\t')
			v++;
		snprintf(!strcmp(key, "arch") ? m->arch : !strcmp(key, "pmu") ? m->pmu : m->desc,
			 !strcmp(key, "desc") ? sizeof(m->desc) : sizeof(m->arch), "%s", v);
		return 0;
	}
	if (m->nr == ARRAY_SIZE(m->entries))
		return err__set(err, -E2BIG, "'%s' line %d: too many entries", path, lineno);
	e = &m->entries[m->nr];
	memset(e, 0, sizeof(*e));
	if (sscanf(line + off, "%95s %31s %n", native, enc, &off2) < 2)
		return err__set(err, -EINVAL, "'%s' line %d: expected 'metric native encoding'",
				path, lineno);
	snprintf(e->metric, sizeof(e->metric), "%s", key);
	snprintf(e->native, sizeof(e->native), "%s", native);
	if (strcmp(enc, "-")) {
		if (parse_u64(enc, &e->config))
			return err__set(err, -EINVAL, "'%s' line %d: bad encoding '%s'", path,
					lineno, enc);
		e->has_config = true;
	}
	note = line + off + off2;
	snprintf(e->note, sizeof(e->note), "%s", note);
	m->nr++;
	return 0;
}

int evmap__load(const char *arch, struct evmap *m, struct errbuf *err)
{
	char path[4096], line[512];
	int lineno = 0, ret = 0;
	size_t i;
	FILE *f;

	memset(m, 0, sizeof(*m));
	for (i = 0; evmap_arches[i] && strcmp(evmap_arches[i], arch); i++)
		;
	if (!evmap_arches[i])
		return err__set(err, -ENOENT,
				"no event map for '%s': known are snb, clx, skx, icx, zen2, "
				"neoverse-n1, kunpeng920",
				arch);
	snprintf(path, sizeof(path), "%s/events/%s.map", datadir(), arch);
	f = fopen(path, "re");
	if (!f)
		return err__set(err, -errno, "cannot open '%s': %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		ret = parse_line(m, line, path, ++lineno, err);
		if (ret)
			break;
	}
	fclose(f);
	if (!ret && (!m->nr || !m->pmu[0]))
		ret = err__set(err, -EINVAL, "'%s': no pmu line or no entries", path);
	m->pfm = strcmp(m->pmu, "armv8") != 0;
	return ret;
}

const struct evmap_entry *evmap__find(const struct evmap *m, const char *metric)
{
	size_t i;

	for (i = 0; i < m->nr; i++)
		if (!strcmp(m->entries[i].metric, metric))
			return &m->entries[i];
	return NULL;
}

/*
 * The next PMU this libpfm4 was built with, from *@p on (start at -1: libpfm4 is initialised
 * for this process first). true with @info filled, false past the last.
 */
static bool pfm_pmu_next(int *p, pfm_pmu_info_t *info)
{
	struct perf_event_attr probe;

	if (*p < PFM_PMU_NONE) {
		memset(&probe, 0, sizeof(probe));
		events__pfm_encode("cycles", &probe, NULL);
		*p = PFM_PMU_NONE;
	}
	while (*p < PFM_PMU_MAX) {
		memset(info, 0, sizeof(*info));
		info->size = sizeof(*info);
		if (pfm_get_pmu_info((*p)++, info) == PFM_SUCCESS)
			return true;
	}
	return false;
}

bool evmap__pfm_has(const char *name)
{
	pfm_pmu_info_t info;
	int p = -1;

	while (pfm_pmu_next(&p, &info))
		if (!strcmp(info.name, name))
			return true;
	return false;
}

int evmap__this_machine(struct evmap *m, struct errbuf *err)
{
	pfm_pmu_info_t info;
	size_t i;
	int p = -1;

	while (pfm_pmu_next(&p, &info)) {
		if (!info.is_present || info.type != PFM_PMU_TYPE_CORE)
			continue;
		for (i = 0; i < ARRAY_SIZE(pmu_to_arch); i++)
			if (!strcmp(info.name, pmu_to_arch[i].pmu))
				return evmap__load(pmu_to_arch[i].arch, m, err);
	}
	return err__set(err, -ENOENT, "no event map for this machine's CPU");
}

int events__default_l1d_miss(struct event_desc *ev, struct errbuf *err)
{
	const struct evmap_entry *e;
	struct evmap m;

	if (!evmap__this_machine(&m, NULL) && (e = evmap__find(&m, "l1d-misses")) &&
	    e->has_config) {
		memset(ev, 0, sizeof(*ev));
		snprintf(ev->name, sizeof(ev->name), "%s", e->native);
		ev->attr.size = sizeof(ev->attr);
		ev->attr.type = PERF_TYPE_RAW;
		ev->attr.config = e->config;
		if (!events__probe(&ev->attr))
			return 0;
	}
	if (!events__parse("L1-dcache-load-misses", ev, NULL) && !events__probe(&ev->attr))
		return 0;
	return err__set(err, -EOPNOTSUPP,
			"no L1D miss event opens on this machine (no hardware PMU)");
}
