// SPDX-License-Identifier: GPL-2.0
/* Threads, comms and maps from a record stream, after perf's machine.c/thread.c/maps.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedlens/threads.h"
#include "schedlens/util.h"

/*
 * The maps of an address space, in an array a forked process shares with its parent until
 * either changes (copied then: a fork of 800 processes copies none of the arrays where none
 * maps anything more)
 */
struct tmap_vec {
	size_t refs;
	struct tmap v[];
};

struct maps {
	size_t refs;
	uint64_t version;	/* another with each change, unique in the process (next_version()) */
	uint64_t layout;	/* another when a map is cut or replaced (threads__map_layout()) */
	struct tmap_vec *vec;
	struct tmap *v;		/* vec->v: sorted by start, non-overlapping */
	size_t nr, alloc;	/* alloc: vec's room */
	size_t last;		/* lookup cache */
};

#define PH_LEN 64

struct thread {
	int32_t pid, tid;
	const char *comm;
	char *ph;		/* the ":tid" placeholder, renamed in place by the first comm */
	bool comm_set;
	struct maps *maps;
	struct thread *next;	/* hash chain */
};

struct strtab {
	char **v;
	size_t nr, alloc;	/* open addressing */
};

struct threads {
	char **phs;		/* every placeholder: hist entries may point at them */
	size_t nr_phs, alloc_phs;
	struct thread **tab;
	size_t nr, alloc;
	struct thread *last;
	struct maps kmaps;
	uint64_t kmaps_gen;	/* bumped when a kernel map is added or changed */
	uint64_t gen;		/* threads__generation() */
	int (*observer)(void *ctx, const struct stream_mmap *m, struct tmap *map);
	void *observer_ctx;
	struct strtab strs;
};

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

const char *threads__intern(struct threads *t, const char *s)
{
	struct strtab *st = &t->strs;
	size_t i;

	if (st->nr * 2 >= st->alloc) {
		size_t n = st->alloc ? st->alloc * 2 : 1024, j;
		char **v = calloc(n, sizeof(*v));

		if (!v)
			return NULL;
		for (j = 0; j < st->alloc; j++) {
			if (!st->v[j])
				continue;
			i = hash_str(st->v[j]) & (n - 1);
			while (v[i])
				i = (i + 1) & (n - 1);
			v[i] = st->v[j];
		}
		free(st->v);
		st->v = v;
		st->alloc = n;
	}
	i = hash_str(s) & (st->alloc - 1);
	while (st->v[i]) {
		if (!strcmp(st->v[i], s))
			return st->v[i];
		i = (i + 1) & (st->alloc - 1);
	}
	st->v[i] = strdup(s);
	if (!st->v[i])
		return NULL;
	st->nr++;
	return st->v[i];
}

/* versions of address spaces: one counter for all, so that a freed one's never returns */
static uint64_t next_version(void)
{
	static uint64_t last;

	return __atomic_add_fetch(&last, 1, __ATOMIC_RELAXED);
}

static struct maps *maps__new(void)
{
	struct maps *m = calloc(1, sizeof(*m));

	if (m) {
		m->refs = 1;
		m->version = next_version();
		m->layout = m->version;
	}
	return m;
}

static void vec__put(struct tmap_vec *vec)
{
	if (vec && !--vec->refs)
		free(vec);
}

static void maps__put(struct maps *m)
{
	if (m && !--m->refs) {
		vec__put(m->vec);
		free(m);
	}
}

/* another address space with @src's maps: its array shared until one of them changes */
static struct maps *maps__clone(const struct maps *src)
{
	struct maps *m = maps__new();

	if (!m || !src->nr)
		return m;
	m->vec = src->vec;
	m->vec->refs++;
	m->v = src->v;
	m->nr = src->nr;
	m->alloc = src->alloc;
	return m;
}

/* first map with end > addr */
static size_t maps__lower(const struct maps *m, uint64_t addr)
{
	size_t lo = 0, hi = m->nr;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (m->v[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static const struct tmap *maps__find(struct maps *m, uint64_t addr)
{
	size_t i;

	if (m->last < m->nr && m->v[m->last].start <= addr && addr < m->v[m->last].end)
		return &m->v[m->last];
	i = maps__lower(m, addr);
	if (i < m->nr && m->v[i].start <= addr) {
		m->last = i;
		return &m->v[i];
	}
	return NULL;
}

/* room for @extra more maps in an array of @m's own */
static int maps__reserve(struct maps *m, size_t extra)
{
	struct tmap_vec *vec;
	size_t n;

	if (m->nr + extra <= m->alloc && m->vec->refs == 1)
		return 0;
	n = m->nr + extra > m->alloc ? (m->nr + extra) * 2 : m->alloc;
	if (m->vec && m->vec->refs > 1) {	/* shared: a copy */
		vec = malloc(sizeof(*vec) + n * sizeof(vec->v[0]));
		if (!vec)
			return -ENOMEM;
		memcpy(vec->v, m->v, m->nr * sizeof(*m->v));
		vec->refs = 1;
		m->vec->refs--;
	} else {
		vec = realloc(m->vec, sizeof(*vec) + n * sizeof(vec->v[0]));
		if (!vec)
			return -ENOMEM;
		if (!m->vec)
			vec->refs = 1;
	}
	m->vec = vec;
	m->v = vec->v;
	m->alloc = n;
	return 0;
}

/* insert, cutting what it overlaps (perf's maps__fixup_overlappings) */
static int maps__insert(struct maps *m, const struct tmap *nm)
{
	size_t i, j, k;
	struct tmap keep[2];
	int nk;

	if (nm->end <= nm->start || maps__reserve(m, 2))
		return nm->end <= nm->start ? 0 : -ENOMEM;
	i = maps__lower(m, nm->start);
	j = i;
	nk = 0;
	while (j < m->nr && m->v[j].start < nm->end) {
		struct tmap *o = &m->v[j];

		if (o->start < nm->start) {
			keep[nk] = *o;
			keep[nk++].end = nm->start;
		}
		if (o->end > nm->end && nk < 2) {
			keep[nk] = *o;
			if (!o->identity)
				keep[nk].pgoff += nm->end - o->start;
			keep[nk++].start = nm->end;
		}
		j++;
	}
	if (j > i)	/* maps cut or replaced */
		m->layout = next_version();
	/* replace v[i..j) with keep-before, nm, keep-after */
	k = nk + 1;
	memmove(&m->v[i + k], &m->v[j], (m->nr - j) * sizeof(*m->v));
	m->nr = m->nr - (j - i) + k;
	if (nk && keep[0].start < nm->start) {
		m->v[i++] = keep[0];
		m->v[i++] = *nm;
		if (nk > 1)
			m->v[i] = keep[1];
	} else {
		m->v[i++] = *nm;
		if (nk)
			m->v[i] = keep[0];
	}
	m->last = 0;
	m->version = next_version();
	return 0;
}

static uint64_t tid_hash(int32_t tid, size_t alloc)
{
	return ((uint32_t)tid * 2654435761u) & (alloc - 1);
}

static struct thread *find_thread(struct threads *t, int32_t tid)
{
	struct thread *th;

	if (t->last && t->last->tid == tid)
		return t->last;
	for (th = t->tab[tid_hash(tid, t->alloc)]; th; th = th->next)
		if (th->tid == tid)
			return t->last = th;
	return NULL;
}

static void remove_thread(struct threads *t, struct thread *th)
{
	struct thread **pp = &t->tab[tid_hash(th->tid, t->alloc)];

	while (*pp && *pp != th)
		pp = &(*pp)->next;
	if (*pp)
		*pp = th->next;
	if (t->last == th)
		t->last = NULL;
	maps__put(th->maps);
	free(th);
	t->nr--;
	t->gen++;
}

static int grow(struct threads *t)
{
	size_t n = t->alloc * 2, i;
	struct thread **tab = calloc(n, sizeof(*tab));

	if (!tab)
		return -ENOMEM;
	for (i = 0; i < t->alloc; i++) {
		struct thread *th = t->tab[i], *next;

		for (; th; th = next) {
			next = th->next;
			th->next = tab[tid_hash(th->tid, n)];
			tab[tid_hash(th->tid, n)] = th;
		}
	}
	free(t->tab);
	t->tab = tab;
	t->alloc = n;
	return 0;
}

static struct thread *findnew(struct threads *t, int32_t pid, int32_t tid)
{
	struct thread *th = find_thread(t, tid), *leader;

	if (th) {
		if (th->pid == -1 && pid != -1 && pid != tid) {
			th->pid = pid;
			leader = findnew(t, pid, pid);
			if (leader && leader != th) {
				maps__put(th->maps);
				th->maps = leader->maps;
				th->maps->refs++;
				t->gen++;
			}
		}
		return th;
	}
	if (t->nr >= t->alloc && grow(t))
		return NULL;
	th = calloc(1, sizeof(*th));
	if (!th)
		return NULL;
	th->pid = pid;
	th->tid = tid;
	if (t->nr_phs == t->alloc_phs) {
		size_t n = t->alloc_phs ? t->alloc_phs * 2 : 256;
		char **v = realloc(t->phs, n * sizeof(*v));

		if (!v) {
			free(th);
			return NULL;
		}
		t->phs = v;
		t->alloc_phs = n;
	}
	th->ph = malloc(PH_LEN);
	if (!th->ph) {
		free(th);
		return NULL;
	}
	t->phs[t->nr_phs++] = th->ph;
	snprintf(th->ph, PH_LEN, ":%d", tid);
	th->comm = th->ph;
	if (pid == tid || pid == -1) {
		th->maps = maps__new();
	} else {
		leader = findnew(t, pid, pid);
		if (leader) {
			th->maps = leader->maps;
			th->maps->refs++;
		}
	}
	if (!th->maps || !th->comm) {
		maps__put(th->maps);
		free(th);
		return NULL;
	}
	th->next = t->tab[tid_hash(tid, t->alloc)];
	t->tab[tid_hash(tid, t->alloc)] = th;
	t->nr++;
	return t->last = th;
}

struct threads *threads__new(void)
{
	struct threads *t = calloc(1, sizeof(*t));
	struct thread *idle;

	if (!t)
		return NULL;
	t->alloc = 1024;
	t->tab = calloc(t->alloc, sizeof(*t->tab));
	t->kmaps.refs = 1;
	t->kmaps.version = next_version();
	if (!t->tab)
		goto out_free;
	idle = findnew(t, 0, 0);
	if (!idle || threads__comm(t, 0, 0, "swapper", false))
		goto out_free;
	return t;
out_free:
	threads__delete(t);
	return NULL;
}

void threads__delete(struct threads *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; t->tab && i < t->alloc; i++) {
		struct thread *th = t->tab[i], *next;

		for (; th; th = next) {
			next = th->next;
			maps__put(th->maps);
			free(th);
		}
	}
	free(t->tab);
	vec__put(t->kmaps.vec);
	for (i = 0; i < t->nr_phs; i++)
		free(t->phs[i]);
	free(t->phs);
	for (i = 0; i < t->strs.alloc; i++)
		free(t->strs.v[i]);
	free(t->strs.v);
	free(t);
}

/* perf's __thread__set_comm: the first comm overrides the placeholder, so samples taken
 * before it show the new name too (comm__override) */
static int set_comm(struct threads *t, struct thread *th, const char *comm)
{
	if (!th->comm_set && th->comm == th->ph) {
		snprintf(th->ph, PH_LEN, "%s", comm);
	} else {
		th->comm = threads__intern(t, comm);
		if (!th->comm)
			return -ENOMEM;
	}
	th->comm_set = true;
	return 0;
}

int threads__comm(struct threads *t, uint32_t pid, uint32_t tid, const char *comm, bool exec)
{
	bool known = find_thread(t, (int32_t)tid);
	struct thread *th = findnew(t, pid, tid);

	if (known)
		t->gen++;	/* a name a lookup of it gave changes */
	return th ? set_comm(t, th, comm) : -ENOMEM;
}

int threads__task(struct threads *t, const struct stream_task *tk, uint16_t misc)
{
	struct thread *th, *parent;
	bool fresh;

	if (!tk->fork)
		return 0;
	parent = findnew(t, tk->ppid, tk->ptid);
	if (parent && parent->pid != (int32_t)tk->ppid) {
		remove_thread(t, parent);
		parent = findnew(t, tk->ppid, tk->ptid);
	}
	th = find_thread(t, tk->tid);	/* after the parent's fix-up, which may free it */
	/* a new process no lookup has named yet: what it gets changes no earlier answer */
	fresh = !th && tk->pid == tk->tid;
	if (th && th != parent)
		remove_thread(t, th);
	th = findnew(t, tk->pid, tk->tid);
	if (!th || !parent)
		return -ENOMEM;
	if (th == parent)
		return 0;
	if (parent->comm_set && set_comm(t, th, parent->comm))
		return -ENOMEM;
	if (th->pid != parent->pid && th->maps != parent->maps && !(misc & (1 << 13))) {
		struct maps *m = maps__clone(parent->maps);

		if (!m)
			return -ENOMEM;
		maps__put(th->maps);
		th->maps = m;
		if (!fresh)
			t->gen++;
	}
	return 0;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static int kernel_mmap(struct threads *t, const struct stream_mmap *m, struct tmap *nm)
{
	char name[256];

	nm->identity = true;
	if (!strncmp(m->filename, "[kernel.kallsyms]", 17) ||
	    !strncmp(m->filename, "[guest.kernel.kallsyms", 22)) {
		nm->dso = threads__intern(t, "[kernel.kallsyms]");
		if (!m->len && !m->start)
			nm->end = ~0ULL;
	} else if (m->filename[0] == '/' || m->filename[0] == '[') {
		const char *b = base_name(m->filename);
		size_t n = strcspn(b, ".");
		char *p;

		if (b[0] == '[')
			snprintf(name, sizeof(name), "%s", b);
		else
			snprintf(name, sizeof(name), "[%.*s]", (int)(n < 200 ? n : 200), b);
		for (p = name; *p; p++)
			if (*p == '-')
				*p = '_';
		nm->dso = threads__intern(t, name);
		nm->identity = false;
		nm->pgoff = 0;
	} else {
		return 1;
	}
	return nm->dso ? 0 : -ENOMEM;
}

int threads__mmap(struct threads *t, const struct stream_mmap *m)
{
	uint16_t cpumode = m->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	struct tmap nm = { .start = m->start, .end = m->start + m->len, .pgoff = m->pgoff };
	char name[64];
	struct thread *th;
	int ret;

	if (nm.end < nm.start)
		nm.end = ~0ULL;
	nm.path = threads__intern(t, m->filename);
	if (!nm.path)
		return -ENOMEM;
	t->gen++;
	if (cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL) {
		const struct tmap *o;

		if (t->observer && (ret = t->observer(t->observer_ctx, m, NULL)))
			return ret;
		ret = kernel_mmap(t, m, &nm);
		if (ret)
			return ret > 0 ? 0 : ret;
		o = maps__find(&t->kmaps, nm.start);
		/* the same map again (each copy of a file's records brings it) changes nothing */
		if (o && o->start == nm.start && o->end == nm.end && o->pgoff == nm.pgoff &&
		    o->dso == nm.dso && o->path == nm.path && o->identity == nm.identity)
			return 0;
		t->kmaps_gen++;
		return maps__insert(&t->kmaps, &nm);
	}
	th = findnew(t, m->pid, m->tid);
	if (!th)
		return -ENOMEM;
	if (!strcmp(m->filename, "//anon") || !strncmp(m->filename, "/dev/zero", 9) ||
	    !strncmp(m->filename, "/anon_hugepage", 14)) {
		nm.identity = true;
		if (m->prot & 4 /* PROT_EXEC */ || m->misc == PERF_RECORD_MISC_USER) {
			/* perf names JIT code by the symbol map a JIT writes for it */
			snprintf(name, sizeof(name), "/tmp/perf-%d.map", (int)m->pid);
			nm.path = threads__intern(t, name);
			snprintf(name, sizeof(name), "[JIT] tid %d", (int)m->pid);
			nm.dso = threads__intern(t, name);
		} else {
			nm.dso = nm.path;
		}
	} else if (!strncmp(m->filename, "[stack", 6) || !strncmp(m->filename, "/SYSV", 5) ||
		   !strcmp(m->filename, "[heap]")) {
		nm.identity = true;
		nm.dso = nm.path;
	} else {
		nm.dso = threads__intern(t, base_name(m->filename));
	}
	if (!nm.dso)
		return -ENOMEM;
	if (t->observer && (ret = t->observer(t->observer_ctx, m, &nm)))
		return ret;
	return maps__insert(th->maps, &nm);
}

void threads__observe(struct threads *t,
		      int (*fn)(void *ctx, const struct stream_mmap *m, struct tmap *map), void *ctx)
{
	t->observer = fn;
	t->observer_ctx = ctx;
}

uint64_t threads__generation(const struct threads *t)
{
	return t->gen;
}

const struct tmap *threads__map(struct threads *t, uint32_t pid, uint64_t addr)
{
	struct thread *th = find_thread(t, (int32_t)pid);

	return th && th->maps ? maps__find(th->maps, addr) : NULL;
}

int threads__space(struct threads *t, uint32_t pid, uint32_t tid, uint16_t cpumode,
		   uint64_t v[2])
{
	struct thread *th;

	v[0] = v[1] = 0;
	if (cpumode == PERF_RECORD_MISC_KERNEL) {
		v[0] = t->kmaps.version;
		return 0;
	}
	th = findnew(t, pid, tid);
	if (!th)
		return -ENOMEM;
	v[0] = th->maps ? th->maps->version : 0;
	v[1] = threads__map_space(t, pid, cpumode);
	return 0;
}

uint64_t threads__map_space(struct threads *t, uint32_t pid, uint16_t cpumode)
{
	struct thread *th;

	if (cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL)
		return t->kmaps.version;
	th = find_thread(t, (int32_t)pid);
	return th && th->maps ? th->maps->version : 0;
}

uint64_t threads__map_layout(struct threads *t, uint32_t pid)
{
	struct thread *th = find_thread(t, (int32_t)pid);

	return th && th->maps ? th->maps->layout : 0;
}

uint64_t threads__kmaps_gen(const struct threads *t)
{
	return t->kmaps_gen;
}

const char *threads__comm_now(struct threads *t, uint32_t tid)
{
	struct thread *th = find_thread(t, (int32_t)tid);

	return th ? th->comm : NULL;
}

const char *threads__comm_of(struct threads *t, uint32_t pid, uint32_t tid)
{
	struct thread *th = findnew(t, pid, tid);

	return th ? th->comm : NULL;
}

int threads__resolve(struct threads *t, uint32_t pid, uint32_t tid, uint16_t misc,
		     uint64_t addr, struct taddr *out)
{
	uint16_t cpumode = misc & PERF_RECORD_MISC_CPUMODE_MASK;
	struct thread *th = findnew(t, pid, tid);

	if (!th)
		return -ENOMEM;
	out->comm = th->comm;
	out->map = NULL;
	out->addr = addr;
	if (cpumode == PERF_RECORD_MISC_KERNEL) {
		out->level = 'k';
		out->map = maps__find(&t->kmaps, addr);
	} else if (cpumode == PERF_RECORD_MISC_USER) {
		out->level = '.';
		out->map = maps__find(th->maps, addr);
	} else {
		out->level = 'H';
	}
	if (out->map && !out->map->identity)
		out->addr = addr - out->map->start + out->map->pgoff;
	return 0;
}
