// SPDX-License-Identifier: GPL-2.0
/* data_src decoded as perf 6.1's perf script prints it (strings from perf script -F data_src) */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "schedlens/datasrc.h"

static const struct {
	uint64_t v;
	const char *want;
} cases[] = {
	{ 0, "|OP No|LVL N/A|SNP N/A|TLB N/A|LCK No|BLK  N/A" },
	{ 0x5080021, "|OP N/A|LVL N/A|SNP N/A|TLB N/A|LCK N/A|BLK  N/A" },
	{ 0x28100142, "|OP LOAD|LVL L1 hit|SNP None|TLB L1 hit|LCK No|BLK  N/A" },
	{ 0x28102082, "|OP LOAD|LVL Remote RAM (1 hop) miss|SNP None|TLB L1 hit|LCK No|BLK  N/A" },
	{ 0x2a100142, "|OP LOAD|LVL L1 hit|SNP None|TLB L1 hit|LCK Yes|BLK  N/A" },
	{ 0x84100142, "|OP LOAD|LVL L1 hit|SNP None|TLB N/A or Walker|LCK No|BLK  N/A" },
	{ 0x828100142, "|OP LOAD|LVL L1 or L4 hit|SNP None|TLB L1 hit|LCK No|BLK  N/A" },
	{ 0x1628100022, "|OP LOAD|LVL N/A or Any cache|SNP None|TLB L1 hit|LCK No|BLK  N/A" },
	{ 0xc028100142, "|OP LOAD|LVL L1 hit|SNP None or Fwd or Peer|TLB L1 hit|LCK No|BLK  N/A" },
	{ 0x40028100142, "|OP LOAD|LVL L1 hit|SNP None|TLB L1 hit|LCK No|BLK  Addr" },
	/* hops replace the level bits; the level number follows without " or " */
	{ 0x82628100142,
	  "|OP LOAD|LVL Remote core, same node L3 hit|SNP None|TLB L1 hit|LCK No|BLK  N/A" },
	{ 0x100028100142,
	  "|OP LOAD|LVL node, same socket  hit|SNP None|TLB L1 hit|LCK No|BLK  N/A" },
};

START_TEST(test_decode)
{
	char buf[128];
	size_t n = data_src__scnprintf(buf, sizeof(buf), cases[_i].v);

	ck_assert_str_eq(buf, cases[_i].want);
	ck_assert_uint_eq(n, strlen(cases[_i].want));
}
END_TEST

START_TEST(test_truncate)
{
	char buf[16];

	ck_assert_uint_eq(data_src__scnprintf(buf, sizeof(buf), 0x28100142), 15);
	ck_assert_str_eq(buf, "|OP LOAD|LVL L1");
	ck_assert_uint_eq(data_src__scnprintf(buf, 0, 0), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("datasrc");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int nf;

	tcase_add_loop_test(tc, test_decode, 0, sizeof(cases) / sizeof(cases[0]));
	tcase_add_test(tc, test_truncate);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
