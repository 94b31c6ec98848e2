/* cct.h - exact stacks: the calling-context trees (CCT) Callgrind writes
 * beside a profile X, as X.stacks, with --collect-stacks=yes (the format:
 * docs/exact-stacks.md of the project, and the comment at the top of
 * src/lib/parse/cct-parse.c).
 *
 * A cgu_cct is plain data, built by the parser from one or more stacks
 * files (appended in order) or by hand with the builder functions:
 *
 *  - events:  nevents names, those of the first part read.
 *  - frames:  one per distinct (function, object, file), interned, as
 *             struct cgu_node; an unknown object or file is "".  Frames
 *             whose name is in square brackets, "[signal 10]" and
 *             "[truncated]", are not functions (see the format).
 *  - nodes:   every node of every thread of every part, in file order: a
 *             parent before its children.  parent is CGU_CCT_ROOT for a
 *             child of its thread's root.  Self cost of node i for event
 *             e: cgu_cct_self(c, i)[e].
 *  - parts:   one per part read, with its header and its nodes
 *             [first, first + nnodes).
 *  - totals:  the sum of every node's self cost, per event.
 *
 * Functions that take a part index take CGU_CCT_ALL_PARTS for all of
 * them: the same path in several threads or parts then adds up; and
 * CGU_CCT_NO_PART (as any index past the last part) for none, an empty
 * tree (the stacks of a profile part without costs).
 */
#ifndef CALLGRIND_UTILS_CCT_H
#define CALLGRIND_UTILS_CCT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <callgrind-utils/error.h>
#include <callgrind-utils/model.h>
#include <callgrind-utils/output.h>
#include <callgrind-utils/parse.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CGU_CCT_ROOT UINT32_MAX
#define CGU_CCT_ALL_PARTS SIZE_MAX
#define CGU_CCT_NO_PART (SIZE_MAX - 1)

struct cgu_cct_node {
	uint32_t parent;     /* node index, or CGU_CCT_ROOT */
	uint32_t frame;      /* index in frames */
	uint32_t thread;     /* the thread's id, as in "thread: N" */
	uint64_t calls;      /* times this path was entered in its part */
};

struct cgu_cct_part {
	const char *source;    /* the file it was read from */
	const char *creator, *pid, *cmd, *part, *desc;   /* NULL if absent */
	size_t first, nnodes;  /* its nodes */
	uint64_t truncated;    /* calls that went to [truncated] nodes */
	cgu_cost totals[CGU_MAX_EVENTS];
};

struct cgu_cct_index;  /* private intern tables */

struct cgu_cct {
	size_t nevents;
	const char *events[CGU_MAX_EVENTS];
	cgu_cost totals[CGU_MAX_EVENTS];

	size_t nframes;
	struct cgu_node *frames;

	size_t nnodes;
	struct cgu_cct_node *nodes;
	cgu_cost *self_costs;      /* nnodes * nevents */

	size_t nparts;
	struct cgu_cct_part *parts;

	/* private */
	size_t frame_cap, node_cap, part_cap;
	struct cgu_arena arena;
	struct cgu_cct_index *index;
};

struct cgu_cct *cgu_cct_new(void);
void cgu_cct_free(struct cgu_cct *c);

static inline cgu_cost *cgu_cct_self(const struct cgu_cct *c, uint32_t node)
{
	return c->self_costs + (size_t)node * c->nevents;
}

/* Index of the event called name, or -1. */
int cgu_cct_event(const struct cgu_cct *c, const char *name);
/* The nodes [*first, *end) of part, and its totals (zeros for none). */
void cgu_cct_part_nodes(const struct cgu_cct *c, size_t part, size_t *first,
			size_t *end);
const cgu_cost *cgu_cct_part_totals(const struct cgu_cct *c, size_t part);

/* ---- building (the parser uses these) */

/* Set the events, once, before the first node. */
int cgu_cct_set_events(struct cgu_cct *c, const char *const *names, size_t n,
		       struct cgu_error *err);
/* Frame for (function, object, file), made if new; NULL object or file
 * is "". */
uint32_t cgu_cct_frame(struct cgu_cct *c, const char *function,
		       const char *object, const char *file);
/* A new part, from source; its nodes are the ones added after it. */
struct cgu_cct_part *cgu_cct_add_part(struct cgu_cct *c, const char *source);
/* A string kept as long as c (for the part headers). */
const char *cgu_cct_strdup(struct cgu_cct *c, const char *s);
/* A node with zero cost, in the last part; returns its index.  The
 * caller checks that parent is CGU_CCT_ROOT or an earlier node of the
 * same thread. */
uint32_t cgu_cct_add_node(struct cgu_cct *c, uint32_t parent, uint32_t frame,
			  uint32_t thread, uint64_t calls);

/* ---- reading */

/* Does this start of an input ("# callgrind stacks") begin a stacks
 * file? */
int cgu_is_stacks(const char *head, size_t len);

/* Parse a stacks file (plain or compressed, as parse.h reads; "-" is
 * stdin) and append its
 * parts to c.  o->max_line and o->no_check_totals apply (the latter
 * skips comparing each part's totals: line with its nodes).  Returns 0,
 * or CGU_EINPUT with err "file:line: what was expected", or CGU_EIO. */
int cgu_cct_parse_file(struct cgu_cct *c, const char *path,
		       const struct cgu_parse_opts *o, struct cgu_error *err);
int cgu_cct_parse_mem(struct cgu_cct *c, const char *data, size_t len,
		      const char *name, const struct cgu_parse_opts *o,
		      struct cgu_error *err);

/* Read path ("-" is stdin), plain or compressed, as what its first line
 * says: a stacks file is appended to c, anything else is parsed as a
 * Callgrind profile into set (cgu_parse_file()).  Returns 1 for a stacks
 * file, 0 for a profile, or a negative CGU_E* code with err filled. */
int cgu_parse_any(const char *path, const struct cgu_parse_opts *o,
		  struct cgu_profile_set *set, struct cgu_cct *c,
		  struct cgu_error *err);
/* The same, and folded stacks (folded.h) into f when the first line is
 * neither a stacks file's nor a profile's (cgu_folded_is_profile()):
 * returns 2 for those. */
struct cgu_folded;
int cgu_read_input(const char *path, const struct cgu_parse_opts *o,
		   struct cgu_profile_set *set, struct cgu_cct *c,
		   struct cgu_folded *f, struct cgu_error *err);

/* Do the totals of part (or of all) equal those of profile p, event by
 * name?  That is what a stacks file of the same run gives.  Returns 0,
 * or CGU_EINPUT with err "name: ..." telling the difference. */
int cgu_cct_check_profile(const struct cgu_cct *c, size_t part,
			  const struct cgu_profile *p, const char *name,
			  struct cgu_error *err);

/* ---- outputs */

/* The call graph of part (or of all), as Callgrind would write it: a
 * finished profile with a node for every frame of the part's nodes, and
 * its self cost, and for every tree node below another an edge from the
 * parent's frame to the node's frame with the node's calls and the cost
 * of its subtree (so a recursive call's cost counts again in every
 * enclosing call, as in Callgrind's inclusive costs).  Its header is
 * that of the part (of the first part for all).
 * With inclusive, also the exact inclusive cost of every node of the
 * profile: the cost of the tree nodes whose path holds its frame, once
 * however often it holds it (recursion); nnodes * nevents counts,
 * malloc'd, node n's for event e at [n * nevents + e] (as
 * cgu_summary_opts.inclusive takes them). */
struct cgu_profile *cgu_cct_profile(const struct cgu_cct *c, size_t part,
				    cgu_cost **inclusive);

/* Folded stacks "root;...;leaf cost" of the nodes of part (or of all):
 * the frames from the thread's root down to the node, joined by ';', its
 * self cost of the event.  Stacks that print the same add up (across
 * threads, unless per_thread, which starts every stack with a frame
 * "[thread N]"); the lines are sorted as cgu_fold_each() sorts them.
 * Stacks are cut at 4096 frames: a node 4096 or more frames deep adds
 * its cost to a frame "[deeper]" below its ancestor 4095 frames deep. */
struct cgu_view;
struct cgu_cct_fold_opts {
	int event;
	enum cgu_name_style names;
	int per_thread;
	size_t part;
	const struct cgu_view *view;   /* view.h; NULL: every frame */
};
int cgu_cct_fold_each(const struct cgu_cct *c,
		      const struct cgu_cct_fold_opts *o, cgu_fold_cb cb,
		      void *ctx, struct cgu_error *err);
int cgu_cct_fold_write(const struct cgu_cct *c,
		       const struct cgu_cct_fold_opts *o, FILE *out,
		       struct cgu_error *err);
int cgu_cct_fold_buf(const struct cgu_cct *c,
		     const struct cgu_cct_fold_opts *o, struct cgu_buf *out,
		     struct cgu_error *err);

#ifdef __cplusplus
}
#endif
#endif
