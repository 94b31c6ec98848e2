/* stacks.h - private: collect folded stacks as arrays of frames, then
 * sort, merge and print them.
 *
 * Frames are small integers with a name each (cgu_frames); a stack is an
 * array of frames.  Stacks are kept as integers, not text: sorting
 * compares the frames' name ranks (names compared as if followed by ';',
 * so the order is that of the printed lines in all but odd cases of names
 * holding characters below ';' next to a name that is their prefix; a
 * stack sorts before the stacks it is a prefix of).  Stacks that print
 * the same are summed.  Text is built once per line, at the end. */
#ifndef CGU_STACKS_H
#define CGU_STACKS_H

#include <stdint.h>
#include <callgrind-utils/buf.h>
#include <callgrind-utils/model.h>
#include "hash.h"

/* Folded stacks deeper than this are cut (fold.c, cct-fold.c). */
#define CGU_FOLD_MAX_DEPTH 4096

struct cgu_frames {
	struct cgu_buf text;
	size_t *off;
	uint32_t *len;
	size_t n, cap;
	struct cgu_itab tab;       /* name -> frame, for cgu_frames_intern */
};

void cgu_frames_init(struct cgu_frames *f);
void cgu_frames_release(struct cgu_frames *f);
/* Frame for name (new frames are numbered 0, 1, ...). */
uint32_t cgu_frames_intern(struct cgu_frames *f, const char *s, size_t len);
/* Append a frame without looking for an equal name. */
uint32_t cgu_frames_add(struct cgu_frames *f, const char *s, size_t len);

struct cgu_stack {
	size_t off;                /* frames in pool, root first */
	uint32_t len;
	cgu_cost cost;
};

struct cgu_stacks {
	uint32_t *pool;
	size_t npool, pool_cap;
	struct cgu_stack *v;
	size_t n, cap;
};

void cgu_stacks_init(struct cgu_stacks *s);
void cgu_stacks_release(struct cgu_stacks *s);
/* Add the stack frames[0..n), given leaf first, with its cost. */
void cgu_stacks_add_reversed(struct cgu_stacks *s, const uint32_t *frames,
			     size_t n, cgu_cost cost);
/* Is the last stack added frames[0..n), given leaf first? */
int cgu_stacks_same_as_last(const struct cgu_stacks *s,
			    const uint32_t *frames, size_t n);
/* Sort and merge, then call cb for every line in order; stops at and
 * returns the first non-zero return of cb.  The sort works in the pool:
 * afterwards s can only be released. */
typedef int (*cgu_stacks_cb)(const char *stack, size_t len, cgu_cost cost,
			     void *ctx);
int cgu_stacks_walk(struct cgu_stacks *s, const struct cgu_frames *f,
		    cgu_stacks_cb cb, void *ctx);

/* cgu_stacks_cb()s that write "stack cost\n": to the FILE ctx (non-zero
 * on a write error), or appended to the cgu_buf ctx. */
int cgu_stacks_line_to_file(const char *stack, size_t len, cgu_cost cost,
			    void *ctx);
int cgu_stacks_line_to_buf(const char *stack, size_t len, cgu_cost cost,
			   void *ctx);

#endif
