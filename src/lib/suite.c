// SPDX-License-Identifier: GPL-2.0
#include "schedlens/suite.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_ITERATIONS 5
#define MAX_ITERATIONS 100000

static const char *const default_vmstat[] = {
	"pgfault", "pgmajfault", "numa_hit", "numa_miss", "numa_local", "numa_other",
	"numa_pte_updates", "numa_hint_faults", "numa_hint_faults_local", "numa_pages_migrated",
	"pgmigrate_success", "pgmigrate_fail", "thp_fault_alloc", "pgalloc_normal", "pgfree",
};

static void free_strv(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void suite__delete(struct suite *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->nentries; i++) {
		struct suite_entry *e = &s->entries[i];

		free_strv(e->args, e->nargs);
		free_strv(e->events, e->nevents);
		free_strv(e->gate, e->ngate);
		free(e->values);
		free(e->better);
	}
	free(s->entries);
	free_strv(s->vmstat, s->nvmstat);
	free(s);
}

int suite__value(const char *tok, long ncpu, long *out)
{
	const char *star = strchr(tok, '*');
	char buf[32];
	long k = 1;

	if (!strcmp(tok, "ncpu")) {
		*out = ncpu;
		return 0;
	}
	if (star && !strcmp(star + 1, "ncpu")) {
		if ((size_t)(star - tok) >= sizeof(buf))
			return -EINVAL;
		snprintf(buf, sizeof(buf), "%.*s", (int)(star - tok), tok);
		if (parse_long(buf, 1, 1 << 20, &k))
			return -EINVAL;
		*out = k * ncpu;
		return 0;
	}
	return parse_long(tok, 1, LONG_MAX, out);
}

/* Append the strings of JSON array @a (NULL: nothing) to *v. */
static int add_strings(const json_t *a, char ***v, size_t *n, const char *what, const char *where,
		       struct errbuf *err)
{
	const json_t *x;
	char **nv;
	size_t i;

	if (!a)
		return 0;
	if (!json_is_array(a))
		return err__set(err, -EINVAL, "%s'%s' must be an array of strings", where, what);
	json_array_foreach(a, i, x) {
		if (!json_is_string(x) || !*json_string_value(x))
			return err__set(err, -EINVAL, "%s'%s'[%zu] must be a non-empty string", where,
					what, i);
		nv = realloc(*v, (*n + 1) * sizeof(**v));
		if (!nv)
			return -ENOMEM;
		*v = nv;
		(*v)[*n] = strdup(json_string_value(x));
		if (!(*v)[*n])
			return -ENOMEM;
		(*n)++;
	}
	return 0;
}

static int parse_better_name(const char *s, enum better *b)
{
	if (!strcmp(s, "lower"))
		*b = BETTER_LOWER;
	else if (!strcmp(s, "higher"))
		*b = BETTER_HIGHER;
	else if (!strcmp(s, "none"))
		*b = BETTER_NONE;
	else
		return -EINVAL;
	return 0;
}

static int add_better(const json_t *o, struct suite_entry *e, const char *where, struct errbuf *err)
{
	const char *k;
	const json_t *v;
	struct suite_better *nb;

	if (!o)
		return 0;
	if (!json_is_object(o))
		return err__set(err, -EINVAL, "%s'better' must map metrics to \"lower\", \"higher\" "
				"or \"none\"", where);
	json_object_foreach((json_t *)o, k, v) {
		enum better b;

		if (!json_is_string(v) || parse_better_name(json_string_value(v), &b))
			return err__set(err, -EINVAL,
					"%s'better'.'%s' must be \"lower\", \"higher\" or \"none\"",
					where, k);
		nb = realloc(e->better, (e->nbetter + 1) * sizeof(*nb));
		if (!nb)
			return -ENOMEM;
		e->better = nb;
		snprintf(nb[e->nbetter].name, sizeof(nb->name), "%s", k);
		nb[e->nbetter++].better = b;
	}
	return 0;
}

static int check_keys(const json_t *o, const char *const *known, const char *where,
		      struct errbuf *err)
{
	const char *k;
	const json_t *v;
	size_t i;

	json_object_foreach((json_t *)o, k, v) {
		for (i = 0; known[i] && strcmp(known[i], k); i++)
			;
		if (!known[i])
			return err__set(err, -EINVAL, "%sunknown key '%s'", where, k);
	}
	return 0;
}

static int parse_iterations(const json_t *v, unsigned int *out, const char *where,
			    struct errbuf *err)
{
	if (!v)
		return 0;
	if (!json_is_integer(v) || json_integer_value(v) < 1 ||
	    json_integer_value(v) > MAX_ITERATIONS)
		return err__set(err, -EINVAL, "%s'iterations' must be an integer in 1..%d", where,
				MAX_ITERATIONS);
	*out = (unsigned int)json_integer_value(v);
	return 0;
}

static int parse_range(const json_t *r, struct suite_entry *e, long ncpu, const char *where,
		       struct errbuf *err)
{
	static const char *const keys[] = { "param", "option", "values", NULL };
	const json_t *vals, *x;
	size_t i;
	int ret;

	if (!r) {
		e->values = malloc(sizeof(*e->values));
		if (!e->values)
			return -ENOMEM;
		e->nvalues = 1;
		e->values[0] = 0;
		return 0;
	}
	if (!json_is_object(r))
		return err__set(err, -EINVAL, "%s'range' must be an object", where);
	ret = check_keys(r, keys, where, err);
	if (ret)
		return ret;
	vals = json_object_get(r, "values");
	if (!json_is_string(json_object_get(r, "param")) ||
	    !json_is_string(json_object_get(r, "option")) || !json_is_array(vals) ||
	    !json_array_size(vals))
		return err__set(err, -EINVAL,
				"%s'range' needs 'param' and 'option' strings and a non-empty "
				"'values' array",
				where);
	snprintf(e->param, sizeof(e->param), "%s", json_string_value(json_object_get(r, "param")));
	snprintf(e->option, sizeof(e->option), "%s",
		 json_string_value(json_object_get(r, "option")));
	e->values = calloc(json_array_size(vals), sizeof(*e->values));
	if (!e->values)
		return -ENOMEM;
	json_array_foreach(vals, i, x) {
		char tok[32];

		if (json_is_integer(x))
			snprintf(tok, sizeof(tok), "%lld", (long long)json_integer_value(x));
		else if (json_is_string(x))
			snprintf(tok, sizeof(tok), "%s", json_string_value(x));
		else
			tok[0] = '\0';
		size_t k;

		if (suite__value(tok, ncpu, &e->values[e->nvalues]))
			return err__set(err, -EINVAL,
					"%s'range'.'values'[%zu] must be a positive integer, \"ncpu\" "
					"or \"K*ncpu\"",
					where, i);
		/* "ncpu" may equal another value on a small machine: run it once */
		for (k = 0; k < e->nvalues && e->values[k] != e->values[e->nvalues]; k++)
			;
		e->nvalues += k == e->nvalues;
	}
	return 0;
}

static int parse_entry(const json_t *j, const json_t *root, struct suite_entry *e, long ncpu,
		       unsigned int iterations, const char *where, struct errbuf *err)
{
	static const char *const keys[] = { "workload", "group", "args", "range", "events",
					    "tracepoints", "better", "iterations", "gate", NULL };
	int ret;

	if (!json_is_object(j))
		return err__set(err, -EINVAL, "%smust be an object", where);
	ret = check_keys(j, keys, where, err);
	if (ret)
		return ret;
	if (!json_is_string(json_object_get(j, "workload")))
		return err__set(err, -EINVAL, "%s'workload' is missing", where);
	snprintf(e->workload, sizeof(e->workload), "%s",
		 json_string_value(json_object_get(j, "workload")));
	snprintf(e->group, sizeof(e->group), "%s",
		 json_string_value(json_object_get(j, "group")) ?: e->workload);
	e->iterations = iterations;
	return add_strings(json_object_get(j, "args"), &e->args, &e->nargs, "args", where, err) ?:
	       parse_range(json_object_get(j, "range"), e, ncpu, where, err) ?:
	       add_strings(json_object_get(root, "events"), &e->events, &e->nevents, "events",
			   "", err) ?:
	       add_strings(json_object_get(root, "tracepoints"), &e->events, &e->nevents,
			   "tracepoints", "", err) ?:
	       add_strings(json_object_get(j, "events"), &e->events, &e->nevents, "events",
			   where, err) ?:
	       add_strings(json_object_get(j, "tracepoints"), &e->events, &e->nevents,
			   "tracepoints", where, err) ?:
	       add_strings(json_object_get(root, "gate"), &e->gate, &e->ngate, "gate", "", err) ?:
	       add_strings(json_object_get(j, "gate"), &e->gate, &e->ngate, "gate", where, err) ?:
	       add_better(json_object_get(j, "better"), e, where, err) ?:
	       add_better(json_object_get(root, "better"), e, "", err) ?:
	       parse_iterations(json_object_get(j, "iterations"), &e->iterations, where, err);
}

struct suite *suite__parse(const json_t *j, const char *origin, long ncpu, struct errbuf *err)
{
	static const char *const keys[] = { "suite", "description", "iterations", "events",
					    "tracepoints", "better", "vmstat", "entries", "gate",
					    NULL };
	const json_t *entries = json_object_get(j, "entries"), *x;
	struct suite *s = calloc(1, sizeof(*s));
	unsigned int iterations = DEFAULT_ITERATIONS;
	char where[128];
	size_t i;
	int ret = -ENOMEM;

	if (!s)
		goto out_err;
	ret = -EINVAL;
	if (!json_is_object(j)) {
		err__set(err, ret, "not a suite: a JSON object is expected");
		goto out_err;
	}
	ret = check_keys(j, keys, "", err);
	if (ret)
		goto out_err;
	ret = -EINVAL;
	if (!json_is_string(json_object_get(j, "suite"))) {
		err__set(err, ret, "'suite' (its name) is missing");
		goto out_err;
	}
	if (!json_is_array(entries) || !json_array_size(entries)) {
		err__set(err, ret, "'entries' must be a non-empty array");
		goto out_err;
	}
	snprintf(s->name, sizeof(s->name), "%s", json_string_value(json_object_get(j, "suite")));
	snprintf(s->description, sizeof(s->description), "%s",
		 json_string_value(json_object_get(j, "description")) ?: "");
	ret = parse_iterations(json_object_get(j, "iterations"), &iterations, "", err);
	if (ret)
		goto out_err;
	if (json_object_get(j, "vmstat")) {
		ret = add_strings(json_object_get(j, "vmstat"), &s->vmstat, &s->nvmstat, "vmstat",
				  "", err);
	} else {
		s->vmstat = calloc(ARRAY_SIZE(default_vmstat), sizeof(*s->vmstat));
		ret = s->vmstat ? 0 : -ENOMEM;
		for (i = 0; !ret && i < ARRAY_SIZE(default_vmstat); i++) {
			s->vmstat[i] = strdup(default_vmstat[i]);
			ret = s->vmstat[i] ? 0 : -ENOMEM;
			s->nvmstat += !ret;
		}
	}
	if (ret)
		goto out_err;
	s->entries = calloc(json_array_size(entries), sizeof(*s->entries));
	ret = -ENOMEM;
	if (!s->entries)
		goto out_err;
	json_array_foreach(entries, i, x) {
		snprintf(where, sizeof(where), "entries[%zu]: ", i);
		s->nentries++;
		ret = parse_entry(x, j, &s->entries[i], ncpu, iterations, where, err);
		if (ret)
			goto out_err;
	}
	return s;
out_err:
	if (ret == -ENOMEM)
		err__set(err, ret, "out of memory");
	err__prefix(err, ret, "'%s'", origin);
	suite__delete(s);
	return NULL;
}

struct suite *suite__load(const char *name, long ncpu, struct errbuf *err)
{
	const char *dir = getenv("SCHEDLENS_DATADIR") ?: SCHEDLENS_DATADIR;
	size_t len = strlen(name);
	char path[4096];
	json_error_t je;
	json_t *j;
	struct suite *s;

	if (strchr(name, '/') || (len > 5 && !strcmp(name + len - 5, ".json")))
		snprintf(path, sizeof(path), "%s", name);
	else
		snprintf(path, sizeof(path), "%s/suites/%s.json", dir, name);
	j = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
	if (!j) {
		if (je.line < 0)
			err__set(err, -ENOENT, "cannot read suite '%s' ('%s'): %s", name, path,
				 je.text);
		else
			err__set(err, -EINVAL, "'%s' is not valid JSON: line %d column %d: %s", path,
				 je.line, je.column, je.text);
		return NULL;
	}
	s = suite__parse(j, path, ncpu, err);
	json_decref(j);
	return s;
}

enum better suite_entry__better(const struct suite_entry *e, const char *metric, enum better dflt)
{
	size_t i;

	for (i = 0; i < e->nbetter; i++)
		if (!strcmp(e->better[i].name, metric))
			return e->better[i].better;
	return dflt;
}

bool suite_entry__gated(const struct suite_entry *e, const char *metric)
{
	size_t i;

	for (i = 0; i < e->ngate; i++)
		if (!strcmp(e->gate[i], metric))
			return true;
	return false;
}

size_t suite__total_iterations(const struct suite *s)
{
	size_t i, n = 0;

	for (i = 0; i < s->nentries; i++)
		n += s->entries[i].nvalues * s->entries[i].iterations;
	return n;
}
