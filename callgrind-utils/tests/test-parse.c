/* test-parse.c - one hand-written profile per format feature, with the
 * exact model expected from it. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <zlib.h>
#include "testutil.h"

static void expect_edges(const char *file, int event, const char *expected)
{
	struct cgu_profile *p = load_data(file);
	char *text = edges_of(p, event);

	assert_string_equal(text, expected);
	free(text);
	cgu_profile_free(p);
}

static const char basic_edges[] =
	"main -> leaf 1 50\n"
	"main -> work 2 500\n"
	"work -> leaf 4 200\n";

static void test_basic(void **state)
{
	struct cgu_profile *p = load_data("basic.out");

	(void)state;
	assert_int_equal(p->nevents, 2);
	assert_string_equal(p->events[0], "Ir");
	assert_string_equal(p->events[1], "Dr");
	assert_int_equal(p->nnodes, 3);
	assert_int_equal(p->nedges, 3);
	assert_int_equal(p->totals[0], 650);
	assert_int_equal(p->totals[1], 65);
	assert_string_equal(p->nodes[0].function, "main");
	assert_string_equal(p->nodes[0].object, "/bin/basic");
	assert_string_equal(p->nodes[0].file, "basic.c");
	assert_int_equal(cgu_self(p, 0)[0], 100);
	assert_int_equal(cgu_node_inclusive(p, 0, 0), 650);
	assert_int_equal(cgu_node_inclusive(p, 0, 1), 65);
	assert_string_equal(p->creator, "hand-written");
	assert_string_equal(p->cmd, "./basic");
	assert_string_equal(p->pid, "42");
	cgu_profile_free(p);
	expect_edges("basic.out", 0, basic_edges);
	expect_edges("basic.out", 1,
		     "main -> leaf 1 5\nmain -> work 2 50\nwork -> leaf 4 20\n");
}

static void test_name_compression(void **state)
{
	(void)state;
	expect_edges("compressed.out", 0, basic_edges);
}

/* With --compress-strings=no names go as they are, and Callgrind's own
 * "(below main)" and "(skipped)" start with a parenthesis: only "(N)",
 * digits, is a compressed id. */
static void test_plain_names_with_parentheses(void **state)
{
	struct cgu_profile *p = load_string(
		"events: Ir\nfn=(below main)\n0 5\ncfn=(skipped)\ncalls=1 0\n"
		"0 3\ncfn=(1) x\ncalls=1 0\n0 2\nfn=(skipped)\n0 3\n"
		"fn=(12\n0 1\nfn=()\n0 1\nfn=(1)\n0 2\n");
	char *edges = edges_of(p, 0);

	(void)state;
	assert_int_equal(p->nnodes, 5);
	assert_string_equal(p->nodes[0].function, "(below main)");
	assert_string_equal(p->nodes[1].function, "(skipped)");
	assert_string_equal(p->nodes[2].function, "x");
	assert_string_equal(p->nodes[3].function, "(12");
	assert_string_equal(p->nodes[4].function, "()");
	assert_string_equal(edges, "(below main) -> (skipped) 1 3\n"
			    "(below main) -> x 1 2\n");
	assert_int_equal(p->totals[0], 12);
	free(edges);
	cgu_profile_free(p);
}

static void test_inline_files(void **state)
{
	struct cgu_profile *p = load_data("inline.out");
	int i;

	(void)state;
	/* main stays one node although its costs move between files; the
	 * callee without cfi= is in the inline file util.h */
	assert_int_equal(p->nnodes, 3);
	for (i = 0; i < 3; i++) {
		if (!strcmp(p->nodes[i].function, "main")) {
			assert_string_equal(p->nodes[i].file, "main.c");
			assert_int_equal(cgu_self(p, i)[0], 16);
		}
		if (!strcmp(p->nodes[i].function, "helper"))
			assert_string_equal(p->nodes[i].file, "util.h");
		if (!strcmp(p->nodes[i].function, "other"))
			assert_string_equal(p->nodes[i].file, "main.c");
	}
	assert_int_equal(p->totals[0], 43);
	cgu_profile_free(p);
	expect_edges("inline.out", 0, "main -> helper 1 20\nmain -> other 1 7\n");
}

static void test_subpositions(void **state)
{
	struct cgu_profile *p = load_data("subpos.out");

	(void)state;
	assert_string_equal(p->positions, "instr line");
	assert_int_equal(p->totals[0], 31);
	cgu_profile_free(p);
	expect_edges("subpos.out", 0, "f -> g 1 10\n");
}

static void test_short_lines_and_64bit(void **state)
{
	struct cgu_profile *p = load_data("short.out");

	(void)state;
	assert_int_equal(p->nevents, 3);
	assert_true(p->totals[0] == UINT64_MAX);
	assert_int_equal(p->totals[1], 13);
	assert_true(p->totals[2] == UINT64_MAX);
	assert_int_equal(cgu_self(p, 1)[0], 0);
	assert_int_equal(cgu_self(p, 1)[1], 7);
	cgu_profile_free(p);
}

static void test_jumps(void **state)
{
	struct cgu_profile *p = load_data("jumps.out");

	(void)state;
	assert_int_equal(p->njumps, 2);
	assert_int_equal(p->totals[0], 7);
	assert_int_equal(p->nedges, 0);
	cgu_profile_free(p);
}

static void test_headers_kept(void **state)
{
	struct cgu_profile *p = load_data("headers.out");

	(void)state;
	assert_string_equal(p->thread, "3");
	assert_string_equal(p->part, "1");
	assert_string_equal(p->cmd, "./h --flag");
	assert_string_equal(p->event_desc[0], "Instructions executed");
	assert_string_equal(p->event_desc[1], "Data reads");
	assert_int_equal(p->nheaders, 5);
	assert_string_equal(p->headers[0].key, "desc");
	assert_string_equal(p->headers[0].value,
			    "I1 cache: 32768 B, 64 B, 8-way associative");
	assert_string_equal(p->headers[4].key, "future-key");
	assert_string_equal(p->headers[4].value, "kept as is");
	cgu_profile_free(p);
}

static void test_parts_merged_or_apart(void **state)
{
	struct cgu_parse_opts o = { .separate_parts = 1 };
	struct cgu_profile_set set;
	struct cgu_error err;
	char *text;

	(void)state;
	expect_edges("parts.out", 0, "main -> f 2 24\n");
	cgu_profile_set_init(&set);
	assert_int_equal(cgu_parse_file(data_path("parts.out"), &o, &set,
					&err), 0);
	assert_int_equal(set.n, 2);
	assert_string_equal(set.v[0]->part, "1");
	assert_string_equal(set.v[1]->part, "2");
	assert_non_null(strstr(set.source[1], "parts.out#2"));
	text = edges_of(set.v[1], 0);
	assert_string_equal(text, "main -> f 1 4\n");
	free(text);
	assert_int_equal(set.v[0]->totals[0], 30);
	assert_int_equal(set.v[1]->totals[0], 5);
	cgu_profile_set_release(&set);
}

static void test_several_files(void **state)
{
	const char *paths[2];
	struct cgu_profile *p;
	char *text;

	(void)state;
	paths[0] = strdup(data_path("thread-1.out"));
	paths[1] = strdup(data_path("thread-2.out"));
	p = cgu_load(paths, 2, NULL, NULL);
	assert_non_null(p);
	text = edges_of(p, 0);
	assert_string_equal(text, "main -> worker 1 5\n"
			    "start_thread -> worker 1 7\n");
	assert_int_equal(p->totals[0], 23);
	free(text);
	cgu_profile_free(p);
	free((void *)paths[0]);
	free((void *)paths[1]);
}

static void test_gzip_input(void **state)
{
	char path[] = "/tmp/cgu-test-XXXXXX";
	int fd = mkstemp(path);
	gzFile gz = gzdopen(fd, "wb");
	FILE *in = fopen(data_path("basic.out"), "rb");
	char chunk[4096];
	size_t n;
	struct cgu_profile *p;
	const char *paths[1] = { path };
	char *text;

	(void)state;
	assert_non_null(gz);
	assert_non_null(in);
	while ((n = fread(chunk, 1, sizeof(chunk), in)) > 0)
		gzwrite(gz, chunk, (unsigned)n);
	fclose(in);
	gzclose(gz);
	p = cgu_load(paths, 1, NULL, NULL);
	unlink(path);
	assert_non_null(p);
	text = edges_of(p, 0);
	assert_string_equal(text, basic_edges);
	free(text);
	cgu_profile_free(p);
}

/* Every width of a decimal number, 1 to 20 digits, in both columns of
 * a cost line (position and events), from memory and from a file: the
 * fast path reads up to 8 digits at a time, so the widths around 8 and
 * 16 and the 20 digits of UINT64_MAX are the ones that matter. */
struct pos_seen {
	int64_t last;
	unsigned long lines;
};

static void note_position(void *ctx, const struct cgu_profile *p,
			  uint32_t node, const int64_t *pos, size_t npos,
			  const cgu_cost *costs)
{
	struct pos_seen *seen = ctx;

	(void)p;
	(void)node;
	(void)npos;
	(void)costs;
	seen->last = pos[0];
	seen->lines++;
}

static void check_number_width(int width, int from_file, int hook)
{
	static const char digits[] = "18446744073709551615";
	char num[32], text[256];
	struct cgu_parse_opts o = { 0 };
	struct cgu_profile_set set;
	struct cgu_error err;
	struct pos_seen seen = { 0, 0 };
	uint64_t want;
	int rc;

	/* the leading digits of UINT64_MAX, and a run of 9s below 2^63 */
	memcpy(num, digits, (size_t)width);
	num[width] = '\0';
	want = strtoull(num, NULL, 10);
	snprintf(text, sizeof(text), "events: A B\nfn=f\n%.*s %s %.*s\n"
		 "+1 1 0\n", width < 19 ? width : 18, "999999999999999999",
		 num, width, "99999999999999999999");
	if (hook) {                    /* the hook takes the general path */
		o.on_cost_line = note_position;
		o.on_cost_line_ctx = &seen;
	}
	cgu_profile_set_init(&set);
	if (from_file) {
		char path[] = "/tmp/cgu-test-XXXXXX";
		int fd = mkstemp(path);
		FILE *f = fdopen(fd, "w");

		assert_non_null(f);
		fputs(text, f);
		fclose(f);
		rc = cgu_parse_file(path, &o, &set, &err);
		unlink(path);
	} else {
		rc = parse_string(text, &o, &set, &err);
	}
	if (width == 20) {
		/* 99999999999999999999 does not fit: the B column errs */
		assert_int_equal(rc, CGU_EINPUT);
		assert_non_null(strstr(err.msg, ":3: cost for event B does "
				       "not fit in 64 bits"));
		cgu_profile_set_release(&set);
		return;
	}
	assert_int_equal(rc, 0);
	assert_int_equal(set.v[0]->totals[0], want + 1);
	assert_int_equal(set.v[0]->totals[1],
			 strtoull("99999999999999999999" + 20 - width, NULL, 10));
	assert_int_equal(seen.lines, hook ? 2 : 0);
	if (hook)
		assert_int_equal(seen.last, (int64_t)strtoull("999999999999999999" +
					18 - (width < 19 ? width : 18), NULL,
					10) + 1);
	cgu_profile_set_release(&set);
}

static void test_number_widths(void **state)
{
	int w;

	(void)state;
	for (w = 1; w <= 20; w++) {
		check_number_width(w, 0, 0);
		check_number_width(w, 1, 0);
		check_number_width(w, 0, 1);
		check_number_width(w, 1, 1);
	}
}

/* A path that cannot be peeked at (a pipe) still gets gzip detection:
 * it goes through zlib, as plain and gzip'd files both may. */
static void test_gzip_through_fifo(void **state)
{
	char dir[] = "/tmp/cgu-test-XXXXXX";
	char path[64], chunk[4096];
	struct cgu_profile *p;
	const char *paths[1] = { path };
	char *text;
	pid_t pid;
	int status;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/fifo", dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		gzFile gz = gzopen(path, "wb");
		FILE *in = fopen(data_path("basic.out"), "rb");
		size_t n;

		if (!gz || !in)
			_exit(1);
		while ((n = fread(chunk, 1, sizeof(chunk), in)) > 0)
			gzwrite(gz, chunk, (unsigned)n);
		gzclose(gz);
		_exit(0);
	}
	p = cgu_load(paths, 1, NULL, NULL);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	unlink(path);
	rmdir(dir);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_non_null(p);
	text = edges_of(p, 0);
	assert_string_equal(text, basic_edges);
	free(text);
	cgu_profile_free(p);
}

static int write_json(const struct cgu_profile *p, FILE *f, void *ctx)
{
	(void)ctx;
	return cgu_json_write(p, f, NULL);
}

/* JSON of text parsed from memory, or the error message. */
static char *json_or_error(const char *text, size_t len)
{
	struct cgu_profile_set set;
	struct cgu_error err;
	char *out;

	cgu_profile_set_init(&set);
	if (cgu_parse_mem(text, len, "t", NULL, &set, &err))
		out = strdup(err.msg);
	else
		out = capture(set.v[0], write_json, NULL);
	cgu_profile_set_release(&set);
	return out;
}

/* The fast paths of cost lines and compressed-name references give the
 * model the general path gives: "\r\n" line endings take every line off
 * the fast paths.  On every file here, real profiles (compressed names,
 * subpositions, inline files) and error cases alike. */
static void test_fast_paths_match_general(void **state)
{
	static const char *const files[] = {
		"real-prog.out.gz", "real-prog-ctx.out.gz", "compressed.out",
		"basic.out", "subpos.out", "inline.out", "jumps.out",
		"parts.out", "short.out", "err-unknown-id.out",
		"err-nonnumeric.out", "err-overflow.out", "err-bad-position.out",
		"err-calls-no-cost.out", "err-too-many-costs.out",
	};
	size_t f;

	(void)state;
	for (f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
		gzFile gz = gzopen(data_path(files[f]), "rb");
		char *text = NULL, *crlf, *a, *b;
		size_t len = 0, cap = 0, i, n = 0;
		int got;

		assert_non_null(gz);
		do {
			if (cap - len < 65536) {
				cap = cap * 2 + 65536;
				text = realloc(text, cap);
				assert_non_null(text);
			}
			got = gzread(gz, text + len, 65536);
			assert_true(got >= 0);
			len += (size_t)got;
		} while (got > 0);
		gzclose(gz);
		crlf = malloc(2 * len + 1);
		assert_non_null(crlf);
		for (i = 0; i < len; i++) {
			if (text[i] == '\n')
				crlf[n++] = '\r';
			crlf[n++] = text[i];
		}
		a = json_or_error(text, len);
		b = json_or_error(crlf, n);
		if (strcmp(a, b))
			fail_msg("%s: fast and general paths differ", files[f]);
		free(a);
		free(b);
		free(crlf);
		free(text);
	}
}

static void test_long_lines_within_limit(void **state)
{
	/* a name of 200 KiB is fine under the default limit, and lines
	 * without a final newline and with \r\n endings are accepted */
	size_t n = 200 * 1024;
	char *text = malloc(n + 64);
	struct cgu_profile *p;

	(void)state;
	strcpy(text, "events: Ir\r\nfn=");
	memset(text + strlen(text), 'a', n);
	strcpy(text + 15 + n, "\n1 5");
	p = load_string(text);
	assert_int_equal(strlen(p->nodes[0].function), n);
	assert_int_equal(p->totals[0], 5);
	cgu_profile_free(p);
	free(text);
}

static void test_roundtrip_writer(void **state)
{
	struct cgu_profile *p = load_data("compressed.out"), *q;
	char *written, *a, *b;

	(void)state;
	written = capture(p, (write_fn)cgu_callgrind_write, NULL);
	q = load_string(written);
	a = edges_of(p, 1);
	b = edges_of(q, 1);
	assert_string_equal(a, b);
	assert_int_equal(q->totals[0], p->totals[0]);
	assert_int_equal(q->nnodes, p->nnodes);
	free(a);
	free(b);
	free(written);
	cgu_profile_free(p);
	cgu_profile_free(q);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_basic),
		cmocka_unit_test(test_name_compression),
		cmocka_unit_test(test_plain_names_with_parentheses),
		cmocka_unit_test(test_inline_files),
		cmocka_unit_test(test_subpositions),
		cmocka_unit_test(test_short_lines_and_64bit),
		cmocka_unit_test(test_jumps),
		cmocka_unit_test(test_headers_kept),
		cmocka_unit_test(test_parts_merged_or_apart),
		cmocka_unit_test(test_several_files),
		cmocka_unit_test(test_gzip_input),
		cmocka_unit_test(test_gzip_through_fifo),
		cmocka_unit_test(test_number_widths),
		cmocka_unit_test(test_fast_paths_match_general),
		cmocka_unit_test(test_long_lines_within_limit),
		cmocka_unit_test(test_roundtrip_writer),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
