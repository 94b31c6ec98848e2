/* export-tree.h - private: the stacks of every event of an export merged
 * into one tree (pprof.c, firefox.c).
 *
 * The tree is a flame tree (flame.h) used for its shape only: node 0 is
 * the root, every other node a (parent, frame) pair, a parent's id below
 * its children's; frames are tree.names.  Each node has a self cost per
 * event: the count of the folded stack that ends there.  A node whose
 * self costs are all zero is no sample of its own. */
#ifndef CGU_EXPORT_TREE_H
#define CGU_EXPORT_TREE_H

#include <callgrind-utils/export.h>
#include <callgrind-utils/flame.h>
#include "stacks.h"

struct cgu_export_tree {
	struct cgu_flame_tree tree;
	size_t nevents;
	cgu_cost *self;            /* node * nevents + event */
	size_t self_alloc;         /* nodes self has room for */
	uint64_t samples;          /* nodes with a self cost */
	uint64_t frames;           /* the frames of their stacks, in all */
};

/* Merge the events' stacks.  0, or CGU_EIO (out of memory) with err. */
int cgu_export_tree_build(struct cgu_export_tree *t,
			  const struct cgu_export_event *events, size_t n,
			  struct cgu_error *err);
void cgu_export_tree_release(struct cgu_export_tree *t);

static inline const cgu_cost *cgu_export_self(const struct cgu_export_tree *t,
					      uint32_t node)
{
	return t->self + (size_t)node * t->nevents;
}

/* Does node have a self cost (is it a sample)? */
int cgu_export_is_sample(const struct cgu_export_tree *t, uint32_t node);

/* A string table: strings interned in order, 0, 1, ... (cgu_frames). */
static inline uint32_t cgu_export_string(struct cgu_frames *strings,
					 const char *s)
{
	return cgu_frames_intern(strings, s, strlen(s));
}

/* The distinct non-empty values of a frame detail (object or file) of
 * the tree's frames: index[frame] is the value's number, or UINT32_MAX
 * for none; values holds them, in order.  malloc'd index. */
uint32_t *cgu_export_distinct(const struct cgu_export_tree *t, int file,
			      struct cgu_frames *values);

#endif
