/* annotate.c - per-instruction costs of hot functions, disassembled with
 * capstone from the object on disk (see annotate.h).
 *
 * A function's code is located through its symbol (of the object, or of the
 * debug file of a stripped object); the run-time addresses of a PIE or
 * shared object are moved back by the page-aligned offset between the
 * lowest executed address and the symbol.  Without a symbol the executed
 * range itself is disassembled.
 */
#define _GNU_SOURCE
#include <capstone/capstone.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <callgrind-utils/annotate.h>
#include <callgrind-utils/buf.h>

#include "elf-file.h"
#include "grow.h"

void cgu_instr_costs_init(struct cgu_instr_costs *ic)
{
	memset(ic, 0, sizeof(*ic));
	ic->instr_col = -1;
}

void cgu_instr_costs_release(struct cgu_instr_costs *ic)
{
	free(ic->v);
	free(ic->costs);
	cgu_instr_costs_init(ic);
}

void cgu_instr_costs_collect(void *ctx, const struct cgu_profile *p, uint32_t node,
			     const int64_t *pos, size_t npos, const cgu_cost *costs)
{
	struct cgu_instr_costs *ic = ctx;
	if (p->positions != ic->positions) {
		ic->positions = p->positions;
		ic->instr_col = cgu_position_column(p->positions, "instr");
	}
	if (ic->instr_col < 0 || (size_t)ic->instr_col >= npos)
		return;
	ic->nevents = p->nevents;
	ic->v = cgu_grow(ic->v, &ic->cap, ic->n + 1, sizeof(*ic->v));
	ic->costs = cgu_grow(ic->costs, &ic->costs_cap, ic->ncosts + p->nevents, sizeof(*ic->costs));
	ic->v[ic->n++] = (struct cgu_instr_cost){ node, (uint64_t)pos[ic->instr_col], ic->ncosts };
	memcpy(ic->costs + ic->ncosts, costs, p->nevents * sizeof(*costs));
	ic->ncosts += p->nevents;
}

/* ------------------------------------------------------------ one function */

struct hot {
	uint32_t node;
	cgu_cost self;
};

static int by_cost(const void *a, const void *b, void *prof)
{
	const struct hot *x = a, *y = b;
	const struct cgu_profile *p = prof;
	if (x->self != y->self)
		return x->self < y->self ? 1 : -1;
	return strcmp(p->nodes[x->node].function, p->nodes[y->node].function);
}

static int by_addr(const void *a, const void *b)
{
	const struct cgu_instr_cost *x = a, *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

struct function {
	const struct cgu_profile *p;
	const struct cgu_instr_costs *ic;
	struct cgu_instr_cost *ins;     /* this function's lines, by address */
	size_t n;
};

static int arch_of(Elf *e, cs_arch *arch, cs_mode *mode)
{
	GElf_Ehdr eh;
	*arch = CS_ARCH_X86;
	*mode = CS_MODE_64;
	if (!gelf_getehdr(e, &eh))
		return -1;
	switch (eh.e_machine) {
	case EM_X86_64: *arch = CS_ARCH_X86; *mode = CS_MODE_64; return 0;
	case EM_386: *arch = CS_ARCH_X86; *mode = CS_MODE_32; return 0;
	case EM_AARCH64: *arch = CS_ARCH_ARM64; *mode = CS_MODE_ARM; return 0;
	}
	return eh.e_machine;
}

/* The bytes at file address addr, len of them, in an executable section. */
static const unsigned char *code_at(Elf *e, uint64_t addr, size_t *len)
{
	for (Elf_Scn *s = elf_nextscn(e, NULL); s; s = elf_nextscn(e, s)) {
		GElf_Shdr sh;
		if (!gelf_getshdr(s, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(sh.sh_flags & SHF_EXECINSTR) || addr < sh.sh_addr ||
		    addr >= sh.sh_addr + sh.sh_size)
			continue;
		Elf_Data *d = elf_getdata(s, NULL);
		if (!d || !d->d_buf)
			return NULL;
		uint64_t off = addr - sh.sh_addr;
		if (*len > sh.sh_size - off)
			*len = sh.sh_size - off;
		return (const unsigned char *)d->d_buf + off;
	}
	return NULL;
}

static const struct cgu_elf_func *find_func(const struct cgu_elf_funcs *fs, const char *name)
{
	for (size_t i = 0; i < fs->n; i++)
		if (strcmp(fs->v[i].name, name) == 0)
			return &fs->v[i];
	return NULL;
}

static void print_line(const struct function *f, FILE *out, uint64_t addr,
		       const char *text, size_t *next)
{
	const struct cgu_instr_costs *ic = f->ic;
	cgu_cost c[CGU_MAX_EVENTS] = { 0 };
	while (*next < f->n && f->ins[*next].addr < addr)
		(*next)++;
	for (; *next < f->n && f->ins[*next].addr == addr; (*next)++)
		for (size_t e = 0; e < ic->nevents; e++)
			c[e] += ic->costs[f->ins[*next].costs + e];
	for (size_t e = 0; e < ic->nevents; e++)
		fprintf(out, "%12llu", (unsigned long long)c[e]);
	fprintf(out, "  %#llx  %s\n", (unsigned long long)addr, text);
}

static void print_header(const struct function *f, FILE *out)
{
	const struct cgu_node *n = &f->p->nodes[f->ins[0].node];
	fprintf(out, "-- %s (%s)\n", n->function, n->object[0] ? n->object : "???");
	for (size_t e = 0; e < f->ic->nevents; e++)
		fprintf(out, "%12s", f->p->events[e]);
	fputs("  address   instruction\n", out);
}

/* What went wrong with a function: its object cannot be read (every
 * function of the object fails alike), or only it cannot be shown. */
enum { SKIP_OBJECT = 1, SKIP_FUNCTION = 2 };

/* Print the function's header and instructions (after sep, when not
 * NULL); 0, SKIP_OBJECT or SKIP_FUNCTION with err filled and nothing
 * printed, or a negative CGU_E* code. */
static int disassemble(const struct function *f, Elf *e, uint64_t start, size_t size,
		       uint64_t offset, FILE *out, const char *sep, const char *obj,
		       struct cgu_error *err)
{
	cs_arch arch;
	cs_mode mode;
	csh cs;
	int m = arch_of(e, &arch, &mode);
	if (m != 0)
		return cgu_error_set(err, CGU_EINPUT, obj, 0, "unknown architecture "
				     "(ELF machine %d); expected x86_64, i386 or arm64", m),
		       SKIP_OBJECT;
	size_t len = size;
	const unsigned char *code = code_at(e, start, &len);
	if (!code)
		return cgu_error_set(err, CGU_EINPUT, obj, 0, "expected code at %#llx "
				     "(function %s)", (unsigned long long)start,
				     f->p->nodes[f->ins[0].node].function),
		       SKIP_FUNCTION;
	if (cs_open(arch, mode, &cs) != CS_ERR_OK)
		return cgu_error_set(err, CGU_EIO, obj, 0, "capstone cannot open");
	if (sep)
		fputs(sep, out);
	print_header(f, out);
	cs_insn *insn;
	size_t count = cs_disasm(cs, code, len, start + offset, 0, &insn), next = 0;
	for (size_t i = 0; i < count; i++) {
		char text[256];
		snprintf(text, sizeof(text), "%s%s%s", insn[i].mnemonic,
			 insn[i].op_str[0] ? " " : "", insn[i].op_str);
		print_line(f, out, insn[i].address, text, &next);
	}
	cs_free(insn, count);
	cs_close(&cs);
	return 0;
}

static int annotate_function(struct function *f, const struct cgu_asm_opts *o,
			     FILE *out, const char *sep, struct cgu_error *err)
{
	const struct cgu_node *n = &f->p->nodes[f->ins[0].node];
	struct cgu_elf_file obj, dbg = { -1, NULL };
	struct cgu_elf_funcs fs = { 0 };
	if (!n->object[0] || !strcmp(n->object, "???") ||
	    cgu_elf_open(&obj, n->object) < 0)
		return cgu_elf_open_error(n->object, errno, err), SKIP_OBJECT;
	if (cgu_elf_functions(obj.e, &fs) < 0 || !find_func(&fs, n->function)) {
		fs.n = 0;
		if (cgu_elf_open_debug(&dbg, obj.e, o->dirs) == 0)
			cgu_elf_functions(dbg.e, &fs);
	}
	const struct cgu_elf_func *sym = find_func(&fs, n->function);
	uint64_t lo = f->ins[0].addr, hi = f->ins[f->n - 1].addr;
	GElf_Ehdr eh;
	uint64_t offset = 0;
	if (sym && gelf_getehdr(obj.e, &eh) && eh.e_type == ET_DYN && lo >= sym->start)
		offset = (lo - sym->start) & ~0xfffULL;
	uint64_t start = sym ? sym->start : lo - offset;
	size_t size = sym && sym->size ? sym->size : (size_t)(hi - lo + 16);
	int rc = disassemble(f, obj.e, start, size, offset, out, sep, n->object, err);
	free(fs.v);
	cgu_elf_close(&dbg);
	cgu_elf_close(&obj);
	return rc;
}

/* ------------------------------------------------------------- all of it */

static size_t hot_functions(const struct cgu_profile *p, const struct cgu_asm_opts *o,
			    struct hot **out)
{
	size_t n = 0;
	*out = malloc((p->nnodes ? p->nnodes : 1) * sizeof(**out));
	if (!*out)
		abort();
	for (uint32_t i = 0; i < p->nnodes; i++)
		if (cgu_self(p, i)[o->event])
			(*out)[n++] = (struct hot){ i, cgu_self(p, i)[o->event] };
	qsort_r(*out, n, sizeof(**out), by_cost, (void *)p);
	return o->top && o->top < n ? o->top : n;
}

/* Has object (interned in the profile) failed before? */
static int failed_before(const char *const *failed, size_t n, const char *object)
{
	for (size_t i = 0; i < n; i++)
		if (failed[i] == object)
			return 1;
	return 0;
}

int cgu_annotate_asm(const struct cgu_profile *p, const struct cgu_instr_costs *ic,
		     const struct cgu_asm_opts *o, FILE *out, struct cgu_error *err)
{
	if (cgu_position_column(p->positions, "instr") < 0)
		return cgu_error_set(err, CGU_EINPUT, NULL, 0, "expected a profile with "
				     "instruction positions ('positions: instr ...', "
				     "from valgrind --dump-instr=yes)");
	struct cgu_instr_cost *sorted = malloc((ic->n ? ic->n : 1) * sizeof(*sorted));
	struct hot *hot;
	if (!sorted)
		abort();
	size_t nhot = hot_functions(p, o, &hot), shown = 0, skipped = 0, nfailed = 0;
	const char **failed = malloc((nhot ? nhot : 1) * sizeof(*failed));
	struct cgu_error w;
	int rc = 0;
	if (!failed)
		abort();
	elf_version(EV_CURRENT);
	for (size_t h = 0; rc == 0 && h < nhot; h++) {
		struct function f = { .p = p, .ic = ic, .ins = sorted };
		const char *object = p->nodes[hot[h].node].object;
		for (size_t i = 0; i < ic->n; i++)
			if (ic->v[i].node == hot[h].node)
				sorted[f.n++] = ic->v[i];
		if (f.n == 0)
			continue;
		if (failed_before(failed, nfailed, object)) {
			skipped++;
			continue;
		}
		qsort(sorted, f.n, sizeof(*sorted), by_addr);
		rc = annotate_function(&f, o, out, shown ? "\n" : NULL,
				       o->on_warning ? &w : err);
		if (rc == 0) {
			shown++;
			continue;
		}
		if (rc < 0 || !o->on_warning)
			break;
		skipped++;
		if (rc == SKIP_OBJECT)
			failed[nfailed++] = object;
		size_t m = strlen(w.msg);
		snprintf(w.msg + m, sizeof(w.msg) - m, rc == SKIP_OBJECT
			 ? "; its functions are left out" : "; left out");
		o->on_warning(o->warning_ctx, &w);
		rc = 0;
	}
	if (rc > 0)     /* no on_warning: the first one is the error */
		rc = err ? err->code : CGU_EINPUT;
	else if (rc == 0 && shown == 0 && skipped)
		rc = cgu_error_set(err, CGU_EINPUT, NULL, 0, "none of the %zu "
				   "functions could be annotated (see the "
				   "warnings)", skipped);
	free(failed);
	free(hot);
	free(sorted);
	return rc;
}
