// SPDX-License-Identifier: GPL-2.0
/*
 * script's -F fields, as perf script 6.1 parses and checks them (builtin-script.c:
 * parse_output_fields, evsel__check_attr, perf_session__check_output_opt), quirks kept: a
 * typed -F (hw:...) does not mark its fields as asked for, so a field its events lack is
 * dropped there, not refused; only the first event of each type is checked.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "script-int.h"

#define BASE (SF_COMM | SF_TID | SF_CPU | SF_TIME | SF_EVNAME)
#define CODE (SF_IP | SF_SYM | SF_SYMOFF | SF_DSO)

static const struct {
	const char *name;
	uint32_t field;
} names[] = {
	{ "comm", SF_COMM }, { "tid", SF_TID }, { "pid", SF_PID }, { "time", SF_TIME },
	{ "cpu", SF_CPU }, { "event", SF_EVNAME }, { "trace", SF_TRACE }, { "ip", SF_IP },
	{ "sym", SF_SYM }, { "dso", SF_DSO }, { "addr", SF_ADDR }, { "symoff", SF_SYMOFF },
	{ "period", SF_PERIOD }, { "data_src", SF_DATA_SRC }, { "weight", SF_WEIGHT },
	{ "bpf-output", SF_BPF_OUTPUT }, { "callindent", SF_CALLINDENT },
};

/* perf's other fields: known, not printed here */
static const char *const perf_only[] = {
	"srcline", "iregs", "uregs", "brstack", "brstacksym", "insn", "insnlen", "brstackinsn",
	"brstackoff", "synth", "phys_addr", "metric", "misc", "srccode", "ipc", "tod",
	"data_page_size", "code_page_size", "ins_lat", "brstackinsnlen", "machine_pid", "vcpu",
	"flags",
};

static const char *const type_names[SCRIPT_OT_MAX] = {
	"hardware", "software", "tracepoint", "hw-cache", "raw", "breakpoint", "synth", "other",
};

void script_fields__init(struct script_fields *f)
{
	int t;

	memset(f, 0, sizeof(*f));
	for (t = 0; t < SCRIPT_OT_MAX; t++) {
		f->out[t].fields = BASE | CODE | SF_PERIOD;
		f->out[t].invalid = SF_TRACE | SF_BPF_OUTPUT;
	}
	f->out[PERF_TYPE_SOFTWARE].fields |= SF_BPF_OUTPUT;
	f->out[PERF_TYPE_SOFTWARE].invalid = SF_TRACE;
	f->out[PERF_TYPE_TRACEPOINT].fields = BASE | SF_TRACE;
	f->out[PERF_TYPE_TRACEPOINT].invalid = 0;
	f->out[PERF_TYPE_RAW].fields |= SF_ADDR | SF_DATA_SRC | SF_WEIGHT;
	f->out[SCRIPT_OT_SYNTH].fields &= ~SF_PERIOD;
	f->use_callchain = true;
}

int script_output_type(uint32_t type)
{
	return type < PERF_TYPE_MAX ? (int)type : SCRIPT_OT_OTHER;
}

static int lookup(const char *tok, uint32_t *field, struct errbuf *err)
{
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(tok, names[i].name)) {
			*field = names[i].field;
			return 0;
		}
	for (i = 0; i < sizeof(perf_only) / sizeof(perf_only[0]); i++)
		if (!strcmp(tok, perf_only[i]))
			return err__set(err, -EINVAL, "field '%s' is perf's, schedlens script does "
					"not print it", tok);
	return err__set(err, -EINVAL, "unknown field '%s' (comm, tid, pid, time, cpu, event, "
			"trace, ip, sym, symoff, dso, addr, period, data_src, weight, callindent)",
			tok);
}

static int parse_type(const char *s, size_t n, struct errbuf *err)
{
	static const char *const prefixes[SCRIPT_OT_MAX] = {
		[PERF_TYPE_HARDWARE] = "hw", [PERF_TYPE_SOFTWARE] = "sw",
		[PERF_TYPE_TRACEPOINT] = "trace", [PERF_TYPE_RAW] = "raw",
		[PERF_TYPE_BREAKPOINT] = "break", [SCRIPT_OT_SYNTH] = "synth",
	};
	int t;

	for (t = 0; t < SCRIPT_OT_MAX; t++)
		if (prefixes[t] && strlen(prefixes[t]) == n && !strncmp(s, prefixes[t], n))
			return t;
	return err__set(err, -EINVAL, "unknown event type '%.*s' in -F (hw, sw, trace, raw, "
			"break, synth)", (int)n, s);
}

/* one field of a -F list, +field or -field or field, into every type or one */
static void apply(struct script_fields *f, int type, uint32_t field, bool remove,
		  const char *name)
{
	int t;

	if (type >= 0) {
		if (remove)
			f->out[type].fields &= ~field;
		else
			f->out[type].fields |= field;
		f->out[type].user_set = f->out[type].wildcard_set = true;
		return;
	}
	for (t = 0; t < SCRIPT_OT_MAX; t++) {
		struct script_output *o = &f->out[t];

		if (o->invalid & field) {
			fprintf(stderr, "schedlens script: warning: '%s' not valid for %s events, "
				"ignored there\n", name, type_names[t]);
			continue;
		}
		if (remove) {
			o->fields &= ~field;
			o->user_set_fields &= ~field;
			o->user_unset_fields |= field;
		} else {
			o->fields |= field;
			o->user_set_fields |= field;
			o->user_unset_fields &= ~field;
		}
		o->user_set = o->wildcard_set = true;
	}
}

static int parse_list(struct script_fields *f, int type, char *list, struct errbuf *err)
{
	enum { DEFAULT, SET, ADD, REMOVE } change = DEFAULT;
	char *tok, *save = NULL;
	uint32_t field = 0;

	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (*tok == '+' || *tok == '-') {
			if (change == SET)
				goto out_mix;
			change = *tok++ == '+' ? ADD : REMOVE;
		} else if (change != SET && change != DEFAULT) {
			goto out_mix;
		} else {
			change = SET;
		}
		if (lookup(tok, &field, err))
			return -EINVAL;
		if (type >= 0 && (f->out[type].invalid & field))
			return err__set(err, -EINVAL, "field '%s' is not valid for %s events", tok,
					type_names[type]);
		apply(f, type, field, change == REMOVE, tok);
	}
	return 0;
out_mix:
	return err__set(err, -EINVAL, "-F cannot mix +field or -field with a list of fields");
}

int script_fields__parse(struct script_fields *f, const char *arg, struct errbuf *err)
{
	const char *colon = strchr(arg, ':');
	const char *list = colon ? colon + 1 : arg;
	bool plusminus = strchr(list, '+') || strchr(list, '-');
	int type = -1, t, ret;
	char *copy;

	if (colon) {
		type = parse_type(arg, colon - arg, err);
		if (type < 0)
			return type;
		if (!plusminus) {
			f->out[type].fields = 0;
			f->out[type].user_set = true;
			f->out[type].wildcard_set = false;
		}
	} else if (!*arg) {
		return err__set(err, -EINVAL, "-F '' would print nothing for every event type");
	} else if (!plusminus) {
		for (t = 0; t < SCRIPT_OT_MAX; t++) {
			f->out[t].fields = 0;
			f->out[t].user_set = f->out[t].wildcard_set = true;
		}
	}
	copy = strdup(list);
	if (!copy)
		return -ENOMEM;
	ret = parse_list(f, type, copy, err);
	free(copy);
	return ret;
}

/* evsel__do_check_stype(): the samples lack @st; drop @field or refuse it */
static int need(struct script_fields *f, const struct stream_evsel *e, uint64_t st,
		const char *what, uint32_t field, const char *fname, struct errbuf *err)
{
	struct script_output *o = &f->out[script_output_type(e->attr.type)];

	if (e->attr.sample_type & st)
		return 0;
	if (o->user_set_fields & field)
		return err__set(err, -EINVAL, "samples of '%s' have no %s: cannot print '%s'",
				e->name, what, fname);
	o->fields &= ~field;
	return 0;
}

static bool is_dummy(const struct stream_evsel *e)
{
	return e->attr.type == PERF_TYPE_SOFTWARE && e->attr.config == PERF_COUNT_SW_DUMMY;
}

/* evsel__check_attr() */
static int check_attr(struct script_fields *f, const struct stream_info *info,
		      const struct stream_evsel *e, struct errbuf *err)
{
	const uint32_t *fields = &f->out[script_output_type(e->attr.type)].fields;
	uint64_t st = e->attr.sample_type;
	size_t i;

	if (*fields & SF_TRACE) {
		for (i = 0; i < info->nr_evsels; i++)
			if (info->evsels[i].attr.type == PERF_TYPE_TRACEPOINT)
				break;
		if (i == info->nr_evsels)
			return err__set(err, -EINVAL, "no tracepoint samples: cannot print 'trace'");
	}
	if (((*fields & SF_IP) && need(f, e, PERF_SAMPLE_IP, "IP", SF_IP, "ip", err)) ||
	    ((*fields & SF_ADDR) && need(f, e, PERF_SAMPLE_ADDR, "ADDR", SF_ADDR, "addr", err)) ||
	    ((*fields & SF_DATA_SRC) &&
	     need(f, e, PERF_SAMPLE_DATA_SRC, "DATA_SRC", SF_DATA_SRC, "data_src", err)) ||
	    ((*fields & SF_WEIGHT) &&
	     need(f, e, PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT, "WEIGHT", SF_WEIGHT,
		  "weight", err)))
		return -EINVAL;
	if ((*fields & (SF_SYM | SF_DSO)) && !(st & (PERF_SAMPLE_IP | PERF_SAMPLE_ADDR)))
		return err__set(err, -EINVAL, "samples of '%s' have neither IP nor ADDR: cannot "
				"print '%s'", e->name, *fields & SF_SYM ? "sym" : "dso");
	if ((*fields & SF_SYMOFF) && !(*fields & SF_SYM))
		return err__set(err, -EINVAL, "'symoff' needs 'sym'");
	if (((*fields & (SF_PID | SF_TID)) &&
	     need(f, e, PERF_SAMPLE_TID, "TID", SF_TID | SF_PID, "tid", err)) ||
	    ((*fields & SF_TIME) && need(f, e, PERF_SAMPLE_TIME, "TIME", SF_TIME, "time", err)) ||
	    ((*fields & SF_CPU) && need(f, e, PERF_SAMPLE_CPU, "CPU", SF_CPU, "cpu", err)))
		return -EINVAL;
	return 0;
}

static const struct stream_evsel *first_of_type(const struct stream_info *info, int t)
{
	size_t i;

	for (i = 0; i < info->nr_evsels; i++)
		if (!is_dummy(&info->evsels[i]) &&
		    script_output_type(info->evsels[i].attr.type) == t)
			return &info->evsels[i];
	return NULL;
}

/*
 * A pipe's events come as ATTR records, after perf's check of the header's (none): each
 * type's first is checked as it comes (process_attr()), and when the events so far have
 * callchains, ip and sym are added to its type
 */
static int check_pipe(struct script_fields *f, const struct stream_info *info,
		      struct errbuf *err)
{
	const uint64_t chain = PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_BRANCH_STACK;
	uint64_t combined = 0;
	size_t i;

	for (i = 0; i < info->nr_evsels; i++) {
		const struct stream_evsel *e = &info->evsels[i];
		struct script_output *o = &f->out[script_output_type(e->attr.type)];

		combined |= e->attr.sample_type;
		if (first_of_type(info, script_output_type(e->attr.type)) != e)
			continue;
		if (e->attr.sample_type && check_attr(f, info, e, err))
			return -EINVAL;
		if ((combined & chain) || ((combined & PERF_SAMPLE_REGS_USER) &&
					   (combined & PERF_SAMPLE_STACK_USER)))
			o->fields |= (SF_IP | SF_SYM) & ~o->user_unset_fields;
	}
	return 0;
}

int script_fields__check(struct script_fields *f, const struct stream_info *info,
			 struct errbuf *err)
{
	bool callchain = false;
	size_t i;
	int t;

	for (t = 0; t < SCRIPT_OT_MAX; t++) {
		const struct stream_evsel *e = first_of_type(info, t);

		if (!e && f->out[t].user_set && !f->out[t].wildcard_set && t != SCRIPT_OT_SYNTH)
			return err__set(err, -EINVAL, "no %s events: remove the -F for them",
					type_names[t]);
		if (!info->pipe_mode && e && f->out[t].fields && check_attr(f, info, e, err))
			return -EINVAL;
	}
	if (info->pipe_mode)
		return check_pipe(f, info, err);
	for (i = 0; i < info->nr_evsels; i++)
		callchain |= !!(info->evsels[i].attr.sample_type & PERF_SAMPLE_CALLCHAIN);
	if (!callchain)
		f->use_callchain = false;
	if (!f->use_callchain || f->out[PERF_TYPE_TRACEPOINT].user_set)
		return 0;
	for (i = 0; i < info->nr_evsels; i++)
		if (info->evsels[i].attr.type == PERF_TYPE_TRACEPOINT &&
		    (info->evsels[i].attr.sample_type & PERF_SAMPLE_CALLCHAIN)) {
			f->out[PERF_TYPE_TRACEPOINT].fields |= CODE;
			break;
		}
	return 0;
}
