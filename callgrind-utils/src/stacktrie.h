/* stacktrie.h - private: sum stacks of frames in a prefix tree, then
 * walk them in sorted order as folded lines.
 *
 * Frames are small integers with a name each (cgu_frames); a stack is a
 * root-first array of frames.  Adding a stack costs one hash lookup per
 * frame and no text, so deep stacks that share prefixes stay cheap.
 * Lines come out sorted frame by frame, names compared as if followed by
 * ';' (so "a;b" sorts as bytewise text would in all but odd cases of
 * names containing characters below ';' next to a prefix name), and a
 * stack's own line before the stacks that extend it. */
#ifndef CGU_STACKTRIE_H
#define CGU_STACKTRIE_H

#include <stdint.h>
#include <callgrind-utils/buf.h>
#include <callgrind-utils/model.h>
#include "hash.h"

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

struct cgu_trie_node {
	uint32_t frame, parent;
	uint32_t child, sibling;   /* after sorting; 0 = none */
	cgu_cost cost;
};

struct cgu_trie {
	struct cgu_trie_node *v;   /* v[0] is the root, with no frame */
	size_t n, cap;
	struct cgu_itab tab;       /* (parent, frame) -> node */
};

void cgu_trie_init(struct cgu_trie *t);
void cgu_trie_release(struct cgu_trie *t);
/* Add cost to the stack frames[0..n) (root first). */
void cgu_trie_add(struct cgu_trie *t, const uint32_t *frames, size_t n,
		  cgu_cost cost);
/* The same, frames given leaf first. */
void cgu_trie_add_reversed(struct cgu_trie *t, const uint32_t *frames,
			   size_t n, cgu_cost cost);
/* Call cb for every stack with a cost, in sorted order; stops at and
 * returns the first non-zero return of cb. */
typedef int (*cgu_trie_cb)(const char *stack, size_t len, cgu_cost cost,
			   void *ctx);
int cgu_trie_walk(struct cgu_trie *t, const struct cgu_frames *f,
		  cgu_trie_cb cb, void *ctx);

#endif
