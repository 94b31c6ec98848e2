/* test-flame.c - folded stack parsing and the flame graph SVG, checked
 * numerically: the test reads back the <rect> of every frame it emitted. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <callgrind-utils/diff.h>
#include <callgrind-utils/folded.h>
#include <callgrind-utils/flame.h>

/* ---------------------------------------------------------------- helpers */

static void parse_ok(struct cgu_folded *f, const char *text)
{
	struct cgu_error err = { 0 };
	cgu_folded_init(f);
	int rc = cgu_folded_read_buf(f, text, strlen(text), "t.folded", &err);
	if (rc != 0)
		fail_msg("unexpected error: %s", err.msg);
}

static void expect_error(const char *text, const char *msg)
{
	struct cgu_folded f;
	struct cgu_error err = { 0 };
	cgu_folded_init(&f);
	assert_int_equal(cgu_folded_read_buf(&f, text, strlen(text), "bad.folded", &err),
			 CGU_EINPUT);
	assert_string_equal(err.msg, msg);
	cgu_folded_release(&f);
}

struct frame {
	char name[64];
	double x, y, w;
	unsigned long long self;
};

/* Read every frame (<g class="f">) of an SVG back: its data-n, the x, y
 * and width of its <rect>, and data-s. */
static size_t read_frames(const char *svg, struct frame *out, size_t max)
{
	size_t n = 0;
	for (const char *p = svg; (p = strstr(p, "<g class=\"f\"")) && n < max; p++) {
		struct frame *f = &out[n++];
		const char *name = strstr(p, "data-n=\"") + 8;
		size_t len = (size_t)(strchr(name, '"') - name);
		snprintf(f->name, sizeof(f->name), "%.*s", (int)len, name);
		f->self = strtoull(strstr(p, "data-s=\"") + 8, NULL, 10);
		const char *rect = strstr(p, "<rect ");
		f->x = strtod(strstr(rect, " x=\"") + 4, NULL);
		f->y = strtod(strstr(rect, " y=\"") + 4, NULL);
		f->w = strtod(strstr(rect, " width=\"") + 8, NULL);
	}
	return n;
}

static char *render(const char *folded, const struct cgu_flame_options *o)
{
	struct cgu_folded f;
	char *svg = NULL;
	size_t len = 0;
	parse_ok(&f, folded);
	FILE *out = open_memstream(&svg, &len);
	assert_int_equal(cgu_flame_write_svg(&f, o, out), 0);
	fclose(out);
	cgu_folded_release(&f);
	return svg;
}

static const struct frame *find(const struct frame *fr, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(fr[i].name, name) == 0)
			return &fr[i];
	fail_msg("no frame %s", name);
	return NULL;
}

/* ------------------------------------------------------------ folded text */

/* "STACK BEFORE AFTER" lines (diff --folded): the first line decides,
 * and the tree gets AFTER as widths and BEFORE as the baseline. */
static void test_folded_differential(void **state)
{
	(void)state;
	struct cgu_folded f;
	parse_ok(&f, "main 0 10\nmain;a 5 7\n\nmain;a 1 1\nmain;gone 9 0\n");
	assert_int_equal(f.nstacks, 4);
	assert_non_null(f.before);
	assert_int_equal(f.before[1], 5);
	assert_int_equal(f.stacks[1].count, 7);
	assert_int_equal(f.total, 18);
	assert_int_equal(f.before_total, 15);
	assert_string_equal(f.frames[cgu_folded_stack_ids(&f, &f.stacks[1])[1]].name, "a");
	struct cgu_flame_tree t;
	cgu_flame_tree_init(&t);
	assert_int_equal(cgu_diff_tree_folded(&t, &f, false, false), 0);
	assert_true(t.has_before);
	uint32_t main_node = t.nodes[0].first_child;
	assert_int_equal(t.nodes[main_node].total, 18);
	assert_int_equal(t.nodes[main_node].before, 15);
	for (uint32_t c = t.nodes[main_node].first_child; c != CGU_FLAME_NONE;
	     c = t.nodes[c].next_sibling) {
		const char *name = t.names.frames[t.nodes[c].frame].name;
		if (!strcmp(name, "a")) {
			assert_int_equal(t.nodes[c].total, 8);
			assert_int_equal(t.nodes[c].before, 6);
		} else {
			assert_string_equal(name, "gone");
			assert_int_equal(t.nodes[c].total, 0);
			assert_int_equal(t.nodes[c].before, 9);
		}
	}
	cgu_flame_tree_release(&t);
	cgu_folded_release(&f);
	/* one count on the first line: a number before it is in the name */
	parse_ok(&f, "main;a 7\nmain;b 2 3\n");
	assert_null(f.before);
	assert_string_equal(f.frames[2].name, "b 2");
	cgu_folded_release(&f);
	expect_error("main 1 2\nmain;x 3\n", "bad.folded:2: expected 'STACK "
		     "BEFORE AFTER' (two counts, as the first line has: "
		     "differential folded stacks)");
}

static void test_folded_parse(void **state)
{
	(void)state;
	struct cgu_folded f;
	parse_ok(&f, "main;work;malloc [libc.so.6:malloc.c] 30\n"
		     "\n"
		     "main;work 20\r\n"
		     "main;idle 50");
	assert_int_equal(f.nstacks, 3);
	assert_int_equal(f.total, 100);
	assert_int_equal(f.nframes, 4);
	const uint32_t *ids = cgu_folded_stack_ids(&f, &f.stacks[0]);
	assert_int_equal(f.stacks[0].depth, 3);
	assert_string_equal(f.frames[ids[2]].name, "malloc");
	assert_string_equal(f.frames[ids[2]].object, "libc.so.6");
	assert_string_equal(f.frames[ids[2]].file, "malloc.c");
	assert_string_equal(f.frames[ids[2]].text, "malloc [libc.so.6:malloc.c]");
	assert_null(f.frames[ids[0]].object);
	/* the same name is the same id */
	assert_int_equal(cgu_folded_stack_ids(&f, &f.stacks[1])[1], ids[1]);
	assert_int_equal(f.stacks[2].count, 50);
	cgu_folded_release(&f);
}

static void test_folded_names_with_brackets(void **state)
{
	(void)state;
	struct cgu_folded f;
	parse_ok(&f, "operator[](unsigned long);foo() [clone .cold];bar [/usr/lib/x.so] 1\n");
	assert_int_equal(f.nframes, 3);
	assert_string_equal(f.frames[0].name, "operator[](unsigned long)");
	assert_null(f.frames[0].object);
	assert_string_equal(f.frames[1].name, "foo() [clone .cold]");
	assert_null(f.frames[1].object);
	assert_string_equal(f.frames[2].name, "bar");
	assert_string_equal(f.frames[2].object, "/usr/lib/x.so");
	assert_null(f.frames[2].file);
	cgu_folded_release(&f);
}

static void test_folded_errors(void **state)
{
	(void)state;
	expect_error("a;b 1\nnocount\n",
		     "bad.folded:2: expected 'STACK COUNT' (frames separated by ';', a space, a count)");
	expect_error("a;b 12x\n",
		     "bad.folded:1: expected a non-negative integer count, got '12x'");
	expect_error("a;b -3\n",
		     "bad.folded:1: expected a non-negative integer count, got '-3'");
	expect_error("a;b 1.5\n",
		     "bad.folded:1: expected a non-negative integer count, got '1.5'");
	expect_error("a;b \n",
		     "bad.folded:1: expected a non-negative integer count, got ''");
	expect_error("a;;b 1\n",
		     "bad.folded:1: expected a frame name between ';' separators");
	expect_error(";a 1\n",
		     "bad.folded:1: expected a frame name between ';' separators");
	expect_error(" 7\n", "bad.folded:1: expected a stack before the count");
	expect_error("a 99999999999999999999\n",
		     "bad.folded:1: expected a non-negative integer count, got '99999999999999999999'");
	expect_error("a 18446744073709551615\nb 1\n",
		     "bad.folded:2: expected counts whose total fits in 64 bits");
}

/* A NUL inside a frame would cut its kept name short, and two frames
 * that differ after it would be one (the fuzzer's heap overflow): an
 * error at its line, from a buffer and from a stream alike. */
static void test_folded_nul(void **state)
{
	static const char text[] = "a;b 1\nmain;x\0y;z 3\n";
	struct cgu_folded f;
	struct cgu_error err = { 0 };
	FILE *in = fmemopen((void *)text, sizeof(text) - 1, "r");

	(void)state;
	cgu_folded_init(&f);
	assert_int_equal(cgu_folded_read_buf(&f, text, sizeof(text) - 1,
					     "bad.folded", &err), CGU_EINPUT);
	assert_string_equal(err.msg, "bad.folded:2: NUL byte in line; "
			    "expected text");
	cgu_folded_release(&f);
	cgu_folded_init(&f);
	assert_non_null(in);
	assert_int_equal(cgu_folded_read(&f, in, "bad.folded", &err),
			 CGU_EINPUT);
	assert_string_equal(err.msg, "bad.folded:2: NUL byte in line; "
			    "expected text");
	fclose(in);
	cgu_folded_release(&f);
}

static void test_folded_stream(void **state)
{
	(void)state;
	const char text[] = "x;y 3\nx 4\n";
	FILE *in = fmemopen((void *)text, strlen(text), "r");
	struct cgu_folded f;
	struct cgu_error err = { 0 };
	cgu_folded_init(&f);
	assert_int_equal(cgu_folded_read(&f, in, "s", &err), 0);
	fclose(in);
	assert_int_equal(f.total, 7);
	assert_int_equal(f.nstacks, 2);
	cgu_folded_release(&f);
}

/* ------------------------------------------------------------------- tree */

static void test_tree_merges_and_orders(void **state)
{
	(void)state;
	struct cgu_folded f;
	struct cgu_flame_tree t;
	parse_ok(&f, "main;b 10\nmain;a 30\nmain;b;c 5\nmain 5\nother 50\n");
	cgu_flame_tree_init(&t);
	assert_int_equal(cgu_flame_tree_add(&t, &f, false, false, 1.0), 0);
	cgu_flame_tree_layout(&t);
	assert_int_equal(t.nnodes, 6);   /* all, main, a, b, c, other */
	assert_int_equal(t.maxdepth, 3);
	assert_int_equal(t.nodes[0].total, 100);
	uint32_t main_id = t.nodes[0].first_child;
	assert_string_equal(t.names.frames[t.nodes[main_id].frame].name, "main");
	assert_int_equal(t.nodes[main_id].total, 50);
	assert_int_equal(cgu_flame_node_self(&t, main_id), 5);
	uint32_t a = t.nodes[main_id].first_child;
	uint32_t b = t.nodes[a].next_sibling;
	assert_string_equal(t.names.frames[t.nodes[a].frame].name, "a");
	assert_int_equal(t.nodes[a].x, 0);
	assert_int_equal(t.nodes[b].x, 30);
	assert_int_equal(t.nodes[b].total, 15);
	uint32_t other = t.nodes[main_id].next_sibling;
	assert_int_equal(t.nodes[other].x, 50);
	cgu_flame_tree_release(&t);
	cgu_folded_release(&f);
}

/* -------------------------------------------------------------------- SVG */

/* 1000 px wide: 980 px for the frames, 9.8 px per count of 100. */
static const char known[] =
	"main;parse;read 20\n"
	"main;parse 10\n"
	"main;render 40\n"
	"main;render;malloc [libc.so.6] 10\n"
	"_start [ld-linux-x86-64.so.2] 20\n";

static void test_svg_widths(void **state)
{
	(void)state;
	struct cgu_flame_options o;
	struct frame fr[16];
	cgu_flame_options_init(&o);
	o.width = 1000;
	char *svg = render(known, &o);
	size_t n = read_frames(svg, fr, 16);
	assert_int_equal(n, 7);
	struct { const char *name; double x, w; unsigned long long self; } want[] = {
		{ "all", 10, 980, 0 },
		{ "_start", 10, 196, 20 },
		{ "main", 206, 784, 0 },
		{ "parse", 206, 294, 10 },
		{ "read", 206, 196, 20 },
		{ "render", 500, 490, 40 },
		{ "malloc", 500, 98, 10 },
	};
	for (size_t i = 0; i < n; i++) {
		const struct frame *f = find(fr, n, want[i].name);
		assert_float_equal(f->x, want[i].x, 0.005);
		assert_float_equal(f->w, want[i].w, 0.005);
		assert_int_equal(f->self, want[i].self);
	}
	/* flame: the root at the bottom, children above */
	assert_true(find(fr, n, "main")->y < find(fr, n, "all")->y);
	assert_float_equal(find(fr, n, "all")->y - find(fr, n, "main")->y, 16, 0.001);
	assert_non_null(strstr(svg, "data-o=\"libc.so.6\""));
	assert_non_null(strstr(svg, "<title>render (50 samples, 50.00%)</title>"));
	assert_non_null(strstr(svg, "<text id=\"title\" x=\"500.00\" y=\"20.40\" text-anchor=\"middle\">Flame Graph</text>"));
	assert_null(strstr(svg, "http://www.w3.org/1999/xlink"));
	assert_null(strstr(svg, "src="));      /* no external script or image */
	free(svg);
}

static void test_svg_inverted_reverse(void **state)
{
	(void)state;
	struct cgu_flame_options o;
	struct frame fr[16];
	cgu_flame_options_init(&o);
	o.width = 1000;
	o.inverted = true;
	o.reverse = true;
	o.title = "T <&>";
	o.subtitle = "cmd: ./a.out";
	char *svg = render("main;a;leaf 30\nmain;b;leaf 20\nmain;b 50\n", &o);
	size_t n = read_frames(svg, fr, 16);
	/* reversed: leaf(50) and b(50) are roots; leaf;a;main and leaf;b;main */
	assert_int_equal(n, 8);
	const struct frame *all = find(fr, n, "all");
	const struct frame *leaf = find(fr, n, "leaf");
	assert_float_equal(leaf->w, 490, 0.005);
	assert_true(all->y < leaf->y);   /* icicle: root on top */
	assert_non_null(strstr(svg, ">T &lt;&amp;&gt;</text>"));
	assert_non_null(strstr(svg, ">cmd: ./a.out</text>"));
	free(svg);
}

static void test_svg_minwidth_prunes(void **state)
{
	(void)state;
	struct cgu_flame_options o;
	struct frame fr[8];
	cgu_flame_options_init(&o);
	o.width = 1000;
	o.minwidth = 10;    /* 10 px: a count of 2 (19.6 px) or more */
	char *svg = render("big 96\nbig;tiny 1\nbig;two 2\nsmall 1\n", &o);
	size_t n = read_frames(svg, fr, 8);
	assert_int_equal(n, 3);   /* all, big, two */
	assert_float_equal(find(fr, n, "big")->w, 970.2, 0.005);
	assert_float_equal(find(fr, n, "two")->w, 19.6, 0.005);
	free(svg);
}

/* Names are bytes: the SVG stays well-formed UTF-8 XML whatever they
 * hold.  What XML cannot hold (C0 controls, bytes that are not UTF-8)
 * becomes U+FFFD, other controls character references. */
static void test_svg_names_not_utf8(void **state)
{
	(void)state;
	struct cgu_flame_options o;
	cgu_flame_options_init(&o);
	o.subtitle = "cmd: ./a\x01\xff";
	char *svg = render("main;bad\xff\xc3(\x01\x1b\x7f\xc2\x85)\t<x> [obj\xfe] 10\n"
			   "main;caf\xc3\xa9 5\n", &o);
	assert_non_null(strstr(svg, "data-n=\"bad&#xfffd;&#xfffd;(&#xfffd;&#xfffd;"
			       "&#127;&#133;)&#9;&lt;x&gt;\" data-o=\"obj&#xfffd;\""));
	assert_non_null(strstr(svg, "<title>bad&#xfffd;&#xfffd;(&#xfffd;"));
	assert_non_null(strstr(svg, "data-n=\"caf\xc3\xa9\""));
	assert_non_null(strstr(svg, ">cmd: ./a&#xfffd;&#xfffd;</text>"));
	/* no raw byte that XML refuses is left */
	for (const unsigned char *p = (const unsigned char *)svg; *p; p++)
		if ((*p < 0x20 && *p != '\n' && *p != '\t') || *p == 0xff || *p == 0xfe)
			fail_msg("byte 0x%02x at %zu", *p, (size_t)(p - (const unsigned char *)svg));
	free(svg);
}

/* 100k distinct leaves: the SVG stays small, and the leaves' cost is
 * still in their parents' widths. */
static void test_svg_many_frames(void **state)
{
	(void)state;
	size_t cap = 4 << 20, len = 0;
	char *text = malloc(cap);
	for (int i = 0; i < 100000; i++)
		len += (size_t)snprintf(text + len, cap - len, "main;hot;f%d 1\n", i);
	len += (size_t)snprintf(text + len, cap - len, "main;cold 100000\n");
	struct cgu_flame_options o;
	struct frame fr[8];
	cgu_flame_options_init(&o);
	char *svg = render(text, &o);
	size_t n = read_frames(svg, fr, 8);
	assert_int_equal(n, 4);   /* all, main, cold, hot */
	assert_float_equal(find(fr, n, "hot")->w, 590, 0.005);
	assert_true(strlen(svg) < 64 * 1024);
	free(svg);
	free(text);
}

static void test_colors_stable_by_kind(void **state)
{
	(void)state;
	uint8_t a[3], b[3];
	cgu_flame_color(CGU_PALETTE_OBJECT, "main", NULL, a);
	cgu_flame_color(CGU_PALETTE_OBJECT, "main", NULL, b);
	assert_memory_equal(a, b, 3);
	assert_true(a[0] >= 205);   /* user code: warm */
	assert_int_equal(cgu_frame_classify("main", "/home/u/prog"), CGU_KIND_USER);
	assert_int_equal(cgu_frame_classify("malloc", "/lib/x86_64-linux-gnu/libc.so.6"), CGU_KIND_LIBC);
	assert_int_equal(cgu_frame_classify("_dl_start", "/lib64/ld-linux-x86-64.so.2"), CGU_KIND_LOADER);
	assert_int_equal(cgu_frame_classify("_dl_start", NULL), CGU_KIND_LOADER);
	assert_int_equal(cgu_frame_classify("0x4011f0", NULL), CGU_KIND_JIT);
	assert_int_equal(cgu_frame_classify("jitted", "/tmp/perf-123.map"), CGU_KIND_JIT);
	assert_int_equal(cgu_frame_classify("(below main)", "libc.so.6"), CGU_KIND_SKIPPED);
	cgu_flame_color(CGU_PALETTE_OBJECT, "(below main)", NULL, a);
	assert_true(a[0] == a[1] && a[1] == a[2]);
	enum cgu_flame_palette p;
	assert_int_equal(cgu_flame_palette_parse("hot", &p), 0);
	assert_int_equal(p, CGU_PALETTE_HOT);
	assert_int_equal(cgu_flame_palette_parse("rainbow", &p), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_folded_parse),
		cmocka_unit_test(test_folded_differential),
		cmocka_unit_test(test_folded_names_with_brackets),
		cmocka_unit_test(test_folded_errors),
		cmocka_unit_test(test_folded_nul),
		cmocka_unit_test(test_folded_stream),
		cmocka_unit_test(test_tree_merges_and_orders),
		cmocka_unit_test(test_svg_widths),
		cmocka_unit_test(test_svg_inverted_reverse),
		cmocka_unit_test(test_svg_minwidth_prunes),
		cmocka_unit_test(test_svg_many_frames),
		cmocka_unit_test(test_svg_names_not_utf8),
		cmocka_unit_test(test_colors_stable_by_kind),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
