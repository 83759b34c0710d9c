/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Results documents: one JSON document per run, with every iteration's raw values and the
 * machine. Tables, plots and verdicts are computed from them, never stored in them.
 *
 * Schema "schedlens-results", version RESULTS_SCHEMA_VERSION:
 * {
 *   "schema": "schedlens-results", "schema_version": 1,
 *   "tool": { "name": "schedlens", "version": "0.1.0" },
 *   "kind": "stat" | "bench" | "run" | ...,     what produced it
 *   "created": "2026-11-29T22:20:00Z",
 *   "machine": { ... machine__describe() ... },
 *   "entries": [ {
 *       "id": "pipe loops=20000",               unique; compare aligns entries by it
 *       "workload": "pipe",                     a built-in workload or "command"
 *       "params": { ... },                      the workload's parameters
 *       "metrics": { "<name>": { "unit": "us", "better": "lower"|"higher"|"none" } },
 *       "iterations": [ { "values": { "<name>": number, ... }, ... }, ... ]
 *   } ]
 * }
 * An iteration may hold more keys beside "values" (e.g. "counters" with raw counts, enabled
 * and running times, "exit_status", "vmstat"); readers ignore keys they do not know.
 * Optional keys `run` writes and `compare`/`gate` read: an entry's "group" (the table it
 * belongs to; default its workload), a metric's "gate": true (judged by `gate` by default),
 * an iteration's "loadavg" (the 1-minute load average when it started), and the document's
 * "run": { "suite", "description", "iterations", "resumed", "unsupported_events" }.
 */
#ifndef SCHEDLENS_RESULTS_H
#define SCHEDLENS_RESULTS_H

#include <stdio.h>

#include <jansson.h>
#include <stddef.h>

#include "schedlens/util.h"

#define RESULTS_SCHEMA "schedlens-results"
#define RESULTS_SCHEMA_VERSION 1

enum better { BETTER_NONE, BETTER_LOWER, BETTER_HIGHER };

/* A new document of @kind with schema, tool, created and machine filled in. */
json_t *results__new(const char *kind);
/* The entry with @id, created (with @workload and a copy of @params) if absent. Borrowed. */
json_t *results__entry(json_t *doc, const char *id, const char *workload, const json_t *params);
/* Declare @metric of @entry; a later call overrides. 0 or -ENOMEM. */
int results__declare(json_t *entry, const char *metric, const char *unit, enum better better);
/* Append an empty iteration {"values": {}} to @entry. Borrowed, NULL on ENOMEM. */
json_t *results__add_iteration(json_t *entry);
/* Set iteration value @metric to @v (finite). 0, -EINVAL or -ENOMEM. */
int results__set(json_t *iteration, const char *metric, double v);
/*
 * Every iteration's value of @metric, in order, at most @max; returns how many (iterations
 * lacking it skip). With @out NULL, only counts them.
 */
size_t results__values(const json_t *entry, const char *metric, double *out, size_t max);
enum better results__better(const json_t *entry, const char *metric);
const char *results__unit(const json_t *entry, const char *metric);
const char *better__name(enum better b);

/*
 * Write @doc to @path atomically (a temporary file in the same folder, fsync, rename), or to
 * @dash when @path is "-" (the command's stdout: the library does not reach for it). 0 or
 * -errno with detail in @err.
 */
int results__write(const json_t *doc, const char *path, FILE *dash, struct errbuf *err);
/*
 * Read and check a document: valid JSON (else "line L column C: ..."), the schema name and a
 * version this build reads, entries shaped as above. New reference, or NULL with @err set.
 */
json_t *results__read(const char *path, struct errbuf *err);

/* JSON output everywhere: locale-independent reals with enough digits to round-trip. */
#define RESULTS_JSON_FLAGS (JSON_INDENT(2) | JSON_REAL_PRECISION(17) | JSON_ENSURE_ASCII)

#endif
