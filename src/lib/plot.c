// SPDX-License-Identifier: GPL-2.0
#include "schedlens/plot.h"

#include <errno.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "schedlens/results.h"

#define PANEL_HEIGHT 300
#define PANEL_WIDTH 560

int plot__median_interval(const double *v, size_t n, double conf, double *lo, double *hi)
{
	double *s;
	size_t k = 1;

	if (!n)
		return -EINVAL;
	s = malloc(n * sizeof(*s));
	if (!s)
		return -ENOMEM;
	memcpy(s, v, n * sizeof(*s));
	gsl_sort(s, 1, n);
	while (k + 1 <= (n + 1) / 2 && gsl_cdf_binomial_P((unsigned int)k, 0.5, (unsigned int)n) <=
					       (1 - conf) / 2)
		k++;
	*lo = s[k - 1];
	*hi = s[n - k];
	free(s);
	return 0;
}

/* gnuplot single-quoted strings: '' stands for one quote */
static void put_quoted(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		if (*s != '\n')
			fputc(*s, f);
	}
	fputc('\'', f);
}

struct panel {
	char group[128], metric[128];
};

static size_t collect_panels(const struct compare_render *r, struct panel **out)
{
	const json_t *e, *m;
	const char *metric, *group;
	char label[128], key[64];
	struct panel *p = NULL, *np;
	size_t i, j, n = 0;

	json_array_foreach(json_object_get(r->docs[0], "entries"), i, e) {
		group = compare__row(r->docs[0], e, label, sizeof(label), key, sizeof(key));
		json_object_foreach(json_object_get(e, "metrics"), metric, m) {
			if (!compare__selected(r, metric))
				continue;
			for (j = 0; j < n; j++)
				if (!strcmp(p[j].group, group) && !strcmp(p[j].metric, metric))
					break;
			if (j < n)
				continue;
			np = realloc(p, (n + 1) * sizeof(*p));
			if (!np)
				break;
			p = np;
			snprintf(p[n].group, sizeof(p[n].group), "%s", group);
			snprintf(p[n].metric, sizeof(p[n].metric), "%s", metric);
			n++;
		}
	}
	*out = p;
	return n;
}

static void panel_data(FILE *f, const struct compare_render *r, const struct panel *p,
		       size_t pi, size_t *npos)
{
	const json_t *e;
	char label[128], key[64];
	size_t i, d, k, x = 0;
	double *v = NULL;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		for (d = 0; d < r->ndocs; d++) {
			double off = r->ndocs > 1 ? ((double)d / (r->ndocs - 1) - 0.5) * 0.5 : 0;

			fprintf(f, "$%c%zu_%zu << EOD\n", pass ? 'm' : 'p', pi, d);
			x = 0;
			json_array_foreach(json_object_get(r->docs[0], "entries"), i, e) {
				const json_t *de;
				size_t n, cap;
				double lo, hi;

				if (strcmp(compare__row(r->docs[0], e, label, sizeof(label), key,
							sizeof(key)),
					   p->group) ||
				    !json_object_get(json_object_get(e, "metrics"), p->metric))
					continue;
				de = d ? compare__find_entry(
						 r->docs[d], json_string_value(json_object_get(e, "id")))
				       : e;
				cap = json_array_size(json_object_get(de, "iterations"));
				free(v);
				v = malloc((cap ?: 1) * sizeof(*v));
				n = v && de ? results__values(de, p->metric, v, cap) : 0;
				for (k = 0; !pass && k < n; k++)
					fprintf(f, "%.6f %.17g\n",
						x + off +
							(n > 1 ? ((double)k / (n - 1) - 0.5) * 0.12 : 0),
						v[k]);
				if (pass && n && !plot__median_interval(v, n, 0.95, &lo, &hi)) {
					gsl_sort(v, 1, n);
					fprintf(f, "%.6f %.17g %.17g %.17g\n", x + off,
						gsl_stats_median_from_sorted_data(v, 1, n), lo, hi);
				}
				x++;
			}
			fprintf(f, "EOD\n");
		}
	}
	free(v);
	*npos = x;
}

char *plot__script(const struct compare_render *r, const char *svg_path, struct errbuf *err)
{
	struct panel *p = NULL;
	size_t np = collect_panels(r, &p), i, d, npos, cols, rows, len = 0;
	char *buf = NULL, label[128], key[64];
	const json_t *e;
	FILE *f;

	if (!np) {
		err__set(err, -EINVAL, "nothing to plot: no metric selected");
		free(p);
		return NULL;
	}
	f = open_memstream(&buf, &len);
	if (!f) {
		err__set(err, -ENOMEM, "out of memory");
		free(p);
		return NULL;
	}
	cols = np > 3 ? 2 : 1;
	rows = (np + cols - 1) / cols;
	fprintf(f, "set terminal svg size %zu,%zu dynamic noenhanced font 'sans,10' "
		   "background rgb 'white'\nset output ",
		cols * PANEL_WIDTH, rows * PANEL_HEIGHT + 40);
	put_quoted(f, svg_path);
	fprintf(f, "\nset multiplot layout %zu,%zu title ", rows, cols);
	put_quoted(f, "per-iteration values (points), medians with 95% intervals (bars)");
	fprintf(f, "\nset grid ytics\nset key outside bottom center horizontal\n");
	for (i = 0; i < np; i++) {
		const json_t *first = NULL;
		size_t x = 0, k;

		size_t longest = 0;

		panel_data(f, r, &p[i], i, &npos);
		fprintf(f, "set title ");
		json_array_foreach(json_object_get(r->docs[0], "entries"), k, e) {
			if (!strcmp(compare__row(r->docs[0], e, label, sizeof(label), key,
						 sizeof(key)),
				    p[i].group) &&
			    json_object_get(json_object_get(e, "metrics"), p[i].metric)) {
				first = first ?: e;
				break;
			}
		}
		{
			char t[512];

			snprintf(t, sizeof(t), "%s: %s%s%s%s (%s is better)", p[i].group,
				 p[i].metric, first && *results__unit(first, p[i].metric) ? " [" : "",
				 first ? results__unit(first, p[i].metric) : "",
				 first && *results__unit(first, p[i].metric) ? "]" : "",
				 first ? better__name(results__better(first, p[i].metric)) : "none");
			put_quoted(f, t);
		}
		fprintf(f, "\nset xlabel ");
		put_quoted(f, key);
		json_array_foreach(json_object_get(r->docs[0], "entries"), k, e) {
			if (!strcmp(compare__row(r->docs[0], e, label, sizeof(label), key,
						 sizeof(key)),
				    p[i].group) &&
			    strlen(label) > longest)
				longest = strlen(label);
		}
		fprintf(f, "\nset xtics nomirror %s (", longest > 8 ? "rotate by -20" : "norotate");
		json_array_foreach(json_object_get(r->docs[0], "entries"), k, e) {
			if (strcmp(compare__row(r->docs[0], e, label, sizeof(label), key,
						sizeof(key)),
				   p[i].group) ||
			    !json_object_get(json_object_get(e, "metrics"), p[i].metric))
				continue;
			fprintf(f, "%s", x ? ", " : "");
			put_quoted(f, label);
			fprintf(f, " %zu", x++);
		}
		fprintf(f, ")\nset xrange [-0.5:%g]\nplot ", (double)npos - 0.5);
		for (d = 0; d < r->ndocs; d++) {
			fprintf(f, "%s$p%zu_%zu with points pt 7 ps 0.4 lc %zu title ",
				d ? ", " : "", i, d, d + 1);
			put_quoted(f, r->labels[d]);
			fprintf(f, ", $m%zu_%zu using 1:2:3:4 with yerrorbars pt 5 ps 0.8 lw 1.5 "
				   "lc %zu notitle",
				i, d, d + 1);
		}
		fputc('\n', f);
	}
	fprintf(f, "unset multiplot\n");
	free(p);
	if (fclose(f)) {
		free(buf);
		err__set(err, -ENOMEM, "out of memory");
		return NULL;
	}
	return buf;
}

int plot__svg(const struct compare_render *r, const char *svg_path, struct errbuf *err)
{
	char *script = plot__script(r, svg_path, err);
	FILE *gp;
	int status, ret = 0;

	if (!script)
		return -EINVAL;
	gp = popen("gnuplot 2>&1 >/dev/null", "w");
	if (!gp) {
		free(script);
		return err__set(err, -errno, "cannot run gnuplot: %s", strerror(errno));
	}
	fputs(script, gp);
	free(script);
	status = pclose(gp);
	if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) == 127)
		ret = err__set(err, -ENOENT, "cannot run gnuplot: install gnuplot-nox");
	else if (WEXITSTATUS(status))
		ret = err__set(err, -EIO, "gnuplot failed to draw '%s' (exit %d)", svg_path,
			       WEXITSTATUS(status));
	return ret;
}
