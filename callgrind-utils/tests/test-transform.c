/* test-transform.c - symbolize through a perf map, and redact. */
#include <stdlib.h>
#include <string.h>
#include "testutil.h"

static void test_perf_map_search(void **state)
{
	struct cgu_perf_map m = { 0 };
	static const char text[] =
		"3000 10 c\n1000 100 a\n2000 0x800 b with spaces\n";

	(void)state;
	assert_int_equal(cgu_perf_map_load_mem(&m, text, strlen(text), "map",
					       NULL), 0);
	assert_int_equal(m.n, 3);
	assert_null(cgu_perf_map_find(&m, 0xfff));
	assert_string_equal(cgu_perf_map_find(&m, 0x1000)->name, "a");
	assert_string_equal(cgu_perf_map_find(&m, 0x10ff)->name, "a");
	assert_null(cgu_perf_map_find(&m, 0x1100));
	assert_string_equal(cgu_perf_map_find(&m, 0x27ff)->name,
			    "b with spaces");
	assert_null(cgu_perf_map_find(&m, 0x2800));
	assert_string_equal(cgu_perf_map_find(&m, 0x300f)->name, "c");
	assert_null(cgu_perf_map_find(&m, 0x3010));
	cgu_perf_map_release(&m);
}

static void test_perf_map_errors(void **state)
{
	struct cgu_perf_map m = { 0 };
	struct cgu_error err;
	static const char text[] = "1000 10 ok\n\nzz 10 bad\n";

	(void)state;
	assert_int_equal(cgu_perf_map_load_mem(&m, text, strlen(text), "map",
					       &err), CGU_EINPUT);
	assert_string_equal(err.msg, "map:3: expected 'START SIZE name' with "
			    "hex START and SIZE");
	cgu_perf_map_release(&m);
	assert_int_equal(cgu_perf_map_load(&m, "/nonexistent.map", &err),
			 CGU_EIO);
	cgu_perf_map_release(&m);
}

static void test_symbolize_profile(void **state)
{
	struct cgu_profile *p = load_data("jit.out"), *q;
	struct cgu_perf_map m = { 0 };
	char *text;

	(void)state;
	assert_int_equal(cgu_perf_map_load(&m, data_path("jit.map"), NULL), 0);
	q = cgu_symbolize(p, &m);
	text = edges_of(q, 0);
	assert_string_equal(text,
		"LazyCompile:*inner app.js:7'2'LazyCompile:~outer app.js:1 -> "
		"0x7f0000009000 1 3\n"
		"LazyCompile:*inner app.js:7'LazyCompile:~outer app.js:1 -> "
		"LazyCompile:*inner app.js:7'2'LazyCompile:~outer app.js:1 1 5\n"
		"LazyCompile:~outer app.js:1 -> LazyCompile:*inner app.js:7'"
		"LazyCompile:~outer app.js:1 1 20\n"
		"main -> LazyCompile:~outer app.js:1 1 30\n");
	assert_true(q->totals[0] == p->totals[0]);
	free(text);
	text = fold_of(q, 0, CGU_FOLD_AUTO);
	assert_true(sum_last_column(text) == p->totals[0]);
	free(text);
	cgu_profile_free(q);
	cgu_profile_free(p);
	cgu_perf_map_release(&m);
}

static void expect_redacted(enum cgu_name_kind kind, const char *in,
			    const char *root, const char *out)
{
	struct cgu_redact_opts o = { root };
	struct cgu_buf b = CGU_BUF_INIT;

	cgu_redact_name(kind, in, &o, &b);
	assert_string_equal(b.data, out);
	cgu_buf_release(&b);
}

static void test_redact_names(void **state)
{
	(void)state;
	expect_redacted(CGU_NAME_OBJECT, "/lib64/ld-linux-x86-64.so.2", NULL,
			"ld.so");
	expect_redacted(CGU_NAME_OBJECT, "/lib/ld-linux-aarch64.so.1", NULL,
			"ld.so");
	expect_redacted(CGU_NAME_OBJECT, "/lib/powerpc64le/ld64.so.2", NULL,
			"ld.so");
	expect_redacted(CGU_NAME_OBJECT, "/usr/lib/x86_64-linux-gnu/libc.so.6",
			NULL, "libc.so.6");
	expect_redacted(CGU_NAME_FILE, "/home/a/p/src/x.c", "/home/a/p",
			"src/x.c");
	expect_redacted(CGU_NAME_FILE, "/home/a/p/src/x.c", "/home/a/p/",
			"src/x.c");
	expect_redacted(CGU_NAME_FILE, "/home/a/pq/x.c", "/home/a/p", "x.c");
	expect_redacted(CGU_NAME_FILE, "./elf/rtld.c", "/home/a/p",
			"./elf/rtld.c");
	expect_redacted(CGU_NAME_FILE, "???", NULL, "???");
	expect_redacted(CGU_NAME_FUNCTION, "printf@@GLIBC_2.2.5", NULL, "printf");
	expect_redacted(CGU_NAME_FUNCTION, "memcpy@GLIBC_2.14", NULL, "memcpy");
	expect_redacted(CGU_NAME_FUNCTION, "__GI_strlen", NULL, "strlen");
	expect_redacted(CGU_NAME_FUNCTION, "__GI___libc_write", NULL,
			"__libc_write");
	expect_redacted(CGU_NAME_FUNCTION, "__memcpy_avx_unaligned_erms", NULL,
			"memcpy");
	expect_redacted(CGU_NAME_FUNCTION, "__strlen_sse2", NULL, "strlen");
	expect_redacted(CGU_NAME_FUNCTION, "__memset_generic", NULL, "memset");
	expect_redacted(CGU_NAME_FUNCTION, "__strchr_evex", NULL, "strchr");
	expect_redacted(CGU_NAME_FUNCTION, "__libc_start_main", NULL,
			"__libc_start_main");
	expect_redacted(CGU_NAME_FUNCTION, "0x00000000004011a0", NULL,
			"0xADDR");
	expect_redacted(CGU_NAME_FUNCTION, "f'0x1234'2", NULL, "f'0xADDR'2");
	expect_redacted(CGU_NAME_FUNCTION, "main", NULL, "main");
}

static void test_redact_profile_merges(void **state)
{
	struct cgu_profile *p = load_data("redact.out"), *q;
	struct cgu_redact_opts o = { "/home/alice/proj" };
	struct cgu_buf name = CGU_BUF_INIT;
	char *text;
	size_t i;

	(void)state;
	q = cgu_redact(p, &o);
	assert_null(q->pid);
	text = edges_of(q, 0);
	assert_string_equal(text,
			    "_dl_start -> main 1 100\n"
			    "main -> 0xADDR 1 10\n"
			    "main -> memcpy 3 45\n"
			    "main -> printf 1 25\n"
			    "printf -> strlen 1 5\n");
	free(text);
	assert_true(q->totals[0] == p->totals[0]);
	assert_int_equal(q->nnodes, p->nnodes - 1);
	for (i = 0; i < q->nnodes; i++) {
		cgu_buf_reset(&name);
		cgu_node_name(q, (uint32_t)i, CGU_NAMES_FULL, &name);
		if (!strcmp(q->nodes[i].function, "main"))
			assert_string_equal(name.data, "src/main.c:main [build/app]");
		if (!strcmp(q->nodes[i].function, "_dl_start"))
			assert_string_equal(name.data, "rtld.c:_dl_start [ld.so]");
	}
	cgu_buf_release(&name);
	cgu_profile_free(q);
	cgu_profile_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_perf_map_search),
		cmocka_unit_test(test_perf_map_errors),
		cmocka_unit_test(test_symbolize_profile),
		cmocka_unit_test(test_redact_names),
		cmocka_unit_test(test_redact_profile_merges),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
