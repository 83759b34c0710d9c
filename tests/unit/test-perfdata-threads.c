// SPDX-License-Identifier: GPL-2.0
/* threads (comms, forks, maps as perf's machine keeps them) and hist (sort keys, collapse). */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "schedlens/hist.h"
#include "schedlens/threads.h"

static int umap(struct threads *t, uint32_t pid, uint64_t start, uint64_t len, uint64_t pgoff,
		const char *file)
{
	struct stream_mmap m = { .pid = pid, .tid = pid, .start = start, .len = len,
				 .pgoff = pgoff, .misc = PERF_RECORD_MISC_USER,
				 .filename = file, .prot = 4 };

	return threads__mmap(t, &m);
}

START_TEST(test_comm_override_and_fork)
{
	struct threads *t = threads__new();
	struct stream_task fork = { .fork = true, .pid = 20, .ppid = 10, .tid = 20, .ptid = 10 };
	struct taddr before, after, child;

	ck_assert_ptr_nonnull(t);
	/* a sample before the thread's first COMM shows that COMM afterwards (perf renames) */
	ck_assert_int_eq(threads__resolve(t, 10, 10, PERF_RECORD_MISC_USER, 0x1000, &before), 0);
	ck_assert_str_eq(before.comm, ":10");
	ck_assert_int_eq(threads__comm(t, 10, 10, "worker", false), 0);
	ck_assert_str_eq(before.comm, "worker");
	/* a later COMM (exec) is a new name; the old samples keep theirs */
	ck_assert_int_eq(threads__comm(t, 10, 10, "exec-ed", true), 0);
	ck_assert_int_eq(threads__resolve(t, 10, 10, PERF_RECORD_MISC_USER, 0x1000, &after), 0);
	ck_assert_str_eq(after.comm, "exec-ed");
	ck_assert_str_eq(before.comm, "worker");
	/* fork: the child gets the parent's comm and a copy of its maps */
	ck_assert_int_eq(umap(t, 10, 0x400000, 0x1000, 0, "/bin/app"), 0);
	ck_assert_int_eq(threads__task(t, &fork, 0), 0);
	ck_assert_int_eq(threads__resolve(t, 20, 20, PERF_RECORD_MISC_USER, 0x400010, &child), 0);
	ck_assert_str_eq(child.comm, "exec-ed");
	ck_assert_str_eq(threads__comm_of(t, 20, 20), "exec-ed");
	ck_assert_str_eq(threads__comm_of(t, 30, 31), ":31");	/* made as resolve makes it */
	ck_assert_ptr_nonnull(child.map);
	ck_assert_str_eq(child.map->dso, "app");
	ck_assert_uint_eq(child.addr, 0x10);
	/* the idle thread */
	ck_assert_int_eq(threads__resolve(t, 0, 0, PERF_RECORD_MISC_KERNEL, 1, &child), 0);
	ck_assert_str_eq(child.comm, "swapper");
	ck_assert_ptr_null(child.map);
	ck_assert_int_eq(child.level, 'k');
	threads__delete(t);
}
END_TEST

START_TEST(test_maps)
{
	struct threads *t = threads__new();
	struct stream_mmap k = { .pid = -1, .start = 0xffffffff81000000ULL, .len = 0x1000000,
				 .pgoff = 0xffffffff81000000ULL, .misc = PERF_RECORD_MISC_KERNEL,
				 .filename = "[kernel.kallsyms]_text" };
	struct stream_mmap mod = { .pid = -1, .start = 0xffffffffa0000000ULL, .len = 0x1000,
				   .misc = PERF_RECORD_MISC_KERNEL,
				   .filename = "/lib/modules/6.1/kernel/fs/ext-4.ko" };
	struct taddr a;

	ck_assert_int_eq(threads__mmap(t, &k), 0);
	ck_assert_int_eq(threads__mmap(t, &mod), 0);
	ck_assert_int_eq(threads__resolve(t, 5, 5, PERF_RECORD_MISC_KERNEL, 0xffffffff81000010ULL,
					  &a), 0);
	ck_assert_str_eq(a.map->dso, "[kernel.kallsyms]");
	ck_assert_uint_eq(a.addr, 0xffffffff81000010ULL);	/* kernel: identity */
	ck_assert_int_eq(threads__resolve(t, 5, 5, PERF_RECORD_MISC_KERNEL, 0xffffffffa0000010ULL,
					  &a), 0);
	ck_assert_str_eq(a.map->dso, "[ext_4]");
	/* a new map cuts the one it overlaps: head and tail stay, pgoff follows */
	ck_assert_int_eq(umap(t, 5, 0x10000, 0x3000, 0x100, "/lib/a.so"), 0);
	ck_assert_int_eq(umap(t, 5, 0x11000, 0x1000, 0, "/lib/b.so"), 0);
	ck_assert_int_eq(threads__resolve(t, 5, 5, PERF_RECORD_MISC_USER, 0x10010, &a), 0);
	ck_assert_str_eq(a.map->dso, "a.so");
	ck_assert_int_eq(threads__resolve(t, 5, 5, PERF_RECORD_MISC_USER, 0x11010, &a), 0);
	ck_assert_str_eq(a.map->dso, "b.so");
	ck_assert_int_eq(threads__resolve(t, 5, 5, PERF_RECORD_MISC_USER, 0x12010, &a), 0);
	ck_assert_str_eq(a.map->dso, "a.so");
	ck_assert_uint_eq(a.addr, 0x12010 - 0x10000 + 0x100);
	ck_assert_int_eq(threads__resolve(t, 5, 5, PERF_RECORD_MISC_USER, 0x20000, &a), 0);
	ck_assert_ptr_null(a.map);
	/* anonymous executable memory is perf's JIT map */
	ck_assert_int_eq(umap(t, 5, 0x30000, 0x1000, 0, "//anon"), 0);
	ck_assert_int_eq(threads__resolve(t, 5, 6, PERF_RECORD_MISC_USER, 0x30010, &a), 0);
	ck_assert_str_eq(a.map->dso, "[JIT] tid 5");
	threads__delete(t);
}
END_TEST

/*
 * threads__space(): the versions stay while nothing changes the space, change with a map
 * of that process (not another's), and a forked child's copy and a thread of a process
 * have their own; the kernel's follow kernel maps alone
 */
START_TEST(test_space_versions)
{
	struct threads *t = threads__new();
	struct stream_task fork = { .fork = true, .pid = 20, .ppid = 10, .tid = 20, .ptid = 10 };
	struct stream_mmap mod = { .pid = -1, .start = 0xffffffffa0000000ULL, .len = 0x1000,
				   .misc = PERF_RECORD_MISC_KERNEL,
				   .filename = "/lib/modules/6.1/kernel/fs/ext4.ko" };
	uint64_t a[2], b[2], c[2], k[2], k2[2];

	ck_assert_int_eq(umap(t, 10, 0x400000, 0x1000, 0, "/bin/app"), 0);
	ck_assert_int_eq(threads__space(t, 10, 10, PERF_RECORD_MISC_USER, a), 0);
	ck_assert_int_eq(threads__space(t, 10, 10, PERF_RECORD_MISC_USER, b), 0);
	ck_assert(a[0] && a[0] == b[0] && a[1] == b[1]);
	ck_assert_int_eq(threads__space(t, 10, 11, PERF_RECORD_MISC_USER, c), 0);
	ck_assert(c[1] == a[1]);	/* a thread reads its process's space */
	ck_assert_int_eq(threads__task(t, &fork, 0), 0);
	ck_assert_int_eq(threads__space(t, 20, 20, PERF_RECORD_MISC_USER, c), 0);
	ck_assert(c[0] != a[0]);	/* the child's copy is another space */
	ck_assert_int_eq(threads__space(t, 0, 0, PERF_RECORD_MISC_KERNEL, k), 0);
	ck_assert_int_eq(umap(t, 10, 0x500000, 0x1000, 0, "/lib/b.so"), 0);
	ck_assert_int_eq(threads__space(t, 10, 10, PERF_RECORD_MISC_USER, b), 0);
	ck_assert(b[0] != a[0] && b[1] != a[1]);
	ck_assert_int_eq(threads__space(t, 20, 20, PERF_RECORD_MISC_USER, a), 0);
	ck_assert(a[0] == c[0]);	/* another process's map left the child's as it was */
	ck_assert_int_eq(threads__space(t, 30, 30, PERF_RECORD_MISC_KERNEL, k2), 0);
	ck_assert(k2[0] == k[0]);	/* user maps do not change the kernel's */
	ck_assert_int_eq(threads__mmap(t, &mod), 0);
	ck_assert_int_eq(threads__space(t, 0, 0, PERF_RECORD_MISC_KERNEL, k2), 0);
	ck_assert(k2[0] != k[0]);
	threads__delete(t);
}
END_TEST

/*
 * Forked processes share their parent's maps until one of them maps something: what one
 * maps after the fork (over a shared map too) the others do not see, and what they shared
 * stays as it was for each
 */
START_TEST(test_fork_maps_own)
{
	struct threads *t = threads__new();
	struct stream_task fork = { .fork = true, .ppid = 10, .ptid = 10 };
	struct taddr a;
	uint32_t pid;

	ck_assert_ptr_nonnull(t);
	ck_assert_int_eq(umap(t, 10, 0x400000, 0x2000, 0, "/bin/app"), 0);
	for (pid = 20; pid <= 22; pid++) {
		fork.pid = fork.tid = pid;
		ck_assert_int_eq(threads__task(t, &fork, 0), 0);
	}
	ck_assert_int_eq(umap(t, 10, 0x500000, 0x1000, 0, "/lib/parent.so"), 0);
	ck_assert_int_eq(umap(t, 21, 0x401000, 0x1000, 0, "/lib/over.so"), 0);
	ck_assert_int_eq(umap(t, 22, 0x600000, 0x1000, 0, "/lib/child.so"), 0);
	/* the parent's new map is its own */
	ck_assert_int_eq(threads__resolve(t, 10, 10, PERF_RECORD_MISC_USER, 0x500010, &a), 0);
	ck_assert_str_eq(a.map->dso, "parent.so");
	for (pid = 20; pid <= 22; pid++) {
		ck_assert_int_eq(threads__resolve(t, pid, pid, PERF_RECORD_MISC_USER, 0x500010, &a),
				 0);
		ck_assert_ptr_null(a.map);
	}
	/* a child's map over the shared one cuts its own copy only */
	ck_assert_int_eq(threads__resolve(t, 21, 21, PERF_RECORD_MISC_USER, 0x401010, &a), 0);
	ck_assert_str_eq(a.map->dso, "over.so");
	ck_assert_int_eq(threads__resolve(t, 21, 21, PERF_RECORD_MISC_USER, 0x400010, &a), 0);
	ck_assert_str_eq(a.map->dso, "app");
	for (pid = 10; pid <= 22; pid += pid == 10 ? 10 : 2) {	/* 10, 20, 22 */
		ck_assert_int_eq(threads__resolve(t, pid, pid, PERF_RECORD_MISC_USER, 0x401010, &a),
				 0);
		ck_assert_str_eq(a.map->dso, "app");
		ck_assert_uint_eq(a.addr, 0x1010);
	}
	ck_assert_int_eq(threads__resolve(t, 22, 22, PERF_RECORD_MISC_USER, 0x600010, &a), 0);
	ck_assert_str_eq(a.map->dso, "child.so");
	ck_assert_int_eq(threads__resolve(t, 20, 20, PERF_RECORD_MISC_USER, 0x600010, &a), 0);
	ck_assert_ptr_null(a.map);
	threads__delete(t);
}
END_TEST

/* threads__map_layout(): the same when a map is added beside the others, another when one is
 * cut or replaced, and a forked child's its own */
START_TEST(test_map_layout)
{
	struct threads *t = threads__new();
	struct stream_task fork = { .fork = true, .pid = 20, .ppid = 10, .tid = 20, .ptid = 10 };
	uint64_t a, b;

	ck_assert_ptr_nonnull(t);
	ck_assert_uint_eq(threads__map_layout(t, 10), 0);
	ck_assert_int_eq(umap(t, 10, 0x400000, 0x2000, 0, "/bin/app"), 0);
	a = threads__map_layout(t, 10);
	ck_assert_uint_ne(a, 0);
	ck_assert_int_eq(umap(t, 10, 0x500000, 0x1000, 0, "/lib/b.so"), 0);	/* added */
	ck_assert_uint_eq(threads__map_layout(t, 10), a);
	ck_assert_int_eq(threads__task(t, &fork, 0), 0);
	b = threads__map_layout(t, 20);
	ck_assert_uint_ne(b, 0);
	ck_assert_uint_ne(b, a);
	ck_assert_int_eq(umap(t, 10, 0x401000, 0x1000, 0, "/lib/c.so"), 0);	/* cuts app */
	ck_assert_uint_ne(threads__map_layout(t, 10), a);
	ck_assert_uint_eq(threads__map_layout(t, 20), b);
	a = threads__map_layout(t, 10);
	ck_assert_int_eq(umap(t, 10, 0x500000, 0x1000, 0, "/lib/d.so"), 0);	/* replaces b */
	ck_assert_uint_ne(threads__map_layout(t, 10), a);
	threads__delete(t);
}
END_TEST

/* threads__generation(): moves when what a lookup of a known thread gives may change (a COMM
 * of it, a map, a fork into its tid), not for a new process no lookup has named */
START_TEST(test_generation)
{
	struct threads *t = threads__new();
	struct stream_task fork = { .fork = true, .pid = 20, .ppid = 10, .tid = 20, .ptid = 10 };
	struct taddr a;
	uint64_t g;

	ck_assert_ptr_nonnull(t);
	ck_assert_int_eq(umap(t, 10, 0x400000, 0x2000, 0, "/bin/app"), 0);
	ck_assert_int_eq(threads__comm(t, 10, 10, "parent", false), 0);
	g = threads__generation(t);
	ck_assert_int_eq(threads__task(t, &fork, 0), 0);	/* pid 20 never seen */
	ck_assert_uint_eq(threads__generation(t), g);
	ck_assert_str_eq(threads__comm_of(t, 20, 20), "parent");
	ck_assert_int_eq(threads__resolve(t, 20, 20, PERF_RECORD_MISC_USER, 0x400010, &a), 0);
	ck_assert_str_eq(a.map->dso, "app");
	ck_assert_int_eq(threads__comm(t, 20, 20, "child", false), 0);	/* a known thread */
	ck_assert_uint_gt(threads__generation(t), g);
	g = threads__generation(t);
	ck_assert_int_eq(threads__comm(t, 30, 30, "new", false), 0);	/* an unknown one */
	ck_assert_uint_eq(threads__generation(t), g);
	fork.pid = fork.tid = 30;	/* into a tid a lookup named: the old one goes */
	ck_assert_int_eq(threads__task(t, &fork, 0), 0);
	ck_assert_uint_gt(threads__generation(t), g);
	ck_assert_str_eq(threads__comm_of(t, 30, 30), "parent");
	g = threads__generation(t);
	fork.pid = 10;	/* a new thread of a known process */
	fork.tid = 11;
	ck_assert_int_eq(threads__task(t, &fork, 0), 0);
	ck_assert_uint_eq(threads__generation(t), g);
	ck_assert_int_eq(umap(t, 10, 0x500000, 0x1000, 0, "/lib/b.so"), 0);
	ck_assert_uint_gt(threads__generation(t), g);
	threads__delete(t);
}
END_TEST

START_TEST(test_hist)
{
	static const enum hist_sort keys[] = { HIST_SORT_COMM, HIST_SORT_DSO };
	struct hist *h = hist__new(keys, 2);
	char a1[] = "bash", a2[] = "bash";	/* equal names, distinct pointers */
	const struct hist_entry *v;
	struct hist_key k = { .dso = "libc.so" };
	size_t n, i;

	ck_assert_ptr_nonnull(h);
	for (i = 0; i < 1000; i++) {
		k.comm = i % 2 ? a1 : a2;
		k.addr = i;	/* not a key here */
		ck_assert_int_eq(hist__add(h, &k, 10), 0);
	}
	k.comm = "perf";
	ck_assert_int_eq(hist__add(h, &k, 5000), 0);
	v = hist__sorted(h, &n);
	ck_assert_uint_eq(n, 3);	/* by pointer while adding */
	ck_assert_int_eq(hist__collapse(h), 0);
	v = hist__sorted(h, &n);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(v[0].key.comm, "bash");
	ck_assert_uint_eq(v[0].period, 10000);
	ck_assert_uint_eq(v[0].nr_samples, 1000);
	ck_assert_str_eq(v[1].key.comm, "perf");
	ck_assert_uint_eq(hist__total_period(h), 15000);
	ck_assert_uint_eq(hist__total_samples(h), 1001);
	/* adding after sorting still finds the entries */
	k.comm = "perf";
	ck_assert_int_eq(hist__add(h, &k, 1), 0);
	hist__sorted(h, &n);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(hist_sort__parse("dso"), HIST_SORT_DSO);
	ck_assert_int_eq(hist_sort__parse("nope"), -1);
	hist__delete(h);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("perfdata-threads");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int nf;

	tcase_add_test(tc, test_comm_override_and_fork);
	tcase_add_test(tc, test_maps);
	tcase_add_test(tc, test_space_versions);
	tcase_add_test(tc, test_fork_maps_own);
	tcase_add_test(tc, test_map_layout);
	tcase_add_test(tc, test_generation);
	tcase_add_test(tc, test_hist);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
