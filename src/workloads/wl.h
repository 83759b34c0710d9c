/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the built-in workloads (private to src/workloads): option parsing with
 * usage messages, metrics objects, groups of tasks (threads or processes) that start together,
 * and CPU pinning by cache topology.
 */
#ifndef SCHEDLENS_WL_H
#define SCHEDLENS_WL_H

#include <getopt.h>
#include <sched.h>
#include <jansson.h>
#include <stdbool.h>
#include <sys/types.h>

#include "schedlens/results.h"
#include "schedlens/workload.h"
#include "schedlens/util.h"

extern const struct workload workload_pipe, workload_messaging, workload_wakeup,
	workload_pound_times, workload_pound_clock_gettime, workload_tcp;

/* Reset getopt for a fresh parse of @argv (no messages from getopt itself). */
void wl__getopt_reset(void);
/* Usage error for the option getopt_long just rejected (returned '?' or ':'). -EINVAL. */
int wl__bad_option(struct errbuf *err, const char *wl, char **argv, int c);
/* Parse @arg of option @opt as an integer in [min, max]; -EINVAL with a message otherwise. */
int wl__parse_long(struct errbuf *err, const char *wl, const char *opt, const char *arg, long min,
		   long max, long *out);
/* Parse a duration ("2", "500ms") of option @opt, > 0 (>= 0 if @zero_ok), <= @max_s s, in ns. */
int wl__parse_duration(struct errbuf *err, const char *wl, const char *opt, const char *arg,
		       bool zero_ok, double max_s, uint64_t *out);
/* Reject positional arguments left after getopt. */
int wl__no_args(struct errbuf *err, const char *wl, int argc, char **argv);

/* Sleep @ns on the monotonic clock, through signals: 0, or -EINTR as soon as a stop comes. */
int wl__sleep_ns(uint64_t ns);
/* "N of M" when @metrics has @name (a run cut short), else "M", for format(). */
void wl__count(const json_t *metrics, const char *name, long total, char *buf, size_t len);
/* The same for seconds: "2.500 of 10.0" or "10.0" (@total_ns). */
void wl__seconds(const json_t *metrics, const char *name, uint64_t total_ns, char *buf,
		 size_t len);

/* Zeroed memory that forked tasks share with their parent (NULL on ENOMEM); and its release. */
void *wl__shared_calloc(size_t n, size_t size);
void wl__shared_free(void *p, size_t n, size_t size);

/* metrics[name] = { value, unit, better }; 0 or -ENOMEM. */
int wl__metric(json_t *metrics, const char *name, double value, const char *unit,
	       enum better better);
/* The value of metrics[name], or 0 when absent. */
double wl__value(const json_t *metrics, const char *name);

/*
 * A group of tasks that run a function each, as threads or as forked processes. Every task
 * sets itself up and then calls wl_tasks__ready(); the caller waits for all of them with
 * wl_tasks__wait_ready(), starts the clock and releases them at once with wl_tasks__go().
 */
struct wl_tasks;
typedef int (*wl_task_fn)(struct wl_tasks *t, void *arg);

struct wl_tasks *wl_tasks__new(bool threads, size_t max, struct errbuf *err);
/* Start @fn(@t, @arg) in a new task; 0 or -errno. A process task exits 0 when fn returns 0. */
int wl_tasks__spawn(struct wl_tasks *t, wl_task_fn fn, void *arg, struct errbuf *err);
/* In a task: say ready (@status 0) or failed, then wait for go. 0, or -ECANCELED on abort. */
int wl_tasks__ready(struct wl_tasks *t, int status);
/*
 * In a task: is the run stopping (workload__stop())? A task polls it in its loop, and where
 * a blocking call fails with EINTR, and then ends soon: its parent passes SIGINT on to every
 * task (while a handler catches SIGINT) until all have ended, so that blocked ones wake.
 */
bool wl_tasks__stopped(const struct wl_tasks *t);
/*
 * Wait until every spawned task is ready (again: returns at once); -EIO if one failed or died,
 * -EINTR on a stop. Call it (or wl_tasks__sleep, wl_tasks__join) after the last spawn.
 */
int wl_tasks__wait_ready(struct wl_tasks *t, struct errbuf *err);
/* Release the tasks; with @abort they return from wl_tasks__ready() with -ECANCELED. */
void wl_tasks__go(struct wl_tasks *t, bool abort);
/* Sleep @ns while released tasks run: 0, -EINTR on a stop, -ECHILD when a task ended first. */
int wl_tasks__sleep(struct wl_tasks *t, uint64_t ns);
/*
 * Wait for every task to end; -EIO if one failed (not counted when stopping). Releases them
 * first if not yet done.
 */
int wl_tasks__join(struct wl_tasks *t, struct errbuf *err);
void wl_tasks__delete(struct wl_tasks *t);
/*
 * The usual measured run: wait until all are ready, begin the phase, start the clock, release
 * them, join them all, stop the clock, end the phase. *@ns gets the time between go and the
 * last join. 0 or -errno with detail in @err (tasks are joined either way); -EINTR on a stop,
 * *@ns then being the time they ran (0 when stopped before the release).
 */
struct phase;
int wl_tasks__measure(struct wl_tasks *t, struct phase *ph, uint64_t *ns, struct errbuf *err);

/* phase__begin/end with a message in @err on failure. */
int wl__phase_begin(struct phase *ph, struct errbuf *err);
int wl__phase_end(struct phase *ph, struct errbuf *err);

/* Pinning of two communicating tasks. */
enum wl_pin { WL_PIN_NONE, WL_PIN_SAME, WL_PIN_LLC, WL_PIN_CROSS_LLC };
int wl_pin__parse(struct errbuf *err, const char *wl, const char *arg, enum wl_pin *out);
const char *wl_pin__name(enum wl_pin p);
/*
 * Choose CPUs for two tasks under @mode among @allowed CPUs of @topo; -1 for none. 0, or
 * -ENODEV with the reason in @err (a single LLC, no two CPUs sharing one).
 */
struct topology;
int wl_pin__choose(enum wl_pin mode, const struct topology *topo, const cpu_set_t *allowed,
		   int cpus[2], struct errbuf *err);
/* The same for this process's affinity and this machine's topology. */
int wl_pin__choose_here(enum wl_pin mode, int cpus[2], struct errbuf *err);
/* Pin the calling thread to @cpu (no-op for -1); 0 or -errno. */
int wl_pin__self(int cpu);

#endif
