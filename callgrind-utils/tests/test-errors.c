/* test-errors.c - one hand-written profile per class of malformed
 * input, each with the exact "file:line: message" expected. */
#include <string.h>
#include "testutil.h"

struct error_case {
	const char *file;
	const char *msg;    /* after "TEST_DATA/" */
};

static const struct error_case cases[] = {
	{ "err-truncated.out", "err-truncated.out:10: summary: (line 2) gives "
	  "Ir=100 but the cost lines add up to 15; expected equal totals "
	  "(truncated file?)" },
	{ "err-truncated-calls.out", "err-truncated-calls.out:6: unexpected "
	  "end of file: calls= at line 6 expects its inclusive cost line "
	  "(truncated file?)" },
	{ "err-totals.out", "err-totals.out:5: totals: (line 5) gives Ir=6 but "
	  "the cost lines add up to 5; expected equal totals (truncated file?)" },
	{ "err-unknown-id.out", "err-unknown-id.out:5: fn=(2): unknown "
	  "compressed id; expected '(2) name' to define it first" },
	{ "err-bad-id.out", "err-bad-id.out:3: fn=(99999999999999999999): "
	  "compressed id too large (expected < 16777216)" },
	{ "err-nonnumeric.out", "err-nonnumeric.out:4: expected a number for "
	  "event Dr, got '1x'" },
	{ "err-overflow.out", "err-overflow.out:4: cost for event Ir does not "
	  "fit in 64 bits" },
	/* sums past 2^64 - 1 are errors, not wrapped totals */
	{ "err-overflow-sum.out", "err-overflow-sum.out:7: the costs of event "
	  "Ir add up past 2^64 - 1; expected totals that fit in 64 bits" },
	{ "err-overflow-calls.out", "err-overflow-calls.out:10: the call "
	  "counts of main -> leaf add up past 2^64 - 1" },
	{ "err-overflow-inclusive.out", "err-overflow-inclusive.out:10: the "
	  "inclusive costs of event Dr of the calls main -> leaf add up past "
	  "2^64 - 1" },
	{ "err-dup-event.out", "err-dup-event.out:1: events: 'Ir' given "
	  "twice; expected distinct event names" },
	{ "err-too-many-costs.out", "err-too-many-costs.out:4: expected at most "
	  "1 event counts after the position (events: line), got more" },
	{ "err-bad-position.out", "err-bad-position.out:5: expected a position "
	  "(N, 0xN, +N, -N or *) in column 2, got '? 5'" },
	{ "err-calls-no-cost.out", "err-calls-no-cost.out:7: expected the "
	  "inclusive cost line of the calls= at line 6, got 'fn=f'" },
	{ "err-calls-count.out", "err-calls-count.out:6: calls=: expected a "
	  "call count, got 'x 0'" },
	{ "err-calls-no-cfn.out", "err-calls-no-cfn.out:5: calls= without "
	  "cfn=; expected cfn= to name the called function first" },
	{ "err-bad-jump.out", "err-bad-jump.out:5: jcnd=: expected "
	  "'EXECUTED/JUMPED' counts, got '3/x 0'" },
	{ "err-bad-version.out", "err-bad-version.out:1: version: expected 1, "
	  "got '2'" },
	{ "err-bad-positions.out", "err-bad-positions.out:1: positions: "
	  "expected 'instr' and/or 'line', got 'bogus'" },
	{ "err-no-event-names.out", "err-no-event-names.out:1: events: "
	  "expected at least one event name" },
	{ "err-no-events.out", "err-no-events.out:3: no 'events:' header "
	  "found; expected a Callgrind profile" },
	{ "err-summary-count.out", "err-summary-count.out:2: summary: expected "
	  "at most 1 numbers (one per event)" },
	{ "err-cost-before-events.out", "err-cost-before-events.out:3: cost "
	  "line before the events: header; expected 'events: NAME...' first" },
	{ "err-cost-before-fn.out", "err-cost-before-fn.out:3: cost line "
	  "before any fn= line; expected fn= to name the function first" },
	{ "err-garbage.out", "err-garbage.out:4: expected a header 'key: "
	  "value', a 'key=value' line or a cost line, got 'x1 5'" },
	{ "err-unknown-key.out", "err-unknown-key.out:4: unknown line "
	  "'foo=...'; expected a cost line, a header 'key: value' or one of "
	  "fl= fi= fe= fn= ob= cob= cfi= cfl= cfn= calls= jump= jcnd=" },
	{ "err-merge-events.out", "err-merge-events.out:6: events: event 'Dr' "
	  "is not in the events of the first part; expected the same events "
	  "to merge (or use separate parts)" },
	{ "err-long-line.out", "err-long-line.out:3: line longer than 100 "
	  "bytes; expected shorter lines (see --max-line)" },
};

static void test_error_cases(void **state)
{
	struct cgu_parse_opts o = { .max_line = 100 };
	char expected[2048];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct cgu_profile_set set;
		struct cgu_error err = { 0 };
		int rc;

		cgu_profile_set_init(&set);
		rc = cgu_parse_file(data_path(cases[i].file), &o, &set, &err);
		snprintf(expected, sizeof(expected), "%s/%s", TEST_DATA,
			 cases[i].msg);
		assert_int_equal(rc, CGU_EINPUT);
		assert_int_equal(err.code, CGU_EINPUT);
		assert_string_equal(err.msg, expected);
		cgu_profile_set_release(&set);
	}
}

static void test_totals_check_can_be_disabled(void **state)
{
	struct cgu_parse_opts o = { .no_check_totals = 1 };
	struct cgu_profile_set set;
	struct cgu_error err;

	(void)state;
	cgu_profile_set_init(&set);
	assert_int_equal(cgu_parse_file(data_path("err-totals.out"), &o, &set,
					&err), 0);
	assert_int_equal(set.v[0]->totals[0], 5);
	cgu_profile_set_release(&set);
}

/* The totals of files merged into one profile are checked as they add
 * up: the second file's line that passes 2^64 - 1 is the error, and so
 * is the fast path's (a cost line of decimal numbers), at its line.
 * Kept apart, each file fits. */
static void test_overflow_across_files(void **state)
{
	static const char half[] = "events: Ir\nfn=a\n1 9223372036854775808\n";
	static const char more[] = "events: Ir\nfn=b\n1 9223372036854775807\n"
				   "2 1\n";
	struct cgu_parse_opts apart = { .separate_parts = 1 };
	struct cgu_profile_set set;
	struct cgu_error err;

	(void)state;
	cgu_profile_set_init(&set);
	assert_int_equal(cgu_parse_mem(half, strlen(half), "one", NULL, &set,
				       &err), 0);
	assert_int_equal(cgu_parse_mem(more, strlen(more), "two", NULL, &set,
				       &err), CGU_EINPUT);
	assert_string_equal(err.msg, "two:4: the costs of event Ir add up past "
			    "2^64 - 1; expected totals that fit in 64 bits");
	cgu_profile_set_release(&set);
	assert_int_equal(cgu_parse_mem(half, strlen(half), "one", &apart, &set,
				       &err), 0);
	assert_int_equal(cgu_parse_mem(more, strlen(more), "two", &apart, &set,
				       &err), 0);
	assert_int_equal(set.n, 2);
	assert_true(set.v[0]->totals[0] == 1ull << 63);
	assert_true(set.v[1]->totals[0] == 1ull << 63);
	cgu_profile_set_release(&set);
}

static void keep_warning(void *ctx, const struct cgu_error *w)
{
	struct cgu_buf *b = ctx;

	cgu_buf_adds(b, w->msg);
	cgu_buf_addch(b, '\n');
}

/* summary: off totals: is a warning naming the summary: line; totals:,
 * which the cost lines match, is taken.  Without a totals: line summary:
 * is the only check, and stays an error (err-truncated.out). */
static void test_summary_off_totals_warns(void **state)
{
	struct cgu_buf warnings = CGU_BUF_INIT;
	struct cgu_parse_opts o = { .on_warning = keep_warning,
				    .warning_ctx = &warnings };
	struct cgu_profile_set set;
	struct cgu_error err = { 0 };
	char expected[2048];

	(void)state;
	cgu_profile_set_init(&set);
	assert_int_equal(cgu_parse_file(data_path("summary-off.out"), &o, &set,
					&err), 0);
	assert_int_equal(set.v[0]->totals[0], 650);
	snprintf(expected, sizeof(expected), "%s/summary-off.out:8: summary: "
		 "gives Ir=652 but totals: (line 19) gives 650; taking totals:, "
		 "which the cost lines add up to\n", TEST_DATA);
	assert_string_equal(warnings.data, expected);
	cgu_profile_set_release(&set);
	/* after CALLGRIND_ZERO_STATS, summary: can hold wrapped negative
	 * counts; no warning callback: accepted silently */
	assert_int_equal(parse_string("events: Ir\nsummary: 18446744073709551614"
				      "\nfn=main\n1 5\ntotals: 5\n", NULL, &set,
				      &err), 0);
	assert_int_equal(set.v[0]->totals[0], 5);
	cgu_profile_set_release(&set);
	cgu_buf_release(&warnings);
}

static void test_missing_file(void **state)
{
	struct cgu_profile_set set;
	struct cgu_error err;

	(void)state;
	cgu_profile_set_init(&set);
	assert_int_equal(cgu_parse_file("/nonexistent/x.out", NULL, &set, &err),
			 CGU_EIO);
	assert_string_equal(err.msg, "/nonexistent/x.out: cannot open: No such "
			    "file or directory");
	cgu_profile_set_release(&set);
}

/* A plain file is read with read(): its errors name the file too. */
static void test_read_error(void **state)
{
	struct cgu_profile_set set;
	struct cgu_error err;

	(void)state;
	cgu_profile_set_init(&set);
	assert_int_equal(cgu_parse_file("/", NULL, &set, &err), CGU_EIO);
	assert_string_equal(err.msg, "/: cannot read: Is a directory");
	cgu_profile_set_release(&set);
}

static void test_corrupt_gzip(void **state)
{
	struct cgu_profile_set set;
	struct cgu_error err;
	char expected[2048];

	(void)state;
	cgu_profile_set_init(&set);
	assert_int_equal(cgu_parse_file(data_path("err-corrupt.out.gz"), NULL,
					&set, &err), CGU_EIO);
	snprintf(expected, sizeof(expected), "%s/err-corrupt.out.gz: cannot "
		 "read: incorrect data check", TEST_DATA);
	assert_string_equal(err.msg, expected);
	cgu_profile_set_release(&set);
}

static void test_nul_byte_and_empty_input(void **state)
{
	static const char text[] = "events: Ir\nfn=a\0b\n";
	struct cgu_profile_set set;
	struct cgu_error err;

	(void)state;
	cgu_profile_set_init(&set);
	assert_int_equal(cgu_parse_mem(text, sizeof(text) - 1, "nul", NULL,
				       &set, &err), CGU_EINPUT);
	assert_string_equal(err.msg, "nul:2: NUL byte in line; expected text");
	cgu_profile_set_release(&set);
	assert_int_equal(parse_string("", NULL, &set, &err), CGU_EINPUT);
	assert_string_equal(err.msg, "mem: no 'events:' header found; "
			    "expected a Callgrind profile");
	cgu_profile_set_release(&set);
}

static void test_unknown_event_for_outputs(void **state)
{
	struct cgu_profile *p = load_data("basic.out");
	struct cgu_error err;

	(void)state;
	assert_int_equal(cgu_profile_event(p, "Dr"), 1);
	assert_int_equal(cgu_profile_event(p, "Bc"), -1);
	assert_int_equal(cgu_edges_write(p, 5, CGU_NAMES_FUNCTION, stdout,
					 &err), CGU_EUSAGE);
	cgu_profile_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_error_cases),
		cmocka_unit_test(test_totals_check_can_be_disabled),
		cmocka_unit_test(test_overflow_across_files),
		cmocka_unit_test(test_summary_off_totals_warns),
		cmocka_unit_test(test_missing_file),
		cmocka_unit_test(test_read_error),
		cmocka_unit_test(test_corrupt_gzip),
		cmocka_unit_test(test_nul_byte_and_empty_input),
		cmocka_unit_test(test_unknown_event_for_outputs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
