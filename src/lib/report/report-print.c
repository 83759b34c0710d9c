// SPDX-License-Identifier: GPL-2.0
/*
 * schedlens report, the tables as perf report --stdio prints them: the header lines of an
 * event or a group, the share columns (Overhead, or Children and Self; -n's Samples) and the
 * rows of the hists, an event group's members side by side (--group, the default where the
 * file describes groups).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report-int.h"

#define PCT_WIDTH 8	/* perf's Overhead, Children and Self columns, per member */
#define NR_WIDTH 12	/* perf's Samples */

void report__print_count(const struct report *r, uint64_t nr_samples, uint64_t period,
			 bool plural, const char *name)
{
	FILE *out = r->out;
	double v = (double)nr_samples;
	char unit = ' ';
	const char *u;

	/* perf's convert_unit */
	for (u = "KMG"; *u && v > 1000.0; u++) {
		v /= 1000.0;
		unit = *u;
	}
	fprintf(out, "# Samples: %llu%c of event%s '%s'", (unsigned long long)v, unit,
		plural ? "s" : "", name);
	if (r->o->filter.time)
		fprintf(out, " (time slices: %s)", r->o->filter.time);
	fputc('\n', out);
	fprintf(out, "# Event count (approx.): %llu\n#\n", (unsigned long long)period);
}

/* the column heads; a column without a title is left out (elided) */
void report__print_head(FILE *out, const struct report_col *c, size_t n)
{
	size_t i, d, k;

	fputc('#', out);
	for (i = k = 0; i < n; i++)
		if (c[i].title)
			fprintf(out, c[i].right ? "%s%*s" : "%s%-*s", k++ ? "  " : " ",
				(int)c[i].width, c[i].title);
	fputc('\n', out);
	fputc('#', out);
	for (i = k = 0; i < n; i++) {
		if (!c[i].title)
			continue;
		fputs(k++ ? "  " : " ", out);
		for (d = 0; d < c[i].width; d++)
			fputc('.', out);
	}
	fprintf(out, "\n#\n");
}

size_t report__share_cols(const struct report *r, struct report_col *c, size_t nr_members,
			  bool children)
{
	size_t n = 0;

	c[n++] = (struct report_col){ children ? "Children" : "Overhead", PCT_WIDTH * nr_members,
				      true };
	if (children)
		c[n++] = (struct report_col){ "Self", PCT_WIDTH * nr_members, true };
	if (r->o->show_nr)
		c[n++] = (struct report_col){ "Samples", NR_WIDTH * nr_members, true };
	if (r->o->show_period)
		c[n++] = (struct report_col){ "Period", NR_WIDTH * nr_members, true };
	return n;
}

void report__print_shares(const struct report *r, const double *pct, size_t nr_pct,
			  const uint64_t *nr, const uint64_t *period, size_t nr_members)
{
	char buf[64];
	size_t i, n;

	fputs("  ", r->out);
	for (i = 0; i < nr_pct; i++) {
		if (i && i % nr_members == 0)
			fputs("  ", r->out);
		n = fmt_fixed2(buf, sizeof(buf) - 1, pct[i], PCT_WIDTH - 1);
		n = n < sizeof(buf) - 2 ? n : sizeof(buf) - 2;	/* (a share is at most 100) */
		buf[n++] = '%';
		fwrite(buf, 1, n, r->out);
	}
	for (i = 0; r->o->show_nr && i < nr_members; i++)
		fprintf(r->out, "%s%*llu", i ? "" : "  ", NR_WIDTH, (unsigned long long)nr[i]);
	for (i = 0; r->o->show_period && i < nr_members; i++)
		fprintf(r->out, "%s%*llu", i ? "" : "  ", NR_WIDTH, (unsigned long long)period[i]);
}

void report__print_fields(const struct report *r, size_t idx, double period_pct,
			  double samples_pct)
{
	const char *sep = r->o->sep;

	fprintf(r->out, "%s%s%.4f%s%.4f", r->info->evsels[idx].name, sep, period_pct, sep, samples_pct);
}

/*
 * The comm the entry's thread has at the end: perf sizes the Command column by it (a comm
 * before an exec is cut to that width: "perf-ex" for perf-exec, then sleep) and shows it
 * after the tid of the pid key
 */
static const char *thread_comm(struct report *r, const struct hist_key *k)
{
	struct taddr al;

	if (threads__resolve(r->threads, k->pid, k->tid, PERF_RECORD_MISC_KERNEL, 0, &al))
		return k->comm;
	return al.comm;
}

size_t report__unres_dso_width(const struct report *r, size_t w)
{
	if (r->o->sep || r->o->filter.dsos)
		return w;
	return w > 16 ? w : 16;
}

static size_t key_width(struct report *r, const struct hist_rows *rows, enum hist_sort s,
			const char *title)
{
	size_t w = strlen(title), i, l;
	bool unres = false;

	for (i = 0; i < hist_rows__nr(rows); i++) {
		const struct hist_key *k = hist_rows__get(rows, i).key;

		switch (s) {
		case HIST_SORT_COMM:
			l = strlen(thread_comm(r, k));
			break;
		case HIST_SORT_PID:	/* "%7d:COMM", the thread's last */
			l = 8 + strlen(thread_comm(r, k));
			break;
		case HIST_SORT_CPU:
			l = 3;
			break;
		case HIST_SORT_DSO:
			l = strlen(k->dso);
			break;
		case HIST_SORT_SYM:
			l = k->sym_name ? strlen(k->sym_name) + 4 : 22;
			break;
		default:
			l = 7;
			break;
		}
		if (l > w)
			w = l;
		unres |= !k->sym_name;
	}
	for (i = 0; i < r->o->nr_sorts && r->o->sorts[i] != HIST_SORT_SYM; i++)
		;
	/* (without a sym key a row's symbol is its first sample's: not followed) */
	if (s == HIST_SORT_DSO && unres && i < r->o->nr_sorts)
		w = report__unres_dso_width(r, w);
	return w;
}

static const char *key_title(enum hist_sort s)
{
	static const char *const t[] = { "Command", "Shared Object", "Symbol", "    Pid:Command",
					 "CPU" };

	return s < ARRAY_SIZE(t) ? t[s] : "?";
}

void report__put_padded(FILE *out, const char *s, size_t len, size_t width)
{
	static const char spaces[] = "                                                                ";
	size_t k;

	fwrite(s, 1, len, out);
	for (width = width > len ? width - len : 0; width; width -= k) {
		k = width < sizeof(spaces) - 1 ? width : sizeof(spaces) - 1;
		fwrite(spaces, 1, k, out);
	}
}

static void print_key(struct report *r, const struct hist_key *k, enum hist_sort s, int w)
{
	char buf[40];
	size_t n, uw = w > 0 ? (size_t)w : 0;

	switch (s) {
	case HIST_SORT_COMM:	/* cut to the column's width */
		n = strlen(k->comm);
		report__put_padded(r->out, k->comm, w && n > uw ? uw : n, uw);
		break;
	case HIST_SORT_DSO:
		report__put_padded(r->out, k->dso, strlen(k->dso), uw);
		break;
	case HIST_SORT_SYM:	/* the whole name, however long (C++'s) */
		buf[0] = '[';
		buf[1] = (char)k->level;
		buf[2] = ']';
		buf[3] = ' ';
		if (k->sym_name) {
			fwrite(buf, 1, 4, r->out);
			n = strlen(k->sym_name);
			report__put_padded(r->out, k->sym_name, n, uw > n + 4 ? uw - 4 : 0);
		} else {	/* perf's %-#.*llx: "0x" and 16 digits, 0 without "0x" */
			n = 4 + fmt_hex(buf + 4, k->addr, 16, k->addr != 0);
			report__put_padded(r->out, buf, n, uw);
		}
		break;
	case HIST_SORT_PID:	/* -t: the tid alone */
		if (w)
			fprintf(r->out, "%7d:%-*.*s", k->tid, w - 8, w - 8, thread_comm(r, k));
		else
			fprintf(r->out, "%d", k->tid);
		break;
	case HIST_SORT_CPU:
		fprintf(r->out, "%*.*d", w, w, k->cpu);
		break;
	default:
		break;
	}
}

const char *report__event_desc(const struct report *r, size_t idx, bool group, char *buf,
			       size_t size)
{
	const char *names[REPORT_MAX_MEMBERS];
	size_t i, n = r->groups[idx].nr_members;

	if (!group || n <= 1 || n > REPORT_MAX_MEMBERS)
		return r->info->evsels[idx].name;
	for (i = 0; i < n; i++)
		names[i] = r->info->evsels[idx + i].name;
	return hist_group__desc(&r->groups[idx], 0, names, buf, size);
}

/* the table of event @idx and the @n - 1 members of its group after it */
static int print_hist(struct report *r, size_t idx, size_t n)
{
	const struct report_opts *o = r->o;
	struct report_col c[3 + HIST_SORT_MAX];
	uint64_t tp[REPORT_MAX_MEMBERS], ts[REPORT_MAX_MEMBERS], all_p = 0, all_s = 0;
	double pct[REPORT_MAX_MEMBERS];
	struct hist_rows *rows = hist_rows__new(&r->hists[idx], n, o->show_nr);
	size_t i, j, m, nc, kc = 0;	/* kc: the first key column */
	char desc[1024];

	if (!rows)
		return -ENOMEM;
	/* with a thread filter, the shares are of every sample (perf's --percentage absolute) */
	for (m = 0; m < n; m++) {
		tp[m] = r->filter ? r->period[idx + m] : hist__total_period(r->hists[idx + m]);
		ts[m] = r->filter ? r->nr_samples[idx + m] : hist__total_samples(r->hists[idx + m]);
		all_p += tp[m];
		all_s += ts[m];
	}
	if (!o->sep) {
		report__print_count(r, all_s, all_p, r->groups[idx].nr_members > 1,
				    report__event_desc(r, idx, n > 1, desc, sizeof(desc)));
		kc = nc = report__share_cols(r, c, n, false);
		for (j = 0; j < o->nr_sorts; j++) {
			const char *t = key_title(o->sorts[j]);

			/* an elided key's column: no title, left out */
			c[nc++] = report__elided(r, (int)o->sorts[j]) ?
				(struct report_col){ NULL, 0, false } :
				(struct report_col){ t, key_width(r, rows, o->sorts[j], t), false };
		}
		report__print_head(r->out, c, nc);
	}
	for (i = 0; i < hist_rows__nr(rows); i++) {
		struct hist_row e = hist_rows__get(rows, i);

		for (m = 0; m < n; m++)
			pct[m] = tp[m] ? 100.0 * e.period[m] / tp[m] : 0;
		if (pct[0] < o->percent_limit)
			continue;
		if (o->sep)
			report__print_fields(r, idx, pct[0],
					     ts[0] ? 100.0 * e.nr_samples[0] / ts[0] : 0);
		else
			report__print_shares(r, pct, n, e.nr_samples, e.period, n);
		for (j = 0; j < o->nr_sorts; j++) {
			if (report__elided(r, (int)o->sorts[j]))
				continue;
			fputs(o->sep ?: "  ", r->out);
			print_key(r, e.key, o->sorts[j], o->sep ? 0 : (int)c[kc + j].width);
		}
		fputc('\n', r->out);
	}
	if (!o->sep)
		fprintf(r->out, "\n\n");
	hist_rows__delete(rows);
	return 0;
}

static int group_events(struct report *r)
{
	const struct perf_file_header *h = r->f ? perf_file__header(r->f) : NULL;
	bool features = false;
	size_t i;

	r->groups = calloc(r->nr ?: 1, sizeof(*r->groups));
	if (!r->groups)
		return -ENOMEM;
	if (!h) {	/* a stream without a file: no group descriptions */
		hist_groups__init(r->groups, r->nr, NULL, 0, r->o->group == REPORT_GROUP_ON);
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(h->features); i++)
		features |= h->features[i] != 0;
	/*
	 * perf forces one group where the file describes none once it has the features: with
	 * --group and with --no-group alike (either sets group_set), so --no-group names the
	 * first event's table 'of events'; in a pipe, at the marker after the FEATURE records,
	 * which a pipe without them (perf before 4.14) never has. A description that does
	 * not fit the events leaves them groups of their own.
	 */
	hist_groups__init(r->groups, r->nr, h->groups, h->nr_groups,
			  r->o->group != REPORT_GROUP_AUTO && (!h->pipe_mode || features));
	for (i = 0; i < r->nr; i++)
		if (r->groups[i].nr_members > REPORT_MAX_MEMBERS)
			r->groups[i].nr_members = 1;
	return 0;
}

int report__print_tables(struct report *r, const struct stream_stats *st)
{
	/* members side by side on a terminal, not in -t's lines */
	bool side = r->o->group != REPORT_GROUP_OFF && !r->o->sep;
	size_t i, n;
	int ret = group_events(r);

	report__print_notes(r);
	if (ret || r->o->sym.folded || r->focus) {
		if (!ret && r->o->sym.folded)
			report__print_folded(r);
		else if (!ret)
			report__print_focus(r);
		return ret;
	}
	for (i = 0; i < r->o->sym.nr_keys && !r->o->sep; i++)
		if (report__elided(r, r->o->sym.keys[i]))
			fprintf(r->out, "# %s: %s\n", r->o->sym.keys[i] == SYMREP_COMM ? "comm" :
				r->o->sym.keys[i] == SYMREP_DSO ? "dso" : "symbol",
				report__elided(r, r->o->sym.keys[i]));
	if (!r->o->sep)
		fprintf(r->out, "#\n# Total Lost Samples: %llu\n#\n", (unsigned long long)st->nr_lost);
	for (i = 0; i < r->nr && !ret; i++) {
		n = side ? r->groups[i].nr_members : 1;
		if (!n)
			continue;	/* shown with its leader */
		/* perf's --skip-empty: an event without samples, a group whose leader has none */
		if (!r->nr_samples[i] && (!r->o->no_skip_empty || r->o->sep))
			continue;
		if (r->symrep && r->labels)
			ret = report__print_labels(r, i, n);
		else
			ret = print_hist(r, i, n);
	}
	return ret;
}
