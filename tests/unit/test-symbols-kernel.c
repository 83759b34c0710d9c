// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel through a vmlinux: found as perf finds it (the recording's build-id, --vmlinux,
 * /usr/lib/debug/boot/vmlinux-RELEASE, /usr/lib/debug/.build-id/), refused when its build-id
 * is another kernel's, KASLR's shift, and the inline chain of each address against binutils'
 * addr2line -i -f. The "vmlinux" is a small ELF built here with a _text symbol.
 */
#include <check.h>

#include "skip.h"
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "schedlens/perfdata.h"
#include "schedlens/symbols.h"
#include "schedlens/threads.h"
#include "machine.h"

#define REL "6.1.0-test-amd64"
static const uint64_t shift = 0x2000000;	/* KASLR */
static char dir[PATH_MAX], src[PATH_MAX + 16], elf[PATH_MAX + 16];
static uint8_t bid[20];
static size_t bid_size;
static unsigned long long vtext, vfn, vfn_size;

static void hex(const uint8_t *id, size_t n, char *buf)
{
	size_t i;

	for (i = 0; i < n; i++)
		sprintf(buf + 2 * i, "%02x", id[i]);
	buf[2 * n] = '\0';
}

/* the vmlinux: task_sched_runtime with update_curr inlined into it */
static void setup(void)
{
	char cmd[3 * PATH_MAX], line[512], name[128], id[64];
	unsigned long long a, sz;
	FILE *f;
	size_t i;

	snprintf(dir, sizeof(dir), "/tmp/test-symbols-kernel-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(src, sizeof(src), "%s/core.c", dir);
	snprintf(elf, sizeof(elf), "%s/vmlinux", dir);
	f = fopen(src, "w");
	ck_assert_ptr_nonnull(f);
	fputs("volatile long sink;\n"
	      "void _text(void) {}\n"
	      "static inline __attribute__((always_inline)) void update_curr(long x)\n"
	      "{\n"
	      "\tsink += x * 7;\n"
	      "\tsink ^= x >> 3;\n"
	      "}\n"
	      "__attribute__((noinline)) long task_sched_runtime(long x)\n"
	      "{\n"
	      "\tsink = x;\n"
	      "\tupdate_curr(x);\n"
	      "\treturn sink + 1;\n"
	      "}\n"
	      "int main(int argc, char **argv) { return task_sched_runtime(argc); }\n", f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "gcc -g -O1 -no-pie -Wl,--build-id -o %s %s", elf, src);
	ck_assert_int_eq(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "nm -S %s", elf);
	f = popen(cmd, "r");
	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %llx %*s %127s", &a, &sz, name) == 3 &&
		    !strcmp(name, "task_sched_runtime")) {
			vfn = a;
			vfn_size = sz;
		}
		if (sscanf(line, "%llx %*s %127s", &a, name) == 2 && !strcmp(name, "_text"))
			vtext = a;
		if (sscanf(line, "%llx %*s %*s %127s", &a, name) == 2 && !strcmp(name, "_text"))
			vtext = a;
	}
	pclose(f);
	snprintf(cmd, sizeof(cmd), "readelf -n %s", elf);
	f = popen(cmd, "r");
	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, " Build ID: %63s", id) == 1)
			for (i = 0; id[2 * i] && id[2 * i + 1] && i < sizeof(bid); i++)
				sscanf(id + 2 * i, "%2hhx", &bid[bid_size++]);
	pclose(f);
	ck_assert(vtext && vfn && vfn_size && bid_size == 20);
}

static void teardown(void)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}

/* a session as report sets one up for a file recorded on kernel REL, build-id @id */
static const char *ksyms;	/* the recording's kallsyms, NULL: none */

static struct symbols *session(const char *vmlinux, const char *symfs, const uint8_t *id,
			       struct errbuf *err)
{
	struct symbols_config cfg = { .lines = true, .inlines = true, .vmlinux = vmlinux,
				      .symfs = symfs, .kallsyms = ksyms };
	struct perf_build_id ids[2] = { { .misc = PERF_RECORD_MISC_KERNEL,
					  .filename = "[kernel.kallsyms]", .size = 20 },
					{ .filename = "/usr/bin/true", .size = 20 } };
	struct stream_mmap km = { .pid = (uint32_t)-1, .misc = PERF_RECORD_MISC_KERNEL,
				  .filename = "[kernel.kallsyms]_text" };
	struct stream_info info = { .os_release = REL };
	struct symbols *s;

	memcpy(ids[0].id, id, 20);
	s = symbols__new_input(machine_cfg(&cfg), "/nonexistent.data", &info, ids, 2, err);
	if (!s)
		return NULL;
	km.start = km.pgoff = vtext + shift;
	km.len = 0x1000000;
	ck_assert_int_eq(threads__mmap(machine, &km), 0);
	return s;
}

/* the kernel resolves through the vmlinux: symbol and line at the shifted address */
static void check_resolves(struct symbols *s)
{
	struct sym_loc loc;

	symbols__resolve(s, 0, vfn + shift, PERF_RECORD_MISC_KERNEL, SYM_LINES, &loc);
	ck_assert_ptr_nonnull(loc.sym);
	ck_assert_str_eq(loc.sym, "task_sched_runtime");
	ck_assert_uint_eq(loc.sym_start, vfn + shift);
	ck_assert_ptr_nonnull(loc.srcfile);
	ck_assert_str_eq(loc.srcfile, src);
	ck_assert_int_eq(sym_dso__status(loc.dso), SYM_DSO_OK);
}

static void place(const char *rel)
{
	char cmd[3 * PATH_MAX];

	snprintf(cmd, sizeof(cmd), "mkdir -p %s/$(dirname %s) && cp %s %s/%s", dir, rel, elf, dir,
		 rel);
	ck_assert_int_eq(system(cmd), 0);
}

START_TEST(test_vmlinux_given_checked)
{
	struct errbuf err = { "" };
	uint8_t other[20];
	char want[41], have[41];
	struct symbols *s;

	memcpy(other, bid, 20);
	other[0] ^= 0xff;
	s = session(elf, NULL, other, &err);
	ck_assert_ptr_null(s);
	hex(bid, 20, have);
	hex(other, 20, want);
	ck_assert_msg(strstr(err.msg, "is not the recorded kernel's vmlinux") &&
		      strstr(err.msg, have) && strstr(err.msg, want) && strstr(err.msg, REL),
		      "%s", err.msg);
	ck_assert_msg(!strncmp(err.msg, "'", 1) && strstr(err.msg, elf), "%s", err.msg);

	s = session(elf, NULL, bid, &err);
	ck_assert_msg(s != NULL, "%s", err.msg);
	check_resolves(s);
	del_session(s);
}
END_TEST

START_TEST(test_vmlinux_found)
{
	static const char *const where[] = { "usr/lib/debug/boot/vmlinux-" REL, NULL };
	struct errbuf err = { "" };
	char rel[128], cmd[PATH_MAX + 32], h[41];
	struct sym_loc loc;
	uint8_t other[20];
	struct symbols *s;

	/* nothing under the symfs: the kernel is not resolved */
	s = session(NULL, dir, bid, &err);
	ck_assert_ptr_nonnull(s);
	symbols__resolve(s, 0, vfn + shift, PERF_RECORD_MISC_KERNEL, SYM_LINES, &loc);
	ck_assert_ptr_null(loc.sym);
	del_session(s);

	place(where[0]);
	s = session(NULL, dir, bid, &err);
	ck_assert_ptr_nonnull(s);
	check_resolves(s);
	del_session(s);

	/* a vmlinux there of another build is left alone */
	memcpy(other, bid, 20);
	other[19] ^= 1;
	s = session(NULL, dir, other, &err);
	ck_assert_ptr_nonnull(s);
	symbols__resolve(s, 0, vfn + shift, PERF_RECORD_MISC_KERNEL, SYM_LINES, &loc);
	ck_assert_ptr_null(loc.sym);
	del_session(s);

	/* by build-id only */
	snprintf(cmd, sizeof(cmd), "rm -r %s/usr/lib/debug/boot", dir);
	ck_assert_int_eq(system(cmd), 0);
	hex(bid, 20, h);
	snprintf(rel, sizeof(rel), "usr/lib/debug/.build-id/%.2s/%s.debug", h, h + 2);
	place(rel);
	s = session(NULL, dir, bid, &err);
	ck_assert_ptr_nonnull(s);
	check_resolves(s);
	del_session(s);
}
END_TEST

/* a vmlinux handed to a session whose kernel's build-id differs: addresses only */
START_TEST(test_vmlinux_mismatch_status)
{
	struct symbols_config cfg = { .lines = true, .vmlinux = elf };
	struct symbols *s = session_cfg(&cfg, NULL);
	uint8_t other[20];
	struct sym_loc loc;

	ck_assert_ptr_nonnull(s);
	memcpy(other, bid, 20);
	other[5] ^= 0x10;
	ck_assert_int_eq(symbols__build_id(s, "[kernel.kallsyms]", other, 20), 0);
	symbols__resolve(s, 0, vfn, PERF_RECORD_MISC_KERNEL, SYM_LINES, &loc);
	ck_assert_ptr_null(loc.sym);
	ck_assert_int_eq(sym_dso__status(loc.dso), SYM_DSO_BUILD_ID_MISMATCH);
	del_session(s);
}
END_TEST

/* a kernel address outside the vmlinux (a module's): its kallsyms symbol */
START_TEST(test_vmlinux_module_kallsyms)
{
	char path[PATH_MAX + 16];
	struct errbuf err = { "" };
	struct sym_loc loc;
	struct symbols *s;
	FILE *f;

	snprintf(path, sizeof(path), "%s/kallsyms", dir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "%llx T _text\n%llx T task_sched_runtime\n"
		   "ffffffffc0001000 t virtnet_poll\t[virtio_net]\n"
		   "ffffffffc0001200 t virtnet_open\t[virtio_net]\n",
		vtext + shift, vfn + shift);
	fclose(f);
	ksyms = path;
	s = session(elf, NULL, bid, &err);
	ksyms = NULL;
	ck_assert_msg(s != NULL, "%s", err.msg);
	check_resolves(s);	/* the vmlinux's own addresses stay the vmlinux's */
	symbols__resolve(s, 0, 0xffffffffc0001010ull, PERF_RECORD_MISC_KERNEL, SYM_LINES, &loc);
	ck_assert_ptr_nonnull(loc.sym);
	ck_assert_str_eq(loc.sym, "virtnet_poll");
	ck_assert_uint_eq(loc.sym_start, 0xffffffffc0001000ull);
	ck_assert_ptr_null(loc.srcfile);
	symbols__delete(s);
}
END_TEST

/* each address of task_sched_runtime: line and inline chain as addr2line -i -f gives them */
START_TEST(test_kernel_inlines)
{
	char cmd[PATH_MAX + 64], line[1024], want[8][128], file[PATH_MAX];
	struct errbuf err = { "" };
	unsigned long long a, cur = 0;
	size_t nw = 0, checked = 0, chains = 0;
	unsigned int wline = 0, l;
	struct symbols *s = session(elf, NULL, bid, &err);
	FILE *in, *out;

	ck_assert_msg(s != NULL, "%s", err.msg);
	snprintf(cmd, sizeof(cmd), "addr2line -a -i -f -e %s > %s/a2l", elf, dir);
	in = popen(cmd, "w");
	ck_assert_ptr_nonnull(in);
	for (a = vfn; a < vfn + vfn_size; a++)
		fprintf(in, "0x%llx\n", a);
	ck_assert_int_eq(pclose(in), 0);
	snprintf(cmd, sizeof(cmd), "%s/a2l", dir);
	out = fopen(cmd, "r");
	ck_assert_ptr_nonnull(out);
	for (;;) {
		bool more = fgets(line, sizeof(line), out) != NULL;

		line[strcspn(line, "\n")] = '\0';
		if (!more || sscanf(line, "0x%llx", &a) == 1) {
			if (cur && nw) {
				const char *names[8];
				struct sym_loc loc;
				size_t n, i;

				symbols__resolve(s, 0, cur + shift, PERF_RECORD_MISC_KERNEL,
						 SYM_LINES, &loc);
				n = symbols__inlines(s, &loc, names, 8);
				ck_assert_msg(n == nw, "0x%llx: %zu frames, addr2line %zu", cur, n, nw);
				for (i = 0; i < n; i++)
					ck_assert_str_eq(names[i], want[i]);
				ck_assert_uint_eq(loc.line, wline);
				checked++;
				chains += n > 1;
			}
			if (!more)
				break;
			cur = a;
			nw = 0;
			continue;
		}
		if (nw < 8 && strchr(line, ':') == NULL)
			snprintf(want[nw++], sizeof(want[0]), "%s", line);
		else if (nw == 1 && sscanf(line, "%4095[^:]:%u", file, &l) == 2)
			wline = l;
	}
	fclose(out);
	ck_assert_uint_eq(checked, vfn_size);
	ck_assert_msg(chains > 0, "no address of update_curr inlined into task_sched_runtime");
	del_session(s);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("symbols-kernel");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int nf;

	tcase_set_timeout(tc, 60);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_vmlinux_given_checked);
	tcase_add_test(tc, test_vmlinux_found);
	tcase_add_test(tc, test_vmlinux_mismatch_status);
	tcase_add_test(tc, test_vmlinux_module_kallsyms);
	tcase_add_test(tc, test_kernel_inlines);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf ? EXIT_FAILURE : EXIT_SUCCESS;
}
