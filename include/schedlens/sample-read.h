/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Samples that read counters (PERF_SAMPLE_READ: perf record -e '{a,b}:S', leader sampling) as
 * perf's session delivers them to every tool (deliver_sample_group, deliver_sample_value): one
 * sample per value read, of the event the value's id belongs to, whose period is how much that
 * value grew since the id's previous sample (the first: since 0); a value that did not grow
 * gives no sample, and one of an id no event has is counted as unknown.
 *
 * The read_format layout (include/uapi/linux/perf_event.h), u64s:
 *   GROUP: nr, [time_enabled], [time_running], { value, [id], [lost] } x nr
 *   else:  value, [time_enabled], [time_running], [id], [lost]
 * The periods depend on the order of the samples: deliver them in time order.
 */
#ifndef SCHEDLENS_SAMPLE_READ_H
#define SCHEDLENS_SAMPLE_READ_H

#include <stdbool.h>
#include <stdint.h>

#include "schedlens/stream.h"

struct sample_read;

/* For the events of @info, or NULL when none reads counters (nothing to do) or on ENOMEM
 * (*@err = -ENOMEM; else 0). */
struct sample_read *sample_read__new(const struct stream_info *info, int *err);
void sample_read__delete(struct sample_read *sr);
/* Does @e's attr have its samples read counters? */
bool sample_read__reads(const struct stream_evsel *e);
/*
 * @fn(@ctx, sample) for each sample @s stands for: @s itself when its event does not read
 * counters, else one per value as above (a copy of @s with the event, id and period replaced).
 * Stops at and returns @fn's first non-zero return.
 */
int sample_read__deliver(struct sample_read *sr, const struct stream_sample *s,
			 int (*fn)(void *ctx, const struct stream_sample *s), void *ctx);
/* Values whose id no event has, so far. */
uint64_t sample_read__nr_unknown(const struct sample_read *sr);

#endif
