// SPDX-License-Identifier: GPL-2.0
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "schedlens/origin.h"

static const uint8_t id_a[20] = { 0x85, 0xc7, 0xe4, 0xe2, 1, 2, 3 };
static const uint8_t id_b[20] = { 0xa3, 0xe4, 0xcd, 0x60, 1, 2, 3 };

static const struct origin_facts here = {
	.hostname = "vm", .os_release = "6.18.44-v1045", .build_id = id_b,
	.build_id_size = 20, .kernel_text = 0xffffffff81000000ull,
};

START_TEST(test_build_id_decides)
{
	struct origin_facts in = here;
	struct origin o;

	/* the same release, another build: another kernel, whatever the release says */
	in.build_id = id_a;
	origin__compare(&o, &in, &here);
	ck_assert_int_eq(o.kernel, ORIGIN_OTHER);
	ck_assert(!origin__kallsyms_apply(&o));
	ck_assert(!origin__same_machine(&o));
	ck_assert_msg(strstr(o.why, "build-id 85c7e4e2..") && strstr(o.why, "build-id a3e4cd60.."),
		      "%s", o.why);

	/* another release string, the same build-id: this kernel (a release is only a name) */
	in = here;
	in.os_release = "6.18.44-v782";
	origin__compare(&o, &in, &here);
	ck_assert_int_eq(o.kernel, ORIGIN_BOOT);
	ck_assert(origin__kallsyms_apply(&o));
}
END_TEST

START_TEST(test_boot)
{
	struct origin_facts in = here;
	struct origin o;
	char buf[512];

	origin__compare(&o, &in, &here);
	ck_assert_int_eq(o.kernel, ORIGIN_BOOT);
	ck_assert(origin__same_machine(&o));
	ck_assert_ptr_null(origin__warning(&o, "x not used", buf, sizeof(buf)));

	/* this build, moved by KASLR at another boot: kallsyms would name wrong symbols */
	in.kernel_text = 0xffffffff9a000000ull;
	origin__compare(&o, &in, &here);
	ck_assert_int_eq(o.kernel, ORIGIN_BUILD);
	ck_assert(!origin__kallsyms_apply(&o));
	ck_assert(origin__same_machine(&o));
	ck_assert_ptr_nonnull(origin__warning(&o, "x not used", buf, sizeof(buf)));
	ck_assert_msg(strstr(buf, "another boot") && strstr(buf, ": x not used"), "%s", buf);

	/* no kernel map in the input: where the text was is not known */
	in.kernel_text = 0;
	origin__compare(&o, &in, &here);
	ck_assert_int_eq(o.kernel, ORIGIN_BUILD);
	ck_assert(!origin__kallsyms_apply(&o));
}
END_TEST

START_TEST(test_release_last_resort)
{
	struct origin_facts in = { .hostname = "vm", .os_release = "6.18.44-v1045" };
	struct origin o;

	origin__compare(&o, &in, &here);
	ck_assert_int_eq(o.kernel, ORIGIN_RELEASE);
	ck_assert(!origin__kallsyms_apply(&o));
	ck_assert(origin__same_machine(&o));

	in.os_release = "6.1.0-57-cloud-amd64";
	origin__compare(&o, &in, &here);
	ck_assert_int_eq(o.kernel, ORIGIN_OTHER);
	ck_assert_msg(strstr(o.why, "6.1.0-57-cloud-amd64"), "%s", o.why);

	/* nothing said: unknown, never applied */
	memset(&in, 0, sizeof(in));
	origin__compare(&o, &in, &here);
	ck_assert_int_eq(o.kernel, ORIGIN_UNKNOWN);
	ck_assert(!origin__kallsyms_apply(&o));
	ck_assert(o.same_host);

	in.hostname = "elsewhere";
	origin__compare(&o, &in, &here);
	ck_assert(!o.same_host);
	ck_assert(!origin__same_machine(&o));
}
END_TEST

START_TEST(test_live)
{
	struct origin o;

	origin__live(&o);
	ck_assert(origin__kallsyms_apply(&o));
	ck_assert(origin__same_machine(&o));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("origin");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int nf;

	tcase_add_test(tc, test_build_id_decides);
	tcase_add_test(tc, test_boot);
	tcase_add_test(tc, test_release_last_resort);
	tcase_add_test(tc, test_live);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
