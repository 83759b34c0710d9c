// SPDX-License-Identifier: GPL-2.0
#include <check.h>

#include "skip.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "schedlens/kallsyms.h"

static char *write_tmp(const char *text)
{
	static char path[64];
	int fd;

	snprintf(path, sizeof(path), "/tmp/test-kallsyms-XXXXXX");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

START_TEST(test_lookup)
{
	char *p = write_tmp("ffffffff81000000 T _stext\n"
			    "ffffffff81000100 t ttwu_queue_wakelist\n"
			    "ffffffff81002000 D some_data\n"
			    "ffffffff81000050 T resched_curr\n"
			    "ffffffffc0001000 t mod_fn\t[kvm]\n");
	struct errbuf e = { "" };
	struct kallsyms *k = kallsyms__load(p, &e);
	const struct ksym *s;
	char buf[64];

	unlink(p);
	ck_assert_msg(k != NULL, "%s", e.msg);
	ck_assert_uint_eq(kallsyms__nr(k), 4);	/* data symbol skipped */
	s = kallsyms__find(k, 0xffffffff8100011dull);
	ck_assert_str_eq(s->name, "ttwu_queue_wakelist");
	ck_assert_str_eq(kallsyms__module(k, s), "");
	/* sorted although out of order in the file */
	ck_assert_str_eq(kallsyms__find(k, 0xffffffff81000060ull)->name, "resched_curr");
	ck_assert_str_eq(kallsyms__module(k, kallsyms__find(k, 0xffffffffc0001004ull)), "kvm");
	ck_assert_ptr_null(kallsyms__find(k, 0xffffffff80000000ull));
	ck_assert_ptr_null(kallsyms__find(k, 0xffffffffc1001000ull));
	ck_assert_str_eq(kallsyms__snprint(k, 0xffffffff8100011dull, true, buf, sizeof(buf)),
			 "ttwu_queue_wakelist+0x1d");
	ck_assert_str_eq(kallsyms__snprint(k, 0, true, buf, sizeof(buf)), "0x0");
	ck_assert_str_eq(kallsyms__snprint(k, 0x1234, false, buf, sizeof(buf)), "0x1234");
	ck_assert_ptr_eq(kallsyms__by_name(k, "resched_curr"),
			 kallsyms__find(k, 0xffffffff81000050ull));
	kallsyms__delete(k);
}
END_TEST

START_TEST(test_errors)
{
	struct errbuf e = { "" };
	char *p;

	ck_assert_ptr_null(kallsyms__load("/nonexistent", &e));
	ck_assert_str_eq(e.msg, "cannot open '/nonexistent': No such file or directory");
	p = write_tmp("0000000000000000 T _stext\n0000000000000000 t foo\n");
	ck_assert_ptr_null(kallsyms__load(p, &e));
	ck_assert_ptr_nonnull(strstr(e.msg, "kptr_restrict"));
	unlink(p);
	p = write_tmp("garbage\n");
	ck_assert_ptr_null(kallsyms__load(p, &e));
	ck_assert_ptr_nonnull(strstr(e.msg, "line 1"));
	unlink(p);
}
END_TEST

START_TEST(test_proc)
{
	struct errbuf e = { "" };
	struct kallsyms *k = kallsyms__load(NULL, &e);
	const struct ksym *s;

	if (!k) {
		ck_skip("%s", e.msg);
	}
	/* every named function resolves back to itself from inside its body */
	s = kallsyms__by_name(k, "schedule");
	ck_assert_ptr_nonnull(s);
	ck_assert_str_eq(kallsyms__find(k, s->addr + 1)->name, "schedule");
	kallsyms__delete(k);
}
END_TEST

static void same_sym(const struct kallsyms *ka, const struct ksym *a, const struct kallsyms *kb,
		     const struct ksym *b, uint64_t addr)
{
	ck_assert_msg((a == NULL) == (b == NULL), "0x%llx: %s vs %s", (unsigned long long)addr,
		      a ? a->name : "none", b ? b->name : "none");
	if (!a)
		return;
	ck_assert_msg(a->addr == b->addr && !strcmp(a->name, b->name) &&
		      !strcmp(kallsyms__module(ka, a), kallsyms__module(kb, b)), "0x%llx: %s vs %s",
		      (unsigned long long)addr, a->name, b->name);
}

/* every text address of @path, and the ones next to it, resolve in @part as in @full */
static size_t compare(const char *path, const struct kallsyms *full, const struct kallsyms *part,
		      size_t every)
{
	unsigned long long addr;
	char type, line[512];
	size_t n = 0, i = 0;
	FILE *f = fopen(path, "r");
	int d;

	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c", &addr, &type) != 2 || !strchr("tTwW", type) ||
		    i++ % every)
			continue;
		for (d = -1; d <= 1; d++) {
			uint64_t a = (uint64_t)addr + (uint64_t)(int64_t)d;

			if (!kallsyms__covers(part, a))
				continue;
			same_sym(full, kallsyms__find(full, a), part, kallsyms__find(part, a), a);
			n++;
		}
	}
	fclose(f);
	return n;
}

START_TEST(test_upto)
{
	char *p = write_tmp("ffffffff81000000 T _stext\n"
			    "ffffffff81000000 T _text\n"
			    "ffffffff81000100 t ttwu_queue_wakelist\n"
			    "ffffffff81000180 D some_data\n"
			    "ffffffff81000200 T resched_curr\n"
			    "ffffffff81000300 T update_curr\n"
			    "ffffffff81000400 T _etext\n"
			    "ffffffffc0001000 t mod_fn\t[kvm]\n"
			    "ffffffffc0000000 t mod_first\t[kvm]\n");
	struct errbuf e = { "" };
	struct kallsyms *full = kallsyms__load(p, &e), *k;

	ck_assert_msg(full != NULL, "%s", e.msg);
	/* stops at the first text symbol past the address */
	k = kallsyms__load_upto(p, 0xffffffff81000210ull, &e);
	ck_assert_msg(k != NULL, "%s", e.msg);
	ck_assert_uint_eq(kallsyms__nr(k), 5);
	ck_assert(kallsyms__covers(k, 0xffffffff810002ffull));
	ck_assert(!kallsyms__covers(k, 0xffffffff81000300ull));
	ck_assert(!kallsyms__covers(k, 0xffffffff80000000ull));
	ck_assert_str_eq(kallsyms__find(k, 0xffffffff81000210ull)->name, "resched_curr");
	ck_assert_str_eq(kallsyms__find(k, 0xffffffff81000000ull)->name, "_text");
	ck_assert_ptr_null(kallsyms__find(k, 0xffffffff81000300ull));
	ck_assert_uint_gt(compare(p, full, k, 1), 0);
	/* a module address: the modules are out of order, the whole file is read and sorted */
	ck_assert_int_eq(kallsyms__extend(k, 0xffffffffc0000010ull, &e), 0);
	ck_assert_uint_eq(kallsyms__nr(k), kallsyms__nr(full));
	ck_assert(kallsyms__covers(k, 0));
	ck_assert_str_eq(kallsyms__find(k, 0xffffffffc0000010ull)->name, "mod_first");
	ck_assert_uint_eq(compare(p, full, k, 1), 3 * 8);
	kallsyms__delete(k);
	/* below the first symbol: only the whole file can tell */
	k = kallsyms__load_upto(p, 0x1000, &e);
	ck_assert_uint_eq(kallsyms__nr(k), kallsyms__nr(full));
	ck_assert_ptr_null(kallsyms__find(k, 0x1000));
	kallsyms__delete(k);
	kallsyms__delete(full);
	unlink(p);
	/* errors are the same as the whole file's */
	p = write_tmp("ffffffff81000000 T _stext\ngarbage\n");
	ck_assert_ptr_null(kallsyms__load_upto(p, 0xffffffff81000010ull, &e));
	ck_assert_ptr_nonnull(strstr(e.msg, "line 2"));
	unlink(p);
}
END_TEST

/* the lines of @path hashed (FNV-1a), and its text lines counted in *@text */
static uint64_t file_sum(const char *path, size_t *text)
{
	uint64_t h = 0xcbf29ce484222325ull;
	unsigned long long addr;
	char type, line[512];
	const char *c;
	FILE *f = fopen(path, "r");

	ck_assert_ptr_nonnull(f);
	*text = 0;
	while (fgets(line, sizeof(line), f)) {
		for (c = line; *c; c++)
			h = (h ^ (unsigned char)*c) * 0x100000001b3ull;
		*text += sscanf(line, "%llx %c", &addr, &type) == 2 && strchr("tTwW", type);
	}
	fclose(f);
	return h;
}

START_TEST(test_upto_proc)
{
	struct errbuf e = { "" };
	struct kallsyms *full = NULL, *k = NULL, *k2;
	const struct ksym *s;
	size_t n, text = 0, text2;
	uint64_t sum;
	int try;

	/*
	 * /proc/kallsyms changes while the machine runs (a BPF program or a module loaded: systemd
	 * starting a unit with a device policy or IP filter loads one): the three reads compared
	 * are of one content, the file's before and after them. k stays partial, k2 is extended.
	 */
	for (try = 0;; try++) {
		sum = file_sum("/proc/kallsyms", &text);
		full = kallsyms__load(NULL, &e);
		if (!full) {
			ck_skip("%s", e.msg);
		}
		s = kallsyms__by_name(full, "update_curr") ?: kallsyms__by_name(full, "schedule");
		ck_assert_ptr_nonnull(s);
		k = kallsyms__load_upto(NULL, s->addr + 1, &e);
		ck_assert_msg(k != NULL, "%s", e.msg);
		k2 = kallsyms__load_upto(NULL, s->addr + 1, &e);
		ck_assert_msg(k2 != NULL, "%s", e.msg);
		ck_assert_int_eq(kallsyms__extend(k2, ~0ull, &e), 0);
		if (file_sum("/proc/kallsyms", &text2) == sum)
			break;
		fprintf(stderr, "/proc/kallsyms changed while read (%zu text lines, then %zu): again\n",
			text, text2);
		kallsyms__delete(k);
		kallsyms__delete(k2);
		kallsyms__delete(full);
		if (try == 4) {
			ck_skip("/proc/kallsyms changed while read, 5 times");
		}
	}
	ck_assert(kallsyms__covers(k, s->addr + 1));
	same_sym(full, kallsyms__find(full, s->addr + 1), k, kallsyms__find(k, s->addr + 1),
		 s->addr + 1);
	n = compare("/proc/kallsyms", full, k, 7);
	fprintf(stderr, "upto %s: %zu of %zu symbols read, %zu addresses agree\n", s->name,
		kallsyms__nr(k), kallsyms__nr(full), n);
	/* further on, up to the last symbol (a module's, if any) */
	ck_assert_uint_eq(kallsyms__nr(k2), kallsyms__nr(full));
	n = compare("/proc/kallsyms", full, k2, 7);
	ck_assert_uint_gt(n, 3 * kallsyms__nr(full) / 7 / 2);
	/* every text line made it, across the buffers the file took */
	ck_assert_uint_eq(kallsyms__nr(full), text);
	kallsyms__delete(k);
	kallsyms__delete(k2);
	kallsyms__delete(full);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("kallsyms");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int nf;

	tcase_add_test(tc, test_lookup);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_proc);
	tcase_add_test(tc, test_upto);
	tcase_add_test(tc, test_upto_proc);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
