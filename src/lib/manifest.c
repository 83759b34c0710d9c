// SPDX-License-Identifier: GPL-2.0
/* kernel-patches manifests: "key = value" lines, format in kernel-patches/README.md. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "schedlens/manifest.h"

enum key_kind { KEY_SINGLE, KEY_LIST };

static const struct key {
	const char *name;
	enum key_kind kind;
	size_t off;	/* of the char * (single) in struct manifest */
} keys[] = {
	{ "name", KEY_SINGLE, offsetof(struct manifest, name) },
	{ "summary", KEY_SINGLE, offsetof(struct manifest, summary) },
	{ "source", KEY_SINGLE, offsetof(struct manifest, source) },
	{ "suite", KEY_SINGLE, offsetof(struct manifest, suite) },
	{ "base", KEY_SINGLE, offsetof(struct manifest, base) },
	{ "revert", KEY_SINGLE, offsetof(struct manifest, revert) },
	{ "kernel", KEY_SINGLE, offsetof(struct manifest, kernel) },
	{ "lab", KEY_SINGLE, offsetof(struct manifest, lab) },
	{ "in-6.1", KEY_SINGLE, 0 },
	{ "subject", KEY_LIST, 0 },
	{ "commit", KEY_LIST, 0 },
	{ "patch", KEY_LIST, 0 },
	{ "improve", KEY_LIST, 0 },
	{ "guard", KEY_LIST, 0 },
	{ "focus", KEY_LIST, 0 },
	{ "mechanism", KEY_LIST, 0 },
};

/* A growing array of strings. */
struct strv {
	char **v;
	size_t n;
};

struct parser {
	struct manifest *m;
	struct strv subjects, commits, patches, focus;
	char *in_61;
	int line;
	struct errbuf *err;
};

static int strv__push(struct strv *sv, const char *s)
{
	char **v = realloc(sv->v, (sv->n + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	sv->v = v;
	v[sv->n] = strdup(s);
	if (!v[sv->n])
		return -ENOMEM;
	sv->n++;
	return 0;
}

static void strv__free(struct strv *sv)
{
	size_t i;

	for (i = 0; i < sv->n; i++)
		free(sv->v[i]);
	free(sv->v);
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

static int fail(struct parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(struct parser *p, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return err__set(p->err, -EINVAL, "'%s' line %d: %s", p->m->path, p->line, msg);
}

/* "12%", "0%", "-2.5%" -> percent; "?" -> NAN when @allow_unknown */
static int parse_pct(const char *s, bool allow_unknown, double *out)
{
	char buf[64];
	size_t len = strlen(s);

	if (allow_unknown && !strcmp(s, "?")) {
		*out = NAN;
		return 0;
	}
	if (len < 2 || len >= sizeof(buf) || s[len - 1] != '%')
		return -EINVAL;
	memcpy(buf, s, len - 1);
	buf[len - 1] = '\0';
	return parse_double(buf, out);
}

/* @s split at blanks into @w (up to @max words, NULL past the last); the number of words, or
 * max + 1 when there are more */
static int split(char *s, char **w, int max)
{
	char *save = NULL;
	int n = 0;

	memset(w, 0, max * sizeof(*w));
	for (s = strtok_r(s, " \t", &save); s; s = strtok_r(NULL, " \t", &save)) {
		if (n == max)
			return max + 1;
		w[n++] = s;
	}
	return n;
}

static int add_metric(struct parser *p, const char *value, bool guard)
{
	struct manifest *m = p->m;
	struct manifest_metric *mm, *arr;
	char *copy, *w[4], *glob, *metric, *pct, *dir;
	enum better better = BETTER_NONE;
	int ret = 0, n;

	copy = strdup(value);
	if (!copy)
		return -ENOMEM;
	n = split(copy, w, 4);
	glob = w[0], metric = w[1], pct = w[2], dir = w[3];
	if (n < 3 || n > 4) {
		ret = fail(p, "'%s' wants ENTRY-GLOB METRIC PERCENT [lower|higher]",
			   guard ? "guard" : "improve");
		goto out_free;
	}
	if (dir && !strcmp(dir, "lower")) {
		better = BETTER_LOWER;
	} else if (dir && !strcmp(dir, "higher")) {
		better = BETTER_HIGHER;
	} else if (dir) {
		ret = fail(p, "'%s' is neither 'lower' nor 'higher'", dir);
		goto out_free;
	}
	arr = realloc(m->metrics, (m->nr_metrics + 1) * sizeof(*arr));
	if (!arr) {
		ret = -ENOMEM;
		goto out_free;
	}
	m->metrics = arr;
	mm = &arr[m->nr_metrics];
	memset(mm, 0, sizeof(*mm));
	if (parse_pct(pct, !guard, &mm->pct) || (guard && mm->pct < 0)) {
		ret = fail(p, "'%s' is not a percentage like '5%%'%s", pct,
			   guard ? " (a guard's tolerance is not negative)" : " or '?'");
		goto out_free;
	}
	mm->glob = strdup(glob);
	mm->metric = strdup(metric);
	mm->better = better;
	mm->guard = guard;
	mm->line = p->line;
	m->nr_metrics++;
	if (!mm->glob || !mm->metric)
		ret = -ENOMEM;
out_free:
	free(copy);
	return ret;
}

/* "+50pt", "-20pt": a signed change in percentage points, not zero */
static int parse_points(const char *s, double *out)
{
	char buf[64];
	size_t len = strlen(s);

	if (len < 4 || len >= sizeof(buf) || (s[0] != '+' && s[0] != '-') ||
	    strcmp(s + len - 2, "pt"))
		return -EINVAL;
	memcpy(buf, s, len - 2);
	buf[len - 2] = '\0';
	if (parse_double(buf, out) || *out == 0 || fabs(*out) > 100)
		return -EINVAL;
	return 0;
}

static int add_mechanism(struct parser *p, const char *value)
{
	struct manifest *m = p->m;
	struct manifest_mechanism *mm, *arr;
	char *copy, *w[4], *glob, *scope, *paths, *pts;
	double points;
	int ret = 0;

	copy = strdup(value);
	if (!copy)
		return -ENOMEM;
	if (split(copy, w, 4) != 4) {
		ret = fail(p, "'mechanism' wants ENTRY-GLOB all|idle-llc PATH-GLOB +POINTSpt");
		goto out_free;
	}
	glob = w[0], scope = w[1], paths = w[2], pts = w[3];
	if (strcmp(scope, "all") && strcmp(scope, "idle-llc")) {
		ret = fail(p, "'%s' is neither 'all' nor 'idle-llc'", scope);
		goto out_free;
	}
	if (parse_points(pts, &points)) {
		ret = fail(p, "'%s' is not a signed change in points like '+50pt' (0 < |N| <= 100)",
			   pts);
		goto out_free;
	}
	arr = realloc(m->mechanisms, (m->nr_mechanisms + 1) * sizeof(*arr));
	if (!arr) {
		ret = -ENOMEM;
		goto out_free;
	}
	m->mechanisms = arr;
	mm = &arr[m->nr_mechanisms++];
	*mm = (struct manifest_mechanism){ .glob = strdup(glob), .scope = strdup(scope),
					   .paths = strdup(paths), .points = points,
					   .line = p->line };
	if (!mm->glob || !mm->scope || !mm->paths)
		ret = -ENOMEM;
out_free:
	free(copy);
	return ret;
}

static int set_key(struct parser *p, const struct key *k, const char *value)
{
	char **slot;

	if (k->kind == KEY_SINGLE) {
		slot = !strcmp(k->name, "in-6.1") ? &p->in_61 : (char **)((char *)p->m + k->off);
		if (*slot)
			return fail(p, "'%s' given twice", k->name);
		*slot = strdup(value);
		return *slot ? 0 : -ENOMEM;
	}
	if (!strcmp(k->name, "subject"))
		return strv__push(&p->subjects, value);
	if (!strcmp(k->name, "commit"))
		return strv__push(&p->commits, value);
	if (!strcmp(k->name, "patch"))
		return strv__push(&p->patches, value);
	if (!strcmp(k->name, "focus"))
		return strv__push(&p->focus, value);
	if (!strcmp(k->name, "mechanism"))
		return add_mechanism(p, value);
	return add_metric(p, value, !strcmp(k->name, "guard"));
}

static int parse_line(struct parser *p, char *line)
{
	char *s = trim(line), *eq, *key, *value;
	size_t i;

	if (!*s || *s == '#')
		return 0;
	eq = strchr(s, '=');
	if (!eq)
		return fail(p, "'%s' is not 'key = value'", s);
	*eq = '\0';
	key = trim(s);
	value = trim(eq + 1);
	if (!*value)
		return fail(p, "'%s' has no value", key);
	for (i = 0; i < ARRAY_SIZE(keys); i++)
		if (!strcmp(keys[i].name, key))
			return set_key(p, &keys[i], value);
	return fail(p, "unknown key '%s'", key);
}

static bool is_commit(const char *s)
{
	size_t i;

	if (!strcmp(s, "none") || !strcmp(s, "unknown"))
		return true;
	for (i = 0; s[i]; i++)
		if (!isxdigit((unsigned char)s[i]) || isupper((unsigned char)s[i]))
			return false;
	return i == 40;
}

/* The rules beyond one line, with p->line = 0 meaning "the file as a whole". */
static int check(struct parser *p)
{
	struct manifest *m = p->m;
	static const char *const required[] = { "name", "suite", "base" };
	const char *values[] = { m->name, m->suite, m->base };
	size_t i;

	p->line = 0;
	for (i = 0; i < ARRAY_SIZE(required); i++)
		if (!values[i])
			return err__set(p->err, -EINVAL, "'%s': no '%s'", m->path, required[i]);
	if (!p->in_61 || (strcmp(p->in_61, "yes") && strcmp(p->in_61, "no")))
		return err__set(p->err, -EINVAL, "'%s': 'in-6.1' must be 'yes' or 'no'", m->path);
	m->in_61 = !strcmp(p->in_61, "yes");
	if (!p->patches.n)
		return err__set(p->err, -EINVAL, "'%s': no 'patch'", m->path);
	if (p->subjects.n != p->patches.n || p->commits.n != p->patches.n)
		return err__set(p->err, -EINVAL,
				"'%s': %zu patches but %zu subjects and %zu commits (one each per "
				"patch)",
				m->path, p->patches.n, p->subjects.n, p->commits.n);
	for (i = 0; i < p->commits.n; i++)
		if (!is_commit(p->commits.v[i]))
			return err__set(p->err, -EINVAL,
					"'%s': commit '%s' is not a full commit id, 'none' or "
					"'unknown'",
					m->path, p->commits.v[i]);
	if (!strcmp(m->base, "linux-source-6.1+revert")) {
		if (!m->revert || !m->in_61)
			return err__set(p->err, -EINVAL,
					"'%s': base '%s' needs 'revert' and 'in-6.1 = yes'", m->path,
					m->base);
	} else if (!strcmp(m->base, "linux-source-6.1")) {
		if (m->revert)
			return err__set(p->err, -EINVAL,
					"'%s': a revert is named but base is '%s'", m->path,
					m->base);
	} else {
		return err__set(p->err, -EINVAL,
				"'%s': base '%s' is neither 'linux-source-6.1' nor "
				"'linux-source-6.1+revert'",
				m->path, m->base);
	}
	for (i = 0; i < m->nr_metrics; i++)
		if (!m->metrics[i].guard)
			return 0;
	return err__set(p->err, -EINVAL, "'%s': no 'improve' line: nothing to validate", m->path);
}

static int set_paths(struct manifest *m, const char *path)
{
	struct stat st;
	char *slash;

	if (stat(path, &st))
		return -errno;
	if (S_ISDIR(st.st_mode)) {
		if (asprintf(&m->path, "%s/manifest", path) < 0)
			return -ENOMEM;
		m->dir = strdup(path);
	} else {
		m->path = strdup(path);
		slash = strrchr(path, '/');
		m->dir = slash ? strndup(path, slash - path) : strdup(".");
	}
	return m->path && m->dir ? 0 : -ENOMEM;
}

struct manifest *manifest__read(const char *path, int *errp, struct errbuf *err)
{
	struct parser p = { .err = err };
	char *line = NULL;
	size_t cap = 0;
	FILE *f = NULL;
	int ret;

	p.m = calloc(1, sizeof(*p.m));
	if (!p.m) {
		ret = err__set(err, -ENOMEM, "out of memory");
		goto out;
	}
	ret = set_paths(p.m, path);
	if (ret) {
		err__set(err, ret, "cannot open '%s': %s", path, strerror(-ret));
		goto out;
	}
	f = fopen(p.m->path, "r");
	if (!f) {
		ret = err__set(err, -errno, "cannot open '%s': %s", p.m->path, strerror(errno));
		goto out;
	}
	while (getline(&line, &cap, f) >= 0) {
		p.line++;
		ret = parse_line(&p, line);
		if (ret)
			goto out;
	}
	if (ferror(f)) {
		ret = err__set(err, -EIO, "cannot read '%s'", p.m->path);
		goto out;
	}
	ret = check(&p);
out:
	if (ret == -ENOMEM)
		err__set(err, ret, "out of memory reading '%s'", path);
	if (!ret) {
		p.m->nr_patches = p.patches.n;
		p.m->subjects = p.subjects.v;
		p.m->commits = p.commits.v;
		p.m->patches = p.patches.v;
		p.m->nr_focus = p.focus.n;
		p.m->focus = p.focus.v;
	} else {
		strv__free(&p.subjects);
		strv__free(&p.commits);
		strv__free(&p.patches);
		strv__free(&p.focus);
	}
	free(p.in_61);
	free(line);
	if (f)
		fclose(f);
	if (ret) {
		manifest__delete(p.m);
		if (errp)
			*errp = ret;
		return NULL;
	}
	return p.m;
}

void manifest__delete(struct manifest *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->nr_patches; i++) {
		free(m->subjects[i]);
		free(m->commits[i]);
		free(m->patches[i]);
	}
	free(m->subjects);
	free(m->commits);
	free(m->patches);
	for (i = 0; i < m->nr_metrics; i++) {
		free(m->metrics[i].glob);
		free(m->metrics[i].metric);
	}
	free(m->metrics);
	for (i = 0; i < m->nr_mechanisms; i++) {
		free(m->mechanisms[i].glob);
		free(m->mechanisms[i].scope);
		free(m->mechanisms[i].paths);
	}
	free(m->mechanisms);
	for (i = 0; i < m->nr_focus; i++)
		free(m->focus[i]);
	free(m->focus);
	free(m->path);
	free(m->dir);
	free(m->name);
	free(m->summary);
	free(m->source);
	free(m->suite);
	free(m->base);
	free(m->revert);
	free(m->kernel);
	free(m->lab);
	free(m);
}

const char *manifest__short_commit(const struct manifest *m, size_t i, char *buf, size_t len)
{
	const char *c = m->commits[i];

	if (strlen(c) == 40)
		snprintf(buf, len, "%.12s", c);
	else
		snprintf(buf, len, "%s", c);
	return buf;
}
