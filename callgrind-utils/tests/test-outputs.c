/* test-outputs.c - summary, edges, json and the Callgrind writer, with
 * exact expected text, and the outputs checked against each other. */
#include <stdlib.h>
#include <string.h>
#include "testutil.h"

static int write_summary(const struct cgu_profile *p, FILE *f, void *ctx)
{
	return cgu_summary_write(p, ctx, f, NULL);
}

static int write_json(const struct cgu_profile *p, FILE *f, void *ctx)
{
	(void)ctx;
	return cgu_json_write(p, f, NULL);
}

static void test_summary(void **state)
{
	struct cgu_profile *p = load_data("basic.out");
	struct cgu_summary_opts self = { .top = 2,
					 .names = CGU_NAMES_FUNCTION };
	struct cgu_summary_opts incl = { .event = 1, .by_inclusive = 1,
					 .names = CGU_NAMES_FULL };
	char *text;

	(void)state;
	text = capture(p, write_summary, &self);
	assert_string_equal(text,
		"# event Ir, total 650, by self\n"
		"#           self   self%      inclusive   incl%  function\n"
		"             300  46.15%            500  76.92%  work\n"
		"             250  38.46%            250  38.46%  leaf\n");
	free(text);
	text = capture(p, write_summary, &incl);
	assert_string_equal(text,
		"# event Dr, total 65, by inclusive\n"
		"#           self   self%      inclusive   incl%  function\n"
		"              10  15.38%             65 100.00%  basic.c:main [/bin/basic]\n"
		"              30  46.15%             50  76.92%  basic.c:work [/bin/basic]\n"
		"              25  38.46%             25  38.46%  basic.c:leaf [/bin/basic]\n");
	free(text);
	cgu_profile_free(p);
}

static void test_edges_name_styles_and_merge(void **state)
{
	/* two static functions "helper" in different files: one line each
	 * with file names, merged into one line with function names */
	struct cgu_profile *p = load_string(
		"events: Ir\nfl=a.c\nfn=main\n1 1\ncfi=b.c\ncfn=helper\n"
		"calls=2 0\n1 10\ncfi=c.c\ncfn=helper\ncalls=3 0\n1 20\n"
		"fl=b.c\nfn=helper\n1 10\nfl=c.c\nfn=helper\n1 20\n");
	struct cgu_buf name = CGU_BUF_INIT;
	char *text;

	(void)state;
	text = edges_of(p, 0);
	assert_string_equal(text, "main -> helper 5 30\n");
	free(text);
	cgu_node_name(p, 1, CGU_NAMES_FILE_FUNCTION, &name);
	assert_string_equal(name.data, "b.c:helper");
	cgu_buf_release(&name);
	cgu_profile_free(p);
}

static void test_json(void **state)
{
	struct cgu_profile *p = load_data("basic.out");
	char *text = capture(p, write_json, NULL);

	(void)state;
	assert_string_equal(text,
		"{\"stacks\":\"none\",\"creator\":\"hand-written\","
		"\"cmd\":\"./basic\",\"pid\":\"42\","
		"\"part\":\"1\",\"thread\":null,\"positions\":\"line\","
		"\"events\":[\"Ir\",\"Dr\"],\n"
		"\"event_desc\":[null,null],\n"
		"\"headers\":[],\n"
		"\"totals\":[650,65],\n"
		"\"nodes\":[\n"
		"{\"id\":0,\"function\":\"main\",\"object\":\"/bin/basic\","
		"\"file\":\"basic.c\",\"self\":[100,10]},\n"
		"{\"id\":1,\"function\":\"work\",\"object\":\"/bin/basic\","
		"\"file\":\"basic.c\",\"self\":[300,30]},\n"
		"{\"id\":2,\"function\":\"leaf\",\"object\":\"/bin/basic\","
		"\"file\":\"basic.c\",\"self\":[250,25]}],\n"
		"\"edges\":[\n"
		"{\"caller\":0,\"callee\":1,\"calls\":2,\"inclusive\":[500,50]},\n"
		"{\"caller\":0,\"callee\":2,\"calls\":1,\"inclusive\":[50,5]},\n"
		"{\"caller\":1,\"callee\":2,\"calls\":4,\"inclusive\":[200,20]}]}\n");
	free(text);
	cgu_profile_free(p);
}

/* Sum the first number after every occurrence of key in text. */
static uint64_t sum_after(const char *text, const char *key)
{
	uint64_t sum = 0;
	const char *s = text;

	while ((s = strstr(s, key)) != NULL) {
		s += strlen(key);
		sum += strtoull(s, NULL, 10);
	}
	return sum;
}

static void cross_check(const char *file)
{
	struct cgu_profile *p = load_data(file);
	char *json = capture(p, write_json, NULL);
	char *edges = edges_of(p, 0);
	char *fold = fold_of(p, 0, CGU_FOLD_AUTO);
	char *graph = fold_of(p, 0, CGU_FOLD_GRAPH);
	uint64_t edge_sum = 0;
	size_t i;

	for (i = 0; i < p->nedges; i++)
		edge_sum += cgu_edge_cost(p, (uint32_t)i)[0];
	/* json self costs == totals == every fold's total */
	assert_true(sum_after(json, "\"self\":[") == p->totals[0]);
	assert_true(sum_after(json, "\"totals\":[") == p->totals[0]);
	assert_true(sum_last_column(fold) == p->totals[0]);
	assert_true(sum_last_column(graph) == p->totals[0]);
	/* edges lines and json edges carry the same inclusive costs */
	assert_true(sum_last_column(edges) == edge_sum);
	assert_true(sum_after(json, "\"inclusive\":[") == edge_sum);
	free(json);
	free(edges);
	free(fold);
	free(graph);
	cgu_profile_free(p);
}

static void test_cross_checks(void **state)
{
	(void)state;
	cross_check("basic.out");
	cross_check("graph.out");
	cross_check("context.out");
	cross_check("real-prog.out.gz");
	cross_check("real-prog-ctx.out.gz");
}

static void test_real_profile_summary_totals(void **state)
{
	struct cgu_profile *p = load_data("real-prog.out.gz");
	int main_seen = 0;
	size_t i;

	(void)state;
	assert_true(p->nnodes > 50);
	for (i = 0; i < p->nnodes; i++) {
		if (strcmp(p->nodes[i].function, "main"))
			continue;
		main_seen = 1;
		assert_non_null(strstr(p->nodes[i].file, "annotate-prog.c"));
	}
	assert_true(main_seen);
	cgu_profile_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_edges_name_styles_and_merge),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_cross_checks),
		cmocka_unit_test(test_real_profile_summary_totals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
