/* SPDX-License-Identifier: GPL-2.0 */
/* Inside the sampler (sampler*.c), not for other modules. */
#ifndef SCHEDLENS_SAMPLER_INT_H
#define SCHEDLENS_SAMPLER_INT_H

#include "schedlens/sampler.h"

/* A tep_handle with the header page and the format of each tracepoint in @evsels, whose tp
 * fields are set. NULL with @err set. */
struct tep_handle *sampler_tep__load(const char *tracefs, struct stream_evsel *evsels, size_t nr,
				     struct errbuf *err);

#endif
