// SPDX-License-Identifier: GPL-2.0
/*
 * Event names and the per-microarchitecture maps. Each test runs in its own process (Check's
 * fork mode), so each may force a different libpfm4 model.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "schedlens/events.h"

static struct event_desc parse_ok(const char *name)
{
	struct errbuf err = { "" };
	struct event_desc ev;
	int ret = events__parse(name, &ev, &err);

	ck_assert_msg(ret == 0, "parse '%s': %d %s", name, ret, err.msg);
	return ev;
}

START_TEST(test_generic_names)
{
	struct event_desc ev;

	ev = parse_ok("cycles");
	ck_assert_uint_eq(ev.attr.type, PERF_TYPE_HARDWARE);
	ck_assert_uint_eq(ev.attr.config, PERF_COUNT_HW_CPU_CYCLES);
	ck_assert(ev.attr.read_format & PERF_FORMAT_TOTAL_TIME_RUNNING);
	ev = parse_ok("task-clock");
	ck_assert_uint_eq(ev.attr.type, PERF_TYPE_SOFTWARE);
	ck_assert_uint_eq(ev.attr.config, PERF_COUNT_SW_TASK_CLOCK);
	ev = parse_ok("context-switches");
	ck_assert_uint_eq(ev.attr.config, PERF_COUNT_SW_CONTEXT_SWITCHES);
	ev = parse_ok("instructions:u");
	ck_assert_uint_eq(ev.attr.config, PERF_COUNT_HW_INSTRUCTIONS);
	ck_assert(ev.attr.exclude_kernel && !ev.attr.exclude_user);
	ev = parse_ok("cycles:k");
	ck_assert(!ev.attr.exclude_kernel && ev.attr.exclude_user);
	ev = parse_ok("cycles:ppp");
	ck_assert_uint_eq(ev.attr.precise_ip, 3);
}
END_TEST

START_TEST(test_cache_names)
{
	/* config = cache | op << 8 | result << 16, as perf encodes them */
	ck_assert_uint_eq(parse_ok("L1-dcache-loads").attr.config, 0x0);
	ck_assert_uint_eq(parse_ok("L1-dcache-load-misses").attr.config, 0x10000);
	ck_assert_uint_eq(parse_ok("L1-dcache-stores").attr.config, 0x100);
	ck_assert_uint_eq(parse_ok("L1-dcache-prefetch-misses").attr.config, 0x10200);
	ck_assert_uint_eq(parse_ok("L1-icache-load-misses").attr.config, 0x10001);
	ck_assert_uint_eq(parse_ok("LLC-loads").attr.config, 0x2);
	ck_assert_uint_eq(parse_ok("LLC-load-misses").attr.config, 0x10002);
	ck_assert_uint_eq(parse_ok("dTLB-load-misses").attr.config, 0x10003);
	ck_assert_uint_eq(parse_ok("iTLB-loads").attr.config, 0x4);
	ck_assert_uint_eq(parse_ok("LLC-loads").attr.type, PERF_TYPE_HW_CACHE);
}
END_TEST

START_TEST(test_raw_and_unknown)
{
	struct errbuf err = { "" };
	struct event_desc ev;

	ev = parse_ok("r151");
	ck_assert_uint_eq(ev.attr.type, PERF_TYPE_RAW);
	ck_assert_uint_eq(ev.attr.config, 0x151);
	ck_assert_int_eq(events__parse("no-such-event", &ev, &err), -ENOENT);
	ck_assert_msg(strstr(err.msg, "'no-such-event'"), "%s", err.msg);
	ck_assert_int_eq(events__parse("", &ev, &err), -EINVAL);
}
END_TEST

START_TEST(test_tracepoint)
{
	char buf[32];
	struct errbuf err = { "" };
	struct event_desc ev;
	FILE *f = fopen("/sys/kernel/tracing/events/sched/sched_switch/id", "r");

	if (!f) {
		/* no tracefs here: the parser must say so rather than fail silently */
		ck_assert_int_eq(events__parse("sched:sched_switch", &ev, &err), -ENOENT);
		ck_assert_msg(strstr(err.msg, "tracefs is not mounted"), "%s", err.msg);
		return;
	}
	ck_assert(fgets(buf, sizeof(buf), f));
	fclose(f);
	ev = parse_ok("sched:sched_switch");
	ck_assert_uint_eq(ev.attr.type, PERF_TYPE_TRACEPOINT);
	ck_assert_uint_eq(ev.attr.config, strtoull(buf, NULL, 10));
	ck_assert_int_eq(events__parse("sched:no_such_tracepoint", &ev, &err), -ENOENT);
	ck_assert_msg(strstr(err.msg, "tracepoint 'sched:no_such_tracepoint'"), "%s", err.msg);
}
END_TEST

/* every x86 map entry must encode, through libpfm4 forced to that model, to the map's value */
static void check_map_with_pfm(const char *arch)
{
	struct errbuf err = { "" };
	struct evmap m;
	size_t i, checked = 0;

	ck_assert_int_eq(evmap__load(arch, &m, &err), 0);
	ck_assert(m.pfm);
	setenv("LIBPFM_FORCE_PMU", m.pmu, 1);
	for (i = 0; i < m.nr; i++) {
		struct perf_event_attr a;
		const struct evmap_entry *e = &m.entries[i];

		if (!e->has_config || e->native[0] == 'r')
			continue;
		memset(&a, 0, sizeof(a));
		ck_assert_msg(events__pfm_encode(e->native, &a, &err) == 0, "%s %s: %s", arch,
			      e->native, err.msg);
		ck_assert_msg(a.config == e->config, "%s %s: libpfm4 0x%llx, map 0x%llx", arch,
			      e->native, (unsigned long long)a.config,
			      (unsigned long long)e->config);
		checked++;
	}
	ck_assert_uint_ge(checked, 4);
}

START_TEST(test_snb_encodings)
{
	struct perf_event_attr a;

	check_map_with_pfm("snb");
	memset(&a, 0, sizeof(a));
	ck_assert_int_eq(events__pfm_encode("L1D:REPLACEMENT", &a, NULL), 0);
	ck_assert_uint_eq(a.config, 0x151);
	ck_assert_uint_eq(a.type, PERF_TYPE_RAW);
	memset(&a, 0, sizeof(a));
	ck_assert_int_eq(events__pfm_encode("L1D:REPLACEMENT:u", &a, NULL), 0);
	ck_assert(a.exclude_kernel && !a.exclude_user);
}
END_TEST

START_TEST(test_clx_encodings)
{
	struct perf_event_attr a;
	struct event_desc ev;

	check_map_with_pfm("clx");
	memset(&a, 0, sizeof(a));
	ck_assert_int_eq(events__pfm_encode("LONGEST_LAT_CACHE:MISS", &a, NULL), 0);
	ck_assert_uint_eq(a.config, 0x412e);
	/* native names through the ordinary parser too */
	ev = parse_ok("LONGEST_LAT_CACHE:REFERENCE");
	ck_assert_uint_eq(ev.attr.config, 0x4f2e);
}
END_TEST

START_TEST(test_other_x86_maps)
{
	check_map_with_pfm(_i == 0 ? "icx" : _i == 1 ? "zen2" : "skx");
}
END_TEST

START_TEST(test_arm64_maps)
{
	/* Armv8 PMUv3 architectural event numbers (Arm ARM D7.10; perf's
	 * pmu-events/arch/arm64/common-and-microarch.json) */
	static const struct {
		const char *metric, *native;
		unsigned long long config;
	} n1[] = { { "cycles", "CPU_CYCLES", 0x11 },	     { "instructions", "INST_RETIRED", 0x08 },
		   { "l1d-loads", "L1D_CACHE", 0x04 },	     { "l1d-misses", "L1D_CACHE_REFILL", 0x03 },
		   { "llc-loads", "LL_CACHE_RD", 0x36 },     { "llc-misses", "LL_CACHE_MISS_RD", 0x37 } },
	  kp[] = { { "cycles", "CPU_CYCLES", 0x11 },	     { "instructions", "INST_RETIRED", 0x08 },
		   { "l1d-loads", "L1D_CACHE", 0x04 },	     { "l1d-misses", "L1D_CACHE_REFILL", 0x03 },
		   { "llc-loads", "L2D_CACHE", 0x16 },	     { "llc-misses", "L2D_CACHE_REFILL", 0x17 } };
	struct errbuf err = { "" };
	struct evmap m;
	size_t i;

	ck_assert_int_eq(evmap__load("neoverse-n1", &m, &err), 0);
	ck_assert(!m.pfm);
	for (i = 0; i < ARRAY_SIZE(n1); i++) {
		const struct evmap_entry *e = evmap__find(&m, n1[i].metric);

		ck_assert_msg(e && !strcmp(e->native, n1[i].native) && e->config == n1[i].config,
			      "neoverse-n1 %s", n1[i].metric);
	}
	ck_assert_int_eq(evmap__load("kunpeng920", &m, &err), 0);
	for (i = 0; i < ARRAY_SIZE(kp); i++) {
		const struct evmap_entry *e = evmap__find(&m, kp[i].metric);

		ck_assert_msg(e && !strcmp(e->native, kp[i].native) && e->config == kp[i].config,
			      "kunpeng920 %s", kp[i].metric);
	}
	ck_assert_int_eq(evmap__load("no-such-arch", &m, &err), -ENOENT);
}
END_TEST

START_TEST(test_list_and_probe)
{
	struct errbuf err = { "" };
	struct event_desc *evs;
	size_t n;
	char advice[512];

	ck_assert_int_eq(events__parse_list("task-clock,page-faults,cycles", &evs, &n, &err), 0);
	ck_assert_uint_eq(n, 3);
	ck_assert_str_eq(evs[2].name, "cycles");
	/* software events open everywhere */
	ck_assert_int_eq(events__probe(&evs[0].attr), 0);
	free(evs);
	ck_assert_int_eq(events__parse_list("task-clock,bogus", &evs, &n, &err), -ENOENT);
	ck_assert_int_eq(events__parse_list("", &evs, &n, &err), -EINVAL);
	events__open_advice("cycles", -EACCES, advice, sizeof(advice));
	ck_assert(strstr(advice, "perf_event_paranoid") && strstr(advice, "CAP_PERFMON"));
	events__open_advice("cycles", -EOPNOTSUPP, advice, sizeof(advice));
	ck_assert(strstr(advice, "no such counter"));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("events");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int nf;

	tcase_add_test(tc, test_generic_names);
	tcase_add_test(tc, test_cache_names);
	tcase_add_test(tc, test_raw_and_unknown);
	tcase_add_test(tc, test_tracepoint);
	tcase_add_test(tc, test_snb_encodings);
	tcase_add_test(tc, test_clx_encodings);
	tcase_add_loop_test(tc, test_other_x86_maps, 0, 3);
	tcase_add_test(tc, test_arm64_maps);
	tcase_add_test(tc, test_list_and_probe);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
