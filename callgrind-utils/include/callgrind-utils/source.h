/* source.h - source-level annotation: the lines of the hot functions'
 * source files, each with the function's own cost on it for every event,
 * and under a line that makes calls, the functions it calls with the
 * inclusive cost of those calls, as callgrind_annotate --auto=yes shows
 * them.
 *
 * The parser reports every cost line to cgu_line_costs_collect() (set it
 * as cgu_parse_opts.on_line, its context a cgu_line_costs), which sums
 * them by function, file and line; cgu_annotate_source() then prints the
 * functions, reading their sources from disk.  Profiles made with and
 * without --dump-instr=yes work alike: only the "line" position is used;
 * a profile without one ('positions: instr') is refused.
 */
#ifndef CALLGRIND_UTILS_SOURCE_H
#define CALLGRIND_UTILS_SOURCE_H

#include <stdio.h>
#include <callgrind-utils/model.h>
#include <callgrind-utils/output.h>
#include <callgrind-utils/parse.h>

#ifdef __cplusplus
extern "C" {
#endif

struct cgu_line_costs;   /* private: costs by (function, file, line, callee) */

struct cgu_line_costs *cgu_line_costs_new(void);
void cgu_line_costs_free(struct cgu_line_costs *lc);
/* A cgu_line_fn: add one cost line (ctx is the cgu_line_costs). */
void cgu_line_costs_collect(void *ctx, const struct cgu_profile *p,
			    const struct cgu_cost_line *line);

struct cgu_source_opts {
	int event;                /* hot by this event */
	size_t top;               /* how many functions; 0 = all with cost */
	/* NULL: the top functions by self cost of the event; else every
	 * function it says yes (non-zero) to, named as names prints it,
	 * heaviest first, with or without cost */
	int (*select)(void *ctx, const char *name);
	void *select_ctx;
	enum cgu_name_style names;   /* functions and callees */
	size_t context;           /* lines shown before and after a costed one */
	/* where relative source paths are looked for after the current
	 * directory, in order (callgrind_annotate's --include) */
	const char *const *dirs;
	size_t ndirs;
	/* once per source file that cannot be read or is shorter than the
	 * profile says ("FILE: why; ..."): its lines are shown with their
	 * costs and no text.  NULL: no message. */
	cgu_warning_fn on_warning;
	void *warning_ctx;
};

/* Print the chosen functions' source lines with their costs.
 * CGU_EINPUT: no line positions in the profile; CGU_EUSAGE: select chose
 * no function. */
int cgu_annotate_source(const struct cgu_profile *p,
			const struct cgu_line_costs *lc,
			const struct cgu_source_opts *o, FILE *out,
			struct cgu_error *err);

#ifdef __cplusplus
}
#endif
#endif
