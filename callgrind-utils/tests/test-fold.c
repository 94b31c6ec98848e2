/* test-fold.c - folded stacks in exact and reconstructed mode; the total
 * always equals the profile total. */
#include <stdlib.h>
#include <string.h>
#include "testutil.h"

/* Does the stack s[0..len) hold the frame name? */
static int stack_holds(const char *s, size_t len, const char *name)
{
	const char *end = s + len;
	size_t n = strlen(name);

	while (s < end) {
		const char *e = memchr(s, ';', (size_t)(end - s));

		if (!e)
			e = end;
		if ((size_t)(e - s) == n && !memcmp(s, name, n))
			return 1;
		s = e + 1;
	}
	return 0;
}

/* For every function name, the costs of the folded lines (of event 0)
 * whose stack holds it, once per line whatever the depth, add up to at
 * most the inclusive cost of the nodes of that name: a frame is never
 * drawn wider than its function. */
static void assert_no_frame_wider_than_inclusive(const struct cgu_profile *p,
						 const char *folded)
{
	uint32_t n, m;

	for (n = 0; n < p->nnodes; n++) {
		const char *name = p->nodes[n].function, *line;
		cgu_cost drawn = 0, incl = 0;

		for (m = 0; m < p->nnodes; m++)
			if (!strcmp(p->nodes[m].function, name))
				incl += cgu_node_inclusive(p, m, 0);
		for (line = folded; *line; line = strchr(line, '\n') + 1) {
			const char *sp = strchr(line, '\n');

			while (sp[-1] != ' ')
				sp--;
			if (stack_holds(line, (size_t)(sp - 1 - line), name))
				drawn += strtoull(sp, NULL, 10);
		}
		if (drawn > incl)
			fail_msg("%s: drawn %llu wide, inclusive cost %llu", name,
				 (unsigned long long)drawn,
				 (unsigned long long)incl);
	}
}

static void expect_fold(const char *file, enum cgu_fold_mode mode,
			const char *expected)
{
	struct cgu_profile *p = load_data(file);
	char *text = fold_of(p, 0, mode);

	assert_string_equal(text, expected);
	assert_true(sum_last_column(text) == p->totals[0]);
	if (mode == CGU_FOLD_GRAPH)
		assert_no_frame_wider_than_inclusive(p, text);
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

/* Four threads: the parent's pthread_create calls clone3 four times (16
 * Ir of clone3 in the parent); each child thread starts inside clone3
 * with nothing below it, and clone3 calls start_thread there, which
 * runs worker (400 Ir in all).  Callgrind charges the children's work
 * to clone3's call of start_thread, but no edge into clone3 carries it:
 * pthread_create -> clone3 costs 16.  Climbing worker's cost to clone3's
 * only caller drew pthread_create (40 inclusive) and main (60) 460 wide.
 * An edge only carries its inclusive cost: the nodes are folded callers
 * first (_start, main, pthread_create, clone3, start_thread, worker), so
 * clone3's 16 take the 16 of pthread_create -> clone3, and worker's 400
 * find no room left above clone3, which is their root. */
static void test_graph_edges_carry_at_most_their_cost(void **state)
{
	struct cgu_profile *p = load_string(
		"events: Ir\nfl=t.c\n"
		"fn=_start\n0 5\ncfn=main\ncalls=1 0\n0 60\n"
		"fn=main\n0 20\ncfn=pthread_create\ncalls=4 0\n0 40\n"
		"fn=pthread_create\n0 24\ncfn=clone3\ncalls=4 0\n0 16\n"
		"fn=clone3\n0 16\ncfn=start_thread\ncalls=4 0\n0 400\n"
		"fn=start_thread\n0 0\ncfn=worker\ncalls=4 0\n0 400\n"
		"fn=worker\n0 400\n");
	char *text = fold_of(p, 0, CGU_FOLD_GRAPH);

	(void)state;
	assert_no_frame_wider_than_inclusive(p, text);
	assert_string_equal(text,
		"_start 5\n"
		"_start;main 20\n"
		"_start;main;pthread_create 24\n"
		"_start;main;pthread_create;clone3 16\n"
		"clone3;start_thread;worker 400\n");
	assert_true(sum_last_column(text) == p->totals[0]);
	free(text);
	cgu_profile_free(p);
}

static void test_graph_integer_remainders(void **state)
{
	/* z's 10 shared 4:4:4 -> 3,3,3 and the remainder to the heaviest,
	 * the first of equals: a;z 4.  y's 2 climb to z, shared 0,0,0 and
	 * the remainder 2 to a, whose edge has no room left (4 of 4): the 2
	 * go to the callers with room, b and c, 1 each. */
	struct cgu_profile *p = load_string(
		"events: Ir\nfn=a\n0 0\ncfn=z\ncalls=1 0\n0 4\nfn=b\n0 0\n"
		"cfn=z\ncalls=1 0\n0 4\nfn=c\n0 0\ncfn=z\ncalls=1 0\n0 4\n"
		"fn=z\n0 10\ncfn=y\ncalls=1 0\n0 2\nfn=y\n0 2\n");
	char *text = fold_of(p, 0, CGU_FOLD_GRAPH);

	(void)state;
	assert_string_equal(text, "a;z 4\nb;z 3\nb;z;y 1\nc;z 3\nc;z;y 1\n");
	assert_no_frame_wider_than_inclusive(p, text);
	free(text);
	cgu_profile_free(p);
}

/* Graph mode with --min-fraction; frees p. */
static void expect_pruned(struct cgu_profile *p, double min_fraction,
			  const char *expected)
{
	struct cgu_fold_opts o = { .mode = CGU_FOLD_GRAPH,
				   .min_fraction = min_fraction,
				   .names = CGU_NAMES_FUNCTION };
	struct cgu_buf b = CGU_BUF_INIT;

	assert_int_equal(cgu_fold_buf(p, &o, &b, NULL), 0);
	assert_string_equal(b.data, expected);
	assert_true(sum_last_column(b.data) == p->totals[0]);
	assert_no_frame_wider_than_inclusive(p, b.data);
	cgu_buf_release(&b);
	cgu_profile_free(p);
}

static void test_graph_pruning(void **state)
{
	/* leaf (300) is called by a (300) and b (100) and calls leaf2
	 * (100).  Unpruned, both are shared 3:1 over a and b.  Below 0.6 of
	 * the total (610) every share is pruned: leaf follows a whole, which
	 * fills a -> leaf, so leaf2 follows a as far as a -> leaf has room,
	 * none, and goes to b. */
	static const char prof[] =
		"events: Ir\n"
		"fn=main\n0 10\ncfn=a\ncalls=1 0\n0 400\ncfn=b\ncalls=1 0\n0 200\n"
		"fn=a\n0 100\ncfn=leaf\ncalls=3 0\n0 300\n"
		"fn=b\n0 100\ncfn=leaf\ncalls=1 0\n0 100\n"
		"fn=leaf\n0 300\ncfn=leaf2\ncalls=4 0\n0 100\n"
		"fn=leaf2\n0 100\n";

	(void)state;
	expect_pruned(load_string(prof), -1,
		      "main 10\nmain;a 100\nmain;a;leaf 225\nmain;a;leaf;leaf2 75\n"
		      "main;b 100\nmain;b;leaf 75\nmain;b;leaf;leaf2 25\n");
	expect_pruned(load_string(prof), 0.6,
		      "main 10\nmain;a 100\nmain;a;leaf 300\nmain;b 100\n"
		      "main;b;leaf;leaf2 100\n");
}

static void test_graph_pruned_shares_follow_usable_heaviest(void **state)
{
	/* Everything is pruned (min fraction 1), so every share follows its
	 * node's heaviest usable caller.  x's heaviest caller is y, which is
	 * on the stack whenever x is reached from y, and which cannot be
	 * reached except through x when the climb starts at x: both times x
	 * goes to main (x's first caller is y, main is found after it; y's
	 * own first caller is y).
	 * z's callers' calls cost nothing: they take nothing, and z is a
	 * root.  r1 and r2 call q for the same cost, 5: the first is the
	 * heaviest and takes what its edge has room for, 5 of q's 6, and the
	 * rest goes to r2.  s is called only by itself, so it is a root and
	 * t's caller. */
	struct cgu_profile *p = load_string(
		"events: Ir\n"
		"fn=y\n0 3\ncfn=y\ncalls=1 0\n0 7\n"
		"cfn=x\ncalls=1 0\n0 150\n"
		"cfn=leaf\ncalls=1 0\n0 10\n"
		"fn=main\n0 1\ncfn=x\ncalls=1 0\n0 100\n"
		"cfn=p1\ncalls=1 0\n0 4\ncfn=p2\ncalls=1 0\n0 0\n"
		"cfn=r1\ncalls=1 0\n0 5\ncfn=r2\ncalls=1 0\n0 5\n"
		"fn=x\n0 2\ncfn=y\ncalls=1 0\n0 150\n"
		"fn=leaf\n0 10\n"
		"fn=p1\n0 0\ncfn=z\ncalls=2 0\n0 0\n"
		"fn=p2\n0 0\ncfn=z\ncalls=5 0\n0 0\n"
		"fn=z\n0 4\n"
		"fn=r1\n0 0\ncfn=q\ncalls=1 0\n0 5\n"
		"fn=r2\n0 0\ncfn=q\ncalls=1 0\n0 5\n"
		"fn=q\n0 6\n"
		"fn=s\n0 1\ncfn=s\ncalls=3 0\n0 9\ncfn=t\ncalls=1 0\n0 7\n"
		"fn=t\n0 7\n");

	(void)state;
	expect_pruned(p, 1,
		      "main 1\nmain;r1;q 5\nmain;r2;q 1\nmain;x 2\n"
		      "main;x;y 3\nmain;x;y;leaf 10\ns 1\ns;t 7\nz 4\n");
}

static void test_graph_names_and_callback(void **state)
{
	struct cgu_profile *p = load_data("basic.out");
	struct cgu_fold_opts o = { .event = 1, .mode = CGU_FOLD_GRAPH,
				   .min_fraction = -1,
				   .names = CGU_NAMES_FILE_FUNCTION };
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
			if (modes[m] == CGU_FOLD_GRAPH)
				assert_no_frame_wider_than_inclusive(p, text);
			free(text);
		}
		cgu_profile_free(p);
	}
}

/* Many stacks with shared prefixes, stacks that are prefixes of others,
 * and equal stacks from nodes of different objects: the lines must come
 * out sorted, each stack once, with the sum of its nodes' costs.  The
 * expectation is computed here from the generated stacks, by a plain
 * sort of their text (names of lower-case letters, for which the fold's
 * order is that of strcmp). */
#define MANY 600
#define MANY_DEPTH 9

struct gen_stack {
	char text[MANY_DEPTH * 3];
	uint64_t cost;
};

static int cmp_gen(const void *a, const void *b)
{
	return strcmp(((const struct gen_stack *)a)->text,
		      ((const struct gen_stack *)b)->text);
}

static unsigned next_random(unsigned *seed)
{
	*seed = *seed * 1103515245 + 12345;
	return *seed >> 16;
}

static void test_many_stacks_sorted_and_merged(void **state)
{
	static const char *const fns[] = { "a", "b", "c", "ab", "z" };
	static struct gen_stack gen[MANY];
	struct cgu_buf prof = CGU_BUF_INIT, want = CGU_BUF_INIT;
	struct cgu_profile *p;
	unsigned seed = 12345;
	size_t i, j;
	char *text;

	(void)state;
	cgu_buf_adds(&prof, "events: Ir\n");
	for (i = 0; i < MANY; i++) {
		size_t depth = 1 + next_random(&seed) % MANY_DEPTH;
		const char *frames[MANY_DEPTH];

		for (j = 0; j < depth; j++)
			frames[j] = fns[next_random(&seed) % 5];
		gen[i].text[0] = '\0';
		for (j = 0; j < depth; j++) {       /* root first */
			if (j)
				strcat(gen[i].text, ";");
			strcat(gen[i].text, frames[j]);
		}
		gen[i].cost = 1 + i;
		/* Callgrind's context name: leaf first, joined by '. */
		cgu_buf_addf(&prof, "ob=obj%zu\nfn=", i % 7);
		for (j = depth; j-- > 0;)
			cgu_buf_addf(&prof, "%s%s", frames[j], j ? "'" : "");
		cgu_buf_addf(&prof, "\n1 %llu\n", (unsigned long long)gen[i].cost);
	}
	qsort(gen, MANY, sizeof(gen[0]), cmp_gen);
	for (i = 0; i < MANY; i = j) {
		uint64_t cost = 0;

		for (j = i; j < MANY && !strcmp(gen[i].text, gen[j].text); j++)
			cost += gen[j].cost;
		cgu_buf_addf(&want, "%s %llu\n", gen[i].text,
			     (unsigned long long)cost);
	}
	p = load_string(prof.data);
	text = fold_of(p, 0, CGU_FOLD_EXACT);
	assert_string_equal(text, want.data);
	free(text);
	cgu_profile_free(p);
	cgu_buf_release(&prof);
	cgu_buf_release(&want);
}

/* A call chain of n functions, each with self cost 1. */
static struct cgu_profile *chain(int n)
{
	struct cgu_buf b = CGU_BUF_INIT;
	struct cgu_profile *p;

	cgu_buf_adds(&b, "events: Ir\n");
	for (int i = 0; i < n; i++) {
		cgu_buf_addf(&b, "fn=f%d\n0 1\n", i);
		if (i + 1 < n)
			cgu_buf_addf(&b, "cfn=f%d\ncalls=1 0\n0 %d\n", i + 1,
				     n - 1 - i);
	}
	p = load_string(b.data);
	cgu_buf_release(&b);
	return p;
}

/* Reconstructed stacks of CGU_FOLD_MAX_DEPTH (4096) frames or more keep
 * 4095 frames from the root and end in [deeper], as exact stacks do:
 * the deep stacks of a chain are one line, not a line for every start
 * along it.  Also without pruning, where every step of the climb is a
 * split of one share. */
static void test_graph_deep_chain(void **state)
{
	struct cgu_profile *p = chain(6000);
	double fractions[] = { 0, -1 };

	(void)state;
	for (int k = 0; k < 2; k++) {
		struct cgu_fold_opts o = {
			.mode = CGU_FOLD_GRAPH, .min_fraction = fractions[k],
			.names = CGU_NAMES_FUNCTION };
		struct cgu_buf b = CGU_BUF_INIT;
		size_t lines = 0;
		const char *deeper, *last;

		assert_int_equal(cgu_fold_buf(p, &o, &b, NULL), 0);
		for (const char *q = b.data; *q; q++)
			lines += *q == '\n';
		assert_int_equal(lines, 4096);
		assert_true(sum_last_column(b.data) == 6000);
		deeper = strstr(b.data, ";[deeper] ");
		assert_non_null(deeper);
		assert_int_equal(strtoul(deeper + 10, NULL, 10), 6000 - 4095);
		for (last = deeper; last > b.data && last[-1] != '\n'; last--)
			;
		assert_true(!strncmp(last, "f0;f1;", 6));
		assert_true(!strncmp(deeper - 6, ";f4094", 6));
		cgu_buf_release(&b);
	}
	cgu_profile_free(p);
}

/* The work of a fold is bounded: past max_frames it stops with an
 * error, which names the options. */
static void test_graph_max_frames(void **state)
{
	struct cgu_profile *p = chain(300);
	struct cgu_fold_opts o = { .mode = CGU_FOLD_GRAPH,
				   .min_fraction = -1,
				   .names = CGU_NAMES_FUNCTION,
				   .max_frames = 300 * 301 / 2 };
	struct cgu_buf b = CGU_BUF_INIT;
	struct cgu_error err;

	(void)state;
	assert_int_equal(cgu_fold_buf(p, &o, &b, &err), 0);   /* exactly */
	cgu_buf_reset(&b);
	o.max_frames--;
	assert_int_equal(cgu_fold_buf(p, &o, &b, &err), CGU_EINPUT);
	assert_string_equal(err.msg, "the stacks reconstructed from the call "
			    "graph pass 45149 frames; expected fewer (fold "
			    "--max-frames raises the bound, a larger "
			    "--min-fraction splits fewer shares)");
	assert_string_equal(b.data, "");
	cgu_buf_release(&b);
	cgu_profile_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact_from_context_names),
		cmocka_unit_test(test_exact_keeps_recursion_suffix),
		cmocka_unit_test(test_graph_shares_cycles_recursion),
		cmocka_unit_test(test_graph_integer_remainders),
		cmocka_unit_test(test_graph_edges_carry_at_most_their_cost),
		cmocka_unit_test(test_graph_pruning),
		cmocka_unit_test(test_graph_pruned_shares_follow_usable_heaviest),
		cmocka_unit_test(test_graph_names_and_callback),
		cmocka_unit_test(test_real_profiles_total),
		cmocka_unit_test(test_many_stacks_sorted_and_merged),
		cmocka_unit_test(test_graph_deep_chain),
		cmocka_unit_test(test_graph_max_frames),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
