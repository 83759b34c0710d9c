// SPDX-License-Identifier: GPL-2.0
/*
 * A DSO's symbol table as perf 6.1 builds it (symbol-elf.c dso__load_sym(),
 * dso__synthesize_plt_symbols(); symbol.c symbols__fixup_end(), symbols__fixup_duplicate()),
 * so that an address gets the name perf gives it: functions, objects and labels (named
 * NOTYPE symbols in a text or data section), a "NAME@plt" for each .plt entry, a size for
 * those without one up to the next symbol, and of aliases at one address the one perf keeps.
 */
#include <errno.h>
#include <libiberty/demangle.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#undef ARRAY_SIZE	/* libiberty.h's, the same as util.h's */
#include "symbols-int.h"

const char *sym_demangle(struct symbols *s, const char *name)
{
	const char *at, *ret;
	char buf[1024], *dm;
	size_t n;

	if (s->cfg.no_demangle || name[0] != '_' || name[1] != 'Z')
		return sym_intern(s->strs, name) ?: name;
	at = strchr(name, '@');
	n = at ? (size_t)(at - name) : strlen(name);
	if (n >= sizeof(buf))
		return sym_intern(s->strs, name) ?: name;
	memcpy(buf, name, n);
	buf[n] = '\0';
	dm = cplus_demangle(buf, DMGL_NO_OPTS);
	if (!dm)
		return sym_intern(s->strs, name) ?: name;
	snprintf(buf, sizeof(buf), "%s%s", dm, at ? at : "");
	free(dm);
	ret = sym_intern(s->strs, buf);
	return ret ? ret : sym_intern(s->strs, name) ?: name;
}

static int add(struct sym_dso *d, size_t *alloc, uint64_t start, uint64_t size,
	       const char *name, uint8_t bind)
{
	struct sym_fn *f;

	if (d->nr_fns == *alloc) {
		size_t n = *alloc ? *alloc * 2 : 256;

		f = realloc(d->fns, n * sizeof(*f));
		if (!f)
			return -ENOMEM;
		d->fns = f;
		*alloc = n;
	}
	f = &d->fns[d->nr_fns];
	*f = (struct sym_fn){ start, start + size, name, (uint32_t)d->nr_fns, bind };
	d->nr_fns++;
	return 0;
}

static bool section_named(Elf *elf, GElf_Word shndx, GElf_Shdr *sh, const char **name)
{
	Elf_Scn *scn = elf_getscn(elf, shndx);
	size_t strndx;

	if (!scn || !gelf_getshdr(scn, sh) || elf_getshdrstrndx(elf, &strndx))
		return false;
	*name = elf_strptr(elf, strndx, sh->sh_name);
	return *name != NULL;
}

/* elf_sym__filter() or elf_sym__is_label(), in a section that is loaded */
static bool wanted(const GElf_Sym *sym, Elf *elf, GElf_Word shndx)
{
	int type = GELF_ST_TYPE(sym->st_info), vis = GELF_ST_VISIBILITY(sym->st_other);
	bool label = type == STT_NOTYPE && vis != STV_HIDDEN && vis != STV_INTERNAL;
	const char *sec;
	GElf_Shdr sh;

	if (shndx == SHN_UNDEF || shndx == SHN_ABS)
		return false;
	if (!label && type != STT_FUNC && type != STT_GNU_IFUNC && type != STT_OBJECT)
		return false;
	if (!section_named(elf, shndx, &sh, &sec) || !(sh.sh_flags & SHF_ALLOC))
		return false;
	return !label || strstr(sec, "text") || strstr(sec, "data");
}

static Elf_Scn *section_by_name(Elf *elf, const char *name, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;
	size_t strndx;
	const char *n;

	if (elf_getshdrstrndx(elf, &strndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, sh) && (n = elf_strptr(elf, strndx, sh->sh_name)) &&
		    !strcmp(n, name))
			return scn;
	return NULL;
}

/* dso__synthesize_plt_symbols(): entry i of .plt (after its header) is reloc i's "NAME@plt" */
static int add_plt(struct symbols *s, struct sym_dso *d, size_t *alloc)
{
	GElf_Shdr rel, plt, dyn;
	Elf_Data *rdata, *syms, *strs;
	Dwarf_Addr bias;
	Elf *elf = dwfl_module_getelf(d->mod, &bias);
	Elf_Scn *rscn, *dscn;
	uint64_t at, i, nr;
	char name[1024];

	if (!elf)
		return 0;
	rscn = section_by_name(elf, ".rela.plt", &rel);
	if (!rscn)
		rscn = section_by_name(elf, ".rel.plt", &rel);
	dscn = rscn ? elf_getscn(elf, rel.sh_link) : NULL;
	if (!dscn || !gelf_getshdr(dscn, &dyn) || dyn.sh_type != SHT_DYNSYM ||
	    !section_by_name(elf, ".plt", &plt) || !rel.sh_entsize || !plt.sh_entsize)
		return 0;
	rdata = elf_getdata(rscn, NULL);
	syms = elf_getdata(dscn, NULL);
	strs = elf_getdata(elf_getscn(elf, dyn.sh_link), NULL);
	if (!rdata || !syms || !strs || !strs->d_size)
		return 0;
	nr = rel.sh_size / rel.sh_entsize;
	at = plt.sh_addr + plt.sh_entsize;	/* x86: the header is one entry */
	for (i = 0; i < nr; i++, at += plt.sh_entsize) {
		GElf_Rela ra;
		GElf_Rel r;
		GElf_Sym sym;
		uint64_t info = rel.sh_type == SHT_RELA ?
				(gelf_getrela(rdata, i, &ra) ? ra.r_info : 0) :
				(gelf_getrel(rdata, i, &r) ? r.r_info : 0);
		const char *n = "";

		if (gelf_getsym(syms, GELF_R_SYM(info), &sym) && sym.st_name < strs->d_size)
			n = (const char *)strs->d_buf + sym.st_name;
		snprintf(name, sizeof(name), "%s@plt", n);
		n = sym_intern(s->strs, name);
		if (!n || add(d, alloc, at - d->kdelta, plt.sh_entsize, n, STB_GLOBAL))
			return -ENOMEM;
	}
	return 0;
}

static size_t underscores(const char *name)
{
	size_t n = 0;

	while (name[n] == '_')
		n++;
	return n;
}

/* in perf's rb-tree order: by address, then as read */
int sym_fn__by_start(const void *a, const void *b)
{
	const struct sym_fn *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/*
 * choose_best_symbol(): of two at one address the one with a size (after the ends are
 * fixed up), then not weak, then global, then with fewer leading underscores, then with
 * the longer name, then the first (__close_nocancel, not __GI___close_nocancel)
 */
static bool better(const struct sym_fn *x, const struct sym_fn *y)
{
	size_t nx, ny;

	if ((x->end > x->start) != (y->end > y->start))
		return x->end > x->start;
	if ((x->bind == STB_WEAK) != (y->bind == STB_WEAK))
		return y->bind == STB_WEAK;
	if ((x->bind == STB_GLOBAL) != (y->bind == STB_GLOBAL))
		return x->bind == STB_GLOBAL;
	nx = underscores(x->name);
	ny = underscores(y->name);
	if (nx != ny)
		return nx < ny;
	return strlen(x->name) > strlen(y->name);
}

int sym_dso__load_fns(struct symbols *s, struct sym_dso *d)
{
	int n = dwfl_module_getsymtab(d->mod), i;
	size_t alloc = 0, j, k;

	for (i = 1; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		GElf_Word shndx;
		Elf *elf;
		Dwarf_Addr bias;
		const char *name = dwfl_module_getsym_info(d->mod, i, &sym, &addr, &shndx, &elf,
							   &bias);

		if (!name || !*name || !addr || !wanted(&sym, elf, shndx))
			continue;
		if (add(d, &alloc, addr - d->kdelta, sym.st_size, name, GELF_ST_BIND(sym.st_info)))
			return -ENOMEM;
	}
	/* dso__load(): a table without a symbol of its own (a stripped program's .dynsym
	 * holds only what it imports) gets no NAME@plt entries either, in perf 6.1 and 6.12 */
	if (d->nr_fns && add_plt(s, d, &alloc))
		return -ENOMEM;
	if (!d->nr_fns)
		return 0;
	qsort(d->fns, d->nr_fns, sizeof(*d->fns), sym_fn__by_start);
	/* symbols__fixup_end(), then symbols__fixup_duplicate() */
	for (j = 0; j + 1 < d->nr_fns; j++)
		if (d->fns[j].end == d->fns[j].start)
			d->fns[j].end = d->fns[j + 1].start;
	if (d->fns[j].end == d->fns[j].start)
		d->fns[j].end = (d->fns[j].start + 4095) / 4096 * 4096 + 4096;
	for (j = 1, k = 0; j < d->nr_fns; j++) {
		if (d->fns[j].start != d->fns[k].start)
			d->fns[++k] = d->fns[j];
		else if (better(&d->fns[j], &d->fns[k]))
			d->fns[k] = d->fns[j];
	}
	d->nr_fns = k + 1;
	return 0;
}

static int read_all(struct sym_dso *d)
{
	int n = dwfl_module_getsymtab(d->mod), i;
	struct sym_fn *f;

	d->all_read = true;
	if (n <= 0)
		return 0;
	d->all = calloc(n, sizeof(*d->all));
	if (!d->all)
		return -ENOMEM;
	for (i = 1; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		const char *name = dwfl_module_getsym_info(d->mod, i, &sym, &addr, NULL, NULL,
							   NULL);
		int type = GELF_ST_TYPE(sym.st_info);

		if (!name || !*name || (type != STT_FUNC && type != STT_GNU_IFUNC))
			continue;
		f = &d->all[d->nr_all];
		*f = (struct sym_fn){ addr - d->kdelta, addr - d->kdelta + sym.st_size, name,
				      (uint32_t)d->nr_all, GELF_ST_BIND(sym.st_info) };
		d->nr_all++;
	}
	qsort(d->all, d->nr_all, sizeof(*d->all), sym_fn__by_start);
	return 0;
}

const struct sym_fn *sym_dso__aliases(struct sym_dso *d, uint64_t a, bool covering, size_t *nr)
{
	size_t lo = 0, hi, first;

	*nr = 0;
	if (!d->all_read && read_all(d))
		return NULL;
	hi = d->nr_all;
	while (lo < hi) {	/* past the last start <= a */
		size_t mid = lo + (hi - lo) / 2;

		if (d->all[mid].start <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || (!covering && d->all[lo - 1].start != a))
		return NULL;
	for (first = lo - 1; first && d->all[first - 1].start == d->all[lo - 1].start; first--)
		;
	for (hi = first; hi < lo && covering; hi++)	/* the first whose size reaches @a */
		if (a < d->all[hi].end)
			break;
	if (covering && hi == lo)
		return NULL;
	if (covering)
		first = hi;
	*nr = lo - first;
	return &d->all[first];
}
