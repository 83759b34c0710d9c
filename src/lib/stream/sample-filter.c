// SPDX-License-Identifier: GPL-2.0
/* perf's -C, --pid, --tid and --comms sample filters (sample-filter.h). */
#include <errno.h>
#include <perf/cpumap.h>
#include <stdlib.h>
#include <string.h>

#include "schedlens/sample-filter.h"

/* a comma-separated list (perf's intlist or strlist), split in place */
struct filter_list {
	char *buf;
	char **v;
	long *num;
	size_t n;
};

struct sample_filter {
	uint64_t start, end;		/* --time, ns; 0: no bound */
	struct perf_cpu_map *cpus;	/* NULL: any CPU */
	struct filter_list pids, tids, comms, dsos, symbols;
};

/* perf's parse_nsec_time(): SECONDS[.FRACTION] (nine digits at most) in ns; -EINVAL */
static int parse_time(const char *str, size_t len, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0;
	size_t i = 0, digits = 0;

	if (!len)
		return 0;	/* no bound */
	for (; i < len && str[i] >= '0' && str[i] <= '9'; i++)
		sec = sec * 10 + (uint64_t)(str[i] - '0');
	if (!i || sec > UINT64_MAX / 1000000000u)
		return -EINVAL;
	if (i < len && str[i] == '.')
		for (i++; i < len && str[i] >= '0' && str[i] <= '9' && digits < 9; i++, digits++)
			frac = frac * 10 + (uint64_t)(str[i] - '0');
	if (i != len)
		return -EINVAL;
	for (; digits < 9; digits++)
		frac *= 10;
	*ns = sec * 1000000000u + frac;
	return 0;
}

/* --time START,STOP (perf_time__parse_str()): one range, a STOP not before START */
static int parse_range(struct sample_filter *f, const char *str)
{
	const char *comma = strchr(str, ',');
	size_t n = comma ? (size_t)(comma - str) : strlen(str);

	if (parse_time(str, n, &f->start) ||
	    (comma && parse_time(comma + 1, strlen(comma + 1), &f->end)) ||
	    (f->end && f->end < f->start))
		return -EINVAL;
	return 0;
}

/* @str split at commas into @l, as numbers too where @numbers: 0, -EINVAL, -ENOMEM */
static int list_parse(struct filter_list *l, const char *str, bool numbers)
{
	char *p, *end, *save = NULL;
	size_t cap = 1;

	if (!str)
		return 0;
	l->buf = strdup(str);
	if (!l->buf)
		return -ENOMEM;
	for (p = l->buf; *p; p++)
		cap += *p == ',';
	l->v = calloc(cap, sizeof(*l->v));
	l->num = calloc(cap, sizeof(*l->num));
	if (!l->v || !l->num)
		return -ENOMEM;
	for (p = strtok_r(l->buf, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		if (numbers) {
			l->num[l->n] = strtol(p, &end, 10);
			if (end == p || *end)
				return -EINVAL;
		}
		l->v[l->n++] = p;
	}
	return l->n ? 0 : -EINVAL;
}

static void list_exit(struct filter_list *l)
{
	free(l->buf);
	free(l->v);
	free(l->num);
}

static bool list_has_num(const struct filter_list *l, long v)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (l->num[i] == v)
			return true;
	return false;
}

static bool list_has_str(const struct filter_list *l, const char *s)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], s))
			return true;
	return false;
}

struct sample_filter *sample_filter__new(const struct sample_filter_opts *o, int *ret,
					 struct errbuf *err)
{
	struct sample_filter *f;

	*ret = 0;
	if (!o->time && !o->cpus && !o->pids && !o->tids && !o->comms && !o->dsos && !o->symbols)
		return NULL;
	f = calloc(1, sizeof(*f));
	if (!f) {
		*ret = err__set(err, -ENOMEM, "out of memory");
		return NULL;
	}
	if (o->time && parse_range(f, o->time)) {
		*ret = err__set(err, -EINVAL, "--time: '%s' is not START,STOP in seconds (either "
				"left out; one range: perf's percentages and lists are not taken)",
				o->time);
	} else if (o->cpus && !(f->cpus = perf_cpu_map__new(o->cpus))) {
		*ret = err__set(err, -EINVAL, "-C: '%s' is not a CPU list (0-3,6)", o->cpus);
	} else if ((*ret = list_parse(&f->pids, o->pids, true))) {
		err__set(err, *ret, "--pid: '%s' is not a list of numbers (1,2)", o->pids);
	} else if ((*ret = list_parse(&f->tids, o->tids, true))) {
		err__set(err, *ret, "--tid: '%s' is not a list of numbers (1,2)", o->tids);
	} else if ((*ret = list_parse(&f->comms, o->comms, false))) {
		err__set(err, *ret, "--comms: '%s' is not a list of names (sh,ls)", o->comms);
	} else if ((*ret = list_parse(&f->dsos, o->dsos, false))) {
		err__set(err, *ret, "--dsos: '%s' is not a list of names", o->dsos);
	} else if ((*ret = list_parse(&f->symbols, o->symbols, false))) {
		err__set(err, *ret, "--symbols: '%s' is not a list of names", o->symbols);
	}
	if (*ret == -ENOMEM)
		err__set(err, -ENOMEM, "out of memory");
	if (*ret) {
		sample_filter__delete(f);
		return NULL;
	}
	return f;
}

void sample_filter__delete(struct sample_filter *f)
{
	if (!f)
		return;
	perf_cpu_map__put(f->cpus);
	list_exit(&f->pids);
	list_exit(&f->tids);
	list_exit(&f->comms);
	list_exit(&f->dsos);
	list_exit(&f->symbols);
	free(f);
}

int sample_filter__check(const struct sample_filter *f, const struct stream_info *info,
			 const char *input, struct errbuf *err)
{
	size_t i;

	if (!f || !f->cpus)
		return 0;
	for (i = 0; i < info->nr_evsels; i++)
		if (info->evsels[i].attr.sample_type & PERF_SAMPLE_CPU)
			return 0;
	return err__set(err, -EINVAL, "-C: %s has no CPU in its samples: leave -C out",
			input ?: "the input");
}

bool sample_filter__by_comm(const struct sample_filter *f)
{
	return f && f->comms.n;
}

bool sample_filter__time_cpu_ok(const struct sample_filter *f, const struct stream_sample *s)
{
	if (!f)
		return true;
	/* perf_time__skip_sample(): a sample without a time is kept */
	if (s->time && s->time != ~0ULL &&
	    ((f->start && s->time < f->start) || (f->end && s->time > f->end)))
		return false;
	return !f->cpus || perf_cpu_map__has(f->cpus, (struct perf_cpu){ .cpu = (int)s->cpu });
}

const char *sample_filter__only(const struct sample_filter *f, enum sample_filter_names which)
{
	const struct filter_list *l;

	if (!f)
		return NULL;
	l = which == SAMPLE_FILTER_COMMS ? &f->comms :
	    which == SAMPLE_FILTER_DSOS ? &f->dsos : &f->symbols;
	return l->n == 1 ? l->v[0] : NULL;
}

bool sample_filter__by_place(const struct sample_filter *f)
{
	return f && (f->dsos.n || f->symbols.n);
}

bool sample_filter__place_ok(const struct sample_filter *f, const char *dso, const char *path,
			     const char *sym)
{
	if (!f)
		return true;
	if (f->dsos.n && !(dso && list_has_str(&f->dsos, dso)) &&
	    !(path && list_has_str(&f->dsos, path)))
		return false;
	return !f->symbols.n || (sym && list_has_str(&f->symbols, sym));
}

bool sample_filter__wants(const struct sample_filter *f, const struct stream_sample *s,
			  const char *comm)
{
	return sample_filter__time_cpu_ok(f, s) && sample_filter__thread_ok(f, s, comm);
}

bool sample_filter__thread_ok(const struct sample_filter *f, const struct stream_sample *s,
			      const char *comm)
{
	if (!f)
		return true;
	if (f->pids.n && !list_has_num(&f->pids, (int)s->pid))
		return false;
	if (f->tids.n && !list_has_num(&f->tids, (int)s->tid))
		return false;
	return !f->comms.n || list_has_str(&f->comms, comm ?: "");
}
