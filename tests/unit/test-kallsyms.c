// SPDX-License-Identifier: GPL-2.0
#include <check.h>
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
	ck_assert_str_eq(s->module, "");
	/* sorted although out of order in the file */
	ck_assert_str_eq(kallsyms__find(k, 0xffffffff81000060ull)->name, "resched_curr");
	ck_assert_str_eq(kallsyms__find(k, 0xffffffffc0001004ull)->module, "kvm");
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
		fprintf(stderr, "skipped: %s\n", e.msg);
		return;
	}
	/* every named function resolves back to itself from inside its body */
	s = kallsyms__by_name(k, "schedule");
	ck_assert_ptr_nonnull(s);
	ck_assert_str_eq(kallsyms__find(k, s->addr + 1)->name, "schedule");
	kallsyms__delete(k);
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
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
