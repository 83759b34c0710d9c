// SPDX-License-Identifier: GPL-2.0
/* One DSO: its ELF through libdwfl, a sorted function table and a per-address lookup cache. */
#include <dwarf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "schedlens/kallsyms.h"
#include "schedlens/machine.h"
#include "symbols-int.h"

struct sym_dso *sym_dso__new(const char *name, const char *path, bool kernel)
{
	struct sym_dso *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->name = strdup(name);
	d->path = strdup(path);
	if (!d->name || !d->path) {
		sym_dso__delete(d);
		return NULL;
	}
	d->kernel = kernel;
	d->own_fd = -1;
	return d;
}

void sym_dso__delete(struct sym_dso *d)
{
	if (!d)
		return;
	if (d->dwfl)
		dwfl_end(d->dwfl);
	if (d->own_fd >= 0)
		close(d->own_fd);
	free(d->loads);
	free(d->fns);
	free(d->all);
	free(d->cache);
	sym_cache__close(d);
	free(d->cache_id);
	free(d->cache_ident);
	free(d->name);
	free(d->path);
	free(d);
}

/* entries in the first section of @type, -1 when there is none */
/* whether the file @a@b@c@d is there */
static bool exists(const char *a, const char *b, const char *c, const char *d)
{
	char path[2 * PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s%s%s%s", a, b, c, d);
	return !access(path, F_OK);
}

/* whether a debuglink file @link of @file_name is where dwfl_standard_find_debuginfo() looks */
static bool debuglink_here(const char *file_name, const char *link)
{
	const char *slash = strrchr(file_name, '/');
	char dir[PATH_MAX], name[NAME_MAX + 8];
	size_t dlen = slash ? (size_t)(slash - file_name) : 0;

	if (dlen >= sizeof(dir))
		return true;		/* (cannot tell: look) */
	if (!link) {
		snprintf(name, sizeof(name), "%s.debug", slash ? slash + 1 : file_name);
		link = name;
	}
	memcpy(dir, file_name, dlen);
	dir[dlen] = '\0';
	return exists(dir, "/", link, "") || exists(dir, "/.debug/", link, "") ||
	       exists("/usr/lib/debug", dir, "/", link) || exists("/usr/lib/debug/", link, "", "");
}

int sym_find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
		       const char *file_name, const char *debuglink_file, GElf_Word debuglink_crc,
		       char **debuginfo_file_name)
{
	const char *urls = getenv("DEBUGINFOD_URLS");
	int fd;

	if (urls && *urls)
		return dwfl_standard_find_debuginfo(mod, userdata, modname, base, file_name,
						    debuglink_file, debuglink_crc,
						    debuginfo_file_name);
	fd = dwfl_build_id_find_debuginfo(mod, userdata, modname, base, file_name, debuglink_file,
					  debuglink_crc, debuginfo_file_name);
	if (fd >= 0 || !file_name || !debuglink_here(file_name, debuglink_file))
		return fd;
	return dwfl_standard_find_debuginfo(mod, userdata, modname, base, file_name,
					    debuglink_file, debuglink_crc, debuginfo_file_name);
}

static long section_entries(Elf *elf, GElf_Word type)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == type)
			return sh.sh_entsize ? (long)(sh.sh_size / sh.sh_entsize) : 0;
	return -1;
}

static int load_phdrs(struct sym_dso *d, Elf *elf)
{
	size_t n, i;
	GElf_Phdr ph;

	if (elf_getphdrnum(elf, &n))
		return 0;
	d->loads = calloc(n ? n : 1, sizeof(*d->loads));
	if (!d->loads)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		if (gelf_getphdr(elf, i, &ph) && ph.p_type == PT_LOAD)
			d->loads[d->nr_loads++] = ph;
	return 0;
}

static bool build_id_matches(struct sym_dso *d)
{
	const unsigned char *bits;
	GElf_Addr vaddr;
	int n;

	if (!d->build_id_size)
		return true;
	n = dwfl_module_build_id(d->mod, &bits, &vaddr);
	if (n <= 0)
		return true;
	return (size_t)n >= d->build_id_size && !memcmp(bits, d->build_id, d->build_id_size);
}

/* report @path to a fresh Dwfl; false when it cannot be opened as an ELF */
static bool open_elf(struct symbols *s, struct sym_dso *d, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return false;
	d->dwfl = dwfl_begin(&s->cb);
	if (!d->dwfl) {
		close(fd);
		return false;
	}
	dwfl_report_begin(d->dwfl);
	/* dwfl owns fd from here; base 0 with p_vaddr added keeps ELF addresses as they are */
	d->mod = dwfl_report_elf(d->dwfl, d->name, path, fd, 0, true);
	dwfl_report_end(d->dwfl, NULL, NULL);
	if (!d->mod) {
		dwfl_end(d->dwfl);
		d->dwfl = NULL;
		return false;
	}
	return true;
}

/*
 * @path opened as @d's file: true when it is an ELF of the recorded build (any, where the
 * recording names none); @d->path then names it
 */
static bool open_checked(struct symbols *s, struct sym_dso *d, const char *path)
{
	char *p;

	if (!open_elf(s, d, path))
		return false;
	if (!build_id_matches(d)) {
		dwfl_end(d->dwfl);
		d->dwfl = NULL;
		d->mod = NULL;
		d->mismatch = true;
		return false;
	}
	if (path != d->path && strcmp(path, d->path)) {
		p = strdup(path);
		if (p) {
			free(d->path);
			d->path = p;
		}
	}
	return true;
}

/*
 * perf's build-id cache ($PERF_BUILDID_DIR, else ~/.debug): .build-id/xx/yyyy links to the
 * directory perf record kept the file in, as "elf" ("vdso" for the vDSO); older perfs linked
 * the file itself
 */
static bool open_perf_cache(struct symbols *s, struct sym_dso *d)
{
	static const char *const names[] = { "/elf", "/vdso", "" };
	const char *dir = getenv("PERF_BUILDID_DIR"), *home = getenv("HOME");
	char path[4096];
	struct stat st;
	size_t i;
	int n;

	if (!d->build_id_size || d->kernel)
		return false;
	if (dir && *dir)
		n = snprintf(path, sizeof(path) - 128, "%s/.build-id/", dir);
	else if (home && *home)
		n = snprintf(path, sizeof(path) - 128, "%s/.debug/.build-id/", home);
	else
		return false;
	if (n < 0 || n >= (int)sizeof(path) - 128)
		return false;
	n += sprintf(path + n, "%02x/", d->build_id[0]);
	for (i = 1; i < d->build_id_size; i++)
		n += sprintf(path + n, "%02x", d->build_id[i]);
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		strcpy(path + n, names[i]);
		if (!stat(path, &st) && S_ISREG(st.st_mode) && open_checked(s, d, path))
			return true;
	}
	return false;
}

/* [vdso] of a recording made on this boot: this process's own, copied into a memfd */
static bool open_own_vdso(struct symbols *s, struct sym_dso *d)
{
	unsigned char id[20];
	const void *image;
	char path[64];
	size_t len;
	int fd;

	machine__vdso(&image, &len, id, sizeof(id));
	if (!s->cfg.this_kernel || !image)
		return false;
	fd = memfd_create("schedlens-vdso", MFD_CLOEXEC);
	if (fd < 0)
		return false;
	if (write(fd, image, len) != (ssize_t)len) {
		close(fd);
		return false;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (!open_checked(s, d, path)) {
		close(fd);
		return false;
	}
	d->own_fd = fd;
	return true;
}

/* the vDSO's image: the recording's copy (FILE.vdso), perf's build-id cache, this boot's */
static bool open_vdso(struct symbols *s, struct sym_dso *d)
{
	return (s->vdso && open_checked(s, d, s->vdso)) || open_perf_cache(s, d) ||
	       open_own_vdso(s, d);
}

void sym_build_id_debug_path(char *buf, size_t len, const char *symfs, const uint8_t *id,
			     size_t n)
{
	size_t at = snprintf(buf, len, "%s/usr/lib/debug/.build-id/%02x/", symfs, id[0]), i;

	for (i = 1; i < n && at + 3 < len; i++)
		at += snprintf(buf + at, len - at, "%02x", id[i]);
	if (at < len)
		snprintf(buf + at, len - at, ".debug");
}

static bool open_by_build_id(struct symbols *s, struct sym_dso *d)
{
	char path[4096];

	if (d->build_id_size < 2 || d->kernel)
		return false;
	sym_build_id_debug_path(path, sizeof(path), s->symfs, d->build_id, d->build_id_size);
	return open_elf(s, d, path);
}

/*
 * The persistent cache's name for @d and what its file must match: a user DSO by the build-id
 * of the file read, the kernel by its kallsyms file (kallsyms__identity(): /proc/kallsyms by
 * the boot and the modules loaded too); either checked against the file's path, inode, size
 * and mtime (strip keeps the build-id).
 */
static void cache_open(struct symbols *s, struct sym_dso *d)
{
	char id[2 * 64 + 1], ident[4096 + 128];
	const unsigned char *bits;
	GElf_Addr vaddr;
	struct stat st;
	int n, i;

	if (!s->cache_dir)
		return;
	if (d->kernel) {
		if (kallsyms__identity(s->kallsyms, ident, sizeof(ident)))
			return;
	} else {
		if (stat(d->path, &st) || !S_ISREG(st.st_mode))
			return;
		sym_file_ident(d->path, &st, ident, sizeof(ident));
	}
	if (d->kernel) {
		snprintf(id, sizeof(id), "kallsyms-%016llx",
			 (unsigned long long)sym_hash(ident, strlen(ident), SYM_HASH_SEED));
	} else {
		n = dwfl_module_build_id(d->mod, &bits, &vaddr);
		if (n < 4 || n > 64)
			return;
		for (i = 0; i < n; i++)
			sprintf(id + 2 * i, "%02x", bits[i]);
	}
	d->cache_id = strdup(id);
	d->cache_ident = strdup(ident);
	if (!d->cache_id || !d->cache_ident) {
		free(d->cache_id);
		d->cache_id = NULL;
		return;
	}
	sym_cache__read(s, d, d->cache_ident);
}

/*
 * A JIT's /tmp/perf-PID.map (perf's jit-interface.txt): a line a function, "START SIZE
 * NAME", both hex; the functions by address, as the file of an ELF's symbol table
 */
static void open_perfmap(struct symbols *s, struct sym_dso *d)
{
	FILE *f = s->cfg.elsewhere ? NULL : fopen(d->path, "re");
	size_t alloc = 0, j, k;
	char line[4096];

	d->loaded = true;
	d->status = s->cfg.elsewhere ? SYM_DSO_ELSEWHERE : SYM_DSO_NO_JIT_MAP;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long start, size;
		const char *name;
		int n = 0;

		line[strcspn(line, "\n")] = '\0';
		if (sscanf(line, "%llx %llx %n", &start, &size, &n) != 2 || !n || !line[n])
			continue;
		name = sym_intern(s->strs, line + n);
		if (d->nr_fns == alloc) {
			struct sym_fn *v = realloc(d->fns, (alloc = alloc ? 2 * alloc : 256) *
						   sizeof(*v));

			if (!v || !name)
				break;
			d->fns = v;
		}
		d->fns[d->nr_fns] = (struct sym_fn){ start, start + size, name,
						     (uint32_t)d->nr_fns, STB_GLOBAL };
		d->nr_fns++;
	}
	fclose(f);
	qsort(d->fns, d->nr_fns, sizeof(*d->fns), sym_fn__by_start);
	for (j = 1, k = 0; j < d->nr_fns; j++)	/* a later entry at one address wins */
		d->fns[d->fns[j].start == d->fns[k].start ? k : ++k] = d->fns[j];
	d->nr_fns = d->nr_fns ? k + 1 : 0;
	d->status = SYM_DSO_OK;
}

/*
 * A DSO its cache file answers for: its ELF (what opening it had read of its build-id and
 * program headers is kept) goes until a lookup the file does not hold needs its symbols or
 * DWARF (sym_dso__load()). libelf maps the whole file, and the pages it read stay resident:
 * on the bench's system-wide recording 46 files, 3.6 MB of `report --children`'s 44 MB.
 */
static void park(struct sym_dso *d)
{
	dwfl_end(d->dwfl);
	d->dwfl = NULL;
	d->mod = NULL;
	d->parked = true;
}

/* the parked ELF of @d reported again; false (and no symbols past the cache) when it is
 * not there any more or another build */
static bool unpark(struct symbols *s, struct sym_dso *d)
{
	d->parked = false;
	if (open_checked(s, d, d->path))
		return true;
	d->status = d->mismatch ? SYM_DSO_BUILD_ID_MISMATCH : SYM_DSO_NOT_ELF;
	d->loaded = true;
	return false;
}

void sym_dso__open(struct symbols *s, struct sym_dso *d)
{
	Dwarf_Addr bias;
	Elf *elf;

	if (d->opened)
		return;
	d->opened = true;
	if (d->perfmap) {
		open_perfmap(s, d);
		return;
	}
	if (!d->kernel && !strcmp(d->name, "[vdso]")) {
		if (!open_vdso(s, d)) {
			d->status = d->mismatch ? SYM_DSO_BUILD_ID_MISMATCH : SYM_DSO_NOT_ELF;
			d->loaded = true;
			return;
		}
		goto opened;
	}
	if (!d->kernel && (d->name[0] == '[' || !strncmp(d->name, "//anon", 6) ||
			   !strncmp(d->name, "/dev/", 5) || !strncmp(d->name, "/memfd:", 7) ||
			   !strncmp(d->name, "anon_inode:", 11))) {
		d->status = SYM_DSO_NOT_ELF;
		d->loaded = true;
		return;
	}
	if (!d->kernel && s->cfg.elsewhere) {	/* perf's cache has files by build-id alone */
		if (open_perf_cache(s, d))
			goto opened;
		d->status = SYM_DSO_ELSEWHERE;
		d->loaded = true;
		return;
	}
	if (d->kernel && !s->vmlinux) {
		d->status = s->kallsyms ? SYM_DSO_KALLSYMS : SYM_DSO_KERNEL_NO_MAP;
		d->loaded = !s->kallsyms;
		if (s->kallsyms)
			cache_open(s, d);
		return;
	}
	if (!open_checked(s, d, d->path) && !open_perf_cache(s, d) && !open_by_build_id(s, d)) {
		d->status = d->mismatch ? SYM_DSO_BUILD_ID_MISMATCH :
			    access(d->path, F_OK) ? SYM_DSO_MISSING : SYM_DSO_NOT_ELF;
		d->loaded = true;
		return;
	}
	if (!build_id_matches(d)) {	/* the separate debug file found by build-id */
		dwfl_end(d->dwfl);
		d->dwfl = NULL;
		d->mod = NULL;
		d->status = SYM_DSO_BUILD_ID_MISMATCH;
		d->loaded = true;
		return;
	}
opened:
	d->loaded = true;	/* unless all goes well below */
	elf = dwfl_module_getelf(d->mod, &bias);
	if (!elf || load_phdrs(d, elf)) {
		d->status = SYM_DSO_NOT_ELF;
		return;
	}
	if (d->kernel) {
		uint64_t vtext = 0;
		int i, n = dwfl_module_getsymtab(d->mod);

		for (i = 1; i < n && !vtext; i++) {
			GElf_Sym sym;
			const char *nm = dwfl_module_getsym(d->mod, i, &sym, NULL);

			if (nm && !strcmp(nm, s->ktext_sym[0] ? s->ktext_sym : "_text"))
				vtext = sym.st_value;
		}
		if (vtext && s->ktext)
			d->kdelta = (int64_t)(vtext - s->ktext);
	}
	d->status = SYM_DSO_OK;
	d->loaded = false;
	if (!d->kernel && d->own_fd < 0)
		cache_open(s, d);
	if (d->cfile && !d->kernel && d->own_fd < 0)
		park(d);
}

void sym_dso__load(struct symbols *s, struct sym_dso *d)
{
	Dwarf_Addr bias;
	Elf *elf;

	sym_dso__open(s, d);
	if (d->loaded || (d->parked && !unpark(s, d)))
		return;
	d->loaded = true;
	if (d->kernel && !s->vmlinux) {
		/* kallsyms is read as far as the addresses looked up need (kernel_sym()) */
		d->status = s->kallsyms ? SYM_DSO_KALLSYMS : SYM_DSO_KERNEL_NO_MAP;
		return;
	}
	elf = dwfl_module_getelf(d->mod, &bias);
	/*
	 * Without .symtab, libdwfl takes the symbols of a separate debug file (build-id,
	 * debuglink) when there is one: more symbols than .dynsym has. DWARF (decompressing it
	 * can cost more than the whole report) waits for the first line lookup.
	 */
	if (d->status == SYM_DSO_OK && section_entries(elf, SHT_SYMTAB) < 0 &&
	    dwfl_module_getsymtab(d->mod) <= section_entries(elf, SHT_DYNSYM) &&
	    strcmp(d->name, "[vdso]"))	/* the vDSO's own table is its dynamic one */
		d->status = SYM_DSO_STRIPPED;
	if (sym_dso__load_fns(s, d))
		d->status = SYM_DSO_NOT_ELF;
}

uint64_t sym_dso__off_to_addr(const struct sym_dso *d, uint64_t off)
{
	size_t i;

	for (i = 0; i < d->nr_loads; i++) {
		const GElf_Phdr *ph = &d->loads[i];

		if (off >= ph->p_offset && off < ph->p_offset + ph->p_memsz)
			return off - ph->p_offset + ph->p_vaddr;
	}
	return off;
}

uint64_t sym_dso__addr_to_off(const struct sym_dso *d, uint64_t addr)
{
	size_t i;

	for (i = 0; i < d->nr_loads; i++) {
		const GElf_Phdr *ph = &d->loads[i];

		if (addr >= ph->p_vaddr && addr < ph->p_vaddr + ph->p_memsz)
			return addr - ph->p_vaddr + ph->p_offset;
	}
	return addr;
}

static int32_t find_fn(const struct sym_dso *d, uint64_t a)
{
	size_t lo = 0, hi = d->nr_fns;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (d->fns[mid].start <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || a >= d->fns[lo - 1].end)
		return -1;
	return (int32_t)(lo - 1);
}

int sym_dso__reserve(struct sym_dso *d, size_t nr)
{
	size_t nmask = d->cache_mask ? d->cache_mask : 127, i, j;
	struct sym_cache_ent *n;

	while (nr * 2 >= nmask) {
		if (nmask > SIZE_MAX / 4 / sizeof(*n))
			return -ENOMEM;
		nmask = nmask * 2 + 1;
	}
	if (nmask == d->cache_mask)
		return 0;
	n = calloc(nmask + 1, sizeof(*n));
	if (!n)
		return -ENOMEM;
	for (j = 0; d->cache && j <= d->cache_mask; j++) {
		struct sym_cache_ent *e = &d->cache[j];

		if (!e->state)
			continue;
		for (i = sym_hash64(e->key) & nmask; n[i].state; i = (i + 1) & nmask)
			;
		n[i] = *e;
	}
	free(d->cache);
	d->cache = n;
	d->cache_mask = nmask;
	return 0;
}

struct sym_cache_ent *sym_dso__slot(struct sym_dso *d, uint64_t key)
{
	size_t i;

	if (d->cache_used * 2 >= d->cache_mask && sym_dso__reserve(d, d->cache_used + 1))
		return NULL;
	for (i = sym_hash64(key) & d->cache_mask; d->cache[i].state; i = (i + 1) & d->cache_mask)
		if (d->cache[i].key == key)
			return &d->cache[i];
	sym_cache__import(d, key, &d->cache[i]);
	return &d->cache[i];
}

static const char *innermost_inline(struct sym_dso *d, uint64_t a)
{
	Dwarf_Addr bias;
	Dwarf_Die *cu = dwfl_module_addrdie(d->mod, a, &bias), *scopes = NULL;
	const char *name = NULL;
	int n, i;

	if (!cu)
		return NULL;
	n = dwarf_getscopes(cu, a - bias, &scopes);
	for (i = 0; i < n && !name; i++)
		if (dwarf_tag(&scopes[i]) == DW_TAG_inlined_subroutine)
			name = dwarf_diename(&scopes[i]);
	free(scopes);
	return name;
}

/*
 * binutils' addr2line names a function that starts at a symbol by a symbol there, less a
 * GCC clone's suffix (intel_check_word for intel_check_word.constprop.0): which of several
 * aliases it takes is its own choice; "__GI_" and the DWARF name, else the DWARF name, else
 * the first is what it takes for 93% of glibc's (functions of one name agree). Code DWARF
 * has no function for (assembly with lines) gets the symbol covering it, else the nearest
 * below (the kernel's label __x86_indirect_thunk_r12 inside the sized
 * __x86_indirect_thunk_array, as addr2line asked that address alone says), its suffix kept
 * (inode_needs_update_time.part.0, a part GCC gave no DWARF function).
 */
static const char *a2l_name(struct symbols *s, struct sym_dso *d, uint64_t lowpc,
			    const char *dwname, uint64_t a)
{
	size_t n, i, j;
	const struct sym_fn *f = dwname ? sym_dso__aliases(d, lowpc, false, &n) :
				 sym_dso__aliases(d, a, true, &n);
	int32_t near = !n && !dwname ? find_fn(d, a) : -1;
	const char *name, *dot;
	char buf[512];

	if (!n && near < 0)
		return dwname ?: "??";
	name = n ? f[0].name : d->fns[near].name;
	snprintf(buf, sizeof(buf), "__GI_%s", dwname ?: "");
	for (j = 0; dwname && j < 2; j++) {
		for (i = 0; i < n && strcmp(f[i].name, j ? dwname : buf); i++)
			;
		if (i < n) {
			name = f[i].name;
			break;
		}
	}
	dot = strchr(name, '.');
	if (!dot || dot == name || !dwname)	/* no DWARF function: the symbol as it is */
		return name;
	snprintf(buf, sizeof(buf), "%.*s", (int)(dot - name), name);
	return sym_intern(s->strs, buf) ?: name;
}

/*
 * An assembly CU (gas's DWARF) has a subprogram for each alias of a function, all over one
 * range (glibc's mprotect: __mprotect, __GI___mprotect, mprotect, __GI_mprotect); binutils'
 * addr2line takes the last of them, libdw's scopes the first. The name of the last one over
 * the range of @fn, else @fn's.
 */
static const char *asm_alias_name(Dwarf_Die *cu, Dwarf_Die *fn)
{
	Dwarf_Addr lo, hi, l2, h2;
	const char *name = dwarf_diename(fn);
	Dwarf_Die die;

	if (dwarf_srclang(cu) != DW_LANG_Mips_Assembler || dwarf_lowpc(fn, &lo) ||
	    dwarf_highpc(fn, &hi) || dwarf_child(cu, &die))
		return name;
	do {
		if (dwarf_tag(&die) == DW_TAG_subprogram && !dwarf_lowpc(&die, &l2) &&
		    !dwarf_highpc(&die, &h2) && l2 == lo && h2 == hi && dwarf_diename(&die))
			name = dwarf_diename(&die);
	} while (!dwarf_siblingof(&die, &die));
	return name;
}

/*
 * The name of inlined function @die as binutils gives it: its linkage name where a C
 * function has one (glibc's hidden aliases: _IO_doallocbuf inlined is __GI__IO_doallocbuf,
 * the name its asm label gives it), else its name. (In C++ the linkage name is mangled:
 * there, the name.)
 */
static const char *inline_name(Dwarf_Die *cu, Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	const char *name;
	int lang = dwarf_srclang(cu);

	if ((lang == DW_LANG_C89 || lang == DW_LANG_C || lang == DW_LANG_C99 ||
	     lang == DW_LANG_C11 || lang == 0x2c /* DW_LANG_C17 */) &&
	    dwarf_attr_integrate(die, DW_AT_linkage_name, &attr) &&
	    (name = dwarf_formstring(&attr)))
		return name;
	return dwarf_diename(die);
}

size_t sym_dso__inlines(struct symbols *s, struct sym_dso *d, uint64_t key, const char **names,
			size_t max)
{
	uint64_t a = key + d->kdelta;
	Dwarf_Die *cu, *scopes = NULL;
	Dwarf_Addr bias;
	size_t nr = 0;
	int n, i;

	if (!d->mod || !max || !dwfl_module_getsrc(d->mod, a))
		return 0;	/* addr2line's "??:0": no frames */
	cu = dwfl_module_addrdie(d->mod, a, &bias);
	n = cu ? dwarf_getscopes(cu, a - bias, &scopes) : 0;
	if (n > 0) {	/* its callers as the tree nests them, as binutils follows them */
		Dwarf_Die inner = scopes[0];

		free(scopes);
		scopes = NULL;
		n = dwarf_getscopes_die(&inner, &scopes);
	}
	for (i = 0; i < n && nr < max; i++) {
		int tag = dwarf_tag(&scopes[i]);

		Dwarf_Addr lowpc;

		if (tag == DW_TAG_inlined_subroutine)
			names[nr++] = (cu ? inline_name(cu, &scopes[i]) : NULL) ?: "??";
		if (tag != DW_TAG_subprogram)
			continue;
		names[nr++] = dwarf_lowpc(&scopes[i], &lowpc) ? dwarf_diename(&scopes[i]) ?: "??" :
			      a2l_name(s, d, lowpc + bias - d->kdelta,
				       asm_alias_name(cu, &scopes[i]), key);
		break;
	}
	free(scopes);
	if (i == n && nr < max)	/* no function in DWARF */
		names[nr++] = a2l_name(s, d, 0, NULL, key);
	return nr;
}

static void resolve_line(struct symbols *s, struct sym_dso *d, struct sym_cache_ent *e)
{
	uint64_t a = e->key + d->kdelta;
	Dwfl_Line *l = dwfl_module_getsrc(d->mod, a);
	int lineno = 0;

	if (l) {
		e->file = sym_intern(s->strs, dwfl_lineinfo(l, NULL, &lineno, NULL, NULL, NULL));
		e->line = lineno > 0 ? (uint32_t)lineno : 0;
	}
}

/*
 * The kallsyms symbol holding @addr: the file read only up to where @addr resolves as with
 * the whole of it (the core kernel's text comes first, in address order), read on for later
 * addresses. When it cannot be read the kernel stays unresolved.
 */
static const struct ksym *ks_find(struct symbols *s, uint64_t addr)
{
	if (!s->kallsyms)
		return NULL;
	if (!s->ks)
		s->ks = kallsyms__load_upto(s->kallsyms, addr, &s->ks_err);
	else if (!kallsyms__covers(s->ks, addr) && kallsyms__extend(s->ks, addr, &s->ks_err))
		return NULL;
	return s->ks ? kallsyms__find(s->ks, addr) : NULL;
}

static const struct ksym *kernel_sym(struct symbols *s, struct sym_dso *d, uint64_t addr)
{
	const struct ksym *k;

	if (d->status != SYM_DSO_KALLSYMS)
		return NULL;
	k = ks_find(s, addr);
	if (!s->ks)
		d->status = SYM_DSO_KERNEL_NO_MAP;
	return k;
}

/* a kernel address past the vmlinux's text (a module's): the kallsyms symbol, if any */
static const struct ksym *module_sym(struct symbols *s, struct sym_dso *d, uint64_t addr)
{
	if (!d->kernel || !d->mod || !d->nr_fns ||
	    (addr >= d->fns[0].start && addr < d->fns[d->nr_fns - 1].end))
		return NULL;
	return ks_find(s, addr);
}

/* what the cache entry lacks of @need, from the symbol table, kallsyms and DWARF */
static void resolve(struct symbols *s, struct sym_dso *d, struct sym_cache_ent *e,
		    unsigned int need)
{
	if (!(e->state & SYM_ENT_SYM)) {
		int32_t fn = find_fn(d, e->key);
		const struct ksym *ks = d->kernel ? kernel_sym(s, d, e->key) : NULL;

		if (!ks && fn < 0)
			ks = module_sym(s, d, e->key);
		if (ks) {
			e->sym = sym_intern(s->strs, ks->name);
			e->sym_start = ks->addr;
		} else if (fn >= 0) {
			e->sym = d->kernel || d->perfmap ? sym_intern(s->strs, d->fns[fn].name) :
							   sym_demangle(s, d->fns[fn].name);
			e->sym_start = d->fns[fn].start;
		}
	}
	if ((need & SYM_ENT_LINE) && !(e->state & SYM_ENT_LINE)) {
		if (d->mod && !d->dwarf_checked) {
			Dwarf_Addr bias;

			d->dwarf_checked = true;
			if (!dwfl_module_getdwarf(d->mod, &bias) && d->status == SYM_DSO_OK)
				d->status = SYM_DSO_NO_DEBUGINFO;
		}
		if (d->mod && d->status == SYM_DSO_OK)
			resolve_line(s, d, e);
	}
	if ((need & SYM_ENT_INL) && !(e->state & SYM_ENT_INL) && d->mod &&
	    d->status == SYM_DSO_OK)
		e->inl = sym_intern(s->strs, innermost_inline(d, e->key + d->kdelta));
	e->state |= need;
	d->dirty = true;
}

void sym_dso__lookup(struct symbols *s, struct sym_dso *d, uint64_t key, bool lines,
		     struct sym_loc *out)
{
	unsigned int need = SYM_ENT_SYM;
	struct sym_cache_ent *e, tmp = { 0 };

	if (lines)
		need |= SYM_ENT_LINE | (s->cfg.inlines ? SYM_ENT_INL : 0);
	sym_dso__open(s, d);
	e = sym_dso__slot(d, key);
	if (!e)
		e = &tmp;
	if ((e->state & need) != need) {
		sym_dso__load(s, d);
		if (!d->nr_fns && !d->mod && !(d->kernel && d->status == SYM_DSO_KALLSYMS))
			return;
		if (!e->state && e != &tmp)
			d->cache_used++;
		e->key = key;
		resolve(s, d, e, need);
	}
	e->state |= SYM_ENT_USED;
	out->sym = e->sym;
	out->sym_start = e->sym_start;
	if (lines) {
		out->srcfile = e->file;
		out->line = e->line;
		out->inl = e->inl;
	}
}
