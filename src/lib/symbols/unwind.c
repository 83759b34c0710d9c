// SPDX-License-Identifier: GPL-2.0
/*
 * DWARF unwinding of user stacks from samples, with libdwfl (the way perf's unwind-libdw.c
 * uses it): a Dwfl per process, kept while its address space does not change, the mappings
 * the walks reach reported as modules, the sample's registers as the initial frame, stack
 * words from the copy in the sample.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>

#include "schedlens/unwind.h"
#include "symbols-int.h"

/* perf's x86_64 sample register numbers (arch/x86/include/uapi/asm/perf_regs.h) */
enum { R_AX, R_BX, R_CX, R_DX, R_SI, R_DI, R_BP, R_SP, R_IP, R_R8 = 16 };
/* and arm64's (arch/arm64/include/uapi/asm/perf_regs.h): x0-x30 are 0-30, as in DWARF */
enum { A64_SP = 31, A64_PC = 32 };

/*
 * Which machine's registers a sample holds: arm64's have sp and pc at 31 and 32, which x86-64
 * user registers never have (its 32 and up are XMM, sampled in interrupts only).
 */
static bool regs_arm64(const struct stream_sample *s)
{
	return (s->user_regs_mask >> A64_SP & 1) && (s->user_regs_mask >> A64_PC & 1);
}

/* DWARF register n (rax rdx rcx rbx rsi rdi rbp rsp r8..r15 rip) from perf register ... */
static const int dwarf_to_perf[17] = {
	R_AX, R_DX, R_CX, R_BX, R_SI, R_DI, R_BP, R_SP,
	R_R8, R_R8 + 1, R_R8 + 2, R_R8 + 3, R_R8 + 4, R_R8 + 5, R_R8 + 6, R_R8 + 7, R_IP,
};

struct cfi_row;

/* a process's Dwfl, kept across its samples while its address space is unchanged */
struct uw_proc {
	uint32_t pid;
	uint64_t gen;
	Dwfl *dwfl;
	struct walk *w;			/* the walk in progress: the callbacks' argument */
	struct cfi_row *rows;		/* fast_walk()'s, NR_ROWS by pc (NULL: none yet) */
};

#define NR_PROCS 64

struct unwinder {
	unwind_find_map_fn find_map;
	void *ctx;
	char *debuginfo_path;
	Dwfl_Callbacks cb;
	struct uw_proc procs[NR_PROCS];	/* by pid % NR_PROCS */
	bool fast;			/* fast_walk() taken (SCHEDLENS_UNWIND=libdw: not) */
};

/*
 * x86-64's DWARF registers (rax rdx rcx rbx ...: dwarf_to_perf) and the one elfutils' ABI
 * defaults leave out: its x86_64_abi_cfi() gives DW_CFA_same_value to register 0 (%rax) where
 * its comment says %rbx (3), so a frame whose CFI says nothing of %rbx (a function before it
 * saves %rbx) leaves it undefined in the caller, and a caller whose CFA is %rbx-based (glibc's
 * lazy-binding trampoline _dl_runtime_resolve_xsavec, which realigns the stack) is where the
 * walk stops; libunwind (Debian's perf 6.1) goes on, libdw (perf 6.12) stops. The walk is
 * taken up again from that frame with %rbx as the ABI says: the value it had in the callee.
 */
enum { DW_X86_RBX = 3, DW_X86_NR = 17 };
#define NR_RESUMES 4

/* one walk */
struct walk {
	struct unwinder *u;
	Dwfl *dwfl;
	const struct stream_sample *s;
	uint64_t sp;
	uint64_t *ips;
	size_t max, nr;
	/*
	 * x86-64: %rbx as the frames so far leave it (rbx, have_rbx) and whether the last frame
	 * has its own (rbx_known), at pc last_pc; frames this pass (frame). A capture pass
	 * (capture: a frame's number, else SIZE_MAX) takes the registers of that frame alone
	 * (cap, cap_known); a resumed pass starts from those of start (start_known), not the
	 * sample's, and its first frame is that frame again, not counted twice.
	 */
	bool x86, resumed, rbx_known, have_rbx;
	size_t frame, capture;
	Dwarf_Word rbx, start[DW_X86_NR], cap[DW_X86_NR];
	Dwarf_Addr last_pc;
	uint32_t start_known, cap_known;
};

static bool sample_reg(const struct stream_sample *s, int perf_reg, uint64_t *v)
{
	uint64_t bit = 1ULL << perf_reg;

	if (!(s->user_regs_mask & bit))
		return false;
	*v = s->user_regs[__builtin_popcountll(s->user_regs_mask & (bit - 1))];
	return true;
}

/* x86-64's 17 DWARF registers from sample @s into @regs (sample_reg() of each at once) */
static bool sample_regs_x86(const struct stream_sample *s, Dwarf_Word *regs)
{
	uint64_t by_perf[R_R8 + 8] = { 0 }, mask = s->user_regs_mask, m;
	size_t k = 0;
	int i;

	for (m = mask; m && k < 64; m &= m - 1) {
		i = __builtin_ctzll(m);
		if (i < R_R8 + 8)
			by_perf[i] = s->user_regs[k];
		k++;
	}
	for (i = 0; i < DW_X86_NR; i++) {
		if (!(mask >> dwarf_to_perf[i] & 1))
			return false;
		regs[i] = by_perf[dwarf_to_perf[i]];
	}
	return true;
}

/*
 * Whether a map's path is a file to read: the one its DSO was read from (relative where the
 * input was: the recording's FILE.vdso beside a relative FILE, a relative --symfs), not a
 * name such as "[vdso]" or "//anon"
 */
static bool is_file(const char *path)
{
	return path && path[0] && path[0] != '[' && strncmp(path, "//", 2);
}

/*
 * Where the file of mapping @m, which holds @addr, is loaded (*base): @addr less its link
 * address, by the PT_LOAD whose file bytes hold @addr's offset. Not the mapping's start less its
 * page offset alone: a data segment's link address and offset differ (0x1000 in a PIE), and a
 * module reported at such a base overlaps the file's own and takes its addresses (a walk that
 * read a data address as a return address did that, and the process's later walks looked the
 * file's pcs up 0x1000 off). False where PT_LOADs hold no such bytes (an address past the
 * file's image: no code); a file without them is at the start less the page offset.
 */
static bool map_base(const struct unwind_map *m, uint64_t addr, uint64_t *base)
{
	uint64_t off = addr - m->start + m->pgoff;
	int fd = open(m->path, O_RDONLY | O_CLOEXEC);
	Elf *elf = fd < 0 ? NULL : elf_begin(fd, ELF_C_READ_MMAP, NULL);
	bool loads = false, found = false;
	size_t n, i;

	if (elf && !elf_getphdrnum(elf, &n)) {
		for (i = 0; i < n && !found; i++) {
			GElf_Phdr ph;

			if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
				continue;
			loads = true;
			if (off >= ph.p_offset && off - ph.p_offset < ph.p_filesz) {
				*base = addr - (ph.p_vaddr + (off - ph.p_offset));
				found = true;
			}
		}
	}
	elf_end(elf);
	if (fd >= 0)
		close(fd);
	if (!loads)
		*base = m->start - m->pgoff;
	return found || !loads;
}

/* the module of @addr, reported from its mapping the first time the walk reaches it */
static Dwfl_Module *report_module(struct walk *w, uint64_t addr)
{
	Dwfl_Module *mod = dwfl_addrmodule(w->dwfl, addr);
	struct unwind_map m;
	uint64_t base;

	if (mod)
		return mod;
	if (w->u->find_map(w->u->ctx, w->s->pid, addr, &m) || !is_file(m.path) ||
	    !map_base(&m, addr, &base))
		return NULL;
	dwfl_report_begin_add(w->dwfl);
	mod = dwfl_report_elf(w->dwfl, m.path, m.path, -1, base, false);
	dwfl_report_end(w->dwfl, NULL, NULL);
	return mod;
}

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	struct walk *w = ((struct uw_proc *)arg)->w;

	if (*thread_argp)
		return 0;
	*thread_argp = w;
	return w->s->pid ?: 1;
}

/* a word of the sampled stack, else of the file mapped at @addr */
static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct walk *w = ((struct uw_proc *)arg)->w;
	struct unwind_map m;
	int fd;
	bool ok;

	if (addr >= w->sp && w->s->user_stack_size >= 8 &&
	    addr - w->sp <= w->s->user_stack_size - 8) {	/* no wrap past 2^64 */
		memcpy(result, (const uint8_t *)w->s->user_stack + (addr - w->sp), 8);
		return true;
	}
	if (w->u->find_map(w->u->ctx, w->s->pid, addr, &m) || !is_file(m.path) ||
	    addr + 8 > m.end)
		return false;
	fd = open(m.path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	ok = pread(fd, result, 8, addr - m.start + m.pgoff) == 8;
	close(fd);
	return ok;
}

static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct walk *w = arg;
	Dwarf_Word regs[32];
	size_t i;

	if (regs_arm64(w->s)) {
		Dwarf_Word pc;

		/* DWARF 0-30 x0-x30, 31 sp; the pc is not a DWARF register there */
		for (i = 0; i <= A64_SP; i++)
			if (!sample_reg(w->s, (int)i, &regs[i]))
				return false;
		if (!sample_reg(w->s, A64_PC, &pc) ||
		    !dwfl_thread_state_registers(thread, 0, A64_SP + 1, regs))
			return false;
		dwfl_thread_state_register_pc(thread, pc);
		return true;
	}
	if (w->resumed) {	/* the registers known of the frame it was stopped at */
		for (i = 0; i < DW_X86_NR; i++)
			if ((w->start_known >> i & 1) &&
			    !dwfl_thread_state_registers(thread, (int)i, 1, &w->start[i]))
				return false;
		return true;
	}
	return sample_regs_x86(w->s, regs) &&
	       dwfl_thread_state_registers(thread, 0, DW_X86_NR, regs);
}

static const Dwfl_Thread_Callbacks thread_cb = {
	.next_thread = next_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

/* the registers frame @state has (its pc @pc: the call where it is a return address) */
static void capture_regs(struct walk *w, Dwfl_Frame *state, Dwarf_Addr pc)
{
	unsigned int i;

	w->cap_known = 0;
	for (i = 0; i < DW_X86_NR - 1; i++)
		if (dwfl_frame_reg(state, i, &w->cap[i]) == 0)
			w->cap_known |= 1u << i;
	w->cap[DW_X86_NR - 1] = pc;	/* the rip a resumed walk looks its CFI up at */
	w->cap_known |= 1u << (DW_X86_NR - 1);
}

/* the .eh_frame row of @mod for @pc, to be freed; NULL where there is none */
static Dwarf_Frame *eh_row(Dwfl_Module *mod, uint64_t pc)
{
	Dwarf_CFI *cfi;
	Dwarf_Frame *f;
	Dwarf_Addr bias;

	if (!mod || !(cfi = dwfl_module_eh_cfi(mod, &bias)) ||
	    dwarf_cfi_addrframe(cfi, pc - bias, &f))
		return NULL;
	return f;
}

/* whether the CFA of the last frame of @w (its caller's stack pointer) is reckoned from %rbx */
static bool cfa_by_rbx(struct walk *w)
{
	Dwarf_Frame *frame = eh_row(dwfl_addrmodule(w->dwfl, w->last_pc), w->last_pc);
	Dwarf_Op *ops;
	size_t nops;
	bool rbx;

	if (!frame)
		return false;
	/* a register plus an offset is libdw's DW_OP_bregx of it */
	rbx = !dwarf_frame_cfa(frame, &ops, &nops) && nops >= 1 &&
	      (ops[0].atom == DW_OP_breg0 + DW_X86_RBX ||
	       (ops[0].atom == DW_OP_bregx && ops[0].number == DW_X86_RBX));
	free(frame);
	return rbx;
}

/*
 * The fast walk (x86-64): libdw's CFI rows kept by pc for the process, each frame stepped by
 * its row without libdwfl's state for it (an allocation a frame, each register's rule
 * evaluated as a DWARF expression: three quarters of `report -g` of a DWARF recording went
 * there). It takes the common rows alone: the CFA a register plus an offset, registers
 * undefined, the same, at or at an offset from the CFA, no signal frame. At anything else (a
 * pc without CFI, another rule, a register or return address that cannot be had) the sample
 * is walked by libdwfl from its start, so that the frames are always libdwfl's, %rbx's
 * resumption (above) included: where a CFA is %rbx-based and %rbx is unknown, the callee's.
 */
enum { RULE_UNDEF, RULE_SAME, RULE_AT, RULE_VAL };
#define NR_ROWS 1024
#define ROW_OPS 9	/* the CFA itself, the return address, six callee-saved registers, one */
#define RIP (DW_X86_NR - 1)

enum { ROW_SLOW = -1 };

struct cfi_row {
	uint64_t key;			/* the pc looked up, + 1; 0: an empty slot */
	int32_t cfa_off;
	uint32_t same;			/* the registers of the same value, by bit */
	int8_t cfa_reg;			/* ROW_SLOW: a row the fast walk does not take */
	uint8_t nr_ops;			/* the registers at or at an offset from the CFA: */
	bool ra_undef;			/* (the return address undefined: the outermost frame) */
	struct row_op {
		uint8_t reg;
		bool val;		/* CFA + off itself, not the word there */
		int32_t off;
	} ops[ROW_OPS];
};

/* rule @ops (@nops of them) of a register, as the fast walk takes it into @rule and @off */
static bool rule_of(const Dwarf_Op *ops, const Dwarf_Op *mem, size_t nops, uint8_t *rule,
		    int32_t *off)
{
	int64_t o = 0;
	size_t n = nops;

	*off = 0;
	if (!nops) {	/* libdw: undefined in its own array, the same value as NULL */
		*rule = ops == mem ? RULE_UNDEF : RULE_SAME;
		return true;
	}
	if (ops[0].atom != DW_OP_call_frame_cfa)
		return false;
	*rule = RULE_AT;
	if (ops[n - 1].atom == DW_OP_stack_value) {
		*rule = RULE_VAL;
		n--;
	}
	if (n == 2 && ops[1].atom == DW_OP_plus_uconst)
		o = (int64_t)ops[1].number;
	else if (n != 1)
		return false;
	if (o < INT32_MIN || o > INT32_MAX)
		return false;
	*off = (int32_t)o;
	return true;
}

/* @r made for the pc looked up @look (of frame pc @pc) */
static void row_make(struct walk *w, uint64_t pc, uint64_t look, struct cfi_row *r)
{
	Dwarf_Addr start, end;
	Dwarf_Op mem[3], *ops;
	Dwarf_Frame *f;
	size_t nops;
	bool signal;
	int i, cfa_reg;

	r->key = look + 1;
	r->cfa_reg = ROW_SLOW;
	r->ra_undef = false;
	report_module(w, pc);	/* as frame_cb() does */
	f = eh_row(report_module(w, look), look);
	if (!f)
		return;
	if (dwarf_frame_info(f, &start, &end, &signal) != RIP || signal ||
	    dwarf_frame_cfa(f, &ops, &nops) || nops != 1 || ops[0].atom != DW_OP_bregx ||
	    ops[0].number >= DW_X86_NR || (int64_t)ops[0].number2 < INT32_MIN ||
	    (int64_t)ops[0].number2 > INT32_MAX)
		goto out;
	cfa_reg = (int)ops[0].number;
	r->cfa_off = (int32_t)(int64_t)ops[0].number2;
	r->same = 0;
	r->nr_ops = 0;
	for (i = 0; i < DW_X86_NR; i++) {
		uint8_t rule;
		int32_t off;

		if (dwarf_frame_register(f, i, mem, &ops, &nops) ||
		    !rule_of(ops, mem, nops, &rule, &off))
			goto out;
		if (rule == RULE_SAME)
			r->same |= 1u << i;
		else if (rule != RULE_UNDEF && r->nr_ops == ROW_OPS)
			goto out;	/* (not a row of the common kind) */
		else if (rule != RULE_UNDEF)
			r->ops[r->nr_ops++] = (struct row_op){ (uint8_t)i, rule == RULE_VAL, off };
		else if (i == RIP)
			r->ra_undef = true;
	}
	r->cfa_reg = (int8_t)cfa_reg;
out:
	free(f);
}

/* the row of the pc looked up @look (of frame pc @pc) in @p's, made where it is not there */
static const struct cfi_row *row_get(struct walk *w, struct uw_proc *p, uint64_t pc,
				     uint64_t look)
{
	uint64_t h = look * 0x9e3779b97f4a7c15ull;
	struct cfi_row *r = &p->rows[(h ^ h >> 29) >> 40 & (NR_ROWS - 1)];

	if (r->key != look + 1)
		row_make(w, pc, look, r);
	return r;
}

/*
 * @w's sample walked by the rows: true where it was (frames in w->ips), false where a frame
 * needs libdwfl (w->nr back to 0)
 */
static bool fast_walk(struct walk *w, struct uw_proc *p)
{
	Dwarf_Word regs[DW_X86_NR], next[DW_X86_NR], rbx = 0, cfa;
	uint32_t known, now;
	bool have_rbx = false, initial = true;
	int i;

	if (!p->rows && !(p->rows = calloc(NR_ROWS, sizeof(*p->rows))))
		return false;
	if (!sample_regs_x86(w->s, regs))
		return false;
	known = (1u << DW_X86_NR) - 1;
	while (regs[RIP]) {	/* (a frame of pc 0 ends a walk: frame_cb()) */
		uint64_t look = initial ? regs[RIP] : regs[RIP] - 1;
		const struct cfi_row *r = row_get(w, p, regs[RIP], look);

		if (r->cfa_reg == ROW_SLOW)
			goto slow;
		w->ips[w->nr++] = look;	/* a return address: the call, as perf stores it */
		if (w->nr == w->max)
			break;
		if (known >> DW_X86_RBX & 1) {
			rbx = regs[DW_X86_RBX];
			have_rbx = true;
		}
		if (!(known >> r->cfa_reg & 1)) {
			if (r->cfa_reg != DW_X86_RBX || !have_rbx)
				goto slow;
			regs[DW_X86_RBX] = rbx;	/* the callee's, as unwinder__unwind() resumes */
			known |= 1u << DW_X86_RBX;
		}
		cfa = regs[r->cfa_reg] + (int64_t)r->cfa_off;
		memcpy(next, regs, sizeof(next));	/* (the values of the unknown ones unread) */
		now = known & r->same;
		for (i = 0; i < r->nr_ops; i++) {
			const struct row_op *op = &r->ops[i];
			uint64_t a = cfa + (int64_t)op->off;

			if (op->val)
				next[op->reg] = a;
			else if (!memory_read(w->dwfl, a, &next[op->reg], p))
				continue;
			now |= 1u << op->reg;
		}
		if (!(now >> RIP & 1)) {
			if (r->ra_undef)
				break;	/* the outermost frame */
			goto slow;
		}
		memcpy(regs, next, sizeof(regs));
		known = now;
		initial = false;
	}
	return true;
slow:
	w->nr = 0;
	return false;
}

static int frame_cb(Dwfl_Frame *state, void *arg)
{
	struct walk *w = arg;
	Dwarf_Addr pc;
	bool activation;

	/*
	 * The frame's module first: asked whether the frame is an activation, libdw unwinds it
	 * to see if its caller is a signal frame, and that step needs the module's CFI (else it
	 * falls back to the frame pointer: a vDSO sample's libc caller then had a garbage
	 * caller when no walk had reported libc before). perf's frame_callback() does the same.
	 */
	if (!dwfl_frame_pc(state, &pc, NULL) || !pc)
		return DWARF_CB_ABORT;
	report_module(w, pc);
	if (!dwfl_frame_pc(state, &pc, &activation))
		return DWARF_CB_ABORT;
	if (!activation)
		pc--;	/* a return address: the call, as perf stores it */
	if (w->x86) {
		size_t k = w->frame++;
		Dwarf_Word v;

		if (w->capture != SIZE_MAX) {
			if (k < w->capture)
				return DWARF_CB_OK;
			capture_regs(w, state, pc);
			return DWARF_CB_ABORT;
		}
		w->last_pc = pc;
		w->rbx_known = dwfl_frame_reg(state, DW_X86_RBX, &v) == 0;
		if (w->rbx_known) {
			w->rbx = v;
			w->have_rbx = true;
		}
		if (w->resumed && !k)	/* the frame it was stopped at, counted */
			return DWARF_CB_OK;
	}
	w->ips[w->nr++] = pc;
	return w->nr == w->max ? DWARF_CB_ABORT : DWARF_CB_OK;
}

/*
 * A separate debug file serves a walk through its .debug_frame alone: the fallback where a
 * pc has no .eh_frame entry (a stack cut short, a frame of garbage). Distributions' debug
 * files have none, and libdw decompresses all of a file's DWARF when it opens it, for
 * each process the walk reaches the DSO in, so a debug file without one is not taken and
 * the walk goes on as without debug files.
 */
static bool has_debug_frame(int fd)
{
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	Elf_Scn *scn = NULL;
	bool found = false;
	size_t shstrndx;

	if (elf && !elf_getshdrstrndx(elf, &shstrndx)) {
		while (!found && (scn = elf_nextscn(elf, scn))) {
			const char *name;
			GElf_Shdr sh;

			found = gelf_getshdr(scn, &sh) && sh.sh_type != SHT_NOBITS &&
				(name = elf_strptr(elf, shstrndx, sh.sh_name)) &&
				(!strcmp(name, ".debug_frame") || !strcmp(name, ".zdebug_frame"));
		}
	}
	elf_end(elf);
	return found;
}

/*
 * Whether @mod's debug file by build-id is there without .debug_frame. It is looked at before
 * libdwfl's: dwfl_build_id_find_debuginfo() keeps the Elf it opens in the module, whatever the
 * callback returns after it, and libdw then opened (and decompressed) that file anyway, with
 * its descriptor closed (ld.so's debug file, in each process of a system-wide recording).
 */
static bool build_id_file_lacks_frame(Dwfl_Module *mod)
{
	const unsigned char *id;
	char path[PATH_MAX];
	GElf_Addr vaddr;
	int n = dwfl_module_build_id(mod, &id, &vaddr), fd;
	bool lacks;

	if (n < 2)
		return false;
	sym_build_id_debug_path(path, sizeof(path), "", id, n);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	lacks = !has_debug_frame(fd);
	close(fd);
	return lacks;
}

static int find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
			  Dwarf_Addr base, const char *file_name, const char *debuglink_file,
			  GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	int fd;

	if (build_id_file_lacks_frame(mod))
		return -1;
	fd = sym_find_debuginfo(mod, userdata, modname, base, file_name, debuglink_file,
				debuglink_crc, debuginfo_file_name);
	if (fd < 0 || has_debug_frame(fd))
		return fd;
	close(fd);
	free(*debuginfo_file_name);
	*debuginfo_file_name = NULL;
	return -1;
}

struct unwinder *unwinder__new(unwind_find_map_fn find_map, void *ctx)
{
	struct unwinder *u = calloc(1, sizeof(*u));
	const char *e;

	if (!u)
		return NULL;
	u->find_map = find_map;
	u->ctx = ctx;
	e = getenv("SCHEDLENS_UNWIND");
	u->fast = !e || strcmp(e, "libdw");
	u->cb.find_elf = dwfl_build_id_find_elf;
	u->cb.find_debuginfo = find_debuginfo;
	u->cb.section_address = dwfl_offline_section_address;
	u->cb.debuginfo_path = &u->debuginfo_path;
	return u;
}

void unwinder__delete(struct unwinder *u)
{
	size_t i;

	if (!u)
		return;
	for (i = 0; i < NR_PROCS; i++) {
		if (u->procs[i].dwfl)
			dwfl_end(u->procs[i].dwfl);
		free(u->procs[i].rows);
	}
	free(u);
}

/* the Dwfl of @pid at generation @gen: kept, or made anew with the module of @ip */
static struct uw_proc *proc_get(struct unwinder *u, struct walk *w, uint32_t pid, uint64_t gen,
				uint64_t ip)
{
	struct uw_proc *p = &u->procs[pid % NR_PROCS];

	if (p->dwfl && (p->pid != pid || p->gen != gen)) {
		dwfl_end(p->dwfl);
		p->dwfl = NULL;
		free(p->rows);	/* its pcs were that Dwfl's modules' */
		p->rows = NULL;
	}
	p->w = w;
	if (p->dwfl) {
		w->dwfl = p->dwfl;
		return report_module(w, ip) ? p : NULL;
	}
	w->dwfl = dwfl_begin(&u->cb);
	if (!w->dwfl)
		return NULL;
	if (!report_module(w, ip) || !dwfl_attach_state(w->dwfl, NULL, pid ?: 1, &thread_cb, p)) {
		dwfl_end(w->dwfl);
		w->dwfl = NULL;
		return NULL;
	}
	p->dwfl = w->dwfl;
	p->pid = pid;
	p->gen = gen;
	return p;
}

int unwinder__unwind(struct unwinder *u, const struct stream_sample *s, uint64_t gen,
		     uint64_t *ips, size_t max)
{
	struct walk w = { .u = u, .s = s, .ips = ips, .max = max };
	struct uw_proc *p;
	uint64_t ip;
	int i;

	bool a64 = regs_arm64(s);

	if (!max || !s->user_regs || !s->user_regs_abi || !s->user_stack ||
	    !s->user_stack_size || !sample_reg(s, a64 ? A64_SP : R_SP, &w.sp) ||
	    !sample_reg(s, a64 ? A64_PC : R_IP, &ip))
		return 0;
	w.x86 = !a64;
	w.capture = SIZE_MAX;
	/* no file behind the ip (JIT, anonymous memory): no frame, as perf's unwinding, which
	 * then reports none */
	p = proc_get(u, &w, s->pid, gen, ip);
	if (!p)
		return 0;
	if (w.x86 && u->fast && fast_walk(&w, p))
		return (int)w.nr;
	dwfl_getthread_frames(w.dwfl, s->pid ?: 1, frame_cb, &w);
	/*
	 * Where the last frame's caller is lost for its %rbx alone: that frame's registers
	 * taken by a walk to it again, and from there on with %rbx as its callee left it
	 */
	for (i = 0; i < NR_RESUMES && w.x86 && w.nr && w.nr < max && !w.rbx_known &&
		    w.have_rbx && cfa_by_rbx(&w); i++) {
		size_t was = w.nr;

		w.capture = w.frame - 1;
		w.frame = 0;
		w.cap_known = 0;
		dwfl_getthread_frames(w.dwfl, s->pid ?: 1, frame_cb, &w);
		w.capture = SIZE_MAX;
		if (!(w.cap_known >> (DW_X86_NR - 1) & 1))
			break;
		memcpy(w.start, w.cap, sizeof(w.start));
		w.start[DW_X86_RBX] = w.rbx;
		w.start_known = w.cap_known | 1u << DW_X86_RBX;
		w.resumed = true;
		w.frame = 0;
		dwfl_getthread_frames(w.dwfl, s->pid ?: 1, frame_cb, &w);
		if (w.nr == was)
			break;
	}
	return (int)w.nr;
}
