/* flame.c - write a flame graph tree as a self-contained interactive SVG.
 *
 * Layout: the title (and subtitle) on top, the "Reset Zoom" and "Search"
 * buttons under it, the frames, then a line of details for the frame under
 * the mouse and the matched percentage of a search.  Every frame is a
 * <g class="f"> holding <title>, <rect> and <text>, with its numbers as
 * data-* attributes for the script (flame.js, embedded at build time),
 * which also draws a function's sandwich (its callers above it, its
 * callees below) from those frames on a shift-click.
 * Frames narrower than minwidth pixels are left out, and so are their
 * children (narrower still): that keeps a 100k-frame profile readable and the
 * file small, at the price that zooming cannot show them.
 */
#include "callgrind-utils/flame.h"

#include <stdlib.h>
#include <string.h>

#include "flame_script.h"   /* static const char flame_script[] */
#include "utf8.h"

#define XPAD 10.0

void cgu_flame_options_init(struct cgu_flame_options *o)
{
	*o = (struct cgu_flame_options){
		.countname = "samples",
		.width = 1200,
		.minwidth = 0.1,
		.frame_height = 16,
		.font_size = 12,
		.palette = CGU_PALETTE_OBJECT,
		.max_depth = CGU_FLAME_DEFAULT_MAX_DEPTH,
		.max_frames = CGU_FLAME_DEFAULT_MAX_FRAMES,
	};
}

int cgu_flame_palette_parse(const char *name, enum cgu_flame_palette *out)
{
	static const struct { const char *name; enum cgu_flame_palette p; } table[] = {
		{ "object", CGU_PALETTE_OBJECT },
		{ "hot", CGU_PALETTE_HOT },
		{ "cold", CGU_PALETTE_COLD },
	};
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		if (strcmp(name, table[i].name) == 0) {
			*out = table[i].p;
			return 0;
		}
	}
	return -1;
}

static bool starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

static const char *basename_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

static bool is_loader_object(const char *base)
{
	return starts(base, "ld-linux") || starts(base, "ld.so") ||
	       (starts(base, "ld-") && strstr(base, ".so"));
}

static bool is_libc_object(const char *base)
{
	static const char *const libs[] = {
		"libc.so", "libc-", "libm.so", "libm-", "libpthread", "libdl",
		"librt", "libstdc++", "libc++", "libgcc_s", "libresolv",
	};
	for (size_t i = 0; i < sizeof(libs) / sizeof(libs[0]); i++)
		if (starts(base, libs[i]))
			return true;
	return false;
}

/* Callgrind names "???" an object it could not name; JIT code also shows
 * as raw addresses or as a perf map (/tmp/perf-PID.map). */
static bool is_jit(const char *name, const char *base)
{
	if (base && (strcmp(base, "???") == 0 || strstr(base, "jit") ||
		     (starts(base, "perf-") && strstr(base, ".map"))))
		return true;
	return !base && starts(name, "0x");
}

enum cgu_frame_kind cgu_frame_classify(const char *name, const char *object)
{
	size_t len = strlen(name);
	const char *base = object ? basename_of(object) : NULL;
	if ((len > 1 && name[0] == '(' && name[len - 1] == ')') ||
	    strcmp(name, "[skipped]") == 0)
		return CGU_KIND_SKIPPED;
	if (base ? is_loader_object(base) : starts(name, "_dl_"))
		return CGU_KIND_LOADER;
	if (base ? is_libc_object(base) : (starts(name, "__libc_") || strstr(name, "@GLIBC")))
		return CGU_KIND_LIBC;
	if (is_jit(name, base))
		return CGU_KIND_JIT;
	return CGU_KIND_USER;
}

static uint32_t name_hash(const char *s)
{
	uint32_t h = 2166136261u;   /* FNV-1a: fixed, so colours are stable */
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 16777619u;
	}
	return h;
}

/* Base colour and the span each channel varies by, per kind of frame. */
static const struct { uint8_t base[3], span[3]; } kind_colors[] = {
	[CGU_KIND_USER]    = { { 205, 0, 0 },     { 50, 230, 55 } },
	[CGU_KIND_LIBC]    = { { 60, 150, 200 },  { 60, 70, 55 } },
	[CGU_KIND_LOADER]  = { { 160, 90, 210 },  { 60, 50, 45 } },
	[CGU_KIND_JIT]     = { { 50, 180, 50 },   { 60, 60, 60 } },
	[CGU_KIND_SKIPPED] = { { 150, 150, 150 }, { 50, 50, 50 } },
};

void cgu_flame_color(enum cgu_flame_palette p, const char *name,
		     const char *object, uint8_t rgb[3])
{
	enum cgu_frame_kind k = CGU_KIND_USER;
	if (p == CGU_PALETTE_OBJECT)
		k = cgu_frame_classify(name, object);
	else if (p == CGU_PALETTE_COLD)
		k = CGU_KIND_LIBC;
	uint32_t h = name_hash(name);
	for (int i = 0; i < 3; i++) {
		unsigned v = (h >> (8 * i)) & 0xff;
		unsigned span = kind_colors[k].span[i];
		if (k == CGU_KIND_SKIPPED)   /* stay grey: one value for all three */
			v = h & 0xff;
		rgb[i] = (uint8_t)(kind_colors[k].base[i] + span * v / 255);
	}
}

/* Red where the frame grew, blue where it shrank, white where it did not
 * change; the stronger, the larger the change against the largest one. */
static void diff_color(const struct cgu_flame_node *n, uint64_t maxdelta, uint8_t rgb[3])
{
	int64_t d = (int64_t)(n->total - n->before);
	uint64_t mag = d < 0 ? (uint64_t)-d : (uint64_t)d;
	unsigned fade = maxdelta ? (unsigned)(210 * (double)mag / (double)maxdelta) : 0;
	rgb[0] = rgb[1] = rgb[2] = (uint8_t)(255 - fade);
	if (d > 0)
		rgb[0] = 255;
	else if (d < 0)
		rgb[2] = 255;
}

/* s[0..len) as XML text or attribute value, valid UTF-8 whatever it
 * holds: markup characters as entities, tab, newline, CR, DEL and C1
 * controls as character references, and what XML 1.0 cannot hold at
 * all (other C0 controls, U+FFFE, U+FFFF) or what is not well-formed
 * UTF-8 as U+FFFD, the replacement character. */
static void xml_escaped_n(FILE *out, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;

	while (len > 0) {
		uint32_t cp;
		size_t n = cgu_utf8_next(p, len, &cp);

		switch (cp) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&apos;", out); break;
		case '\t': case '\n': case '\r':
			fprintf(out, "&#%u;", (unsigned)cp);
			break;
		default:
			if (cp == CGU_UTF8_BAD || cp < 0x20 || cp == 0xfffe ||
			    cp == 0xffff)
				fputs("&#xfffd;", out);
			else if (cgu_is_control(cp))
				fprintf(out, "&#%u;", (unsigned)cp);
			else
				fwrite(p, 1, n, out);
		}
		p += n;
		len -= n;
	}
}

static void xml_escaped(FILE *out, const char *s)
{
	xml_escaped_n(out, s, strlen(s));
}

struct svg {
	const struct cgu_flame_tree *t;
	const struct cgu_flame_options *o;
	FILE *out;
	double scale;           /* pixels per count */
	double height;
	double ypad_top, ypad_bottom;
	uint64_t maxdelta;
	uint32_t depth_shown;   /* deepest frame wide enough to draw */
	uint64_t min_total;     /* narrowest frame drawn, by max_frames */
	double minwidth;        /* pixels: o->minwidth, or its percent */
	size_t left_out;        /* frames wide enough but past max_frames */
	char note[160];         /* says so, after the subtitle */
};

static bool wide_enough(const struct svg *s, const struct cgu_flame_node *n)
{
	return n->total > 0 && n->total >= s->min_total &&
	       (double)n->total * s->scale >= s->minwidth;
}

static int by_total_down(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? 1 : x > y ? -1 : 0;
}

/* At most max_frames frames are drawn: when more are wide enough, the
 * narrowest are left out (a frame is never wider than its parent, so
 * the frames drawn still hang together) and the note says so. */
static void bound_frames(struct svg *s)
{
	const struct cgu_flame_tree *t = s->t;
	size_t n = 0, max = s->o->max_frames, kept = 0;
	uint64_t *w;

	for (size_t i = 0; i < t->nnodes; i++)
		if (wide_enough(s, &t->nodes[i]))
			n++;
	if (!max || n <= max)
		return;
	w = malloc(n * sizeof(*w));
	if (!w)
		return;
	n = 0;
	for (size_t i = 0; i < t->nnodes; i++)
		if (wide_enough(s, &t->nodes[i]))
			w[n++] = t->nodes[i].total;
	qsort(w, n, sizeof(*w), by_total_down);
	s->min_total = w[max] + 1;
	while (kept < n && w[kept] >= s->min_total)
		kept++;
	s->left_out = n - kept;
	snprintf(s->note, sizeof(s->note), "%zu frames narrower than %.2f px "
		 "left out (more than --max-frames %zu)", s->left_out,
		 (double)s->min_total * s->scale, max);
	free(w);
}

static void measure(struct svg *s)
{
	const struct cgu_flame_tree *t = s->t;
	uint64_t total = t->nnodes ? t->nodes[0].total : 0;
	s->scale = total ? (s->o->width - 2 * XPAD) / (double)total : 0;
	s->minwidth = s->o->minwidth_percent ?
		      s->o->minwidth / 100 * (s->o->width - 2 * XPAD) : s->o->minwidth;
	bound_frames(s);
	s->ypad_top = s->o->font_size * (s->o->subtitle || s->left_out ? 5 : 3.5);
	s->ypad_bottom = s->o->font_size * 2 + 10;
	for (size_t i = 0; i < t->nnodes; i++) {
		const struct cgu_flame_node *n = &t->nodes[i];
		int64_t d = (int64_t)(n->total - n->before);
		uint64_t mag = d < 0 ? (uint64_t)-d : (uint64_t)d;
		if (i > 0 && mag > s->maxdelta)
			s->maxdelta = mag;
		if (wide_enough(s, n) && n->depth > s->depth_shown)
			s->depth_shown = n->depth;
	}
	s->height = s->ypad_top + s->ypad_bottom +
		    (double)(s->depth_shown + 1) * s->o->frame_height;
}

static const char *default_title(const struct svg *s)
{
	if (s->o->title)
		return s->o->title;
	if (s->t->has_before)
		return "Differential Flame Graph";
	if (s->o->flamechart)
		return "Flame Chart";
	return s->o->inverted ? "Icicle Graph" : "Flame Graph";
}

static void write_header(const struct svg *s)
{
	FILE *out = s->out;
	double w = s->o->width, fs = s->o->font_size;
	fprintf(out, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
		"<svg version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" "
		"width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\">\n",
		w, s->height, w, s->height);
	fprintf(out, "<style>\n"
		"text { font-family: Verdana, sans-serif; font-size: %.0fpx; fill: #000; }\n"
		"#title { font-size: %.0fpx; }\n"
		".f text, .sw text { pointer-events: none; }\n"
		".f:hover rect, .sw:hover rect { stroke: #000; stroke-width: 0.5; cursor: pointer; }\n"
		".parent { opacity: 0.5; }\n"
		".hide { display: none; }\n"
		".button { cursor: pointer; }\n"
		".button:hover { fill: #008; }\n"
		"#ic { fill: #aaa; }\n"
		"#ic.on { fill: rgb(230,0,230); font-weight: bold; }\n"
		"</style>\n", fs, fs * 1.4);
	fprintf(out, "<script type=\"text/ecmascript\"><![CDATA[\n%s]]></script>\n",
		flame_script);
	fprintf(out, "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"#f8f8f0\"/>\n",
		w, s->height);
	fprintf(out, "<text id=\"title\" x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\">",
		w / 2, fs * 1.7);
	xml_escaped(out, default_title(s));
	fputs("</text>\n", out);
	if (s->o->subtitle || s->left_out) {
		fprintf(out, "<text id=\"subtitle\" x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\" fill=\"#555\">",
			w / 2, fs * 3.2);
		if (s->o->subtitle)
			xml_escaped(out, s->o->subtitle);
		if (s->o->subtitle && s->left_out)
			fputs("; ", out);
		xml_escaped(out, s->note);
		fputs("</text>\n", out);
	}
	double by = s->ypad_top - fs * 0.6;
	fprintf(out, "<text id=\"unzoom\" class=\"button hide\" x=\"%.2f\" y=\"%.2f\">Reset Zoom</text>\n"
		"<text id=\"search\" class=\"button\" x=\"%.2f\" y=\"%.2f\" text-anchor=\"end\">Search</text>\n"
		"<text id=\"ic\" class=\"button\" x=\"%.2f\" y=\"%.2f\" text-anchor=\"end\">ic<title>ignore case in the search (Ctrl-I)</title></text>\n"
		"<text id=\"matched\" x=\"%.2f\" y=\"%.2f\" text-anchor=\"end\"> </text>\n"
		"<text id=\"details\" x=\"%.2f\" y=\"%.2f\"> </text>\n",
		XPAD, by, w - XPAD, by, w - XPAD - fs * 5, by, w - XPAD, s->height - fs,
		XPAD, s->height - fs);
}

static const char *node_name(const struct cgu_flame_tree *t, const struct cgu_flame_node *n)
{
	return n->frame == CGU_FLAME_NONE ? "all" : t->names.frames[n->frame].name;
}

static double node_y(const struct svg *s, const struct cgu_flame_node *n)
{
	double fh = s->o->frame_height;
	if (s->o->inverted)
		return s->ypad_top + n->depth * fh;
	return s->height - s->ypad_bottom - (n->depth + 1) * fh;
}

/* The label that fits in w pixels, as flame.js computes it on zoom. */
static void write_label(FILE *out, const char *name, double w, double font_size)
{
	double n = (w - 6) / (font_size * 0.59);
	size_t fits = n < 0 ? 0 : (size_t)n;
	size_t len = strlen(name);
	if (fits < 3)
		return;
	if (len <= fits) {
		xml_escaped(out, name);
		return;
	}
	size_t cut = fits - 2;
	while (cut > 0 && ((unsigned char)name[cut] & 0xc0) == 0x80)
		cut--;   /* never split a UTF-8 sequence */
	xml_escaped_n(out, name, cut);
	fputs("..", out);
}

static void write_attributes(const struct svg *s, uint32_t id, const char *name,
			     const struct cgu_folded_frame *fr)
{
	const struct cgu_flame_node *n = &s->t->nodes[id];
	FILE *out = s->out;
	fprintf(out, "<g class=\"f\" data-x=\"%llu\" data-w=\"%llu\" data-s=\"%llu\" data-d=\"%u\"",
		(unsigned long long)n->x, (unsigned long long)n->total,
		(unsigned long long)cgu_flame_node_self(s->t, id), n->depth);
	if (s->t->has_before)
		fprintf(out, " data-b=\"%llu\"", (unsigned long long)n->before);
	fputs(" data-n=\"", out);
	xml_escaped(out, name);
	fputc('"', out);
	if (fr && fr->object) {
		fputs(" data-o=\"", out);
		xml_escaped(out, fr->object);
		fputc('"', out);
	}
	if (fr && fr->file) {
		fputs(" data-f=\"", out);
		xml_escaped(out, fr->file);
		fputc('"', out);
	}
	fputc('>', out);
}

static void write_title(const struct svg *s, const struct cgu_flame_node *n, const char *name)
{
	uint64_t total = s->t->nodes[0].total;
	FILE *out = s->out;
	fputs("<title>", out);
	xml_escaped(out, name);
	fprintf(out, " (%llu ", (unsigned long long)n->total);
	xml_escaped(out, s->o->countname);
	fprintf(out, ", %.2f%%", total ? 100.0 * (double)n->total / (double)total : 0.0);
	if (s->t->has_before)
		fprintf(out, ", before %llu", (unsigned long long)n->before);
	fputs(")</title>", out);
}

static void write_frame(const struct svg *s, uint32_t id)
{
	const struct cgu_flame_node *n = &s->t->nodes[id];
	const struct cgu_folded_frame *fr =
		n->frame == CGU_FLAME_NONE ? NULL : &s->t->names.frames[n->frame];
	const char *name = node_name(s->t, n);
	double x = XPAD + (double)n->x * s->scale, w = (double)n->total * s->scale;
	double y = node_y(s, n);
	uint8_t rgb[3];
	if (s->t->has_before)
		diff_color(n, s->maxdelta, rgb);
	else if (!fr)
		rgb[0] = rgb[1] = rgb[2] = 210;
	else
		cgu_flame_color(s->o->palette, fr->name, fr->object, rgb);
	write_attributes(s, id, name, fr);
	write_title(s, n, name);
	fprintf(s->out, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%u\" "
		"fill=\"rgb(%u,%u,%u)\" rx=\"2\" ry=\"2\"/>"
		"<text x=\"%.2f\" y=\"%.2f\">",
		x, y, w, s->o->frame_height - 1, rgb[0], rgb[1], rgb[2],
		x + 3, y + s->o->frame_height * 0.5 + s->o->font_size * 0.35);
	write_label(s->out, name, w, s->o->font_size);
	fputs("</text></g>\n", s->out);
}

/* Depth first, so that a frame is drawn after its parent; a frame too
 * narrow is skipped with all its children. */
static void write_frames(const struct svg *s)
{
	const struct cgu_flame_tree *t = s->t;
	if (t->nnodes == 0)
		return;
	uint32_t id = 0;
	while (id != CGU_FLAME_NONE) {
		const struct cgu_flame_node *n = &t->nodes[id];
		bool drawn = wide_enough(s, n);
		if (drawn)
			write_frame(s, id);
		if (drawn && n->first_child != CGU_FLAME_NONE) {
			id = n->first_child;
			continue;
		}
		while (id != CGU_FLAME_NONE && t->nodes[id].next_sibling == CGU_FLAME_NONE)
			id = t->nodes[id].parent;
		if (id != CGU_FLAME_NONE)
			id = t->nodes[id].next_sibling;
	}
}

int cgu_flame_tree_write_svg(const struct cgu_flame_tree *t,
			     const struct cgu_flame_options *o, FILE *out)
{
	struct svg s = { .t = t, .o = o, .out = out };
	measure(&s);
	write_header(&s);
	fprintf(out, "<g id=\"frames\" data-total=\"%llu\" data-width=\"%.0f\" "
		"data-xpad=\"%.0f\" data-minwidth=\"%g\" data-fontsize=\"%g\" data-diff=\"%d\" "
		"data-fh=\"%u\" data-top=\"%.2f\" data-bottom=\"%.2f\" data-countname=\"",
		(unsigned long long)(t->nnodes ? t->nodes[0].total : 0), o->width,
		XPAD, s.minwidth, o->font_size, t->has_before ? 1 : 0,
		o->frame_height, s.ypad_top, s.ypad_bottom);
	xml_escaped(out, o->countname);
	fputs("\">\n", out);
	write_frames(&s);
	fputs("</g>\n</svg>\n", out);
	return ferror(out) ? -1 : 0;
}

int cgu_flame_write_svg(const struct cgu_folded *f,
			const struct cgu_flame_options *o, FILE *out)
{
	struct cgu_flame_tree t;
	cgu_flame_tree_init(&t);
	t.max_depth = o->max_depth;
	t.chart = o->flamechart;
	int rc = cgu_flame_tree_add(&t, f, o->reverse, false, 1.0);
	if (rc == 0) {
		cgu_flame_tree_layout(&t);
		rc = cgu_flame_tree_write_svg(&t, o, out);
	}
	cgu_flame_tree_release(&t);
	return rc;
}
