/* parse.h - read Callgrind profiles (plain, or compressed with gzip,
 * xz, bzip2 or zstd, told by their first bytes) into the model.
 *
 * The input is streamed line by line; memory grows with the number of
 * distinct names and edges, not with the size of the file.  See the
 * comment at the top of src/lib/parse/parse.c for the format accepted.
 */
#ifndef CALLGRIND_UTILS_PARSE_H
#define CALLGRIND_UTILS_PARSE_H

#include <stddef.h>
#include <callgrind-utils/error.h>
#include <callgrind-utils/model.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CGU_DEFAULT_MAX_LINE (1u << 20)
/* Compressed input is refused past this many bytes of decompressed
 * data (a few kilobytes of xz can hold gigabytes of zeros). */
#define CGU_DEFAULT_MAX_INPUT (16ull << 30)

/* Called for every cost line of a function's own cost (not the
 * inclusive cost line of a calls=): the node, the line's positions in
 * the order of p->positions, and its counts by event of p (0 for events
 * the line leaves out).  For instruction-level views (annotate --asm). */
typedef void (*cgu_cost_line_fn)(void *ctx, const struct cgu_profile *p,
				 uint32_t node, const int64_t *pos, size_t npos,
				 const cgu_cost *costs);

/* One cost line as the source views need it (annotate): the function,
 * the file its positions point into (the latest fl=, fi= or fe=; "" when
 * none was given, interned in p), the positions in the order of
 * p->positions, the counts by event of p (0 for events the line leaves
 * out), and for the inclusive cost line of a calls= line the called node
 * and the number of calls (callee CGU_NO_CALLEE for a self cost line). */
#define CGU_NO_CALLEE UINT32_MAX
struct cgu_cost_line {
	uint32_t node;
	const char *file;
	const int64_t *pos;
	size_t npos;
	const cgu_cost *costs;
	uint32_t callee;
	uint64_t calls;
};
typedef void (*cgu_line_fn)(void *ctx, const struct cgu_profile *p,
			    const struct cgu_cost_line *line);

/* The column of the position called name ("instr" or "line") in a
 * profile's positions (p->positions, NULL meaning "line"), or -1. */
int cgu_position_column(const char *positions, const char *name);

/* Called for input that is accepted but suspect, w->msg "file:line:
 * what" (a summary: line that disagrees with the totals: line). */
typedef void (*cgu_warning_fn)(void *ctx, const struct cgu_error *w);

struct cgu_parse_opts {
	size_t max_line;       /* longest accepted line; 0 = default */
	int separate_parts;    /* 1: a new profile for every part and file */
	int no_check_totals;   /* 1: do not compare with summary:/totals: */
	cgu_cost_line_fn on_cost_line;   /* NULL: none */
	void *on_cost_line_ctx;
	cgu_warning_fn on_warning;       /* NULL: warnings are dropped */
	void *warning_ctx;
	/* most bytes compressed input may decompress to; 0 = default */
	unsigned long long max_input;
	cgu_line_fn on_line;             /* NULL: none; every cost line */
	void *on_line_ctx;
};

/* Parse path ("-" is stdin) and add it to set: in merge mode everything
 * goes into set->v[0] (created if the set is empty); with separate_parts
 * every part gets a profile of its own.  Profiles are left finished. */
int cgu_parse_file(const char *path, const struct cgu_parse_opts *opts,
		   struct cgu_profile_set *set, struct cgu_error *err);

/* The same for a buffer in memory; name is used in messages. */
int cgu_parse_mem(const char *data, size_t len, const char *name,
		  const struct cgu_parse_opts *opts,
		  struct cgu_profile_set *set, struct cgu_error *err);

/* Convenience: parse files and merge them into one finished profile.
 * Returns NULL on error. */
struct cgu_profile *cgu_load(const char *const *paths, size_t npaths,
			     const struct cgu_parse_opts *opts,
			     struct cgu_error *err);

#ifdef __cplusplus
}
#endif
#endif
