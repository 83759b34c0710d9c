/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Symbols sessions for the unit tests, over a machine model (threads.h) the test feeds as
 * report does: symbols_config.machine, one machine at a time.
 */
#ifndef SCHEDLENS_TEST_MACHINE_H
#define SCHEDLENS_TEST_MACHINE_H

#include <check.h>

#include "schedlens/symbols.h"
#include "schedlens/threads.h"

/* the machine the current session observes */
static struct threads *machine;

static inline struct symbols_config *machine_cfg(struct symbols_config *cfg)
{
	threads__delete(machine);
	machine = threads__new();
	ck_assert_ptr_nonnull(machine);
	cfg->machine = machine;
	return cfg;
}

static inline struct symbols *session_cfg(struct symbols_config *cfg, struct errbuf *e)
{
	return symbols__new(machine_cfg(cfg), e);
}

static inline void del_session(struct symbols *s)
{
	symbols__delete(s);
	threads__delete(machine);
	machine = NULL;
}

#endif
