/* diff.h - differential flame graphs between two sets of folded stacks:
 * widths by the second (after), colour by the change from the first
 * (before): red grew, blue shrank. */
#ifndef CALLGRIND_UTILS_DIFF_H
#define CALLGRIND_UTILS_DIFF_H

#include <stdbool.h>
#include <stdio.h>
#include <callgrind-utils/flame.h>
#include <callgrind-utils/folded.h>

/* Build the tree of before and after; with normalize, every count of
 * before is scaled by total(after) / total(before) (rounded per stack) so
 * that both have the same total.  Returns 0 or -1 (out of memory). */
int cgu_diff_tree(struct cgu_flame_tree *t, const struct cgu_folded *before,
		  const struct cgu_folded *after, bool normalize, bool reverse);

/* The same for differential folded stacks (f->before, as
 * cgu_diff_write_folded() writes them): AFTER as widths, BEFORE as the
 * baseline, scaled to the total of AFTER with normalize. */
int cgu_diff_tree_folded(struct cgu_flame_tree *t, const struct cgu_folded *f,
			 bool normalize, bool reverse);

/* "a;b;c BEFORE AFTER" for every stack in either input, in tree order
 * (siblings by name, a frame before its callees).  Returns 0 or CGU_EIO. */
int cgu_diff_write_folded(const struct cgu_flame_tree *t, FILE *out);

/* The differential SVG (see flame.h for the options). */
int cgu_diff_write_svg(const struct cgu_flame_tree *t,
		       const struct cgu_flame_options *o, FILE *out);

#endif
