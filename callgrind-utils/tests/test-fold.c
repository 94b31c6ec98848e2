/* test-fold.c - folded stacks in exact and reconstructed mode; the total
 * always equals the profile total. */
#include <stdlib.h>
#include <string.h>
#include "testutil.h"

static void expect_fold(const char *file, enum cgu_fold_mode mode,
			const char *expected)
{
	struct cgu_profile *p = load_data(file);
	char *text = fold_of(p, 0, mode);

	assert_string_equal(text, expected);
	assert_true(sum_last_column(text) == p->totals[0]);
	free(text);
	cgu_profile_free(p);
}

static void test_exact_from_context_names(void **state)
{
	static const char expected[] =
		"main 10\n"
		"main;a 20\n"
		"main;a;c 40\n"
		"main;b 10\n"
		"main;b;c 20\n";

	(void)state;
	expect_fold("context.out", CGU_FOLD_EXACT, expected);
	expect_fold("context.out", CGU_FOLD_AUTO, expected);
}

static void test_exact_keeps_recursion_suffix(void **state)
{
	struct cgu_profile *p = load_string(
		"events: Ir\nfn=fib'2'fib'main\n1 5\nfn=fib'main\n1 3\n"
		"fn=main\n1 1\n");
	char *text = fold_of(p, 0, CGU_FOLD_AUTO);

	(void)state;
	assert_string_equal(text, "main 1\nmain;fib 3\nmain;fib;fib'2 5\n");
	free(text);
	cgu_profile_free(p);
}

static void test_graph_shares_cycles_recursion(void **state)
{
	(void)state;
	/* leaf: 3/4 through a, 1/4 through b; rec's self call is ignored;
	 * x<->y: the cycle goes through main, y is no fake root */
	expect_fold("graph.out", CGU_FOLD_GRAPH,
		    "main 10\n"
		    "main;a 100\n"
		    "main;a;leaf 300\n"
		    "main;b 100\n"
		    "main;b;leaf 100\n"
		    "main;rec 30\n"
		    "main;x 10\n"
		    "main;x;y 30\n");
	expect_fold("graph.out", CGU_FOLD_AUTO,
		    "main 10\nmain;a 100\nmain;a;leaf 300\nmain;b 100\n"
		    "main;b;leaf 100\nmain;rec 30\nmain;x 10\nmain;x;y 30\n");
}

static void test_graph_integer_remainders(void **state)
{
	/* 10 shared 1:1:1 -> 3,3,3 and the remainder to the heaviest (the
	 * first of equals) */
	struct cgu_profile *p = load_string(
		"events: Ir\nfn=a\n0 0\ncfn=z\ncalls=1 0\n0 1\nfn=b\n0 0\n"
		"cfn=z\ncalls=1 0\n0 1\nfn=c\n0 0\ncfn=z\ncalls=1 0\n0 1\n"
		"fn=z\n0 10\n");
	char *text = fold_of(p, 0, CGU_FOLD_GRAPH);

	(void)state;
	assert_string_equal(text, "a;z 4\nb;z 3\nc;z 3\n");
	free(text);
	cgu_profile_free(p);
}

static void test_graph_pruning(void **state)
{
	struct cgu_profile *p = load_data("graph.out");
	struct cgu_fold_opts o = { 0, CGU_FOLD_GRAPH, 0.6, CGU_NAMES_FUNCTION };
	struct cgu_buf b = CGU_BUF_INIT;

	(void)state;
	/* leaf (400) is below 0.6 of the total (680): leaf follows a whole */
	assert_int_equal(cgu_fold_buf(p, &o, &b, NULL), 0);
	assert_string_equal(b.data,
			    "main 10\nmain;a 100\nmain;a;leaf 400\nmain;b 100\n"
			    "main;rec 30\nmain;x 10\nmain;x;y 30\n");
	assert_true(sum_last_column(b.data) == p->totals[0]);
	cgu_buf_release(&b);
	cgu_profile_free(p);
}

static void test_graph_names_and_callback(void **state)
{
	struct cgu_profile *p = load_data("basic.out");
	struct cgu_fold_opts o = { 1, CGU_FOLD_GRAPH, -1, CGU_NAMES_FILE_FUNCTION };
	struct cgu_buf b = CGU_BUF_INIT;

	(void)state;
	assert_int_equal(cgu_fold_buf(p, &o, &b, NULL), 0);
	/* leaf's 25 Dr: 5:20 over main and work */
	assert_string_equal(b.data,
			    "basic.c:main 10\n"
			    "basic.c:main;basic.c:leaf 5\n"
			    "basic.c:main;basic.c:work 30\n"
			    "basic.c:main;basic.c:work;basic.c:leaf 20\n");
	cgu_buf_release(&b);
	cgu_profile_free(p);
}

static void test_real_profiles_total(void **state)
{
	static const char *const files[] = { "real-prog.out.gz",
					     "real-prog-ctx.out.gz" };
	static const enum cgu_fold_mode modes[] = { CGU_FOLD_EXACT,
						    CGU_FOLD_GRAPH };
	size_t i, m;

	(void)state;
	for (i = 0; i < 2; i++) {
		struct cgu_profile *p = load_data(files[i]);

		for (m = 0; m < 2; m++) {
			char *text = fold_of(p, 0, modes[m]);

			assert_true(sum_last_column(text) == p->totals[0]);
			free(text);
		}
		cgu_profile_free(p);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact_from_context_names),
		cmocka_unit_test(test_exact_keeps_recursion_suffix),
		cmocka_unit_test(test_graph_shares_cycles_recursion),
		cmocka_unit_test(test_graph_integer_remainders),
		cmocka_unit_test(test_graph_pruning),
		cmocka_unit_test(test_graph_names_and_callback),
		cmocka_unit_test(test_real_profiles_total),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
