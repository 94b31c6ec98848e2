/* folded-profile.c - folded stacks of a profile: the fold writer's text read
 * back by the folded parser, so the flame graph, speedscope and diff see the
 * same plain format as with a folded file (see DESIGN.md). */
#include <string.h>

#include <callgrind-utils/callgrind-utils.h>
#include <callgrind-utils/folded.h>

#include "hash.h"

static int starts(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);
	return len >= n && memcmp(s, prefix, n) == 0;
}

int cgu_folded_is_profile(const char *head, size_t len)
{
	static const char *const keys[] = {
		"# callgrind format", "version:", "creator:", "pid:", "cmd:",
		"part:", "positions:", "events:", "desc:",
	};
	if (len >= 2 && (unsigned char)head[0] == 0x1f && (unsigned char)head[1] == 0x8b)
		return 1;
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (starts(head, len, keys[i]))
			return 1;
	return 0;
}

static int same_function(const void *ctx, uint32_t index, const void *key)
{
	const struct cgu_profile *p = ctx;
	return strcmp(p->nodes[index].function, key) == 0;
}

static uint32_t function_hash(const char *s)
{
	return cgu_hash_bytes(s, strlen(s));
}

/* Index the first node of every function name. */
static void index_functions(const struct cgu_profile *p, struct cgu_itab *t)
{
	for (uint32_t i = 0; i < p->nnodes; i++) {
		const char *fn = p->nodes[i].function;
		uint32_t h = function_hash(fn);
		if (cgu_itab_find(t, h, same_function, p, fn) == UINT32_MAX)
			cgu_itab_insert(t, h, i);
	}
}

static void annotate(struct cgu_folded_frame *fr, const struct cgu_profile *p,
		     const struct cgu_itab *t)
{
	uint32_t i = cgu_itab_find(t, function_hash(fr->name), same_function, p, fr->name);
	if (i == UINT32_MAX)
		return;
	if (p->nodes[i].object[0])
		fr->object = strdup(p->nodes[i].object);
	if (p->nodes[i].file[0])
		fr->file = strdup(p->nodes[i].file);
}

int cgu_folded_from_profile(struct cgu_folded *f, const struct cgu_profile *p,
			    const struct cgu_fold_opts *o, const char *name,
			    struct cgu_error *err)
{
	struct cgu_buf text = CGU_BUF_INIT;
	struct cgu_fold_opts by_function = *o;
	by_function.names = CGU_NAMES_FUNCTION;
	size_t first = f->nframes;
	int rc = cgu_fold_buf(p, &by_function, &text, err);
	if (rc == 0)
		rc = cgu_folded_read_buf(f, text.data, text.len, name, err);
	cgu_buf_release(&text);
	if (rc != 0)
		return rc;
	struct cgu_itab t;
	cgu_itab_init(&t);
	index_functions(p, &t);
	for (size_t i = first; i < f->nframes; i++)
		if (!f->frames[i].object && !f->frames[i].file)
			annotate(&f->frames[i], p, &t);
	cgu_itab_release(&t);
	return 0;
}
