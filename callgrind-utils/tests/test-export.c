/* test-export.c - speedscope export and differential flame graphs, with
 * exact expected output. */
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
#include <callgrind-utils/speedscope.h>

static void parse_ok(struct cgu_folded *f, const char *text)
{
	struct cgu_error err = { 0 };
	cgu_folded_init(f);
	if (cgu_folded_read_buf(f, text, strlen(text), "t.folded", &err))
		fail_msg("unexpected error: %s", err.msg);
}

struct capture {
	FILE *f;
	char *text;
	size_t len;
};

static FILE *capture_open(struct capture *c)
{
	c->f = open_memstream(&c->text, &c->len);
	return c->f;
}

static const char *capture_close(struct capture *c)
{
	fclose(c->f);
	return c->text;
}

static void test_speedscope_two_events(void **state)
{
	(void)state;
	struct cgu_folded ir, dr;
	struct capture c;
	parse_ok(&ir, "main;f [a.out:f.c] 30\nmain 10\nmain;g\\\"q 0\n");
	parse_ok(&dr, "main;g\"q 5\nmain;f [a.out:f.c] 2\n");
	struct cgu_speedscope_profile p[] = { { "Ir", &ir }, { "Dr", &dr } };
	assert_int_equal(cgu_speedscope_write(p, 2, "prog", capture_open(&c)), 0);
	assert_string_equal(capture_close(&c),
		"{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\","
		"\"shared\":{\"frames\":[{\"name\":\"main\"},"
		"{\"name\":\"f\",\"file\":\"f.c\"},{\"name\":\"g\\\\\\\"q\"},{\"name\":\"g\\\"q\"}]},"
		"\"profiles\":["
		"{\"type\":\"sampled\",\"name\":\"Ir\",\"unit\":\"none\",\"startValue\":0,"
		"\"endValue\":40,\"samples\":[[0,1],[0]],\"weights\":[30,10]},"
		"{\"type\":\"sampled\",\"name\":\"Dr\",\"unit\":\"none\",\"startValue\":0,"
		"\"endValue\":7,\"samples\":[[0,3],[0,1]],\"weights\":[5,2]}],"
		"\"name\":\"prog\",\"activeProfileIndex\":0,"
		"\"exporter\":\"callgrind-utils 0.1.0\"}\n");
	free(c.text);
	cgu_folded_release(&ir);
	cgu_folded_release(&dr);
}

static const char before_text[] =
	"main;parse 40\n"
	"main;render 50\n"
	"main;old 10\n";
static const char after_text[] =
	"main;parse 20\n"
	"main;render 150\n"
	"main;render;malloc 20\n"
	"main 10\n";

static const char *diff_folded(bool normalize, struct capture *c)
{
	struct cgu_folded a, b;
	struct cgu_flame_tree t;
	parse_ok(&a, before_text);
	parse_ok(&b, after_text);
	cgu_flame_tree_init(&t);
	assert_int_equal(cgu_diff_tree(&t, &a, &b, normalize, false), 0);
	assert_int_equal(cgu_diff_write_folded(&t, capture_open(c)), 0);
	cgu_flame_tree_release(&t);
	cgu_folded_release(&a);
	cgu_folded_release(&b);
	return capture_close(c);
}

static void test_diff_folded(void **state)
{
	(void)state;
	struct capture c;
	assert_string_equal(diff_folded(false, &c),
		"main 0 10\n"
		"main;old 10 0\n"
		"main;parse 40 20\n"
		"main;render 50 150\n"
		"main;render;malloc 0 20\n");
	free(c.text);
}

static void test_diff_folded_normalized(void **state)
{
	(void)state;
	struct capture c;
	/* before total 100, after 200: every before count doubles */
	assert_string_equal(diff_folded(true, &c),
		"main 0 10\n"
		"main;old 20 0\n"
		"main;parse 80 20\n"
		"main;render 100 150\n"
		"main;render;malloc 0 20\n");
	free(c.text);
}

/* Scaling a baseline of 5 up to 2^64 - 1: the rounded counts of the
 * five stacks add up past 2^64 - 1 (and the scale of a baseline of 1
 * gives 2^64, no uint64_t): the counts stop at 2^64 - 1, no wrap and no
 * undefined conversion (the fuzzer's UBSan finding). */
static void test_diff_normalize_huge(void **state)
{
	struct cgu_folded a, b, one;
	struct cgu_flame_tree t;
	uint64_t sum = 0;

	(void)state;
	parse_ok(&a, "x;a 1\nx;b 1\nx;c 1\nx;d 1\nx;e 1\n");
	parse_ok(&one, "x;a 1\n");
	parse_ok(&b, "x;a 18446744073709551615\n");
	cgu_flame_tree_init(&t);
	assert_int_equal(cgu_diff_tree(&t, &a, &b, true, false), 0);
	assert_true(t.nodes[0].before == UINT64_MAX);
	assert_true(t.nodes[0].total == UINT64_MAX);
	for (uint32_t n = 1; n < t.nnodes; n++)
		if (t.nodes[n].depth == 2)
			sum += t.nodes[n].before;
	assert_true(sum == UINT64_MAX);
	cgu_flame_tree_release(&t);
	cgu_flame_tree_init(&t);
	assert_int_equal(cgu_diff_tree(&t, &one, &b, true, false), 0);
	assert_true(t.nodes[0].before == UINT64_MAX);
	cgu_flame_tree_release(&t);
	cgu_folded_release(&a);
	cgu_folded_release(&b);
	cgu_folded_release(&one);
}

/* Fill of the frame called name in svg. */
static void fill_of(const char *svg, const char *name, unsigned rgb[3])
{
	char key[80];
	snprintf(key, sizeof(key), "data-n=\"%s\"", name);
	const char *p = strstr(svg, key);
	assert_non_null(p);
	p = strstr(p, "fill=\"rgb(");
	assert_int_equal(sscanf(p, "fill=\"rgb(%u,%u,%u)", &rgb[0], &rgb[1], &rgb[2]), 3);
}

static void test_diff_svg_colors(void **state)
{
	(void)state;
	struct cgu_folded a, b;
	struct cgu_flame_tree t;
	struct cgu_flame_options o;
	struct capture c;
	unsigned rgb[3];
	parse_ok(&a, before_text);
	parse_ok(&b, after_text);
	cgu_flame_tree_init(&t);
	cgu_flame_options_init(&o);
	assert_int_equal(cgu_diff_tree(&t, &a, &b, false, false), 0);
	assert_int_equal(cgu_diff_write_svg(&t, &o, capture_open(&c)), 0);
	const char *svg = capture_close(&c);
	/* deltas: all +100, main +100, render +120 (largest), parse -20 */
	fill_of(svg, "render", rgb);
	assert_int_equal(rgb[0], 255);
	assert_int_equal(rgb[1], 45);
	assert_int_equal(rgb[2], 45);
	fill_of(svg, "parse", rgb);
	assert_int_equal(rgb[0], 220);   /* 255 - 210 * 20 / 120 */
	assert_int_equal(rgb[1], 220);
	assert_int_equal(rgb[2], 255);
	assert_null(strstr(svg, "data-n=\"old\""));   /* width 0 after */
	assert_non_null(strstr(svg, "data-n=\"parse\" data-b=\"40\"") ||
			strstr(svg, "data-b=\"40\" data-n=\"parse\""));
	assert_non_null(strstr(svg, ">Differential Flame Graph</text>"));
	free(c.text);
	cgu_flame_tree_release(&t);
	cgu_folded_release(&a);
	cgu_folded_release(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_speedscope_two_events),
		cmocka_unit_test(test_diff_folded),
		cmocka_unit_test(test_diff_folded_normalized),
		cmocka_unit_test(test_diff_normalize_huge),
		cmocka_unit_test(test_diff_svg_colors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
