/* pprof.c - the stacks of every event as pprof's profile.proto, gzip'd.
 *
 * The messages of perftools.profiles (github.com/google/pprof,
 * proto/profile.proto) this writes, by field number:
 *   Profile   1 sample_type (ValueType), 2 sample, 3 mapping, 4 location,
 *             5 function, 6 string_table, 13 comment, 14 default_sample_type
 *   ValueType 1 type, 2 unit                  (string table indices)
 *   Sample    1 location_id (packed, leaf first), 2 value (packed)
 *   Mapping   1 id, 5 filename, 7 has_functions, 8 has_filenames
 *   Location  1 id, 2 mapping_id, 4 line (Line: 1 function_id)
 *   Function  1 id, 2 name, 3 system_name, 4 filename
 * string_table[0] is "".  The fields of a message may come in any order
 * and a repeated field's elements need not be together, so the Profile
 * is written as it goes: samples first, the string table last, each top
 * level field deflated as soon as it is made.
 *
 * A frame is one function and one location (Callgrind's cost is per
 * function here, as in folded stacks; ids are frame + 1); an object is
 * one mapping, without addresses: the functions are named already.
 */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include <callgrind-utils/export.h>
#include "export-tree.h"

enum { PB_VARINT = 0, PB_LEN = 2 };

static void pb_varint(struct cgu_buf *b, uint64_t v)
{
	char c[10];
	size_t n = 0;

	do {
		c[n] = (char)(v & 0x7f);
		v >>= 7;
		if (v)
			c[n] |= (char)0x80;
		n++;
	} while (v);
	cgu_buf_add(b, c, n);
}

static void pb_uint(struct cgu_buf *b, unsigned field, uint64_t v)
{
	pb_varint(b, (uint64_t)field << 3 | PB_VARINT);
	pb_varint(b, v);
}

static void pb_bytes(struct cgu_buf *b, unsigned field, const void *data,
		     size_t len)
{
	pb_varint(b, (uint64_t)field << 3 | PB_LEN);
	pb_varint(b, len);
	cgu_buf_add(b, data, len);
}

/* ---------------------------------------------------------- gzip */

struct gz {
	z_stream z;
	FILE *out;
	int failed;
};

static void gz_put(struct gz *g, const void *data, size_t len, int flush)
{
	unsigned char chunk[1 << 16];

	g->z.next_in = (unsigned char *)data;
	g->z.avail_in = (uInt)len;
	do {
		g->z.next_out = chunk;
		g->z.avail_out = sizeof(chunk);
		if (deflate(&g->z, flush) == Z_STREAM_ERROR) {
			g->failed = 1;
			return;
		}
		size_t n = sizeof(chunk) - g->z.avail_out;
		if (n && fwrite(chunk, 1, n, g->out) != n)
			g->failed = 1;
	} while (g->z.avail_out == 0 || g->z.avail_in);
}

/* Deflate the top level field in b, then empty b. */
static void gz_field(struct gz *g, struct cgu_buf *b)
{
	gz_put(g, b->data, b->len, Z_NO_FLUSH);
	cgu_buf_reset(b);
}

/* ---------------------------------------------------------- messages */

struct writer {
	const struct cgu_export_tree *t;
	struct cgu_frames strings;
	struct gz gz;
	struct cgu_buf field, sub, packed;
};

static uint32_t string(struct writer *w, const char *s)
{
	return cgu_export_string(&w->strings, s ? s : "");
}

/* Profile field number with the message in w->sub. */
static void top_message(struct writer *w, unsigned field)
{
	pb_bytes(&w->field, field, w->sub.data, w->sub.len);
	cgu_buf_reset(&w->sub);
	gz_field(&w->gz, &w->field);
}

static void sample(struct writer *w, uint32_t node)
{
	const struct cgu_export_tree *t = w->t;
	const cgu_cost *v = cgu_export_self(t, node);

	for (; node; node = t->tree.nodes[node].parent)
		pb_varint(&w->packed, (uint64_t)t->tree.nodes[node].frame + 1);
	pb_bytes(&w->sub, 1, w->packed.data, w->packed.len);
	cgu_buf_reset(&w->packed);
	for (size_t e = 0; e < t->nevents; e++)
		pb_varint(&w->packed, v[e]);
	pb_bytes(&w->sub, 2, w->packed.data, w->packed.len);
	cgu_buf_reset(&w->packed);
	top_message(w, 2);
}

static size_t base_name(const char *s, size_t len)
{
	size_t b = len;

	while (b && s[b - 1] != '/')
		b--;
	return b;
}

/* The object of the program (the first word of cmd) among objects, or
 * 0: it will be the first mapping. */
static size_t main_object(const struct cgu_frames *objects, const char *cmd)
{
	size_t len, b;

	if (!cmd)
		return 0;
	cmd += strspn(cmd, " ");
	len = strcspn(cmd, " ");
	b = base_name(cmd, len);
	for (size_t i = 0; i < objects->n; i++) {
		const char *o = objects->text.data + objects->off[i];
		size_t ob = base_name(o, objects->len[i]);

		if (objects->len[i] - ob == len - b &&
		    !memcmp(o + ob, cmd + b, len - b))
			return i;
	}
	return 0;
}

/* Mappings (one per object, the program's first: its id is 1), then a
 * location and a function per frame. */
static void frames(struct writer *w, const char *program)
{
	const struct cgu_folded *names = &w->t->tree.names;
	struct cgu_frames objects;
	uint32_t *mapping;
	size_t first;

	cgu_frames_init(&objects);
	mapping = cgu_export_distinct(w->t, 0, &objects);
	first = main_object(&objects, program);
	for (size_t k = 0; k < objects.n; k++) {
		/* mapping id k + 1 is object i */
		size_t i = k == 0 ? first : k <= first ? k - 1 : k;

		pb_uint(&w->sub, 1, k + 1);
		pb_uint(&w->sub, 5, cgu_frames_intern(&w->strings,
			objects.text.data + objects.off[i], objects.len[i]));
		pb_uint(&w->sub, 7, 1);
		pb_uint(&w->sub, 8, 1);
		top_message(w, 3);
	}
	for (size_t i = 0; i < names->nframes; i++)
		if (mapping[i] != UINT32_MAX)
			mapping[i] = mapping[i] == first ? 0
				   : mapping[i] < first ? mapping[i] + 1
				   : mapping[i];
	for (size_t i = 0; i < names->nframes; i++) {
		const struct cgu_folded_frame *fr = &names->frames[i];
		/* the name as fold prints it ("f [OBJECT]" where --names
		 * needs the object to keep two functions apart), the system
		 * name without the annotation */
		uint32_t name = string(w, fr->text);
		uint32_t system_name = string(w, fr->name);

		pb_uint(&w->sub, 1, i + 1);
		if (mapping[i] != UINT32_MAX)
			pb_uint(&w->sub, 2, (uint64_t)mapping[i] + 1);
		pb_uint(&w->packed, 1, i + 1);
		pb_bytes(&w->sub, 4, w->packed.data, w->packed.len);
		cgu_buf_reset(&w->packed);
		top_message(w, 4);
		pb_uint(&w->sub, 1, i + 1);
		pb_uint(&w->sub, 2, name);
		pb_uint(&w->sub, 3, system_name);
		if (fr->file && *fr->file)
			pb_uint(&w->sub, 4, string(w, fr->file));
		top_message(w, 5);
	}
	free(mapping);
	cgu_frames_release(&objects);
}

static void header(struct writer *w, const struct cgu_export_event *events,
		   size_t n, const struct cgu_pprof_opts *o)
{
	string(w, "");                     /* string_table[0] */
	for (size_t e = 0; e < n; e++) {
		pb_uint(&w->sub, 1, string(w, events[e].name));
		pb_uint(&w->sub, 2, string(w, "count"));
		top_message(w, 1);
	}
	for (size_t i = 0; i < o->ncomments; i++)
		pb_uint(&w->field, 13, string(w, o->comments[i]));
	if (n)
		pb_uint(&w->field, 14, string(w, events[0].name));
	gz_field(&w->gz, &w->field);
}

static void string_table(struct writer *w)
{
	const struct cgu_frames *s = &w->strings;

	for (size_t i = 0; i < s->n; i++) {
		cgu_buf_add_utf8(&w->sub, s->text.data + s->off[i], s->len[i]);
		pb_bytes(&w->field, 6, w->sub.data, w->sub.len);
		cgu_buf_reset(&w->sub);
		gz_field(&w->gz, &w->field);
	}
}

static int write_profile(struct writer *w, const struct cgu_export_event *events,
			 size_t n, const struct cgu_pprof_opts *o)
{
	header(w, events, n, o);
	for (uint32_t i = 1; i < w->t->tree.nnodes; i++)
		if (cgu_export_is_sample(w->t, i))
			sample(w, i);
	frames(w, o->program);
	string_table(w);
	gz_put(&w->gz, NULL, 0, Z_FINISH);
	return w->gz.failed ? -1 : 0;
}

int cgu_pprof_write(const struct cgu_export_event *events, size_t n,
		    const struct cgu_pprof_opts *o, FILE *out,
		    struct cgu_error *err)
{
	static const struct cgu_pprof_opts none = { NULL, 0, NULL, 0 };
	struct cgu_export_tree t;
	struct writer w;
	unsigned long long max;
	int rc;

	o = o ? o : &none;
	max = o->max_frames ? o->max_frames : CGU_EXPORT_DEFAULT_MAX_FRAMES;
	rc = cgu_export_tree_build(&t, events, n, err);
	if (rc == 0 && t.frames > max)
		rc = cgu_error_set(err, CGU_EINPUT, NULL, 0, "the %llu samples "
				   "hold %llu frames, more than %llu (pprof "
				   "--max-frames raises the bound)",
				   (unsigned long long)t.samples,
				   (unsigned long long)t.frames, max);
	if (rc) {
		cgu_export_tree_release(&t);
		return rc;
	}
	memset(&w, 0, sizeof(w));
	w.t = &t;
	w.gz.out = out;
	cgu_frames_init(&w.strings);
	cgu_buf_init(&w.field);
	cgu_buf_init(&w.sub);
	cgu_buf_init(&w.packed);
	/* 15 + 16: a gzip header and trailer around the deflate stream */
	if (deflateInit2(&w.gz.z, 6, Z_DEFLATED, 15 + 16, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK)
		rc = cgu_error_set(err, CGU_EIO, NULL, 0, "cannot start gzip");
	else if (write_profile(&w, events, n, o) < 0)
		rc = cgu_error_set(err, CGU_EIO, NULL, 0, "write error");
	if (w.gz.z.state)
		deflateEnd(&w.gz.z);
	cgu_buf_release(&w.field);
	cgu_buf_release(&w.sub);
	cgu_buf_release(&w.packed);
	cgu_frames_release(&w.strings);
	cgu_export_tree_release(&t);
	return rc;
}
