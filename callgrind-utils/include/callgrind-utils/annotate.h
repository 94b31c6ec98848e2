/* annotate.h - instruction-level annotation: the cost of every
 * instruction of the hot functions, disassembled from the objects on disk
 * (libelf and capstone; x86_64, i386 and arm64 objects, whatever the host).
 *
 * The parser reports each cost line to cgu_instr_costs_collect() (set it as
 * cgu_parse_opts.on_cost_line); a profile made without --dump-instr=yes
 * has no instruction positions and is refused.
 */
#ifndef CALLGRIND_UTILS_ANNOTATE_H
#define CALLGRIND_UTILS_ANNOTATE_H

#include <stdio.h>
#include <callgrind-utils/elf.h>
#include <callgrind-utils/model.h>
#include <callgrind-utils/parse.h>

struct cgu_instr_cost {
	uint32_t node;
	uint64_t addr;
	size_t costs;             /* index of nevents counts in cgu_instr_costs.costs */
};

struct cgu_instr_costs {
	struct cgu_instr_cost *v;
	size_t n, cap;
	cgu_cost *costs;
	size_t ncosts, costs_cap;
	size_t nevents;
	const char *positions;    /* p->positions the column was found for */
	int instr_col;            /* column of "instr", -1 when there is none */
};

void cgu_instr_costs_init(struct cgu_instr_costs *ic);
void cgu_instr_costs_release(struct cgu_instr_costs *ic);
void cgu_instr_costs_collect(void *ic, const struct cgu_profile *p, uint32_t node,
			     const int64_t *pos, size_t npos, const cgu_cost *costs);

struct cgu_asm_opts {
	int event;                /* hot by this event */
	size_t top;               /* how many functions; 0 = all with cost */
	const struct cgu_debug_dirs *dirs;   /* for stripped objects' symbols */
	/* NULL: the first function that cannot be shown is an error; else
	 * it is left out and this gets a message, once per object that
	 * cannot be read ("OBJECT: why; its functions are left out") and
	 * per function whose code is not in its object ("...; left out") */
	cgu_warning_fn on_warning;
	void *warning_ctx;
};

/* Print the hot functions' instructions with their cost per event.
 * CGU_EINPUT: no instruction positions, unknown architecture, address
 * outside the object's code; CGU_EIO: object missing or not ELF ("???",
 * Callgrind's unknown object, is not a file).  With on_warning those
 * leave the function out, and it is an error (CGU_EINPUT) only when
 * every hot function is left out. */
int cgu_annotate_asm(const struct cgu_profile *p, const struct cgu_instr_costs *ic,
		     const struct cgu_asm_opts *o, FILE *out, struct cgu_error *err);

#endif
