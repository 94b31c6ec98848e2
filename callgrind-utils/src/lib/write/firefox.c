/* firefox.c - the stacks of every event as a Firefox Profiler processed
 * profile (see the profiler's docs-developer/processed-profile-format.md
 * and src/types/profile.ts at version CGU_FIREFOX_VERSION):
 *
 *   { "meta": { ..., "preprocessedProfileVersion": 70, "categories" },
 *     "libs": [], "pages": [], "counters": [],
 *     "shared": { "stackTable":  { frame, prefixOffset, length },
 *                 "frameTable":  { func, category, lib: -1, ... },
 *                 "funcTable":   { name, resource, source, ... },
 *                 "resourceTable": { name, host, type },  (objects)
 *                 "sources":     { filename, ... },       (source files)
 *                 "nativeSymbols", "sourceLocationTable": empty,
 *                 "stringArray": [...] },
 *     "threads": [ one per event: { "name": "Ir", ...,
 *                  "samples": { stack, time, weight,
 *                               "weightType": "samples", length },
 *                  "markers": empty } ] }
 *
 * One frame and one function per frame of the stacks; the stack table
 * is the merged tree (export-tree.h) without its root, so stack i is
 * tree node i + 1 and a prefixOffset is the distance to the parent.  A
 * sample is a tree node with a self cost, weighted by it: the profiler
 * adds weights up, so a million instructions are one sample, not a
 * million.  Samples have no time in a Callgrind profile; they get 0, 1,
 * 2, ... ms in tree order.
 */
#include <stdlib.h>
#include <string.h>

#include <callgrind-utils/callgrind-utils.h>
#include <callgrind-utils/export.h>
#include <callgrind-utils/flame.h>
#include "export-tree.h"

/* Categories: "Other" first, the default the profiler needs (grey), then
 * one per kind of frame (flame.h). */
static const struct { const char *name, *color; } categories[] = {
	{ "Other", "grey" },
	[1 + CGU_KIND_USER] = { "User", "orange" },
	[1 + CGU_KIND_LIBC] = { "libc", "blue" },
	[1 + CGU_KIND_LOADER] = { "Loader", "purple" },
	[1 + CGU_KIND_JIT] = { "JIT", "green" },
	[1 + CGU_KIND_SKIPPED] = { "Skipped", "darkgray" },
};

struct writer {
	const struct cgu_export_tree *t;
	struct cgu_buf b;
	FILE *out;
	int failed;
	struct cgu_frames strings;
};

static void flush(struct writer *w, size_t above)
{
	if (cgu_buf_flush(&w->b, w->out, above) < 0)
		w->failed = 1;
}

/* "key":[v, v, ... n times] for a constant v, then a comma */
static void repeat(struct writer *w, const char *key, const char *v, size_t n)
{
	cgu_buf_addf(&w->b, "\"%s\":[", key);
	for (size_t i = 0; i < n; i++) {
		cgu_buf_adds(&w->b, i ? "," : "");
		cgu_buf_adds(&w->b, v);
		flush(w, 1 << 16);
	}
	cgu_buf_adds(&w->b, "],");
}

/* "key":[f(0), ... f(n - 1)] with -1 as null when nullable, then a
 * comma */
static void column(struct writer *w, const char *key, const uint32_t *v,
		   size_t n, int nullable)
{
	cgu_buf_addf(&w->b, "\"%s\":[", key);
	for (size_t i = 0; i < n; i++) {
		cgu_buf_adds(&w->b, i ? "," : "");
		if (v[i] == UINT32_MAX)
			cgu_buf_adds(&w->b, nullable ? "null" : "-1");
		else
			cgu_buf_addu64(&w->b, v[i]);
		flush(w, 1 << 16);
	}
	cgu_buf_adds(&w->b, "],");
}

static void meta(struct writer *w, const char *name)
{
	cgu_buf_adds(&w->b, "{\"meta\":{\"interval\":1,\"startTime\":0,"
		     "\"processType\":0,\"product\":");
	cgu_buf_add_json(&w->b, name);
	cgu_buf_addf(&w->b, ",\"stackwalk\":0,\"version\":36,"
		     "\"preprocessedProfileVersion\":%d,\"symbolicated\":true,"
		     "\"importedFrom\":\"callgrind-utils\","
		     "\"keepProfileThreadOrder\":true,\"markerSchema\":[],"
		     "\"categories\":[", CGU_FIREFOX_VERSION);
	for (size_t i = 0; i < sizeof(categories) / sizeof(categories[0]); i++)
		cgu_buf_addf(&w->b, "%s{\"name\":\"%s\",\"color\":\"%s\","
			     "\"subcategories\":[\"Other\"]}", i ? "," : "",
			     categories[i].name, categories[i].color);
	cgu_buf_adds(&w->b, "]},\"libs\":[],\"pages\":[],\"counters\":[],");
}

static void stack_table(struct writer *w)
{
	const struct cgu_flame_tree *tr = &w->t->tree;
	size_t n = tr->nnodes ? tr->nnodes - 1 : 0;
	uint32_t *v = calloc(n ? n : 1, sizeof(*v));

	if (!v)
		abort();
	cgu_buf_adds(&w->b, "\"stackTable\":{");
	for (size_t i = 0; i < n; i++)
		v[i] = tr->nodes[i + 1].frame;
	column(w, "frame", v, n, 0);
	for (size_t i = 0; i < n; i++)
		v[i] = tr->nodes[i + 1].parent ? (uint32_t)(i + 1 - tr->nodes[i + 1].parent) : 0;
	column(w, "prefixOffset", v, n, 0);
	cgu_buf_addf(&w->b, "\"length\":%zu},", n);
	free(v);
}

/* Every frame is a function, with its object as resource and its file
 * as source. */
static void frame_tables(struct writer *w)
{
	const struct cgu_folded *names = &w->t->tree.names;
	size_t n = names->nframes;
	struct cgu_frames objects, files;
	uint32_t *object, *file, *v = calloc(n ? n : 1, sizeof(*v));

	if (!v)
		abort();
	cgu_frames_init(&objects);
	cgu_frames_init(&files);
	object = cgu_export_distinct(w->t, 0, &objects);
	file = cgu_export_distinct(w->t, 1, &files);

	cgu_buf_adds(&w->b, "\"frameTable\":{");
	for (size_t i = 0; i < n; i++)
		v[i] = (uint32_t)i;
	column(w, "func", v, n, 0);
	for (size_t i = 0; i < n; i++)
		v[i] = 1 + cgu_frame_classify(names->frames[i].name,
					      names->frames[i].object);
	column(w, "category", v, n, 0);
	repeat(w, "subcategory", "0", n);
	repeat(w, "address", "-1", n);
	repeat(w, "inlineDepth", "0", n);
	repeat(w, "lib", "-1", n);
	repeat(w, "nativeSymbol", "null", n);
	repeat(w, "innerWindowID", "null", n);
	repeat(w, "line", "null", n);
	repeat(w, "column", "null", n);
	repeat(w, "originalLocation", "null", n);
	cgu_buf_addf(&w->b, "\"length\":%zu},\"funcTable\":{", n);
	for (size_t i = 0; i < n; i++)     /* as fold prints them */
		v[i] = cgu_export_string(&w->strings, names->frames[i].text);
	column(w, "name", v, n, 0);
	repeat(w, "isJS", "false", n);
	repeat(w, "relevantForJS", "false", n);
	column(w, "resource", object, n, 0);
	column(w, "source", file, n, 1);
	repeat(w, "lineNumber", "null", n);
	repeat(w, "columnNumber", "null", n);
	repeat(w, "originalLocation", "null", n);
	cgu_buf_addf(&w->b, "\"length\":%zu},", n);

	/* resources: the objects, by their base name */
	cgu_buf_adds(&w->b, "\"resourceTable\":{");
	for (size_t i = 0; i < objects.n; i++) {
		const char *o = objects.text.data + objects.off[i];
		size_t len = objects.len[i], base = len;

		while (base && o[base - 1] != '/')
			base--;
		v[i] = cgu_frames_intern(&w->strings, o + base, len - base);
	}
	column(w, "name", v, objects.n, 0);
	repeat(w, "host", "null", objects.n);
	repeat(w, "type", "1", objects.n);          /* library */
	cgu_buf_addf(&w->b, "\"length\":%zu},\"sources\":{", objects.n);
	for (size_t i = 0; i < files.n; i++)
		v[i] = cgu_frames_intern(&w->strings, files.text.data + files.off[i],
					 files.len[i]);
	repeat(w, "id", "null", files.n);
	column(w, "filename", v, files.n, 0);
	repeat(w, "startLine", "1", files.n);
	repeat(w, "startColumn", "1", files.n);
	repeat(w, "sourceMapURL", "null", files.n);
	repeat(w, "content", "null", files.n);
	cgu_buf_addf(&w->b, "\"length\":%zu},", files.n);
	free(v);
	free(object);
	free(file);
	cgu_frames_release(&objects);
	cgu_frames_release(&files);
}

static void shared(struct writer *w)
{
	const struct cgu_frames *s = &w->strings;

	cgu_buf_adds(&w->b, "\"shared\":{");
	stack_table(w);
	frame_tables(w);
	cgu_buf_adds(&w->b, "\"nativeSymbols\":{\"libIndex\":[],\"address\":[],"
		     "\"name\":[],\"functionSize\":[],\"length\":0},"
		     "\"sourceLocationTable\":{\"source\":[],\"line\":[],"
		     "\"column\":[],\"length\":0},\"stringArray\":[");
	for (size_t i = 0; i < s->n; i++) {
		/* the strings are NUL-free: names and paths */
		struct cgu_buf one = CGU_BUF_INIT;

		cgu_buf_add(&one, s->text.data + s->off[i], s->len[i]);
		cgu_buf_adds(&w->b, i ? "," : "");
		cgu_buf_add_json(&w->b, one.data);
		cgu_buf_release(&one);
		flush(w, 1 << 16);
	}
	cgu_buf_adds(&w->b, "]},");
}

/* A column of the samples of event e: 0 stack, 1 time, 2 weight. */
static size_t samples_column(struct writer *w, size_t e, int what)
{
	const struct cgu_export_tree *t = w->t;
	size_t n = 0;

	for (uint32_t i = 1; i < t->tree.nnodes; i++) {
		cgu_cost v = cgu_export_self(t, i)[e];

		if (!v)
			continue;
		cgu_buf_adds(&w->b, n ? "," : "");
		cgu_buf_addu64(&w->b, what == 0 ? i - 1 : what == 1 ? n : v);
		n++;
		flush(w, 1 << 16);
	}
	return n;
}

static void thread(struct writer *w, const struct cgu_export_event *ev, size_t e)
{
	size_t n;

	cgu_buf_adds(&w->b, e ? ",{" : "{");
	cgu_buf_adds(&w->b, "\"processType\":\"default\",\"processStartupTime\":0,"
		     "\"processShutdownTime\":null,\"registerTime\":0,"
		     "\"unregisterTime\":null,\"pausedRanges\":[],"
		     "\"isMainThread\":true,\"name\":");
	cgu_buf_add_json(&w->b, ev->name);
	cgu_buf_adds(&w->b, ",\"processName\":");
	if (ev->desc) {
		struct cgu_buf pn = CGU_BUF_INIT;

		cgu_buf_addf(&pn, "%s: %s", ev->name, ev->desc);
		cgu_buf_add_json(&w->b, pn.data);
		cgu_buf_release(&pn);
	} else {
		cgu_buf_add_json(&w->b, ev->name);
	}
	cgu_buf_addf(&w->b, ",\"pid\":\"%zu\",\"tid\":%zu,\"samples\":{\"stack\":[",
		     e + 1, e + 1);
	samples_column(w, e, 0);
	cgu_buf_adds(&w->b, "],\"time\":[");
	samples_column(w, e, 1);
	cgu_buf_adds(&w->b, "],\"weight\":[");
	n = samples_column(w, e, 2);
	cgu_buf_addf(&w->b, "],\"weightType\":\"samples\",\"length\":%zu},"
		     "\"markers\":{\"data\":[],\"name\":[],\"startTime\":[],"
		     "\"endTime\":[],\"phase\":[],\"category\":[],\"length\":0}}",
		     n);
}

int cgu_firefox_write(const struct cgu_export_event *events, size_t n,
		      const char *name, FILE *out, struct cgu_error *err)
{
	struct cgu_export_tree t;
	struct writer w;
	int rc = cgu_export_tree_build(&t, events, n, err);

	if (rc)
		return rc;
	memset(&w, 0, sizeof(w));
	w.t = &t;
	w.out = out;
	cgu_buf_init(&w.b);
	cgu_frames_init(&w.strings);
	meta(&w, name ? name : "callgrind-utils");
	shared(&w);
	cgu_buf_adds(&w.b, "\"threads\":[");
	for (size_t e = 0; e < n; e++)
		thread(&w, &events[e], e);
	cgu_buf_adds(&w.b, "]}\n");
	flush(&w, 0);
	cgu_buf_release(&w.b);
	cgu_frames_release(&w.strings);
	cgu_export_tree_release(&t);
	if (w.failed)
		return cgu_error_set(err, CGU_EIO, NULL, 0, "write error");
	return 0;
}
