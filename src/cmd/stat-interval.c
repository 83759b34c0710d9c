// SPDX-License-Identifier: GPL-2.0
/*
 * schedlens stat -I: the counts of every interval, as perf stat -I prints them
 * (builtin-stat.c process_interval(), util/stat-display.c print_interval()): each line after
 * the time since counting started ("%6lu.%09lu" and the separator), the values being what
 * the interval added (counts, enabled and running times alike), its metrics taken over the
 * interval's nominal length; perf's header line every 25 intervals, none in CSV. Intervals
 * end on a grid from the start, so a wake-up a little late does not shift the rest.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stat-int.h"

#define NSEC_PER_MSEC UINT64_C(1000000)
#define HEADER_EVERY 25		/* perf's num_print_interval */

int stat__interval_start(struct stat_state *st, uint64_t now)
{
	struct stat_interval *iv = &st->iv;

	free(iv->prev);
	iv->prev = calloc(st->nr ?: 1, sizeof(*iv->prev));
	if (!iv->prev)
		return -ENOMEM;
	iv->ref_ns = now;
	iv->next_ns = now + (uint64_t)st->o->interval_ms * NSEC_PER_MSEC;
	iv->printed = 0;
	iv->done = false;
	return 0;
}

void stat__interval_exit(struct stat_state *st)
{
	free(st->iv.prev);
	st->iv.prev = NULL;
}

/* what event @i counted since the last interval, scaled as perf scales it */
static void read_delta(struct stat_state *st, size_t i, struct counter_value *d)
{
	struct counter_value cur, *prev = &st->iv.prev[i];

	memset(d, 0, sizeof(*d));
	if (counters__read(st->ctr, i, &cur))
		return;
	d->val = cur.val - prev->val;
	d->ena = cur.ena - prev->ena;
	d->run = cur.run - prev->run;
	*prev = cur;
	d->counted = d->run > 0;
	d->running_pct = d->ena ? 100.0 * (double)d->run / (double)d->ena : 0;
	d->scaled = d->run && d->run < d->ena ? (double)d->val * (double)d->ena / (double)d->run
					      : (double)d->val;
}

static void print_interval(struct stat_state *st, FILE *f, uint64_t now)
{
	const struct stat_opts *o = st->o;
	struct stat_state view = *st;
	struct run_values rv = { .elapsed_s = (double)o->interval_ms / 1e3 };
	uint64_t ts = now - st->iv.ref_ns;
	char prefix[64];
	size_t i;

	rv.v = calloc(st->nr ?: 1, sizeof(*rv.v));
	if (!rv.v)
		return;
	for (i = 0; i < st->nr; i++)
		read_delta(st, i, &rv.v[i]);
	view.runs = &rv;
	view.nr_runs = 1;
	snprintf(prefix, sizeof(prefix), "%6" PRIu64 ".%09" PRIu64 "%s", (uint64_t)(ts / 1000000000ull),
		 (uint64_t)(ts % 1000000000ull), o->sep ?: " ");
	if (o->sep) {
		stat__print_csv(&view, f, prefix);
	} else {
		if (st->iv.printed % HEADER_EVERY == 0)
			fprintf(f, "#           time             counts %4s events\n", "unit");
		stat__print_lines(&view, f, prefix, isatty(fileno(f)));
	}
	fflush(f);
	free(rv.v);
	st->iv.printed++;
	if (o->interval_count && st->iv.printed >= o->interval_count)
		st->iv.done = true;
}

int stat__interval_wait_ms(const struct stat_state *st)
{
	uint64_t now = now_ns();

	if (st->iv.done || now >= st->iv.next_ns)
		return 1;
	return (int)((st->iv.next_ns - now + NSEC_PER_MSEC - 1) / NSEC_PER_MSEC);
}

void stat__interval_tick(struct stat_state *st, FILE *f, bool stop)
{
	uint64_t now = now_ns(), len = (uint64_t)st->o->interval_ms * NSEC_PER_MSEC;

	if (st->iv.done)
		return;
	if (stop) {
		/* Ctrl-C: the interval under way, at once, and no more (perf's skip_signal) */
		print_interval(st, f, now);
		st->iv.done = true;
		return;
	}
	if (now >= st->iv.next_ns) {
		print_interval(st, f, now);
		/* woken late by half an interval or more: the next one a whole interval from now
		 * (as perf's are), not a sliver of one to keep to the grid */
		st->iv.next_ns += len;
		if (st->iv.next_ns < now + len / 2)
			st->iv.next_ns = now + len;
	}
}

void stat__interval_end(struct stat_state *st, FILE *f)
{
	if (!st->iv.done)
		print_interval(st, f, now_ns());
	st->iv.done = true;
}
