// SPDX-License-Identifier: GPL-2.0
/*
 * script's compiled print formats (src/cmd/script-tpfmt.c): a format compiles where it
 * prints only what the compiled printer prints as libtraceevent does, and not otherwise;
 * its text of random payloads (fields of every size and sign, flag subsets, char arrays
 * with and without a NUL, data_loc and rel_loc strings) equals libtraceevent's for the
 * same payload, through tp_fmt__print() and through the memo that calls it; a payload that
 * libtraceevent would read past (a string outside the record, a record too short) and a
 * buffer too small are -1, for libtraceevent to print.
 */
#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <trace-seq.h>

#include "../../src/cmd/script-int.h"

#define COMMON "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	       "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	       "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	       "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

static const struct {
	bool compiled;
	const char *text;
} formats[] = {
/* sched/sched_switch of Linux 6.18 */
	{ true,
		"name: sched_switch\nID: 372\nformat:\n" COMMON
		"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
		"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
		"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
		"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
		"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
		"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
		"\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n"
		"\n"
		"print fmt: \"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> next_comm=%s"
		" next_pid=%d next_prio=%d\", REC->prev_comm, REC->prev_pid, REC->prev_prio,"
		" (REC->prev_state & ((((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 |"
		" 0x00000008 | 0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) - 1)) ?"
		" __print_flags(REC->prev_state & ((((0x00000000 | 0x00000001 | 0x00000002 |"
		" 0x00000004 | 0x00000008 | 0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) - 1),"
		" \"|\", { 0x00000001, \"S\" }, { 0x00000002, \"D\" }, { 0x00000004, \"T\" }, {"
		" 0x00000008, \"t\" }, { 0x00000010, \"X\" }, { 0x00000020, \"Z\" }, { 0x00000040,"
		" \"P\" }, { 0x00000080, \"I\" }) : \"R\", REC->prev_state & (((0x00000000 |"
		" 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | 0x00000020 |"
		" 0x00000040) + 1) << 1) ? \"+\" : \"\", REC->next_comm, REC->next_pid,"
		" REC->next_prio\n" },
	/* sched/sched_waking of Linux 6.18 */
	{ true,
		"name: sched_waking\nID: 375\nformat:\n" COMMON
		"\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
		"\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
		"\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n"
		"\tfield:int target_cpu;\toffset:32;\tsize:4;\tsigned:1;\n"
		"\n"
		"print fmt: \"comm=%s pid=%d prio=%d target_cpu=%03d\", REC->comm, REC->pid,"
		" REC->prio, REC->target_cpu\n" },
	/* sched/sched_migrate_task of Linux 6.18 */
	{ true,
		"name: sched_migrate_task\nID: 371\nformat:\n" COMMON
		"\tfield:__data_loc char[] comm;\toffset:8;\tsize:4;\tsigned:0;\n"
		"\tfield:pid_t pid;\toffset:12;\tsize:4;\tsigned:1;\n"
		"\tfield:int prio;\toffset:16;\tsize:4;\tsigned:1;\n"
		"\tfield:int orig_cpu;\toffset:20;\tsize:4;\tsigned:1;\n"
		"\tfield:int dest_cpu;\toffset:24;\tsize:4;\tsigned:1;\n"
		"\n"
		"print fmt: \"comm=%s pid=%d prio=%d orig_cpu=%d dest_cpu=%d\", __get_str(comm),"
		" REC->pid, REC->prio, REC->orig_cpu, REC->dest_cpu\n" },
	/* sched/sched_stat_runtime of Linux 6.18 */
	{ true,
		"name: sched_stat_runtime\nID: 363\nformat:\n" COMMON
		"\tfield:__data_loc char[] comm;\toffset:8;\tsize:4;\tsigned:0;\n"
		"\tfield:pid_t pid;\toffset:12;\tsize:4;\tsigned:1;\n"
		"\tfield:u64 runtime;\toffset:16;\tsize:8;\tsigned:0;\n"
		"\n"
		"print fmt: \"comm=%s pid=%d runtime=%Lu [ns]\", __get_str(comm), REC->pid,"
		" (unsigned long long)REC->runtime\n" },
	/* sched/sched_process_exec of Linux 6.18 */
	{ true,
		"name: sched_process_exec\nID: 365\nformat:\n" COMMON
		"\tfield:__data_loc char[] filename;\toffset:8;\tsize:4;\tsigned:0;\n"
		"\tfield:pid_t pid;\toffset:12;\tsize:4;\tsigned:1;\n"
		"\tfield:pid_t old_pid;\toffset:16;\tsize:4;\tsigned:1;\n"
		"\n"
		"print fmt: \"filename=%s pid=%d old_pid=%d\", __get_str(filename), REC->pid,"
		" REC->old_pid\n" },
	/* irq/softirq_entry of Linux 6.18 */
	{ true,
		"name: softirq_entry\nID: 223\nformat:\n" COMMON
		"\tfield:unsigned int vec;\toffset:8;\tsize:4;\tsigned:0;\n"
		"\n"
		"print fmt: \"vec=%u [action=%s]\", REC->vec, __print_symbolic(REC->vec, { 0, \"HI\""
		" }, { 1, \"TIMER\" }, { 2, \"NET_TX\" }, { 3, \"NET_RX\" }, { 4, \"BLOCK\" }, { 5,"
		" \"IRQ_POLL\" }, { 6, \"TASKLET\" }, { 7, \"SCHED\" }, { 8, \"HRTIMER\" }, { 9,"
		" \"RCU\" })\n" },
	/* irq/irq_handler_exit of Linux 6.18 */
	{ true,
		"name: irq_handler_exit\nID: 224\nformat:\n" COMMON
		"\tfield:int irq;\toffset:8;\tsize:4;\tsigned:1;\n"
		"\tfield:int ret;\toffset:12;\tsize:4;\tsigned:1;\n"
		"\n"
		"print fmt: \"irq=%d ret=%s\", REC->irq, REC->ret ? \"handled\" : \"unhandled\"\n" },
	/* signal/signal_generate of Linux 6.18 */
	{ true,
		"name: signal_generate\nID: 261\nformat:\n" COMMON
		"\tfield:int sig;\toffset:8;\tsize:4;\tsigned:1;\n"
		"\tfield:int errno;\toffset:12;\tsize:4;\tsigned:1;\n"
		"\tfield:int code;\toffset:16;\tsize:4;\tsigned:1;\n"
		"\tfield:char comm[16];\toffset:20;\tsize:16;\tsigned:0;\n"
		"\tfield:pid_t pid;\toffset:36;\tsize:4;\tsigned:1;\n"
		"\tfield:int group;\toffset:40;\tsize:4;\tsigned:1;\n"
		"\tfield:int result;\toffset:44;\tsize:4;\tsigned:1;\n"
		"\n"
		"print fmt: \"sig=%d errno=%d code=%d comm=%s pid=%d grp=%d res=%d\", REC->sig,"
		" REC->errno, REC->code, REC->comm, REC->pid, REC->group, REC->result\n" },
	/* ipi/ipi_send_cpu of Linux 6.18 */
	{ false,
		"name: ipi_send_cpu\nID: 354\nformat:\n" COMMON
		"\tfield:unsigned int cpu;\toffset:8;\tsize:4;\tsigned:0;\n"
		"\tfield:void * callsite;\toffset:16;\tsize:8;\tsigned:0;\n"
		"\tfield:void * callback;\toffset:24;\tsize:8;\tsigned:0;\n"
		"\n"
		"print fmt: \"cpu=%u callsite=%pS callback=%pS\", REC->cpu, REC->callsite,"
		" REC->callback\n" },
	/* timer/hrtimer_start of Linux 6.18 */
	{ false,
		"name: hrtimer_start\nID: 460\nformat:\n" COMMON
		"\tfield:void * hrtimer;\toffset:8;\tsize:8;\tsigned:0;\n"
		"\tfield:void * function;\toffset:16;\tsize:8;\tsigned:0;\n"
		"\tfield:s64 expires;\toffset:24;\tsize:8;\tsigned:1;\n"
		"\tfield:s64 softexpires;\toffset:32;\tsize:8;\tsigned:1;\n"
		"\tfield:enum hrtimer_mode mode;\toffset:40;\tsize:4;\tsigned:0;\n"
		"\tfield:bool was_armed;\toffset:44;\tsize:1;\tsigned:0;\n"
		"\n"
		"print fmt: \"hrtimer=%p function=%ps expires=%llu softexpires=%llu mode=%s"
		" was_armed=%d\", REC->hrtimer, REC->function, (unsigned long long) REC->expires,"
		" (unsigned long long) REC->softexpires, __print_symbolic(REC->mode, {"
		" HRTIMER_MODE_ABS, \"ABS\" }, { HRTIMER_MODE_REL, \"REL\" }, {"
		" HRTIMER_MODE_ABS_PINNED, \"ABS|PINNED\" }, { HRTIMER_MODE_REL_PINNED,"
		" \"REL|PINNED\" }, { HRTIMER_MODE_ABS_SOFT, \"ABS|SOFT\" }, {"
		" HRTIMER_MODE_REL_SOFT, \"REL|SOFT\" }, { HRTIMER_MODE_ABS_PINNED_SOFT,"
		" \"ABS|PINNED|SOFT\" }, { HRTIMER_MODE_REL_PINNED_SOFT, \"REL|PINNED|SOFT\" }, {"
		" HRTIMER_MODE_ABS_HARD, \"ABS|HARD\" }, { HRTIMER_MODE_REL_HARD, \"REL|HARD\" }, {"
		" HRTIMER_MODE_ABS_PINNED_HARD, \"ABS|PINNED|HARD\" }, {"
		" HRTIMER_MODE_REL_PINNED_HARD, \"REL|PINNED|HARD\" }), REC->was_armed\n" },
	/* sched/sched_switch of Linux 6.1: four-digit state masks */
	{ true,
		"name: sched_switch61\nID: 9001\nformat:\n" COMMON
		"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:1;\n"
		"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
		"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
		"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
		"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:1;\n"
		"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
		"\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n"
		"\n"
		"print fmt: \"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> next_comm=%s"
		" next_pid=%d next_prio=%d\", REC->prev_comm, REC->prev_pid, REC->prev_prio,"
		" (REC->prev_state & ((((0x0000 | 0x0001 | 0x0002 | 0x0004 | 0x0008 | 0x0010 |"
		" 0x0020 | 0x0040) + 1) << 1) - 1)) ? __print_flags(REC->prev_state & ((((0x0000 |"
		" 0x0001 | 0x0002 | 0x0004 | 0x0008 | 0x0010 | 0x0020 | 0x0040) + 1) << 1) - 1),"
		" \"|\", { 0x0001, \"S\" }, { 0x0002, \"D\" }, { 0x0004, \"T\" }, { 0x0008, \"t\" },"
		" { 0x0010, \"X\" }, { 0x0020, \"Z\" }, { 0x0040, \"P\" }, { 0x0080, \"I\" }) :"
		" \"R\", REC->prev_state & (((0x0000 | 0x0001 | 0x0002 | 0x0004 | 0x0008 | 0x0010"
		" | 0x0020 | 0x0040) + 1) << 1) ? \"+\" : \"\", REC->next_comm, REC->next_pid,"
		" REC->next_prio\n" },
	/* sched/sched_stat_runtime of Linux 6.1: two casts */
	{ true,
		"name: sched_stat_runtime61\nID: 9002\nformat:\n" COMMON
		"\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:1;\n"
		"\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
		"\tfield:u64 runtime;\toffset:32;\tsize:8;\tsigned:0;\n"
		"\tfield:u64 vruntime;\toffset:40;\tsize:8;\tsigned:0;\n"
		"\n"
		"print fmt: \"comm=%s pid=%d runtime=%Lu [ns] vruntime=%Lu [ns]\", REC->comm,"
		" REC->pid, (unsigned long long)REC->runtime, (unsigned long long)REC->vruntime\n" },
	/* every size, flag and width compiled, and the casts of eval_type_str() */
	{ true,
		"name: convs\nID: 9003\nformat:\n" COMMON
		"\tfield:s8 a;\toffset:8;\tsize:1;\tsigned:1;\n"
		"\tfield:short b;\toffset:10;\tsize:2;\tsigned:1;\n"
		"\tfield:int c;\toffset:12;\tsize:4;\tsigned:1;\n"
		"\tfield:long d;\toffset:16;\tsize:8;\tsigned:1;\n"
		"\tfield:u64 e;\toffset:24;\tsize:8;\tsigned:0;\n"
		"\tfield:unsigned int g;\toffset:32;\tsize:4;\tsigned:0;\n"
		"\n"
		"print fmt: \"a=%hhd b=%hx c=%ld d=%lld e=%llx f=%-5d| g=%05x h=%Lu i=%d j=%u k=%X"
		" l=%i m=%hu n=%-8x| o=%08d p=%3s| q=%-3s| r=%d s=%u t=%d u=%lld %%\", REC->a,"
		" REC->b, REC->c, REC->d, REC->e, REC->a, REC->g, (unsigned long long)REC->e,"
		" (u8)REC->c, (s16)REC->d, (int)REC->e, (unsigned char)REC->b, (s8)REC->d,"
		" (unsigned short)REC->d, REC->c, \"ab\", \"c\", (s32)REC->e, (char *)REC->d,"
		" REC->c < REC->g, REC->d >> 3\n" },
	/* operators, choices and symbols compiled */
	{ true,
		"name: ops\nID: 9004\nformat:\n" COMMON
		"\tfield:int x;\toffset:8;\tsize:4;\tsigned:1;\n"
		"\tfield:unsigned int y;\toffset:12;\tsize:4;\tsigned:0;\n"
		"\n"
		"print fmt: \"%d %d %d %d %d %d %d %d %d %d %d %d %s %s %s %s\", REC->x + REC->y,"
		" REC->x - REC->y, REC->x * 3, REC->y / 7, REC->y % 5, REC->x == REC->y,"
		" REC->x != 0, REC->x && REC->y, REC->x || REC->y, REC->x <= REC->y, REC->x >= 2,"
		" ~REC->y, REC->x > 5 ? \"big\" : REC->x ? \"some\" : \"none\","
		" __print_symbolic(REC->y & 3, { 0, \"zero\" }, { 2, \"two\" }),"
		" __print_flags(REC->y, \"\", { 1, \"A\" }, { 4, \"B\" }, { 16, \"C\" }),"
		" __print_flags(REC->x & 7, \"|\", { 0, \"zero\" }, { 2, \"two\" },"
		" { 0xffffffffffffffff, \"all\" }, { 1, \"one\" })\n" },
	/* strings at a __rel_loc */
	{ true,
		"name: relloc\nID: 9005\nformat:\n" COMMON
		"\tfield:__rel_loc char[] name;\toffset:8;\tsize:4;\tsigned:0;\n"
		"\tfield:int v;\toffset:12;\tsize:4;\tsigned:1;\n"
		"\n"
		"print fmt: \"name=%s v=%d\", __get_str(name), REC->v\n" },
	/* what only libtraceevent prints */
	{ false,
		"name: hex\nID: 9006\nformat:\n" COMMON
		"\tfield:__data_loc u8[] buf;\toffset:8;\tsize:4;\tsigned:0;\n"
		"\n"
		"print fmt: \"buf=%s\", __print_hex(__get_dynamic_array(buf),"
		" __get_dynamic_array_len(buf))\n" },
	{ false,
		"name: bitmask\nID: 9007\nformat:\n" COMMON
		"\tfield:__data_loc cpumask_t mask;\toffset:8;\tsize:4;\tsigned:0;\n"
		"\n"
		"print fmt: \"mask=%s\", __get_bitmask(mask)\n" },
	{ false,
		"name: index\nID: 9008\nformat:\n" COMMON
		"\tfield:int v[4];\toffset:8;\tsize:16;\tsigned:1;\n"
		"\n"
		"print fmt: \"v1=%d\", REC->v[1]\n" },
	{ false,
		"name: xor\nID: 9009\nformat:\n" COMMON
		"\tfield:int v;\toffset:8;\tsize:4;\tsigned:1;\n"
		"\n"
		"print fmt: \"v=%d\", REC->v ^ 3\n" },
	{ false,
		"name: pointer\nID: 9010\nformat:\n" COMMON
		"\tfield:void * p;\toffset:8;\tsize:8;\tsigned:0;\n"
		"\n"
		"print fmt: \"p=%p\", REC->p\n" },
	{ false,
		"name: scalarstr\nID: 9011\nformat:\n" COMMON
		"\tfield:unsigned long p;\toffset:8;\tsize:8;\tsigned:0;\n"
		"\n"
		"print fmt: \"p=%s\", REC->p\n" },
	{ false,
		"name: chr\nID: 9012\nformat:\n" COMMON
		"\tfield:char c;\toffset:8;\tsize:1;\tsigned:1;\n"
		"\n"
		"print fmt: \"c=%c\", REC->c\n" },
};

#define NR_FORMATS (sizeof(formats) / sizeof(formats[0]))

static struct tep_handle *tep_new(void)
{
	struct tep_handle *tep = tep_alloc();
	size_t i;

	ck_assert_ptr_nonnull(tep);
	tep_set_long_size(tep, sizeof(long));
	tep_set_file_bigendian(tep, tep_is_local_bigendian(tep) ? TEP_BIG_ENDIAN
								 : TEP_LITTLE_ENDIAN);
	for (i = 0; i < NR_FORMATS; i++)
		ck_assert_int_eq(tep_parse_event(tep, formats[i].text, strlen(formats[i].text),
						 "t"), 0);
	return tep;
}

static struct tep_event *event_at(struct tep_handle *tep, size_t i)
{
	const char *p = strchr(formats[i].text, ' ') + 1;
	char name[64];
	size_t n = strcspn(p, "\n");
	struct tep_event *ev;

	ck_assert_uint_lt(n, sizeof(name));
	memcpy(name, p, n);
	name[n] = 0;
	ev = tep_find_event_by_name(tep, NULL, name);
	ck_assert_ptr_nonnull(ev);
	return ev;
}

static uint64_t rnd_state = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

static uint64_t rnd_value(void)
{
	switch (rnd() % 8) {
	case 0: return 0;
	case 1: return 1;
	case 2: return rnd() % 300;
	case 3: return (uint64_t)-(int64_t)(rnd() % 300);
	case 4: return rnd() & 0x1ff;		/* a subset of the state and flag bits */
	case 5: return (rnd() & 0xff) | 0x100;	/* a bit no flag names */
	case 6: return UINT64_MAX;
	default: return rnd();
	}
}

static const char *const texts[] = { "", "a", "hackbench", "kworker/1:2H", "sh",
				     "0123456789abcde", "with space" };

struct payload {
	uint8_t data[512];
	uint32_t size;
	bool outside;		/* a string outside the record: only the compiled side checked */
};

/* a random payload of @ev: common_type set, strings after the fixed fields */
static void fill(struct tep_event *ev, struct payload *pl)
{
	struct tep_format_field **fields = tep_event_fields(ev), **f;
	uint16_t type = (uint16_t)ev->id;
	uint32_t end = 0;

	memset(pl, 0, sizeof(*pl));
	for (f = fields; f && *f; f++)
		if ((uint32_t)((*f)->offset + (*f)->size) > end)
			end = (uint32_t)((*f)->offset + (*f)->size);
	memcpy(pl->data, &type, sizeof(type));
	for (f = fields; f && *f; f++) {
		struct tep_format_field *fd = *f;
		uint8_t *at = pl->data + fd->offset;
		const char *s = texts[rnd() % (sizeof(texts) / sizeof(texts[0]))];

		if (fd->flags & TEP_FIELD_IS_DYNAMIC) {
			uint32_t len = (uint32_t)strlen(s) + 1, off = end, loc;

			memcpy(pl->data + off, s, len);
			end += len;
			if (fd->flags & TEP_FIELD_IS_RELATIVE)
				off -= (uint32_t)(fd->offset + fd->size);
			if (rnd() % 10 == 0) {
				off += 400;
				pl->outside = true;
			}
			loc = len << 16 | off;
			memcpy(at, &loc, 4);
		} else if (fd->flags & TEP_FIELD_IS_ARRAY) {
			if (rnd() % 6 == 0)
				memset(at, 'x', (size_t)fd->size);	/* no NUL */
			else
				memcpy(at, s, strlen(s) < (size_t)fd->size ? strlen(s) + 1
									   : (size_t)fd->size);
		} else {
			uint64_t v = rnd_value();

			memcpy(at, &v, (size_t)fd->size < 8 ? (size_t)fd->size : 8);
		}
	}
	free(fields);
	pl->size = end;
}

/* libtraceevent's text of @pl */
static void tep_text(struct tep_handle *tep, struct payload *pl, struct trace_seq *ts)
{
	struct tep_record tr = { .size = (int)pl->size, .data = pl->data };

	trace_seq_reset(ts);
	tep_print_event(tep, ts, &tr, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(ts);
}

START_TEST(test_compiles_what_prints_alike)
{
	struct tep_handle *tep = tep_new();
	size_t i;

	for (i = 0; i < NR_FORMATS; i++) {
		struct tp_fmt *f = tp_fmt__new(event_at(tep, i));

		ck_assert_msg(!!f == formats[i].compiled, "%s: compiled %d, not %d",
			      event_at(tep, i)->name, !!f, formats[i].compiled);
		tp_fmt__delete(f);
	}
	tep_free(tep);
}
END_TEST

START_TEST(test_random_payloads_print_as_tep)
{
	struct tep_handle *tep = tep_new(), *tep_memo = tep_new();
	struct trace_memo *m = trace_memo__new(1 << 20);
	struct trace_seq ref, ts;
	size_t i;
	int compared = 0, outside = 0;

	trace_seq_init(&ref);
	trace_seq_init(&ts);
	for (i = 0; i < NR_FORMATS; i++) {
		struct tep_event *ev = event_at(tep, i);
		struct tp_fmt *f = tp_fmt__new(ev);
		int k;

		if (!f)
			continue;
		for (k = 0; k < 1500; k++) {
			struct payload pl;
			struct tep_record tr;
			char buf[1024];
			size_t len;
			int n;

			fill(ev, &pl);
			n = tp_fmt__print(f, pl.data, pl.size, buf, sizeof(buf));
			if (pl.outside) {
				ck_assert_int_eq(n, -1);
				outside++;
				continue;
			}
			tep_text(tep, &pl, &ref);
			ck_assert_msg(n >= 0, "%s: -1 for '%s'", ev->name, ref.buffer);
			ck_assert_msg(!strcmp(buf, ref.buffer), "%s:\n compiled '%s'\n tep      '%s'",
				      ev->name, buf, ref.buffer);
			ck_assert_int_eq(n, (int)strlen(ref.buffer));
			/* one byte short of the text and its NUL: -1; enough: the text */
			ck_assert_int_eq(tp_fmt__print(f, pl.data, pl.size, buf, (size_t)n), -1);
			ck_assert_int_eq(tp_fmt__print(f, pl.data, pl.size, buf, (size_t)n + 1), n);
			ck_assert_int_eq(tp_fmt__print(f, pl.data, 0, buf, sizeof(buf)), -1);
			tr = (struct tep_record){ .size = (int)pl.size, .data = pl.data };
			trace_seq_reset(&ts);
			ck_assert_str_eq(trace_memo__print(m, tep_memo, &ts, &tr, &len), ref.buffer);
			ck_assert_uint_eq(len, strlen(ref.buffer));
			compared++;
		}
		tp_fmt__delete(f);
	}
	ck_assert_int_gt(compared, 10000);
	ck_assert_int_gt(outside, 100);
	trace_seq_destroy(&ref);
	trace_seq_destroy(&ts);
	trace_memo__delete(m);
	tep_free(tep);
	tep_free(tep_memo);
}
END_TEST

/* a data_loc string with no NUL inside the record: libtraceevent's to print */
START_TEST(test_string_without_nul_is_tep_s)
{
	struct tep_handle *tep = tep_new();
	struct tep_event *ev = tep_find_event_by_name(tep, NULL, "sched_migrate_task");
	struct tp_fmt *f;
	uint8_t data[40] = { 0 };
	uint32_t loc = 4u << 16 | 28;
	char buf[256];

	ck_assert_ptr_nonnull(ev);
	f = tp_fmt__new(ev);
	ck_assert_ptr_nonnull(f);
	memcpy(data + 8, &loc, 4);
	memcpy(data + 28, "abc", 4);
	ck_assert_int_gt(tp_fmt__print(f, data, 32, buf, sizeof(buf)), 0);
	ck_assert_ptr_nonnull(strstr(buf, "comm=abc "));
	ck_assert_int_eq(tp_fmt__print(f, data, 31, buf, sizeof(buf)), -1);
	tp_fmt__delete(f);
	tep_free(tep);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("script-tpfmt");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int nf;

	tcase_add_test(tc, test_compiles_what_prints_alike);
	tcase_add_test(tc, test_random_payloads_print_as_tep);
	tcase_add_test(tc, test_string_without_nul_is_tep_s);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
