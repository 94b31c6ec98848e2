/* folded.c - parse folded stacks into interned frames (see folded.h). */
#define _GNU_SOURCE
#include "callgrind-utils/folded.h"
#include "callgrind-utils/view.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "reader.h"

#define NO_SLOT UINT32_MAX

void cgu_folded_init(struct cgu_folded *f)
{
	memset(f, 0, sizeof(*f));
}

void cgu_folded_release(struct cgu_folded *f)
{
	for (size_t i = 0; i < f->nframes; i++) {
		free(f->frames[i].text);
		free(f->frames[i].name);
		free(f->frames[i].object);
		free(f->frames[i].file);
	}
	free(f->frames);
	free(f->stacks);
	free(f->ids);
	free(f->slots);
	free(f->before);
	cgu_folded_init(f);
}

/* Grow *arr to hold at least need elements of size elem. */
static int grow(void *arr, size_t *alloc, size_t need, size_t elem)
{
	if (need <= *alloc)
		return 0;
	size_t n = *alloc ? *alloc * 2 : 16;
	while (n < need)
		n *= 2;
	void *p = realloc(*(void **)arr, n * elem);
	if (!p)
		return -1;
	*(void **)arr = p;
	*alloc = n;
	return 0;
}

static uint32_t hash_text(const char *s, size_t len)
{
	uint32_t h = 2166136261u;   /* FNV-1a */
	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 16777619u;
	}
	return h;
}

static bool frame_is(const struct cgu_folded_frame *fr, const char *s, size_t len)
{
	return strncmp(fr->text, s, len) == 0 && fr->text[len] == '\0';
}

static int rehash(struct cgu_folded *f, size_t nslots)
{
	uint32_t *slots = malloc(nslots * sizeof(*slots));
	if (!slots)
		return -1;
	memset(slots, 0xff, nslots * sizeof(*slots));
	for (uint32_t id = 0; id < f->nframes; id++) {
		const char *t = f->frames[id].text;
		size_t i = hash_text(t, strlen(t)) & (nslots - 1);
		while (slots[i] != NO_SLOT)
			i = (i + 1) & (nslots - 1);
		slots[i] = id;
	}
	free(f->slots);
	f->slots = slots;
	f->nslots = nslots;
	return 0;
}

/* An annotation is " [OBJECT]" or " [OBJECT:FILE]" at the end of the frame,
 * with no space or bracket inside; anything else is part of the name. */
static size_t annotation_start(const char *s, size_t len)
{
	if (len < 4 || s[len - 1] != ']')
		return len;
	size_t i = len - 1;
	while (i > 0 && s[i - 1] != '[') {
		char c = s[i - 1];
		if (c == ' ' || c == ']')
			return len;
		i--;
	}
	if (i < 2 || i == len - 1 || s[i - 2] != ' ')
		return len;
	return i - 2;
}

static int split_frame(struct cgu_folded_frame *fr, const char *s, size_t len)
{
	size_t cut = annotation_start(s, len);
	fr->text = strndup(s, len);
	fr->name = strndup(s, cut);
	if (!fr->text || !fr->name)
		return -1;
	if (cut == len)
		return 0;
	const char *obj = s + cut + 2;
	size_t objlen = len - cut - 3;
	const char *colon = memchr(obj, ':', objlen);
	if (!colon) {
		fr->object = strndup(obj, objlen);
		return fr->object ? 0 : -1;
	}
	fr->object = strndup(obj, (size_t)(colon - obj));
	fr->file = strndup(colon + 1, objlen - (size_t)(colon - obj) - 1);
	return fr->object && fr->file ? 0 : -1;
}

uint32_t cgu_folded_intern(struct cgu_folded *f, const char *text, size_t len)
{
	if (f->nframes * 2 >= f->nslots &&
	    rehash(f, f->nslots ? f->nslots * 2 : 64) < 0)
		return NO_SLOT;
	size_t i = hash_text(text, len) & (f->nslots - 1);
	for (; f->slots[i] != NO_SLOT; i = (i + 1) & (f->nslots - 1))
		if (frame_is(&f->frames[f->slots[i]], text, len))
			return f->slots[i];
	if (f->nframes >= NO_SLOT - 1 ||
	    grow(&f->frames, &f->frames_alloc, f->nframes + 1, sizeof(*f->frames)) < 0)
		return NO_SLOT;
	struct cgu_folded_frame *fr = &f->frames[f->nframes];
	memset(fr, 0, sizeof(*fr));
	if (split_frame(fr, text, len) < 0) {
		free(fr->text);
		free(fr->name);
		free(fr->object);
		return NO_SLOT;
	}
	f->slots[i] = (uint32_t)f->nframes;
	return (uint32_t)f->nframes++;
}

/* Object and file given to a frame apart from its text (by the model,
 * see cgu_folded_from_profile) travel along with the name. */
static int copy_details(struct cgu_folded_frame *to, const struct cgu_folded_frame *from)
{
	if (!to->object && from->object && !(to->object = strdup(from->object)))
		return -1;
	if (!to->file && from->file && !(to->file = strdup(from->file)))
		return -1;
	return 0;
}

uint32_t cgu_folded_intern_frame(struct cgu_folded *f, const struct cgu_folded_frame *from)
{
	uint32_t id = cgu_folded_intern(f, from->text, strlen(from->text));
	if (id == NO_SLOT || copy_details(&f->frames[id], from) < 0)
		return NO_SLOT;
	return id;
}

uint32_t *cgu_folded_share_frames(struct cgu_folded *into, const struct cgu_folded *f)
{
	uint32_t *map = malloc((f->nframes ? f->nframes : 1) * sizeof(*map));
	for (size_t i = 0; map && i < f->nframes; i++) {
		map[i] = cgu_folded_intern_frame(into, &f->frames[i]);
		if (map[i] == NO_SLOT) {
			free(map);
			return NULL;
		}
	}
	return map;
}

/* Make the depth ids already stored at the end of f->ids a stack, with
 * before as its BEFORE count when f is differential. */
static int commit_stack(struct cgu_folded *f, size_t depth, uint64_t count,
			uint64_t before)
{
	if (grow(&f->stacks, &f->stacks_alloc, f->nstacks + 1, sizeof(*f->stacks)) < 0)
		return -1;
	if (f->shape == 2 &&
	    grow(&f->before, &f->before_alloc, f->nstacks + 1, sizeof(*f->before)) < 0)
		return -1;
	if (f->shape == 2) {
		f->before[f->nstacks] = before;
		f->before_total += before;
	}
	f->stacks[f->nstacks++] = (struct cgu_folded_stack){
		.first = f->nids, .depth = depth, .count = count,
	};
	f->nids += depth;
	f->total += count;
	return 0;
}

int cgu_folded_add(struct cgu_folded *f, const uint32_t *ids, size_t depth,
		   uint64_t count)
{
	if (grow(&f->ids, &f->ids_alloc, f->nids + depth, sizeof(*f->ids)) < 0)
		return -1;
	memcpy(f->ids + f->nids, ids, depth * sizeof(*ids));
	return commit_stack(f, depth, count, 0);
}

int cgu_folded_add_lane(struct cgu_folded *f, const struct cgu_folded *src,
			const char *lane)
{
	uint32_t *map = cgu_folded_share_frames(f, src);
	uint32_t id = cgu_folded_intern(f, lane, strlen(lane));
	int rc = map && id != NO_SLOT ? 0 : -1;

	for (size_t i = 0; rc == 0 && i < src->nstacks; i++) {
		const struct cgu_folded_stack *s = &src->stacks[i];
		const uint32_t *ids = cgu_folded_stack_ids(src, s);

		rc = grow(&f->ids, &f->ids_alloc, f->nids + s->depth + 1,
			  sizeof(*f->ids));
		if (rc < 0)
			break;
		f->ids[f->nids] = id;
		for (size_t k = 0; k < s->depth; k++)
			f->ids[f->nids + 1 + k] = map[ids[k]];
		rc = commit_stack(f, s->depth + 1, s->count, 0);
	}
	free(map);
	return rc;
}

void cgu_folded_write_frame(const struct cgu_folded *f, uint32_t id, FILE *out)
{
	fputs(f->frames[id].text, out);
}

#define fail(err, name, lineno, ...) \
	cgu_error_set(err, CGU_EINPUT, name, lineno, __VA_ARGS__)

/* Parse a decimal count; returns -1 on anything but digits or overflow. */
static int parse_count(const char *s, size_t len, uint64_t *out)
{
	uint64_t v = 0;
	if (len == 0)
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		unsigned d = (unsigned)(s[i] - '0');
		if (v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

/* Split the stack part into interned ids, appended at the end of f->ids
 * (not yet committed as a stack).  Returns the depth, or -1. */
static int intern_stack(struct cgu_folded *f, const char *s, size_t len,
			size_t *depth, const char *name, size_t lineno,
			struct cgu_error *err)
{
	size_t start = 0, n = 0;
	for (size_t i = 0; i <= len; i++) {
		if (i < len && s[i] != ';')
			continue;
		if (i == start)
			return fail(err, name, lineno,
				    "expected a frame name between ';' separators");
		uint32_t id = cgu_folded_intern(f, s + start, i - start);
		if (id == NO_SLOT ||
		    grow(&f->ids, &f->ids_alloc, f->nids + n + 1, sizeof(*f->ids)) < 0)
			return fail(err, name, lineno, "out of memory");
		f->ids[f->nids + n++] = id;
		start = i + 1;
	}
	*depth = n;
	return 0;
}

/* The count at the end of line[0..*len): parsed into *count, *len cut
 * to the text before it (its spaces too).  0, 1 when the text is not a
 * count (*len untouched), -1 when it overflows. */
static int last_count(const char *line, size_t *len, uint64_t *count)
{
	const char *sp = memrchr(line, ' ', *len);

	if (!sp)
		return 1;
	const char *num = sp + 1;
	size_t numlen = *len - (size_t)(num - line), i;
	for (i = 0; i < numlen; i++)
		if (num[i] < '0' || num[i] > '9')
			return 1;
	if (parse_count(num, numlen, count) < 0)
		return numlen ? -1 : 1;
	*len = (size_t)(sp - line);
	while (*len > 0 && line[*len - 1] == ' ')
		(*len)--;
	return 0;
}

static int parse_line(struct cgu_folded *f, const char *line, size_t len,
		      const char *name, size_t lineno, struct cgu_error *err)
{
	uint64_t count, before = 0;
	size_t stacklen = len;
	int two;

	if (len > 0 && line[len - 1] == '\r')
		len--;
	if (len == 0)
		return 0;
	/* frames are kept as C strings: a NUL would cut one short */
	if (memchr(line, '\0', len))
		return fail(err, name, lineno, "NUL byte in line; expected text");
	stacklen = len;
	if (!memrchr(line, ' ', len))
		return fail(err, name, lineno,
			    "expected 'STACK COUNT' (frames separated by ';', a space, a count)");
	if (last_count(line, &stacklen, &count)) {
		const char *num = (const char *)memrchr(line, ' ', len) + 1;
		size_t numlen = len - (size_t)(num - line);
		return fail(err, name, lineno,
			    "expected a non-negative integer count, got '%.*s'",
			    (int)(numlen > 40 ? 40 : numlen), num);
	}
	/* a second count before it: differential stacks, if the first
	 * line says so */
	size_t rest = stacklen;
	uint64_t first;
	two = stacklen && last_count(line, &rest, &first) == 0 && rest > 0;
	if (!f->shape)
		f->shape = two ? 2 : 1;
	if (f->shape == 2) {
		if (!two)
			return fail(err, name, lineno, "expected 'STACK BEFORE "
				    "AFTER' (two counts, as the first line has: "
				    "differential folded stacks)");
		before = first;
		stacklen = rest;
	}
	if (stacklen == 0)
		return fail(err, name, lineno, "expected a stack before the count");
	size_t depth = 0;
	int rc = intern_stack(f, line, stacklen, &depth, name, lineno, err);
	if (rc < 0)
		return rc;
	if (f->total > UINT64_MAX - count || f->before_total > UINT64_MAX - before)
		return fail(err, name, lineno, "expected counts whose total fits in 64 bits");
	if (commit_stack(f, depth, count, before) < 0)
		return fail(err, name, lineno, "out of memory");
	return 0;
}

int cgu_folded_read(struct cgu_folded *f, FILE *in, const char *name,
		    struct cgu_error *err)
{
	char *line = NULL;
	size_t alloc = 0, lineno = 0;
	ssize_t n;
	int rc = 0;
	while (rc == 0 && (n = getline(&line, &alloc, in)) >= 0) {
		lineno++;
		if (n > 0 && line[n - 1] == '\n')
			n--;
		rc = parse_line(f, line, (size_t)n, name, lineno, err);
	}
	free(line);
	if (rc == 0 && ferror(in))
		return cgu_error_set(err, CGU_EIO, name, 0, "cannot read: %s", strerror(errno));
	return rc;
}

int cgu_folded_read_buf(struct cgu_folded *f, const char *buf, size_t len,
			const char *name, struct cgu_error *err)
{
	size_t lineno = 0;
	while (len > 0) {
		const char *nl = memchr(buf, '\n', len);
		size_t n = nl ? (size_t)(nl - buf) : len;
		int rc = parse_line(f, buf, n, name, ++lineno, err);
		if (rc < 0)
			return rc;
		size_t used = nl ? n + 1 : n;
		buf += used;
		len -= used;
	}
	return 0;
}

int cgu_folded_parse_reader(struct cgu_folded *f, struct cgu_reader *r,
			    const char *name, struct cgu_error *err)
{
	size_t lineno = 0, len;
	char *line;
	int rc;

	for (;;) {
		rc = cgu_reader_line(r, &line, &len);
		if (rc == 0)
			return 0;
		lineno++;
		if (rc == -1)
			return cgu_reader_read_error(r, name, err);
		if (rc == -2)
			return fail(err, name, lineno, "line longer than %zu "
				    "bytes; expected shorter lines (see "
				    "--max-line)", r->max_line);
		if (rc == -3)
			return fail(err, name, lineno, "NUL byte in line; "
				    "expected text");
		rc = parse_line(f, line, len, name, lineno, err);
		if (rc < 0)
			return rc;
	}
}

/* ---------------------------------------------------------- views */

int cgu_folded_view(struct cgu_folded *dst, const struct cgu_folded *src,
		    const struct cgu_view *v)
{
	struct cgu_view regexes_only = *v;
	unsigned char *flags = calloc(src->nframes ? src->nframes : 1, 1);
	uint32_t *map = calloc(src->nframes ? src->nframes : 1, sizeof(*map));
	uint32_t *path = NULL;
	size_t cap = 0;
	int rc = 0;

	regexes_only.all_frames = 1;
	if (!flags || !map)
		rc = -1;
	for (size_t i = 0; rc == 0 && i < src->nframes; i++) {
		const struct cgu_folded_frame *fr = &src->frames[i];
		flags[i] = (unsigned char)cgu_view_classify(&regexes_only,
			fr->name, fr->object, fr->name);
		map[i] = cgu_folded_intern_frame(dst, fr);
		if (map[i] == NO_SLOT)
			rc = -1;
	}
	dst->shape = src->shape;
	for (size_t i = 0; rc == 0 && i < src->nstacks; i++) {
		const struct cgu_folded_stack *s = &src->stacks[i];
		const uint32_t *ids = cgu_folded_stack_ids(src, s);
		size_t depth = s->depth;
		if (grow(&path, &cap, depth ? depth : 1, sizeof(*path)) < 0) {
			rc = -1;
			break;
		}
		for (size_t k = 0; k < depth; k++)      /* leaf first */
			path[k] = ids[depth - 1 - k];
		depth = cgu_view_apply(&regexes_only, flags, UINT32_MAX, path,
				       depth);
		if (depth == CGU_VIEW_DROP)
			continue;
		if (grow(&dst->ids, &dst->ids_alloc, dst->nids + depth,
			 sizeof(*dst->ids)) < 0) {
			rc = -1;
			break;
		}
		for (size_t k = 0; k < depth; k++)
			dst->ids[dst->nids + k] = map[path[depth - 1 - k]];
		if (commit_stack(dst, depth, s->count,
				 src->before ? src->before[i] : 0) < 0)
			rc = -1;
	}
	free(flags);
	free(map);
	free(path);
	return rc;
}
