/* folded.h - folded stacks ("a;b;c 123"), the plain text between fold and
 * the flame graph renderers.
 *
 * One line is one stack: frames from the root to the leaf, separated by ';',
 * then one space, then a non-negative decimal count.  Blank lines are
 * ignored; anything else that does not have this shape is an error.  A frame
 * may carry its object and source file at its end, as " [OBJECT]" or
 * " [OBJECT:FILE]" (no spaces or brackets inside), e.g.
 * "malloc [libc.so.6:malloc.c]".  Names are interned: equal names get the
 * same frame id, so renderers compare integers.
 *
 * Differential folded stacks, as "diff --folded" (and difffolded.pl)
 * write them, have two counts, "a;b;c BEFORE AFTER".  The first stack
 * line decides: when the text before its count ends in a space and a
 * number too, every line must have two counts, the set is differential,
 * count is AFTER and before[] holds BEFORE; else a number there is part
 * of the last frame's name, as before.
 */
#ifndef CALLGRIND_UTILS_FOLDED_H
#define CALLGRIND_UTILS_FOLDED_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <callgrind-utils/error.h>

struct cgu_folded_frame {
	char *text;        /* the frame as written in the folded text */
	char *name;        /* function name, without the annotation */
	char *object;      /* NULL when the line carried none */
	char *file;        /* NULL when the line carried none */
};

struct cgu_folded_stack {
	size_t first;      /* index of the root frame id in cgu_folded.ids */
	size_t depth;      /* number of frames */
	uint64_t count;
};

struct cgu_folded {
	struct cgu_folded_frame *frames;  /* distinct frames, by id */
	size_t nframes, frames_alloc;
	struct cgu_folded_stack *stacks;  /* in input order, duplicates kept */
	size_t nstacks, stacks_alloc;
	uint32_t *ids;                    /* frame ids of all stacks */
	size_t nids, ids_alloc;
	uint32_t *slots;                  /* open-addressing intern table */
	size_t nslots;
	uint64_t total;                   /* sum of all counts */
	int shape;                        /* 0 until the first stack line,
					     then 1 (one count) or 2 (two) */
	uint64_t *before;                 /* differential: BEFORE of every
					     stack (count is AFTER); else NULL */
	size_t before_alloc;
	uint64_t before_total;            /* sum of before[] */
};

void cgu_folded_init(struct cgu_folded *f);
void cgu_folded_release(struct cgu_folded *f);

/* Parse folded text from a stream or a buffer, appending to f.  NAME is the
 * file name used in error messages.  Returns 0, or CGU_EINPUT (bad line),
 * CGU_EIO (read error) with err->msg "NAME:LINE: expected ...". */
int cgu_folded_read(struct cgu_folded *f, FILE *in, const char *name,
		    struct cgu_error *err);
int cgu_folded_read_buf(struct cgu_folded *f, const char *buf, size_t len,
			const char *name, struct cgu_error *err);

/* Append one stack of already interned frame ids.  Returns 0 or -1 (ENOMEM). */
int cgu_folded_add(struct cgu_folded *f, const uint32_t *ids, size_t depth,
		   uint64_t count);

/* Intern one frame written as in the folded text (annotation included).
 * Returns the id, or UINT32_MAX when out of memory. */
uint32_t cgu_folded_intern(struct cgu_folded *f, const char *text, size_t len);

/* Intern a frame of another set (same text), with its object and file. */
uint32_t cgu_folded_intern_frame(struct cgu_folded *f, const struct cgu_folded_frame *from);
/* Intern every frame of f into another set: map[i] is the id there of
 * frame i of f.  A malloc'd array, NULL when out of memory. */
uint32_t *cgu_folded_share_frames(struct cgu_folded *into, const struct cgu_folded *f);

static inline const uint32_t *cgu_folded_stack_ids(const struct cgu_folded *f,
						    const struct cgu_folded_stack *s)
{
	return f->ids + s->first;
}

/* Append every stack of src to f (its counts, not its BEFORE counts)
 * under one more root frame, lane, written as in folded text ("[thread
 * 2]").  0, or -1 when out of memory. */
int cgu_folded_add_lane(struct cgu_folded *f, const struct cgu_folded *src,
			const char *lane);

/* Write frame id's text back as it appears in folded input. */
void cgu_folded_write_frame(const struct cgu_folded *f, uint32_t id, FILE *out);

/* Does this start of an input look like a Callgrind profile (gzip magic,
 * "# callgrind format", or a first line past blank and '#' comment lines
 * that is a profile's header key or fl=/fn=/ob=... line) rather than
 * folded text? */
int cgu_folded_is_profile(const char *head, size_t len);

struct cgu_profile;
struct cgu_fold_opts;
/* Fold event o->event of p (fold writer, output.h) and parse the text into
 * f, naming frames as o->names says; each frame then gets the object and
 * file of the (first) node printed with its name.  With CGU_NAMES_FULL
 * the object is in the name, " [OBJECT]", and that is what the folded
 * parser reads.  NAME is used in messages. */
int cgu_folded_from_profile(struct cgu_folded *f, const struct cgu_profile *p,
			    const struct cgu_fold_opts *o, const char *name,
			    struct cgu_error *err);
/* The same for the exact stacks of c (cct.h). */
struct cgu_cct;
struct cgu_cct_fold_opts;
int cgu_folded_from_cct(struct cgu_folded *f, const struct cgu_cct *c,
			const struct cgu_cct_fold_opts *o, const char *name,
			struct cgu_error *err);

/* The stacks of src as view v shows them (view.h: focus, ignore, hide;
 * folded text has no start-up frames to cut, the root is kept), into
 * dst, an empty set.  Frames are matched by name.  Differential stacks
 * keep both counts.  Returns 0 or -1 (out of memory). */
struct cgu_view;
int cgu_folded_view(struct cgu_folded *dst, const struct cgu_folded *src,
		    const struct cgu_view *v);

#endif
