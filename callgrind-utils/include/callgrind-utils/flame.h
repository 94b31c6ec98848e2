/* flame.h - flame graphs: a tree merged from folded stacks, and a
 * self-contained interactive SVG drawn from it.
 *
 * The tree is plain data (one array of nodes); the SVG writer only reads it.
 * A differential graph (diff.h) is the same tree with a second count per
 * node, the baseline, which the writer shows as colour.
 */
#ifndef CALLGRIND_UTILS_FLAME_H
#define CALLGRIND_UTILS_FLAME_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "callgrind-utils/folded.h"

#define CGU_FLAME_NONE UINT32_MAX

struct cgu_flame_node {
	uint32_t frame;         /* id in tree->names; CGU_FLAME_NONE for the root */
	uint32_t parent, first_child, next_sibling;
	uint32_t depth;         /* root is 0 */
	uint64_t x;             /* offset from the left, in count units */
	uint64_t total;         /* inclusive count: the width */
	uint64_t before;        /* inclusive count in the baseline (diff) */
};

struct cgu_flame_tree {
	struct cgu_folded names;    /* frame names used by the nodes */
	struct cgu_flame_node *nodes;   /* nodes[0] is the root */
	size_t nnodes, nodes_alloc;
	uint32_t *slots;            /* (parent, frame) -> node */
	size_t nslots;
	uint32_t maxdepth;
	bool has_before;
	/* Set before adding stacks: the frames of a stack from the
	 * max_depth-th on are merged into one frame "[deeper]" (as folded
	 * stacks are cut, see cct.h); 0 = no limit. */
	uint32_t max_depth;
	/* Set before adding stacks: a flame chart.  A stack merges with
	 * the stack added just before it only (where their frames are the
	 * same from the root), and the layout keeps the order of the
	 * stacks instead of sorting siblings by name. */
	bool chart;
};

/* The default of cgu_flame_options.max_depth: as deep as folded stacks
 * go (their [deeper] frame included). */
#define CGU_FLAME_DEFAULT_MAX_DEPTH 4096
/* The default of cgu_flame_options.max_frames. */
#define CGU_FLAME_DEFAULT_MAX_FRAMES 200000

enum cgu_flame_palette {
	CGU_PALETTE_OBJECT,     /* by kind of object: user, libc, loader, JIT, skipped */
	CGU_PALETTE_HOT,        /* reds and yellows for every frame */
	CGU_PALETTE_COLD,       /* blues and greens for every frame */
};

enum cgu_frame_kind {
	CGU_KIND_USER,
	CGU_KIND_LIBC,
	CGU_KIND_LOADER,
	CGU_KIND_JIT,
	CGU_KIND_SKIPPED,
};

struct cgu_flame_options {
	const char *title;      /* NULL: "Flame Graph" or "Icicle Graph" */
	const char *subtitle;   /* NULL: none */
	const char *countname;  /* unit in the details, e.g. "Ir" */
	double width;           /* image width in pixels */
	double minwidth;        /* frames narrower than this (pixels) are left out */
	unsigned frame_height;  /* pixels */
	double font_size;       /* pixels */
	enum cgu_flame_palette palette;
	bool reverse;           /* reverse each stack: leaves become roots */
	bool inverted;          /* icicle: root at the top, growing down */
	unsigned max_depth;     /* deeper frames merged into "[deeper]" (for
				   the tree cgu_flame_write_svg() builds); 0:
				   no limit */
	size_t max_frames;      /* at most this many frames are drawn: the
				   narrowest are left out, which the subtitle
				   says; 0: no limit */
	bool minwidth_percent;  /* minwidth is a percent of the total, not
				   pixels */
	bool flamechart;        /* the stacks in the order given (time
				   order, where the input has it), each
				   merged with the one before only; see
				   cgu_flame_tree.chart */
};

void cgu_flame_options_init(struct cgu_flame_options *o);
int cgu_flame_palette_parse(const char *name, enum cgu_flame_palette *out);
enum cgu_frame_kind cgu_frame_classify(const char *name, const char *object);
/* Stable colour of a frame: the same name and kind give the same colour. */
void cgu_flame_color(enum cgu_flame_palette p, const char *name,
		     const char *object, uint8_t rgb[3]);

void cgu_flame_tree_init(struct cgu_flame_tree *t);
void cgu_flame_tree_release(struct cgu_flame_tree *t);
/* Merge every stack of f into the tree, as the width (before=false) or as
 * the baseline (before=true), each count multiplied by scale and rounded;
 * a sum that would pass 2^64 - 1 stays there (no wrap);
 * the baseline of differential folded stacks is their BEFORE counts.
 * Returns 0 or -1 (out of memory). */
int cgu_flame_tree_add(struct cgu_flame_tree *t, const struct cgu_folded *f,
		       bool reverse, bool before, double scale);
/* The node for frame (an id in t->names) below parent (0: the root),
 * made if new; node ids grow, a child's above its parent's.
 * CGU_FLAME_NONE when out of memory. */
uint32_t cgu_flame_tree_child(struct cgu_flame_tree *t, uint32_t parent, uint32_t frame);
/* Order siblings by name (a chart: in the order they were added) and
 * compute every node's x.  Call once, after
 * the last cgu_flame_tree_add. */
void cgu_flame_tree_layout(struct cgu_flame_tree *t);
uint64_t cgu_flame_node_self(const struct cgu_flame_tree *t, uint32_t node);

/* Write the tree as an SVG document.  Returns 0, or -1 on a write error. */
int cgu_flame_tree_write_svg(const struct cgu_flame_tree *t,
			     const struct cgu_flame_options *o, FILE *out);
/* Folded stacks to SVG in one call. */
int cgu_flame_write_svg(const struct cgu_folded *f,
			const struct cgu_flame_options *o, FILE *out);

#endif
