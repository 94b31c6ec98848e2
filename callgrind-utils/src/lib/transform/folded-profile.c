/* folded-profile.c - folded stacks of a profile or of its exact stacks: the
 * fold writer's text read back by the folded parser, so the flame graph,
 * speedscope and diff see the same plain format as with a folded file (see
 * DESIGN.md). */
#include <string.h>

#include <callgrind-utils/callgrind-utils.h>
#include <callgrind-utils/cct.h>
#include <callgrind-utils/folded.h>

#include "hash.h"

static int starts(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);
	return len >= n && memcmp(s, prefix, n) == 0;
}

/* Does the line at s (len bytes of input from there) start as only a
 * Callgrind profile's lines do: a header key the profiles Callgrind
 * writes have, or a name line of the body?  A folded stack cannot (its
 * frames would end in ':' or '=' and the count is missing). */
static int profile_line(const char *s, size_t len)
{
	static const char *const keys[] = {
		"version:", "creator:", "pid:", "cmd:", "part:", "thread:",
		"positions:", "events:", "event:", "desc:", "summary:",
		"totals:", "fl=", "fi=", "fe=", "fn=", "ob=",
	};
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (starts(s, len, keys[i]))
			return 1;
	return 0;
}

/* The first line of the input that is neither blank nor a comment decides
 * (a profile may start with any '#' comment, not only "# callgrind
 * format"); a folded frame may start with '#' too, but then the stacks
 * after it are folded all the same.  Only what head holds is looked at. */
int cgu_folded_is_profile(const char *head, size_t len)
{
	const char *end = head + len, *nl;

	if (len >= 2 && (unsigned char)head[0] == 0x1f && (unsigned char)head[1] == 0x8b)
		return 1;
	if (starts(head, len, "# callgrind format"))
		return 1;
	for (const char *s = head; s < end; s = nl + 1) {
		while (s < end && (*s == ' ' || *s == '\t' || *s == '\r'))
			s++;
		if (s == end)
			break;
		if (*s != '\n' && *s != '#')
			return profile_line(s, (size_t)(end - s));
		nl = memchr(s, '\n', (size_t)(end - s));
		if (!nl)
			break;
	}
	return 0;
}

/* Functions to find frames' objects and files in (a profile's nodes or
 * a calling-context tree's frames), by the name they are printed as. */
struct functions {
	const struct cgu_node *v;
	size_t n;
	struct cgu_name_table names;
	struct cgu_itab tab;       /* the first node of every name */
};

static int same_name(const void *ctx, uint32_t index, const void *key)
{
	return strcmp(cgu_name_table_get(ctx, index), key) == 0;
}

static uint32_t name_hash(const char *s)
{
	return cgu_hash_bytes(s, strlen(s));
}

static void index_functions(struct functions *fs, enum cgu_name_style style)
{
	cgu_name_table_build(&fs->names, fs->v, fs->n, style);
	cgu_itab_init(&fs->tab);
	for (uint32_t i = 0; i < fs->n; i++) {
		const char *fn = cgu_name_table_get(&fs->names, i);
		uint32_t h = name_hash(fn);
		if (cgu_itab_find(&fs->tab, h, same_name, &fs->names, fn) == UINT32_MAX)
			cgu_itab_insert(&fs->tab, h, i);
	}
}

static void annotate(struct cgu_folded_frame *fr, const struct functions *fs)
{
	uint32_t i = cgu_itab_find(&fs->tab, name_hash(fr->name), same_name,
				   &fs->names, fr->name);
	if (i == UINT32_MAX)
		return;
	if (fs->v[i].object[0])
		fr->object = strdup(fs->v[i].object);
	if (fs->v[i].file[0])
		fr->file = strdup(fs->v[i].file);
}

/* Parse the fold text into f; the new frames get the object and file of
 * the function printed with their name (the first of them). */
static int read_annotated(struct cgu_folded *f, const struct cgu_buf *text,
			  const struct cgu_node *v, size_t n,
			  enum cgu_name_style style, const char *name,
			  struct cgu_error *err)
{
	struct functions fs = { v, n, { CGU_BUF_INIT, NULL, 0 }, { 0 } };
	size_t first = f->nframes;
	int rc = cgu_folded_read_buf(f, text->data, text->len, name, err);
	if (rc != 0)
		return rc;
	index_functions(&fs, style);
	for (size_t i = first; i < f->nframes; i++)
		if (!f->frames[i].object && !f->frames[i].file)
			annotate(&f->frames[i], &fs);
	cgu_itab_release(&fs.tab);
	cgu_name_table_release(&fs.names);
	return 0;
}

int cgu_folded_from_profile(struct cgu_folded *f, const struct cgu_profile *p,
			    const struct cgu_fold_opts *o, const char *name,
			    struct cgu_error *err)
{
	struct cgu_buf text = CGU_BUF_INIT;
	int rc = cgu_fold_buf(p, o, &text, err);
	if (rc == 0)
		rc = read_annotated(f, &text, p->nodes, p->nnodes, o->names,
				    name, err);
	cgu_buf_release(&text);
	return rc;
}

int cgu_folded_from_cct(struct cgu_folded *f, const struct cgu_cct *c,
			const struct cgu_cct_fold_opts *o, const char *name,
			struct cgu_error *err)
{
	struct cgu_buf text = CGU_BUF_INIT;
	int rc = cgu_cct_fold_buf(c, o, &text, err);
	if (rc == 0)
		rc = read_annotated(f, &text, c->frames, c->nframes, o->names,
				    name, err);
	cgu_buf_release(&text);
	return rc;
}
