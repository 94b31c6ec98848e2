/* names.c - how nodes are named in text outputs.
 *
 * CGU_NAMES_AUTO names a function by its name alone, unless other
 * functions (other files or objects) have the same name: those are named
 * "base:function" with the base name of their file, or where that is the
 * same "file:function", and where the file is the same too,
 * "file:function [object]", so that no two functions print the same
 * (check_match of dl-lookup.c and of dl-lookup-direct.c stay two frames,
 * two lines). */
#include <stdlib.h>
#include <string.h>
#include <callgrind-utils/output.h>
#include "hash.h"

void cgu_frame_name(const struct cgu_node *node, enum cgu_name_style style,
		    struct cgu_buf *out)
{
	if (style == CGU_NAMES_FILE_FUNCTION || style == CGU_NAMES_FULL) {
		cgu_buf_adds(out, node->file[0] ? node->file : "???");
		cgu_buf_addch(out, ':');
	}
	cgu_buf_adds(out, node->function);
	if (style == CGU_NAMES_FULL && node->object[0])
		cgu_buf_addf(out, " [%s]", node->object);
}

void cgu_node_name(const struct cgu_profile *p, uint32_t n,
		   enum cgu_name_style style, struct cgu_buf *out)
{
	cgu_frame_name(&p->nodes[n], style, out);
}

/* ------------------------------------------------------- name tables */

static int same_name(const void *ctx, uint32_t index, const void *key)
{
	const struct cgu_name_table *t = ctx;

	return !strcmp(cgu_name_table_get(t, index), key);
}

/* dup[i] is set for every i whose name is not unique.  Returns whether
 * any is. */
static int find_duplicates(const struct cgu_name_table *t, unsigned char *dup)
{
	struct cgu_itab tab;
	size_t i;
	int any = 0;

	cgu_itab_init(&tab);
	for (i = 0; i < t->n; i++) {
		const char *s = cgu_name_table_get(t, i);
		uint32_t h = cgu_hash_bytes(s, strlen(s));
		uint32_t j = cgu_itab_find(&tab, h, same_name, t, s);

		if (j == UINT32_MAX) {
			cgu_itab_insert(&tab, h, (uint32_t)i);
			dup[i] = 0;
		} else {
			dup[i] = dup[j] = 1;
			any = 1;
		}
	}
	cgu_itab_release(&tab);
	return any;
}

/* The levels of auto naming, shortest first. */
enum { LEVEL_FUNCTION, LEVEL_BASE, LEVEL_FILE, LEVEL_FULL };

static void name_at(const struct cgu_node *node, int level,
		    struct cgu_buf *out)
{
	const char *slash = strrchr(node->file, '/');

	if (level != LEVEL_BASE) {
		cgu_frame_name(node, level == LEVEL_FUNCTION ? CGU_NAMES_FUNCTION
			       : level == LEVEL_FILE ? CGU_NAMES_FILE_FUNCTION
			       : CGU_NAMES_FULL, out);
		return;
	}
	cgu_buf_adds(out, !node->file[0] ? "???" : slash ? slash + 1
		     : node->file);
	cgu_buf_addch(out, ':');
	cgu_buf_adds(out, node->function);
}

/* Name every function of v at its level, or in style. */
static void name_all(struct cgu_name_table *t, const struct cgu_node *v,
		     enum cgu_name_style style, const unsigned char *level)
{
	size_t i;

	cgu_buf_reset(&t->text);
	for (i = 0; i < t->n; i++) {
		t->off[i] = t->text.len;
		if (style == CGU_NAMES_AUTO)
			name_at(&v[i], level[i], &t->text);
		else
			cgu_frame_name(&v[i], style, &t->text);
		cgu_buf_addch(&t->text, '\0');
	}
}

void cgu_name_table_build(struct cgu_name_table *t, const struct cgu_node *v,
			  size_t n, enum cgu_name_style style)
{
	unsigned char *level = calloc(n ? n : 1, 1);
	unsigned char *dup = malloc(n ? n : 1);
	size_t i;

	if (!level || !dup)
		abort();
	cgu_buf_init(&t->text);
	t->n = n;
	t->off = malloc((n ? n : 1) * sizeof(*t->off));
	if (!t->off)
		abort();
	name_all(t, v, style, level);
	/* auto: the duplicates one level longer, until none is */
	while (style == CGU_NAMES_AUTO && find_duplicates(t, dup)) {
		int longer = 0;

		for (i = 0; i < n; i++) {
			if (!dup[i] || level[i] == LEVEL_FULL)
				continue;
			level[i]++;
			longer = 1;
		}
		if (!longer)
			break;
		name_all(t, v, style, level);
	}
	free(level);
	free(dup);
}

void cgu_name_table_release(struct cgu_name_table *t)
{
	cgu_buf_release(&t->text);
	free(t->off);
	t->off = NULL;
	t->n = 0;
}
