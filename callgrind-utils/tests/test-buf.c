/* test-buf.c - the string buffer, the arena and the error helper. */
#include <string.h>
#include "testutil.h"

static void test_buf_grows_and_formats(void **state)
{
	struct cgu_buf b = CGU_BUF_INIT;
	int i;

	(void)state;
	assert_string_equal(b.data, "");
	for (i = 0; i < 1000; i++)
		cgu_buf_addch(&b, 'x');
	assert_int_equal(b.len, 1000);
	cgu_buf_reset(&b);
	cgu_buf_adds(&b, "n=");
	cgu_buf_addu64(&b, UINT64_MAX);
	cgu_buf_addf(&b, " %s-%d", "a", 7);
	assert_string_equal(b.data, "n=18446744073709551615 a-7");
	cgu_buf_truncate(&b, 1);
	assert_string_equal(b.data, "n");
	cgu_buf_release(&b);
	assert_string_equal(b.data, "");
}

static void test_buf_json(void **state)
{
	struct cgu_buf b = CGU_BUF_INIT;

	(void)state;
	cgu_buf_add_json(&b, "a\"b\\c\n\x01");
	assert_string_equal(b.data, "\"a\\\"b\\\\c\\u000a\\u0001\"");
	cgu_buf_release(&b);
}

/* Names are bytes: JSON output stays valid UTF-8 whatever they hold,
 * control characters escaped, each byte of a sequence that is not
 * well-formed UTF-8 a replacement character. */
static void test_buf_json_not_utf8(void **state)
{
	static const struct { const char *in, *out; } cases[] = {
		{ "caf\xc3\xa9 \xf0\x9f\x94\xa5", "\"caf\xc3\xa9 \xf0\x9f\x94\xa5\"" },
		{ "a\xff" "b", "\"a\\ufffdb\"" },
		{ "end\xc3", "\"end\\ufffd\"" },                 /* cut short */
		{ "\xe2\x82", "\"\\ufffd\\ufffd\"" },
		{ "\xc0\xaf", "\"\\ufffd\\ufffd\"" },              /* overlong '/' */
		{ "\xe0\x80\xaf", "\"\\ufffd\\ufffd\\ufffd\"" },
		{ "\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"" },     /* surrogate */
		{ "\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"" },
		{ "\x1b[31mred\x7f", "\"\\u001b[31mred\\u007f\"" },
		{ "nel\xc2\x85 ls\xe2\x80\xa8", "\"nel\\u0085 ls\\u2028\"" },
		{ "\xef\xbf\xbd", "\"\xef\xbf\xbd\"" },          /* U+FFFD itself */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct cgu_buf b = CGU_BUF_INIT;

		cgu_buf_add_json(&b, cases[i].in);
		assert_string_equal(b.data, cases[i].out);
		cgu_buf_release(&b);
	}
}

/* DOT strings: quotes and backslashes escaped (a name's backslash is
 * no DOT escape sequence), control characters as spaces, not UTF-8 as a
 * replacement character; pprof's strings: valid UTF-8 the same way. */
static void test_buf_dot_and_utf8(void **state)
{
	struct cgu_buf b = CGU_BUF_INIT;

	(void)state;
	cgu_buf_add_dot(&b, "say \"hi\" \\n\t\xff\xc3\xa9");
	assert_string_equal(b.data, "say \\\"hi\\\" \\\\n \xef\xbf\xbd\xc3\xa9");
	cgu_buf_reset(&b);
	cgu_buf_add_utf8(&b, "a\xff\xc3\xa9\xe2\x82", 6);
	assert_string_equal(b.data, "a\xef\xbf\xbd\xc3\xa9\xef\xbf\xbd\xef\xbf\xbd");
	cgu_buf_release(&b);
}

static void test_arena(void **state)
{
	struct cgu_arena a = CGU_ARENA_INIT;
	char *s = cgu_arena_strdup(&a, "hello");
	void *big = cgu_arena_alloc(&a, 1 << 20);
	unsigned char *z = cgu_arena_zalloc(&a, 33);
	int i;

	(void)state;
	assert_string_equal(s, "hello");
	assert_true(((uintptr_t)big & 15) == 0);
	for (i = 0; i < 33; i++)
		assert_int_equal(z[i], 0);
	assert_true(a.total >= (1 << 20));
	cgu_arena_release(&a);
	assert_null(a.head);
}

static void test_error_format(void **state)
{
	struct cgu_error err;

	(void)state;
	assert_int_equal(cgu_error_set(&err, CGU_EINPUT, "f.out", 12,
				       "expected %s", "x"), CGU_EINPUT);
	assert_string_equal(err.msg, "f.out:12: expected x");
	assert_int_equal(err.line, 12);
	cgu_error_set(&err, CGU_EIO, "f.out", 0, "gone");
	assert_string_equal(err.msg, "f.out: gone");
	assert_int_equal(cgu_error_set(NULL, CGU_EIO, NULL, 0, "x"), CGU_EIO);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buf_grows_and_formats),
		cmocka_unit_test(test_buf_json),
		cmocka_unit_test(test_buf_json_not_utf8),
		cmocka_unit_test(test_buf_dot_and_utf8),
		cmocka_unit_test(test_arena),
		cmocka_unit_test(test_error_format),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
