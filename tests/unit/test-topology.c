// SPDX-License-Identifier: GPL-2.0
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "schedlens/topology.h"

static char root[64];

static void put(const char *rel, const char *text)
{
	char path[512], *p;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "%s\n", text);
	fclose(f);
}

static void cache(int cpu, int idx, int level, const char *type, const char *shared)
{
	char rel[256];

	snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/cache/index%d/level", cpu, idx);
	put(rel, level == 1 ? "1" : level == 2 ? "2" : "3");
	snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/cache/index%d/type", cpu, idx);
	put(rel, type);
	snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/cache/index%d/shared_cpu_list", cpu,
		 idx);
	put(rel, shared);
}

/* 8 CPUs, SMT pairs; node 0 = 0-3 with two L3s (0-1, 2-3), node 1 = 4-7 with one L3 */
static void fake_sysfs(bool with_cache)
{
	static const char *const l3[] = { "0-1", "0-1", "2-3", "2-3", "4-7", "4-7", "4-7", "4-7" };
	char rel[256], val[64];
	int cpu;

	snprintf(root, sizeof(root), "/tmp/test-topology-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(root));
	put("devices/system/cpu/online", "0-7");
	for (cpu = 0; cpu < 8; cpu++) {
		snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/topology/core_cpus_list", cpu);
		snprintf(val, sizeof(val), "%d-%d", cpu & ~1, (cpu & ~1) + 1);
		put(rel, val);
		snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/topology/physical_package_id",
			 cpu);
		put(rel, cpu < 4 ? "0" : "1");
		if (!with_cache)
			continue;
		cache(cpu, 0, 1, "Data", val);
		cache(cpu, 1, 1, "Instruction", val);
		cache(cpu, 2, 2, "Unified", val);
		cache(cpu, 3, 3, "Unified", l3[cpu]);
	}
	put("devices/system/node/node0/cpulist", "0-3");
	put("devices/system/node/node1/cpulist", "4-7");
	put("devices/system/node/node0/distance", "10 20");
	put("devices/system/node/node1/distance", "20 10");
	put("devices/system/node/node0/meminfo",
	    "Node 0 MemTotal:        2097152 kB\nNode 0 MemFree:         1048576 kB");
	put("devices/system/node/node1/meminfo",
	    "Node 1 MemTotal:        2097152 kB\nNode 1 MemFree:         2048 kB");
}

static void cleanup(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	ck_assert_int_eq(system(cmd), 0);
}

START_TEST(test_fake)
{
	struct errbuf e = { "" };
	struct topology *t;
	char *text;

	fake_sysfs(true);
	t = topology__read(root, &e);
	ck_assert_msg(t != NULL, "%s", e.msg);
	ck_assert_int_eq(topology__nr_cpus(t), 8);
	ck_assert(topology__llc_from_cache(t));
	ck_assert_int_eq(topology__llc(t, 3), 2);
	ck_assert_int_eq(topology__node(t, 5), 1);
	ck_assert_int_eq(topology__classify(t, 0, 1), MIGR_SAME_CORE);
	ck_assert_int_eq(topology__classify(t, 0, 2), MIGR_OTHER_LLC);
	ck_assert_int_eq(topology__classify(t, 4, 6), MIGR_SAME_LLC);
	ck_assert_int_eq(topology__classify(t, 1, 5), MIGR_OTHER_NODE);
	ck_assert_int_eq(topology__classify(t, 1, 9), MIGR_UNKNOWN);
	ck_assert_str_eq(migr_class__name(MIGR_OTHER_LLC), "other-llc");
	text = topology__describe(t);
	ck_assert_ptr_nonnull(strstr(text, "available: 2 nodes (0-1)\n"));
	ck_assert_ptr_nonnull(strstr(text, "node 1 cpus: 4 5 6 7\n"));
	ck_assert_ptr_nonnull(strstr(text, "node 1 free: 2 MB\n"));
	ck_assert_ptr_nonnull(strstr(text, "   0:  10  20\n"));
	ck_assert_ptr_nonnull(strstr(text, "llc groups (L3):\n"));
	ck_assert_ptr_nonnull(strstr(text, "llc 2 node 0 cpus: 2 3\n"));
	free(text);
	topology__delete(t);
	cleanup();
}
END_TEST

START_TEST(test_no_cache)
{
	struct errbuf e = { "" };
	struct topology *t;

	fake_sysfs(false);
	t = topology__read(root, &e);
	ck_assert_msg(t != NULL, "%s", e.msg);
	ck_assert(!topology__llc_from_cache(t));
	/* LLC = package: 0 and 2 now share one */
	ck_assert_int_eq(topology__classify(t, 0, 2), MIGR_SAME_LLC);
	ck_assert_int_eq(topology__classify(t, 3, 4), MIGR_OTHER_NODE);
	topology__delete(t);
	cleanup();
}
END_TEST

START_TEST(test_missing)
{
	struct errbuf e = { "" };

	ck_assert_ptr_null(topology__read("/nonexistent", &e));
	ck_assert_str_eq(e.msg,
			 "cannot read the online cpus from '/nonexistent/devices/system/cpu/online'");
}
END_TEST

START_TEST(test_this_machine)
{
	struct errbuf e = { "" };
	struct topology *t = topology__read(NULL, &e);
	char *text;

	ck_assert_msg(t != NULL, "%s", e.msg);
	ck_assert_int_ge(topology__nr_cpus(t), 1);
	ck_assert_int_eq(topology__node(t, 0), 0);
	text = topology__describe(t);
	ck_assert_ptr_nonnull(strstr(text, "node 0 cpus: 0"));
	free(text);
	topology__delete(t);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("topology");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int nf;

	tcase_add_test(tc, test_fake);
	tcase_add_test(tc, test_no_cache);
	tcase_add_test(tc, test_missing);
	tcase_add_test(tc, test_this_machine);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
