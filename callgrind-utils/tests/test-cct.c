/* test-cct.c - the stacks files of --collect-stacks=yes: the parser on
 * good files and on every class of bad input (each with its exact
 * "file:line: message"), the folded stacks, call graph and inclusive
 * costs drawn from the tree.  Expected lines are worked out by hand from
 * the fixtures, in the comments beside them. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include "testutil.h"
#include <callgrind-utils/folded.h>

/* The example of docs/exact-stacks.md: main calls a, a calls common; a
 * signal handler on_alarm runs while main is on top. */
static const char example[] =
	"# callgrind stacks\n"
	"version: 1\n"
	"creator: callgrind-3.27.1\n"
	"pid: 4242\n"
	"cmd: ./prog arg\n"
	"part: 1\n"
	"desc: Trigger: Program termination\n"
	"events: Ir Dr Dw\n"
	"nodes: 5\n"
	"truncated: 0\n"
	"\n"
	"thread: 1\n"
	"ob=(1) /tmp/prog\n"
	"fl=(1) prog.c\n"
	"fn=(1) 1 1 main\n"
	"0 1 1 120 4 2\n"
	"fn=(2) 1 1 a\n"
	"1 2 10 300 10 0\n"
	"fn=(3) 1 1 common\n"
	"1 3 10 900\n"
	"fn=(4) 0 0 [signal 10]\n"
	"3 4 1 0\n"
	"fn=(5) 1 1 on_alarm\n"
	"1 5 0 40 1 1\n"
	"\n"
	"totals: 1360 15 3\n";

static struct cgu_cct *parse_ok(const char *text)
{
	struct cgu_cct *c = cgu_cct_new();
	struct cgu_error err = { 0 };

	if (cgu_cct_parse_mem(c, text, strlen(text), "t.stacks", NULL, &err))
		fail_msg("%s", err.msg);
	return c;
}

static char *fold(const struct cgu_cct *c, int event, int per_thread,
		  size_t part)
{
	struct cgu_cct_fold_opts o = {
		.event = event, .names = CGU_NAMES_FUNCTION,
		.per_thread = per_thread, .part = part };
	struct cgu_buf b = CGU_BUF_INIT;
	char *text;

	assert_int_equal(cgu_cct_fold_buf(c, &o, &b, NULL), 0);
	text = strdup(b.data);
	cgu_buf_release(&b);
	return text;
}

static void expect_fold(const struct cgu_cct *c, int event, int per_thread,
			size_t part, const char *expected)
{
	char *text = fold(c, event, per_thread, part);

	assert_string_equal(text, expected);
	free(text);
}

static void test_example(void **state)
{
	struct cgu_cct *c = parse_ok(example);
	const struct cgu_cct_part *pt;

	(void)state;
	assert_int_equal(c->nevents, 3);
	assert_string_equal(c->events[2], "Dw");
	assert_int_equal(c->nparts, 1);
	pt = &c->parts[0];
	assert_string_equal(pt->source, "t.stacks");
	assert_string_equal(pt->pid, "4242");
	assert_string_equal(pt->cmd, "./prog arg");
	assert_string_equal(pt->part, "1");
	assert_string_equal(pt->desc, "Trigger: Program termination");
	assert_int_equal(c->nnodes, 5);
	assert_int_equal(c->nframes, 5);
	/* node 3 (common) is below node 2 (a), in thread 1, 10 calls */
	assert_int_equal(c->nodes[2].parent, 1);
	assert_int_equal(c->nodes[2].thread, 1);
	assert_int_equal(c->nodes[2].calls, 10);
	assert_string_equal(c->frames[c->nodes[2].frame].function, "common");
	assert_string_equal(c->frames[c->nodes[2].frame].object, "/tmp/prog");
	assert_string_equal(c->frames[c->nodes[3].frame].object, "");
	assert_int_equal(c->nodes[0].parent, CGU_CCT_ROOT);
	/* trailing zero costs left out: common's Dr and Dw are 0 */
	assert_int_equal(cgu_cct_self(c, 2)[0], 900);
	assert_int_equal(cgu_cct_self(c, 2)[1], 0);
	assert_int_equal(c->totals[0], 1360);
	assert_int_equal(c->parts[0].totals[1], 15);
	/* Ir: one line a node with cost, root first; "[signal 10]" sorts
	 * before "a" ('[' < 'a'), the empty signal node has none of its own */
	expect_fold(c, 0, 0, CGU_CCT_ALL_PARTS,
		    "main 120\n"
		    "main;[signal 10];on_alarm 40\n"
		    "main;a 300\n"
		    "main;a;common 900\n");
	/* Dr: main 4, a 10, on_alarm 1; common has none */
	expect_fold(c, 1, 0, 0,
		    "main 4\nmain;[signal 10];on_alarm 1\nmain;a 10\n");
	cgu_cct_free(c);
}

static void test_names_styles(void **state)
{
	struct cgu_cct *c = parse_ok(example);
	struct cgu_cct_fold_opts o = { .event = 2, .names = CGU_NAMES_FULL,
				       .part = CGU_CCT_ALL_PARTS };
	struct cgu_buf b = CGU_BUF_INIT;

	(void)state;
	assert_int_equal(cgu_cct_fold_buf(c, &o, &b, NULL), 0);
	/* Dw: main 2, on_alarm 1; the signal frame has no file */
	assert_string_equal(b.data,
		"prog.c:main [/tmp/prog] 2\n"
		"prog.c:main [/tmp/prog];???:[signal 10];prog.c:on_alarm [/tmp/prog] 1\n");
	cgu_buf_release(&b);
	o.event = 3;
	assert_int_equal(cgu_cct_fold_buf(c, &o, &b, NULL), CGU_EUSAGE);
	cgu_cct_free(c);
}

/* Thread 1 runs main -> work -> leaf, thread 2 start -> leaf; with
 * combine-dumps a second part follows, whose node ids restart, using fn
 * ids of part 1. */
static const char threads[] =
	"# callgrind stacks\nversion: 1\ncmd: ./t\n"
	"part: 1\nevents: Ir\nnodes: 5\ntruncated: 0\n"
	"thread: 1\nfn=(1) 0 0 main\nfn=(2) 0 0 work\nfn=(3) 0 0 leaf\n"
	"0 1 1 5\n1 2 1 10\n1 3 2 100\n"
	"thread: 2\nfn=(4) 0 0 start\n"
	"0 4 0 1\n"
	"1 3 1 50\n"
	"totals: 166\n"
	"\n"
	"part: 2\nevents: Ir\nnodes: 2\ntruncated: 0\n"
	"thread: 2\n0 4 0\n1 3 1 7\n"
	"totals: 7\n";

static void test_threads_and_parts(void **state)
{
	struct cgu_cct *c = parse_ok(threads);
	struct cgu_profile *p2;

	(void)state;
	assert_int_equal(c->nparts, 2);
	assert_int_equal(c->parts[1].first, 5);
	assert_int_equal(c->parts[1].nnodes, 2);
	assert_string_equal(c->parts[1].cmd, "./t");
	assert_int_equal(c->totals[0], 173);
	/* part 1: start;leaf is thread 2's, main;work;leaf thread 1's */
	expect_fold(c, 0, 0, 0,
		    "main 5\nmain;work 10\nmain;work;leaf 100\n"
		    "start 1\nstart;leaf 50\n");
	/* part 2 alone: start (0 Ir) -> leaf 7 */
	expect_fold(c, 0, 0, 1, "start;leaf 7\n");
	/* all parts: start;leaf adds up, 50 + 7 */
	expect_fold(c, 0, 0, CGU_CCT_ALL_PARTS,
		    "main 5\nmain;work 10\nmain;work;leaf 100\n"
		    "start 1\nstart;leaf 57\n");
	/* the call graph of part 2 has its functions only */
	p2 = cgu_cct_profile(c, 1, NULL);
	assert_int_equal(p2->nnodes, 2);
	assert_string_equal(p2->nodes[0].function, "leaf");
	assert_string_equal(p2->nodes[1].function, "start");
	assert_int_equal(p2->totals[0], 7);
	cgu_profile_free(p2);
	/* a lane per thread */
	expect_fold(c, 0, 1, CGU_CCT_ALL_PARTS,
		    "[thread 1];main 5\n[thread 1];main;work 10\n"
		    "[thread 1];main;work;leaf 100\n"
		    "[thread 2];start 1\n[thread 2];start;leaf 57\n");
	cgu_cct_free(c);
}

/* The same path in two threads adds up into one line. */
static void test_threads_merge(void **state)
{
	struct cgu_cct *c = parse_ok(
		"# callgrind stacks\nversion: 1\npart: 1\nevents: Ir\nnodes: 4\n"
		"thread: 1\nfn=(1) 0 0 main\nfn=(2) 0 0 f\n0 1 1 1\n1 2 1 10\n"
		"thread: 3\n0 1 0 2\n1 2 1 20\ntotals: 33\n");

	(void)state;
	expect_fold(c, 0, 0, CGU_CCT_ALL_PARTS, "main 3\nmain;f 30\n");
	expect_fold(c, 0, 1, CGU_CCT_ALL_PARTS,
		    "[thread 1];main 1\n[thread 1];main;f 10\n"
		    "[thread 3];main 2\n[thread 3];main;f 20\n");
	cgu_cct_free(c);
}

/* main -> f -> g -> f -> g: f and g are each twice on the path.  Their
 * exact inclusive cost counts every node once: f = 2 + 3 + 4 + 5 = 14,
 * g = 3 + 4 + 5 = 12, main = 15.  The call graph has Callgrind's edge
 * costs: f -> g carries both g subtrees, 12 + 5 = 17. */
static const char recursion[] =
	"# callgrind stacks\nversion: 1\npart: 1\nevents: Ir\nnodes: 5\n"
	"thread: 1\nfl=(1) r.c\nfn=(1) 0 1 main\nfn=(2) 0 1 f\nfn=(3) 0 1 g\n"
	"0 1 1 1\n1 2 1 2\n1 3 1 3\n1 2 1 4\n1 3 2 5\ntotals: 15\n";

static void test_inclusive_and_graph(void **state)
{
	struct cgu_cct *c = parse_ok(recursion);
	cgu_cost *incl;
	struct cgu_profile *p = cgu_cct_profile(c, 0, &incl);
	char *edges;

	(void)state;
	assert_int_equal(incl[0], 15);
	assert_int_equal(incl[1], 14);
	assert_int_equal(incl[2], 12);
	assert_int_equal(p->nnodes, 3);
	assert_string_equal(p->nodes[1].function, "f");
	assert_string_equal(p->nodes[1].file, "r.c");
	assert_int_equal(cgu_self(p, 1)[0], 6);
	assert_int_equal(p->totals[0], 15);
	edges = edges_of(p, 0);
	/* calls: main->f 1, f->g 1 + 2, g->f 1; costs: the subtrees */
	assert_string_equal(edges, "f -> g 3 17\ng -> f 1 9\nmain -> f 1 14\n");
	free(edges);
	cgu_profile_free(p);
	free(incl);
	cgu_cct_free(c);
}

static int write_summary(const struct cgu_profile *p, FILE *f, void *ctx)
{
	return cgu_summary_write(p, ctx, f, NULL);
}

/* summary of the recursion above: Callgrind's call graph charges f with
 * its self cost 6 and f -> g's 17, 23 in all, more than the whole run;
 * the exact inclusive costs are main 15, f 14, g 12. */
static void test_summary_exact_inclusive(void **state)
{
	struct cgu_cct *c = parse_ok(recursion);
	cgu_cost *incl;
	struct cgu_profile *p = cgu_cct_profile(c, CGU_CCT_ALL_PARTS, &incl);
	struct cgu_summary_opts o = { .by_inclusive = 1,
				      .names = CGU_NAMES_FUNCTION };
	char *text;

	(void)state;
	text = capture(p, write_summary, &o);
	assert_string_equal(text,
		"# event Ir, total 15, by inclusive\n"
		"#           self   self%      inclusive   incl%  function\n"
		"               6  40.00%             23 153.33%  f\n"
		"               8  53.33%             17 113.33%  g\n"
		"               1   6.67%             15 100.00%  main\n");
	free(text);
	o.inclusive = incl;
	o.note = "stacks: exact";
	text = capture(p, write_summary, &o);
	assert_string_equal(text,
		"# event Ir, total 15, by inclusive\n"
		"# stacks: exact\n"
		"#           self   self%      inclusive   incl%  function\n"
		"               1   6.67%             15 100.00%  main\n"
		"               6  40.00%             14  93.33%  f\n"
		"               8  53.33%             12  80.00%  g\n");
	free(text);
	free(incl);
	cgu_profile_free(p);
	cgu_cct_free(c);
}

static int write_json_cct(const struct cgu_profile *p, FILE *f, void *ctx)
{
	return cgu_json_write_cct(p, ctx, CGU_CCT_ALL_PARTS, f, NULL);
}

/* json: the profile (events Dr Ir, the other way round from the stacks
 * file) and the tree, its costs in the profile's event order. */
static void test_json_cct(void **state)
{
	struct cgu_cct *c = parse_ok(
		"# callgrind stacks\nversion: 1\npart: 1\nevents: Ir Dr\n"
		"nodes: 2\nthread: 2\nob=(1) /bin/t\nfn=(1) 1 0 main\n"
		"fn=(2) 0 0 [truncated]\n0 1 1 3 1\n1 2 4 5\ntotals: 8 1\n");
	struct cgu_profile *p = load_string("events: Dr Ir\nfn=main\n0 1 8\n");
	char *text = capture(p, write_json_cct, c);

	(void)state;
	assert_string_equal(text,
		"{\"stacks\":\"exact\",\"creator\":null,\"cmd\":null,"
		"\"pid\":null,\"part\":null,\"thread\":null,"
		"\"positions\":\"line\",\"events\":[\"Dr\",\"Ir\"],\n"
		"\"event_desc\":[null,null],\n"
		"\"headers\":[],\n"
		"\"totals\":[1,8],\n"
		"\"nodes\":[\n"
		"{\"id\":0,\"function\":\"main\",\"object\":\"\","
		"\"file\":\"\",\"self\":[1,8]}],\n"
		"\"edges\":[],\n"
		"\"cct\":{\"source\":\"t.stacks\",\n"
		"\"frames\":[\n"
		"{\"id\":0,\"function\":\"main\",\"object\":\"/bin/t\","
		"\"file\":\"\"},\n"
		"{\"id\":1,\"function\":\"[truncated]\",\"object\":\"\","
		"\"file\":\"\"}],\n"
		"\"nodes\":[\n"
		"{\"id\":0,\"parent\":null,\"thread\":2,\"frame\":0,"
		"\"calls\":1,\"self\":[1,3]},\n"
		"{\"id\":1,\"parent\":0,\"thread\":2,\"frame\":1,"
		"\"calls\":4,\"self\":[0,5]}],\n"
		"\"totals\":[1,8]}}\n");
	free(text);
	cgu_profile_free(p);
	cgu_cct_free(c);
}

/* The flame graph's input: folded stacks whose frames carry the object
 * and file of their function. */
static void test_folded_from_cct(void **state)
{
	struct cgu_cct *c = parse_ok(example);
	struct cgu_cct_fold_opts o = { 0, CGU_NAMES_AUTO, 0, CGU_CCT_ALL_PARTS,
					NULL };
	struct cgu_folded f;
	struct cgu_error err = { 0 };
	size_t i, seen = 0;

	(void)state;
	cgu_folded_init(&f);
	assert_int_equal(cgu_folded_from_cct(&f, c, &o, "t.stacks", &err), 0);
	assert_int_equal(f.total, 1360);
	assert_int_equal(f.nstacks, 4);
	for (i = 0; i < f.nframes; i++) {
		const struct cgu_folded_frame *fr = &f.frames[i];

		if (!strcmp(fr->name, "common")) {
			assert_string_equal(fr->object, "/tmp/prog");
			assert_string_equal(fr->file, "prog.c");
			seen++;
		}
		if (!strcmp(fr->name, "[signal 10]")) {
			assert_null(fr->object);
			assert_null(fr->file);
			seen++;
		}
	}
	assert_int_equal(seen, 2);
	cgu_folded_release(&f);
	cgu_cct_free(c);
}

/* The stacks file of the same run has the profile's totals. */
static void test_check_profile(void **state)
{
	struct cgu_cct *c = parse_ok(example);
	struct cgu_profile *p = load_string(
		"events: Ir Dr Dw\nfn=main\n0 1360 15 3\n");
	struct cgu_profile *q = load_string("events: Ir Dr\nfn=main\n0 1360 14\n");
	struct cgu_profile *r = load_string("events: Bc\nfn=main\n0 1\n");
	struct cgu_error err = { 0 };

	(void)state;
	assert_int_equal(cgu_cct_check_profile(c, 0, p, "x.stacks", &err), 0);
	assert_int_equal(cgu_cct_check_profile(c, CGU_CCT_ALL_PARTS, q,
					       "x.stacks", &err), CGU_EINPUT);
	assert_string_equal(err.msg, "x.stacks: its nodes give Dr=15 but the "
			    "profile has 14; expected the stacks file of the "
			    "same run");
	assert_int_equal(cgu_cct_check_profile(c, 0, r, "x.stacks", &err),
			 CGU_EINPUT);
	assert_string_equal(err.msg, "x.stacks: has no event Bc, which the "
			    "profile has; expected the stacks file of the "
			    "same run");
	cgu_profile_free(p);
	cgu_profile_free(q);
	cgu_profile_free(r);
	cgu_cct_free(c);
}

static void write_file(const char *path, const char *text, int gzip)
{
	if (gzip) {
		gzFile g = gzopen(path, "wb");

		assert_non_null(g);
		assert_int_equal(gzwrite(g, text, (unsigned)strlen(text)),
				 (int)strlen(text));
		gzclose(g);
	} else {
		FILE *f = fopen(path, "w");

		assert_non_null(f);
		fputs(text, f);
		fclose(f);
	}
}

/* Files: plain or gzip'd, told from a profile by their first line. */
static void test_files_and_dispatch(void **state)
{
	char dir[] = "/tmp/cgu-cct.XXXXXX", path[64], prof[64];
	struct cgu_profile_set set;
	struct cgu_error err = { 0 };
	struct cgu_cct *c = cgu_cct_new();
	char *text;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/x.stacks.gz", dir);
	snprintf(prof, sizeof(prof), "%s/x.out", dir);
	write_file(path, example, 1);
	write_file(prof, "events: Ir\nfn=main\n0 7\n", 0);
	assert_int_equal(cgu_cct_parse_file(c, path, NULL, &err), 0);
	text = fold(c, 0, 0, 0);
	assert_string_equal(text, "main 120\nmain;[signal 10];on_alarm 40\n"
			    "main;a 300\nmain;a;common 900\n");
	free(text);
	cgu_profile_set_init(&set);
	assert_int_equal(cgu_parse_any(path, NULL, &set, c, &err), 1);
	assert_int_equal(c->nparts, 2);
	assert_int_equal(set.n, 0);
	assert_int_equal(cgu_parse_any(prof, NULL, &set, c, &err), 0);
	assert_int_equal(set.n, 1);
	assert_int_equal(set.v[0]->totals[0], 7);
	assert_int_equal(c->nparts, 2);
	assert_int_equal(cgu_cct_parse_file(c, prof, NULL, &err), CGU_EINPUT);
	snprintf(path, sizeof(path), "%s/x.out:1: expected '# callgrind "
		 "stacks' on the first line", dir);
	assert_true(!strncmp(err.msg, path, strlen(path)));
	cgu_profile_set_release(&set);
	unlink(prof);
	snprintf(path, sizeof(path), "%s/x.stacks.gz", dir);
	unlink(path);
	rmdir(dir);
	cgu_cct_free(c);
}

/* A chain of 4100 frames f1 -> ... -> f4100, each 1 Ir: the stacks of
 * f1..f4095 are whole (4095 lines), the 5 nodes 4096 or more deep add up
 * under f4095 as "[deeper]". */
static void test_deep_stacks_cut(void **state)
{
	struct cgu_buf in = CGU_BUF_INIT;
	struct cgu_cct *c;
	char *text, *last;
	size_t i, lines = 0, frames = 1;

	(void)state;
	cgu_buf_adds(&in, "# callgrind stacks\nversion: 1\npart: 1\n"
		     "events: Ir\nnodes: 4100\nthread: 1\n");
	for (i = 1; i <= 4100; i++)
		cgu_buf_addf(&in, "fn=(%zu) 0 0 f%zu\n%d %zu 1 1\n", i, i,
			     i > 1, i);
	cgu_buf_adds(&in, "totals: 4100\n");
	c = parse_ok(in.data);
	text = fold(c, 0, 0, 0);
	for (i = 0; text[i]; i++)
		lines += text[i] == '\n';
	assert_int_equal(lines, 4096);
	assert_int_equal(sum_last_column(text), 4100);
	/* the lines sort frame by frame: f1;f2 ... "f1;...;f4095;[deeper]"
	 * is the last of those under f4095, after f4095 alone */
	text[strlen(text) - 1] = '\0';
	last = strrchr(text, '\n') + 1;
	for (i = 0; last[i]; i++)
		frames += last[i] == ';';
	assert_int_equal(frames, 4096);
	assert_true(strstr(last, ";f4094;f4095;[deeper] 5") != NULL);
	free(text);
	cgu_cct_free(c);
	cgu_buf_release(&in);
}

/* ------------------------------------------------------ bad input */

#define HEAD "# callgrind stacks\nversion: 1\npart: 1\nevents: Ir Dr\n"
#define FN "fn=(1) 0 0 main\n"

struct bad {
	const char *text;
	const char *msg;       /* after "bad.stacks:" */
};

static const struct bad bad[] = {
	/* missing or wrong header */
	{ "", "bad.stacks: empty file; expected '# callgrind stacks' on the "
	  "first line" },
	{ "events: Ir\n", "bad.stacks:1: expected '# callgrind stacks' on the "
	  "first line (a stacks file of callgrind --collect-stacks=yes), got "
	  "'events: Ir'" },
	{ "# callgrind stacks\n", "bad.stacks:1: unexpected end of file; "
	  "expected 'version: 1'" },
	{ "# callgrind stacks\npart: 1\n", "bad.stacks:2: expected 'version: "
	  "1' after '# callgrind stacks', got 'part:'" },
	{ "# callgrind stacks\nversion: 2\n", "bad.stacks:2: version: expected "
	  "1, got '2'" },
	{ "# callgrind stacks\nversion: 1\nevents: Ir\n", "bad.stacks:3: "
	  "events: before any part; expected 'part: N' to start a part first" },
	{ "# callgrind stacks\nversion: 1\ncmd: x\n", "bad.stacks:3: unexpected "
	  "end of file; expected 'part: N' and a part" },
	{ "# callgrind stacks\nversion: 1\npart: 1\nnodes: 0\ntotals:\n",
	  "bad.stacks:5: totals: before the events: line; expected 'events: "
	  "NAME...' in the part's header" },
	{ HEAD "thread: 1\n", "bad.stacks:5: thread: before the nodes: line; "
	  "expected 'nodes: N' in the part's header" },
	{ HEAD "nodes: x\n", "bad.stacks:5: expected a number for nodes:, got "
	  "'x'" },
	{ HEAD "events:\n", "bad.stacks:5: events: expected at least one event "
	  "name" },
	/* one column, two meanings: found by fuzzing, once read as two Dr */
	{ "# callgrind stacks\nversion: 1\npart: 1\nevents: Dr Ir# c Dr Dw\n",
	  "bad.stacks:4: events: 'Dr' given twice; expected distinct event "
	  "names" },
	/* ids and the tree */
	{ HEAD "nodes: 1\nthread: 1\n0 1 1 5\n", "bad.stacks:7: fn id 1 is "
	  "not defined; expected 'fn=(1) OB FL name' on a line before" },
	{ HEAD "nodes: 1\nthread: 1\nfn=(1) 2 0 main\n", "bad.stacks:7: "
	  "fn=(1): ob id 2 is not defined; expected 'ob=(2) name' on a line "
	  "before" },
	{ HEAD "nodes: 1\nthread: 1\nfl=(4) a.c\nfl=(4) b.c\n", "bad.stacks:8: "
	  "fl=(4): id already defined at line 7; expected every id defined once "
	  "in a file" },
	{ HEAD "nodes: 1\nthread: 1\n" FN FN, "bad.stacks:8: fn=(1): id already "
	  "defined at line 7; expected every id defined once in a file" },
	{ HEAD "nodes: 1\nthread: 1\nfn=(2) 0 0 main\n", "bad.stacks:7: "
	  "fn=(2): expected id 1, the next frame id (frame ids are 1, 2, ... in "
	  "the order they are defined)" },
	{ HEAD "nodes: 1\nthread: 1\nfn=(x) 0 0 main\n", "bad.stacks:7: fn=: "
	  "expected '(N) ...' defining id N, got '(x) 0 0 main'" },
	{ HEAD "nodes: 1\nthread: 1\nfn=(1) 0\n", "bad.stacks:7: expected a "
	  "number for the file id of fn=, got ''" },
	{ HEAD "nodes: 1\nthread: 1\nfn=(1) 0 0 \n", "bad.stacks:7: fn=(1): "
	  "expected a name after the object and file ids" },
	{ HEAD "nodes: 2\nthread: 1\n" FN "1 1 1 5\n", "bad.stacks:8: node 1: "
	  "its parent, 1 nodes back, is before the part's first node; expected "
	  "0 (the thread's root) or the distance back to an earlier node of the "
	  "part" },
	{ HEAD "nodes: 2\nthread: 1\n" FN "0 1 1 5\nthread: 2\n1 1 1 5\n",
	  "bad.stacks:10: node 2: its parent, node 1, is a node of thread 1; "
	  "expected a node of this thread, 2" },
	{ HEAD "nodes: 1\n" FN "0 1 1 5\n", "bad.stacks:7: node line before "
	  "any thread: line; expected 'thread: N' first" },
	/* numbers and costs */
	{ HEAD "nodes: 1\nthread: 1\n" FN "0 1 x 5\n", "bad.stacks:8: expected "
	  "a number for the calls, got 'x 5'" },
	{ HEAD "nodes: 1\nthread: 1\n" FN "0 1 1 5 2x\n", "bad.stacks:8: "
	  "expected a number for the cost of event Dr, got '2x'" },
	{ HEAD "nodes: 1\nthread: 1\n" FN "0 1 1 18446744073709551616\n",
	  "bad.stacks:8: the cost of event Ir does not fit in 64 bits" },
	{ HEAD "nodes: 1\nthread: 1\n" FN "0 1 1 5 6 7\n", "bad.stacks:8: "
	  "expected at most 2 costs (one per event of the events: line), got "
	  "more" },
	{ HEAD "nodes: 2\nthread: 1\n" FN "0 1 1 18446744073709551615\n"
	  "0 1 1 1\n", "bad.stacks:9: the costs of event Ir in this part add "
	  "up past 2^64 - 1" },
	{ HEAD "nodes: 1\nthread: 1\n" FN "0 1 1 5 6\ntotals: 5 7\n",
	  "bad.stacks:9: totals: gives Dr=7 but the node lines add up to 6; "
	  "expected equal totals (truncated file?)" },
	{ HEAD "nodes: 1\nthread: 1\n" FN "0 1 1 5 6\ntotals: 5 6 7\n",
	  "bad.stacks:9: expected at most 2 costs (one per event of the events: "
	  "line), got more" },
	/* truncation */
	{ HEAD "nodes: 2\nthread: 1\n" FN "0 1 1 5\ntotals: 5\n",
	  "bad.stacks:9: nodes: (line 5) gives 2 nodes but the part has 1; "
	  "expected as many node lines (truncated file?)" },
	{ HEAD "nodes: 1\nthread: 1\n" FN "0 1 1 5\n0", "bad.stacks:9: "
	  "expected a number for the fn id, got ''" },
	{ HEAD "nodes: 1\nthread: 1\n" FN "0 1 1 5\n", "bad.stacks:8: "
	  "unexpected end of file: the part at line 3 has no totals: line "
	  "(truncated file?)" },
	{ HEAD "nodes: 1\nthread: 1\n" FN "0 1 1 5\n0 1 1 5\n",
	  "bad.stacks:9: a node line beyond the 1 that nodes: (line 5) gives; "
	  "expected nodes: to count every node line" },
	/* structure */
	{ HEAD "nodes: 0\ntotals:\n0 1 1\n", "bad.stacks:7: node line after "
	  "the totals: line of the part; expected 'part:' to start another "
	  "part" },
	{ HEAD "nodes: 0\nthread: 1\npart: 2\n", "bad.stacks:7: part: before "
	  "the totals: line of the part at line 3; expected totals: to end it "
	  "first" },
	{ HEAD "nodes: 0\nthread: 1\nevents: Ir\n", "bad.stacks:7: unexpected "
	  "header 'events:' among the nodes; expected it in the header of a "
	  "part, after 'part:'" },
	{ HEAD "nodes: 0\nthread: 1\ncalls=1 0\n", "bad.stacks:7: expected a "
	  "header 'key: value', an ob=, fl= or fn= line or a node line, got "
	  "'calls=1 0'" },
	{ HEAD "nodes: 0\ntotals:\npart: 2\nevents: Ir Bc\n", "bad.stacks:8: "
	  "events: event 'Bc' is not in the events of the first part; expected "
	  "the same events in every part and file" },
	{ HEAD "nodes: 0\nthread: 99999999999\n", "bad.stacks:6: thread: "
	  "expected a thread id below 2^32 - 1, got 99999999999" },
};

static void test_bad_input(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct cgu_cct *c = cgu_cct_new();
		struct cgu_error err = { 0 };
		int rc = cgu_cct_parse_mem(c, bad[i].text, strlen(bad[i].text),
					   "bad.stacks", NULL, &err);

		if (rc != CGU_EINPUT || strcmp(err.msg, bad[i].msg))
			fail_msg("case %zu: got %d '%s', expected '%s'", i, rc,
				 err.msg, bad[i].msg);
		cgu_cct_free(c);
	}
}

/* The reader's checks, with a small line limit; a sum over parts. */
static void test_bad_input_reader_and_parts(void **state)
{
	static const char nul[] = HEAD "nodes: 0\ntot\0als:\n";
	struct cgu_parse_opts o = { .max_line = 20 };
	struct cgu_cct *c = cgu_cct_new();
	struct cgu_error err = { 0 };
	const char *two =
		HEAD "nodes: 1\nthread: 1\n" FN "0 1 1 18446744073709551615\n"
		"totals: 18446744073709551615\n"
		"part: 2\nnodes: 1\nthread: 1\n0 1 1 1\ntotals: 1\n";

	(void)state;
	assert_int_equal(cgu_cct_parse_mem(c, nul, sizeof(nul) - 1, "bad.stacks",
					   NULL, &err), CGU_EINPUT);
	assert_string_equal(err.msg, "bad.stacks:6: NUL byte in line; expected "
			    "text");
	assert_int_equal(cgu_cct_parse_mem(c, example, strlen(example),
					   "bad.stacks", &o, &err), CGU_EINPUT);
	assert_string_equal(err.msg, "bad.stacks:3: line longer than 20 bytes; "
			    "expected shorter lines (see --max-line)");
	cgu_cct_free(c);
	c = cgu_cct_new();
	assert_int_equal(cgu_cct_parse_mem(c, two, strlen(two), "bad.stacks",
					   NULL, &err), CGU_EINPUT);
	assert_string_equal(err.msg, "bad.stacks:14: the costs of event Ir over "
			    "all parts read add up past 2^64 - 1");
	cgu_cct_free(c);
}

/* Event names are kept whole: two long names that differ only past
 * their 255th byte are two events, not one. */
static void test_long_event_names(void **state)
{
	char name[301], text[1024];
	struct cgu_cct *c = cgu_cct_new();
	struct cgu_error err = { 0 };

	(void)state;
	memset(name, 'e', 300);
	name[300] = '\0';
	name[299] = 'a';
	snprintf(text, sizeof(text), "# callgrind stacks\nversion: 1\npart: "
		 "1\nevents: %s\nnodes: 0\ntotals:\npart: 2\n", name);
	name[299] = 'b';
	snprintf(text + strlen(text), sizeof(text) - strlen(text),
		 "events: %s\nnodes: 0\ntotals:\n", name);
	assert_int_equal(cgu_cct_parse_mem(c, text, strlen(text), "long.stacks",
					   NULL, &err), CGU_EINPUT);
	assert_true(strstr(err.msg, "long.stacks:8: events: event 'eee") ==
		    err.msg);
	assert_true(strstr(err.msg, "eeeb' is not in the events of the first "
			   "part") != NULL);
	cgu_cct_free(c);
}

/* A part with no nodes gives an empty profile, not a read of the
 * (absent) cost array: UBSan's finding in the fuzzer. */
static void test_empty_part_profile(void **state)
{
	const char *text = HEAD "nodes: 0\ntotals: 0 0\n";
	struct cgu_cct *c = cgu_cct_new();
	struct cgu_error err = { 0 };
	struct cgu_profile *p;
	cgu_cost *incl = NULL;

	(void)state;
	assert_int_equal(cgu_cct_parse_mem(c, text, strlen(text), "e.stacks",
					   NULL, &err), 0);
	p = cgu_cct_profile(c, 0, &incl);
	assert_non_null(p);
	assert_int_equal(p->nevents, 2);
	assert_int_equal(p->totals[0], 0);
	assert_int_equal(p->totals[1], 0);
	free(incl);
	cgu_profile_free(p);
	cgu_cct_free(c);
}

/* no_check_totals leaves the totals: line unchecked, nothing else. */
static void test_no_check_totals(void **state)
{
	struct cgu_parse_opts o = { .no_check_totals = 1 };
	struct cgu_cct *c = cgu_cct_new();
	struct cgu_error err = { 0 };
	const char *text = HEAD "nodes: 1\nthread: 1\n" FN "0 1 1 5\n"
			   "totals: 6\n";

	(void)state;
	assert_int_equal(cgu_cct_parse_mem(c, text, strlen(text), "t.stacks",
					   &o, &err), 0);
	assert_int_equal(c->totals[0], 5);
	cgu_cct_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_example),
		cmocka_unit_test(test_names_styles),
		cmocka_unit_test(test_threads_and_parts),
		cmocka_unit_test(test_threads_merge),
		cmocka_unit_test(test_inclusive_and_graph),
		cmocka_unit_test(test_summary_exact_inclusive),
		cmocka_unit_test(test_json_cct),
		cmocka_unit_test(test_folded_from_cct),
		cmocka_unit_test(test_check_profile),
		cmocka_unit_test(test_files_and_dispatch),
		cmocka_unit_test(test_deep_stacks_cut),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_bad_input_reader_and_parts),
		cmocka_unit_test(test_long_event_names),
		cmocka_unit_test(test_empty_part_profile),
		cmocka_unit_test(test_no_check_totals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
