/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf.data as a record stream source (stream.h) and as an output format.
 *
 * Reader: file mode (mmap, zero copy) and pipe mode (a file or stdin, streamed), either byte
 * order, any attr size, ids and sample_id_all, the feature sections (tracing data handed to
 * libtraceevent), every sample_type field, COMPRESSED/COMPRESSED2 (zstd), delivered in time
 * order (FINISHED_ROUND semantics) with bounded memory. Bad input ends the run with an error
 * that names the file and the byte offset; records read before it are still delivered and
 * ops->end() is called.
 *
 * Writer: file-mode perf.data with the header, attrs, ids, data and the features perf 6.1
 * needs (HOSTNAME, OSRELEASE, VERSION, ARCH, NRCPUS, CPUDESC, CPUID, TOTAL_MEM, CMDLINE,
 * EVENT_DESC, CPU_TOPOLOGY and TRACING_DATA when tracepoints are recorded).
 */
#ifndef SCHEDLENS_PERFDATA_H
#define SCHEDLENS_PERFDATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "schedlens/stream.h"
#include "schedlens/util.h"

/* perf's HEADER_* feature bits */
enum perf_feat {
	PERF_FEAT_TRACING_DATA = 1, PERF_FEAT_BUILD_ID, PERF_FEAT_HOSTNAME, PERF_FEAT_OSRELEASE,
	PERF_FEAT_VERSION, PERF_FEAT_ARCH, PERF_FEAT_NRCPUS, PERF_FEAT_CPUDESC, PERF_FEAT_CPUID,
	PERF_FEAT_TOTAL_MEM, PERF_FEAT_CMDLINE, PERF_FEAT_EVENT_DESC, PERF_FEAT_CPU_TOPOLOGY,
	PERF_FEAT_NUMA_TOPOLOGY, PERF_FEAT_BRANCH_STACK, PERF_FEAT_PMU_MAPPINGS,
	PERF_FEAT_GROUP_DESC, PERF_FEAT_AUXTRACE, PERF_FEAT_STAT, PERF_FEAT_CACHE,
	PERF_FEAT_SAMPLE_TIME, PERF_FEAT_MEM_TOPOLOGY, PERF_FEAT_CLOCKID, PERF_FEAT_DIR_FORMAT,
	PERF_FEAT_BPF_PROG_INFO, PERF_FEAT_BPF_BTF, PERF_FEAT_COMPRESSED, PERF_FEAT_CPU_PMU_CAPS,
	PERF_FEAT_CLOCK_DATA, PERF_FEAT_HYBRID_TOPOLOGY, PERF_FEAT_PMU_CAPS,
	PERF_FEAT_MAX = 256,
};

/* "HOSTNAME", "TRACING_DATA", ... or NULL for bits perf has no name for */
const char *perf_feat__name(int feat);

/* perf's user record types (beyond the kernel's PERF_RECORD_*) */
enum {
	PERF_REC_HEADER_ATTR = 64, PERF_REC_HEADER_EVENT_TYPE, PERF_REC_HEADER_TRACING_DATA,
	PERF_REC_HEADER_BUILD_ID, PERF_REC_FINISHED_ROUND, PERF_REC_ID_INDEX,
	PERF_REC_AUXTRACE_INFO, PERF_REC_AUXTRACE, PERF_REC_AUXTRACE_ERROR, PERF_REC_THREAD_MAP,
	PERF_REC_CPU_MAP, PERF_REC_STAT_CONFIG, PERF_REC_STAT, PERF_REC_STAT_ROUND,
	PERF_REC_EVENT_UPDATE, PERF_REC_TIME_CONV, PERF_REC_HEADER_FEATURE, PERF_REC_COMPRESSED,
	PERF_REC_FINISHED_INIT, PERF_REC_COMPRESSED2,
};

/* "SAMPLE", "MMAP2", "FINISHED_ROUND", ... as perf report --stats names them, or NULL */
const char *perf_record__name(uint32_t type);

struct perf_build_id {
	int32_t pid;
	uint16_t misc;
	uint8_t id[20], size;
	char *filename;
};

struct perf_cpu_topo {
	int32_t core_id, die_id, socket_id;
};

struct perf_cache_level {		/* a CACHE feature entry */
	uint32_t level;
	char *type;				/* "Data", "Instruction", "Unified" */
	char *map;				/* the CPUs that share it: "0-3,8" */
};

struct perf_numa_node {
	uint32_t node;
	uint64_t mem_total, mem_free;
	char *cpus;
};

struct perf_group_desc {
	char *name;
	uint32_t leader_idx, nr_members;
};

struct perf_event_desc {		/* EVENT_DESC: the events as the recording perf named them */
	char *name;
	struct perf_event_attr attr;
	uint64_t *ids;
	size_t nr_ids;
};

/* The header and the feature sections, parsed. Strings are NULL when absent. */
struct perf_file_header {
	bool pipe_mode, big_endian;
	uint64_t data_offset, data_size, feat_offset, attr_size;
	uint64_t features[PERF_FEAT_MAX / 64];	/* bits of the sections present */
	char *hostname, *os_release, *perf_version, *arch, *cpu_desc, *cpuid, *cmdline;
	uint32_t nr_cpus_online, nr_cpus_avail;
	uint64_t total_mem;			/* kB */
	char **sibling_sockets, **sibling_dies, **sibling_threads;
	size_t nr_sibling_sockets, nr_sibling_dies, nr_sibling_threads;
	struct perf_cpu_topo *cpu_topo;		/* nr_cpu_topo entries, or NULL */
	size_t nr_cpu_topo;
	struct perf_numa_node *numa;
	size_t nr_numa;
	char *pmu_mappings;			/* "cpu = 4, software = 1, ..." */
	struct perf_group_desc *groups;
	size_t nr_groups;
	struct perf_build_id *build_ids;
	size_t nr_build_ids;
	uint32_t comp_ver, comp_type, comp_level, comp_ratio;
	uint64_t comp_mmap_len;
	uint64_t first_sample_time, last_sample_time;
	uint64_t clockid_res_ns;
	uint64_t tracing_data_size;		/* bytes of the tracing data, 0 when none */
	struct perf_event_desc *event_descs;
	size_t nr_event_descs;
	struct perf_cache_level *caches;
	size_t nr_caches;
	/* features kept as perf --header-only prints them, one "\n"-ended line each */
	char *cache_lines;			/* "L1 Data                 32K [0,8]" */
	char *mem_topology;			/* "memory nodes (nr 1, ...):" and nodes */
	char *pmu_caps;				/* "cpu pmu capabilities: ..." */
};

struct perf_file;

/*
 * Open @path ("-" reads stdin) and parse its header: the file header, attrs, ids and feature
 * sections in file mode, the pipe header in pipe mode (whose attrs and features arrive with
 * the records). Returns 0 and *out, or -errno with @err set ("'x.data': ...").
 */
int perf_file__open(struct perf_file **out, const char *path, struct errbuf *err);
void perf_file__delete(struct perf_file *f);

/* The header and features read so far (in pipe mode: complete after perf_file__run()). */
const struct perf_file_header *perf_file__header(const struct perf_file *f);
/*
 * The recording machine's CPU topology from the CPU_TOPOLOGY feature, with the LLCs of CACHE
 * and the nodes of NUMA_TOPOLOGY where the file has them. NULL with @err set when the file has
 * no CPU_TOPOLOGY or it names no CPU.
 */
struct topology *perf_file__topology(const struct perf_file *f, struct errbuf *err);
/* The events and header facts as ops->begin() gets them (pipe mode: after the attrs). */
const struct stream_info *perf_file__info(const struct perf_file *f);
/* The statistics of the last run. */
const struct stream_stats *perf_file__stats(const struct perf_file *f);

/* The event a sample id maps to, or NULL. */
const struct stream_evsel *perf_file__evsel_by_id(const struct perf_file *f, uint64_t id);

/*
 * Deliver every record to @ops in time order (see stream.h). Once per perf_file. Returns 0,
 * the non-zero value a callback returned, or -errno (-EINVAL: bad input) with @err naming
 * the file and byte offset; ops->end() is called in every case once begin() was.
 */
int perf_file__run(struct perf_file *f, const struct stream_ops *ops, struct errbuf *err);

/*
 * While perf_file__run() reads, call @fn(@ctx, bytes of data read, bytes of data in all (0 in
 * pipe mode: not known)) every few megabytes, for a command's progress line. NULL: none.
 */
void perf_file__set_progress(struct perf_file *f,
			     void (*fn)(void *ctx, uint64_t done, uint64_t total), void *ctx);

/* perf_file__open() + perf_file__run() + perf_file__delete(). */
int perf_file__process(const char *path, const struct stream_ops *ops, struct errbuf *err);

/* The raw tracing data section (to copy it into another file): 0, or -ENOENT without one. */
int perf_file__tracing_data(const struct perf_file *f, const void **data, size_t *size);

/* Bounds the reorder queue (records); past it the oldest half is delivered. 0: default. */
void perf_file__set_queue_limit(struct perf_file *f, size_t max_records);

/* perf's name for an attr without a stored name: "cycles", "L1-dcache-load-misses", "cpu-clock:u" */
void perf_attr__name(const struct perf_event_attr *attr, char *buf, size_t len);

/* perf's attr print as one line, fields joined by ", " and names by @eq (" = " or ": ") */
void perf_attr__snprintf(const struct perf_event_attr *attr, char *buf, size_t len,
			 const char *eq);

/*
 * Writer. Events: the attr (sample_id_all and, with more than one event, PERF_SAMPLE_ID or
 * IDENTIFIER are the caller's to set), a name and the ids the kernel gave (PERF_EVENT_IOC_ID).
 */
struct perf_writer_evsel {
	struct perf_event_attr attr;
	const char *name;
	const uint64_t *ids;
	size_t nr_ids;
	uint32_t nr_members;	/* > 1: leads a group of itself and the next events (GROUP_DESC) */
};

struct perf_writer;

/*
 * Create @path (truncating it) for @nr events, copied. The header is written at close.
 * Returns 0 and *out, or -errno with @err set.
 */
int perf_writer__new(struct perf_writer **out, const char *path,
		     const struct perf_writer_evsel *evsels, size_t nr, struct errbuf *err);
/* Command line for the CMDLINE feature (default: none recorded); copied. */
int perf_writer__set_cmdline(struct perf_writer *w, int argc, const char *const *argv);
/*
 * Tracing data for TRACING_DATA (default: generated from tracefs at close when an event is a
 * tracepoint); copied. Pass what perf_file's stream_info gave, or a tracing data blob.
 */
int perf_writer__set_tracing_data(struct perf_writer *w, const void *data, size_t size);
/*
 * Append one record (header.size bytes, host byte order). 0 or -errno. An MMAP2 with a
 * build-id puts its file in the BUILD_ID feature too.
 */
int perf_writer__write(struct perf_writer *w, const struct perf_event_header *rec);
/*
 * A FINISHED_ROUND after the records written since the last one (none: nothing is written),
 * as perf record writes one after each pass over its ring buffers: every record before it is
 * not newer than any after it, so a reader (perf's or ours) delivers a round at a time and
 * holds no more than one in memory. 0 or -errno.
 */
int perf_writer__round(struct perf_writer *w);
/*
 * A file's build-id for the BUILD_ID feature (the kernel's: "[kernel.kallsyms]", misc
 * PERF_RECORD_MISC_KERNEL, pid -1); once per name and id. 0 or -errno.
 */
int perf_writer__add_build_id(struct perf_writer *w, const char *name, const uint8_t *id,
			      size_t size, uint16_t misc, int32_t pid);
/* Samples written so far. */
uint64_t perf_writer__nr_samples(const struct perf_writer *w);
/* Write the features and the header, close and free @w (also on error). 0 or -errno. */
int perf_writer__close(struct perf_writer *w, struct errbuf *err);
/* Discard: close and unlink the file, free @w. */
void perf_writer__abort(struct perf_writer *w);
/*
 * COMM records for every task and MMAP2 records for the executable mappings of process
 * @pid, or of every process when @pid <= 0, read from /proc as perf record synthesizes them
 * for tasks that run before recording starts; each record ends with the @nt u64s of
 * @trailer (the sample_id_all trailer, at most 8). Tasks that exit meanwhile are skipped.
 * 0 or -errno; counts in *nr_comm and *nr_mmap when not NULL.
 */
int perf_writer__synthesize_tasks(struct perf_writer *w, int pid, const uint64_t *trailer,
				  size_t nt, size_t *nr_comm, size_t *nr_mmap);

/*
 * The tracing data perf records for @tps (NULL-terminated "sys:name" list) from tracefs,
 * as trace-event-info.c writes it. *out is malloc'ed. 0 or -errno with @err.
 */
int perf_tracing_data__generate(const char *const *tps, void **out, size_t *size,
				struct errbuf *err);

#endif
