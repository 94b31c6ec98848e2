/* transform.h - rename a profile: JIT symbols and host-independent names.
 *
 * Both return a new finished profile (the input is not changed) built
 * with cgu_profile_rename(), so nodes that end up with equal names merge.
 */
#ifndef CALLGRIND_UTILS_TRANSFORM_H
#define CALLGRIND_UTILS_TRANSFORM_H

#include <stdint.h>
#include <callgrind-utils/buf.h>
#include <callgrind-utils/error.h>
#include <callgrind-utils/model.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A perf map (/tmp/perf-PID.map): lines "START SIZE name", hex numbers
 * with or without 0x. */
struct cgu_perf_sym {
	uint64_t start, size;
	const char *name;
};
struct cgu_perf_map {
	size_t n, cap;
	struct cgu_perf_sym *syms;   /* sorted by start after loading */
	struct cgu_arena arena;
};

int cgu_perf_map_load(struct cgu_perf_map *m, const char *path,
		      struct cgu_error *err);
int cgu_perf_map_load_mem(struct cgu_perf_map *m, const char *data,
			  size_t len, const char *name, struct cgu_error *err);
void cgu_perf_map_release(struct cgu_perf_map *m);
/* Symbol covering addr, or NULL (binary search). */
const struct cgu_perf_sym *cgu_perf_map_find(const struct cgu_perf_map *m,
					     uint64_t addr);
/* Rename function names of the form 0xADDR (each '-separated part of a
 * context name; 'N recursion suffixes are kept). */
struct cgu_profile *cgu_symbolize(const struct cgu_profile *p,
				  const struct cgu_perf_map *m);

/* Redaction for snapshots. */
struct cgu_redact_opts {
	const char *root;   /* absolute paths under root become relative;
			       other absolute paths keep their basename */
};
/* Redact one name (exposed for tests). */
void cgu_redact_name(enum cgu_name_kind kind, const char *name,
		     const struct cgu_redact_opts *o, struct cgu_buf *out);
struct cgu_profile *cgu_redact(const struct cgu_profile *p,
			       const struct cgu_redact_opts *o);

/* Merging: recursion levels ("fib'2" -> "fib", from --separate-recs)
 * and caller contexts ("a'b'c" -> "a", from --separate-callers) become
 * their function, with the costs and calls of all of them (the calls
 * from one level to the next become calls to itself). */
#define CGU_MERGE_RECURSION 1u
#define CGU_MERGE_CALLERS 2u
/* Append name to out with what merged away. */
void cgu_merge_name(const char *name, unsigned what, struct cgu_buf *out);
struct cgu_profile *cgu_merge_names(const struct cgu_profile *p,
				    unsigned what);
/* The same for exact stacks: a new calling-context tree (c is not
 * changed) whose frames are renamed as above, and with
 * CGU_MERGE_RECURSION whose paths hold every function once: a call of a
 * function already on the path goes back to where it was first called,
 * as the call graph's levels merge into it (main;fib;fib;fib is
 * main;fib, main;a;b;a;c is main;a;c).  Nodes whose paths become equal
 * merge, their costs added; a recursive call is not counted again as an
 * entry of its function's path. */
struct cgu_cct;
struct cgu_cct *cgu_cct_merge_names(const struct cgu_cct *c, unsigned what);

#ifdef __cplusplus
}
#endif
#endif
