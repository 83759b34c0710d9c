// SPDX-License-Identifier: GPL-2.0
#include "schedlens/results.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "schedlens/machine.h"

json_t *results__new(const char *kind)
{
	char created[32];
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(created, sizeof(created), "%Y-%m-%dT%H:%M:%SZ", &tm);
	return json_pack("{s:s, s:i, s:{s:s, s:s}, s:s, s:s, s:o, s:[]}", "schema", RESULTS_SCHEMA,
			 "schema_version", RESULTS_SCHEMA_VERSION, "tool", "name", "schedlens",
			 "version", SCHEDLENS_VERSION, "kind", kind, "created", created, "machine",
			 machine__describe(), "entries");
}

json_t *results__entry(json_t *doc, const char *id, const char *workload, const json_t *params)
{
	json_t *entries = json_object_get(doc, "entries"), *e;
	size_t i;

	json_array_foreach(entries, i, e) {
		if (!strcmp(json_string_value(json_object_get(e, "id")) ?: "", id))
			return e;
	}
	e = json_pack("{s:s, s:s, s:o, s:{}, s:[]}", "id", id, "workload", workload, "params",
		      params ? json_deep_copy(params) : json_object(), "metrics", "iterations");
	if (!e || json_array_append_new(entries, e))
		return NULL;
	return e;
}

const char *better__name(enum better b)
{
	return b == BETTER_LOWER ? "lower" : b == BETTER_HIGHER ? "higher" : "none";
}

int results__declare(json_t *entry, const char *metric, const char *unit, enum better better)
{
	json_t *m = json_pack("{s:s, s:s}", "unit", unit ?: "", "better", better__name(better));

	if (!m || json_object_set_new(json_object_get(entry, "metrics"), metric, m))
		return -ENOMEM;
	return 0;
}

json_t *results__add_iteration(json_t *entry)
{
	json_t *it = json_pack("{s:{}}", "values");

	if (!it || json_array_append_new(json_object_get(entry, "iterations"), it))
		return NULL;
	return it;
}

int results__set(json_t *iteration, const char *metric, double v)
{
	if (!isfinite(v))
		return -EINVAL;
	return json_object_set_new(json_object_get(iteration, "values"), metric, json_real(v))
		       ? -ENOMEM
		       : 0;
}

size_t results__values(const json_t *entry, const char *metric, double *out, size_t max)
{
	json_t *its = json_object_get(entry, "iterations"), *it, *v;
	size_t i, n = 0;

	json_array_foreach(its, i, it) {
		v = json_object_get(json_object_get(it, "values"), metric);
		if (!json_is_number(v) || (out && n >= max))
			continue;
		if (out)
			out[n] = json_number_value(v);
		n++;
	}
	return n;
}

enum better results__better(const json_t *entry, const char *metric)
{
	const char *b = json_string_value(
		json_object_get(json_object_get(json_object_get(entry, "metrics"), metric), "better"));

	if (b && !strcmp(b, "lower"))
		return BETTER_LOWER;
	if (b && !strcmp(b, "higher"))
		return BETTER_HIGHER;
	return BETTER_NONE;
}

const char *results__unit(const json_t *entry, const char *metric)
{
	return json_string_value(
		json_object_get(json_object_get(json_object_get(entry, "metrics"), metric), "unit"))
		       ?: "";
}

int results__write(const json_t *doc, const char *path, FILE *dash, struct errbuf *err)
{
	char tmp[4096], dir[4096];
	int fd, ret = 0;

	if (!strcmp(path, "-")) {
		if (json_dumpf(doc, dash, RESULTS_JSON_FLAGS) || fputc('\n', dash) == EOF ||
		    fflush(dash))
			return err__set(err, -EIO, "cannot write results to stdout");
		return 0;
	}
	const char *slash = strrchr(path, '/');

	if (slash)
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	else
		snprintf(dir, sizeof(dir), ".");
	snprintf(tmp, sizeof(tmp), "%s/.%s.XXXXXX", slash == path ? "" : dir, slash ? slash + 1 : path);
	fd = mkstemp(tmp);
	if (fd < 0)
		return err__set(err, -errno, "cannot create '%s': %s", tmp, strerror(errno));
	if (json_dumpfd(doc, fd, RESULTS_JSON_FLAGS) || write(fd, "\n", 1) != 1 || fsync(fd)) {
		ret = err__set(err, -EIO, "cannot write '%s': %s", tmp, strerror(errno ?: EIO));
		close(fd);
		goto out_unlink;
	}
	fchmod(fd, 0644);
	if (close(fd)) {
		ret = err__set(err, -errno, "cannot write '%s': %s", tmp, strerror(errno));
		goto out_unlink;
	}
	if (rename(tmp, path)) {
		ret = err__set(err, -errno, "cannot rename '%s' to '%s': %s", tmp, path,
			       strerror(errno));
		goto out_unlink;
	}
	return 0;
out_unlink:
	unlink(tmp);
	return ret;
}

static int check_entry(const json_t *e, size_t idx, const char *path, struct errbuf *err)
{
	json_t *its = json_object_get(e, "iterations"), *it;
	size_t i;

	if (!json_is_object(e) || !json_is_string(json_object_get(e, "id")) ||
	    !json_is_object(json_object_get(e, "metrics")) || !json_is_array(its))
		return err__set(err, -EINVAL,
				"'%s': entry %zu lacks id, metrics or iterations: not a results "
				"document of this schema",
				path, idx);
	json_array_foreach(its, i, it) {
		if (!json_is_object(json_object_get(it, "values")))
			return err__set(err, -EINVAL, "'%s': entry '%s' iteration %zu has no values",
					path, json_string_value(json_object_get(e, "id")), i);
	}
	return 0;
}

json_t *results__read(const char *path, struct errbuf *err)
{
	json_error_t je;
	json_t *doc, *entries, *e;
	const char *schema;
	size_t i;

	doc = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
	if (!doc) {
		if (je.line < 0 || access(path, R_OK))
			err__set(err, -errno ?: -EINVAL, "cannot read '%s': %s", path,
				 strerror(errno ?: EINVAL));
		else
			err__set(err, -EINVAL, "'%s' is not valid JSON: line %d column %d: %s", path,
				 je.line, je.column, je.text);
		return NULL;
	}
	schema = json_string_value(json_object_get(doc, "schema"));
	if (!schema || strcmp(schema, RESULTS_SCHEMA)) {
		err__set(err, -EINVAL, "'%s' is not a schedlens results document (schema '%s')", path,
			 schema ?: "missing");
		goto out_put;
	}
	if (json_integer_value(json_object_get(doc, "schema_version")) != RESULTS_SCHEMA_VERSION) {
		err__set(err, -EINVAL,
			 "'%s' has schema version %lld; this schedlens reads version %d", path,
			 (long long)json_integer_value(json_object_get(doc, "schema_version")),
			 RESULTS_SCHEMA_VERSION);
		goto out_put;
	}
	entries = json_object_get(doc, "entries");
	if (!json_is_array(entries)) {
		err__set(err, -EINVAL, "'%s' has no entries array", path);
		goto out_put;
	}
	json_array_foreach(entries, i, e) {
		if (check_entry(e, i, path, err))
			goto out_put;
	}
	return doc;
out_put:
	json_decref(doc);
	return NULL;
}
