/* test-compress.c - profiles, stacks files and folded stacks compressed
 * with gzip, xz, bzip2 and zstd read as their plain text does, from
 * memory and from files; compressed data cut short or corrupt is an
 * error naming the file, and so is data past max_input. */
#include <bzlib.h>
#include <lzma.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>
#include <callgrind-utils/folded.h>
#include "testutil.h"

enum codec { GZIP, XZ, BZIP2, ZSTD, NCODECS };
static const char *const codec_name[] = { "gzip", "xz", "bzip2", "zstd" };

/* text[0..len) compressed with codec c by its library (malloc'd). */
static unsigned char *compress_with(enum codec c, const char *text, size_t len,
				    size_t *out_len)
{
	size_t cap = len + len / 2 + 1024;
	unsigned char *out = malloc(cap);

	assert_non_null(out);
	switch (c) {
	case GZIP: {
		z_stream z;

		memset(&z, 0, sizeof(z));
		assert_int_equal(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8,
					      Z_DEFAULT_STRATEGY), Z_OK);
		z.next_in = (Bytef *)text;
		z.avail_in = (uInt)len;
		z.next_out = out;
		z.avail_out = (uInt)cap;
		assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
		*out_len = z.total_out;
		deflateEnd(&z);
		break;
	}
	case XZ:
		*out_len = 0;
		assert_int_equal(lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, NULL,
							 (const uint8_t *)text, len,
							 out, out_len, cap), LZMA_OK);
		break;
	case BZIP2: {
		unsigned n = (unsigned)cap;

		assert_int_equal(BZ2_bzBuffToBuffCompress((char *)out, &n,
							  (char *)text, (unsigned)len,
							  9, 0, 0), BZ_OK);
		*out_len = n;
		break;
	}
	case ZSTD: {
		/* with a checksum, as the zstd tool writes by default */
		ZSTD_CCtx *cc = ZSTD_createCCtx();

		assert_non_null(cc);
		assert_false(ZSTD_isError(ZSTD_CCtx_setParameter(cc,
					ZSTD_c_checksumFlag, 1)));
		*out_len = ZSTD_compress2(cc, out, cap, text, len);
		assert_false(ZSTD_isError(*out_len));
		ZSTD_freeCCtx(cc);
		break;
	}
	default:
		fail();
	}
	return out;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *text = NULL;
	size_t cap = 0, n = 0, got;

	assert_non_null(f);
	do {
		cap = cap ? cap * 2 : 65536;
		text = realloc(text, cap + 1);
		assert_non_null(text);
		got = fread(text + n, 1, cap - n, f);
		n += got;
	} while (n == cap);
	fclose(f);
	text[n] = '\0';
	*len = n;
	return text;
}

/* A call chain of n functions: about 40 bytes a function, so large
 * inputs span many of the reader's chunks. */
static char *chain_profile(size_t n, size_t *len)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);

	assert_non_null(f);
	fprintf(f, "# callgrind format\nversion: 1\nevents: Ir Dr\n");
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "fn=f%zu\n%zu 1 %zu\n", i, i + 1, i % 3);
		if (i + 1 < n)
			fprintf(f, "cfn=f%zu\ncalls=1 0\n%zu 7 1\n", i + 1, i + 1);
	}
	fclose(f);
	*len = size;
	return text;
}

/* JSON of a profile parsed from memory, or the error message. */
static char *json_of_mem(const void *data, size_t len, const char *name,
			 const struct cgu_parse_opts *o, int *rc)
{
	struct cgu_profile_set set;
	struct cgu_error err = { 0 };
	char *text = NULL;
	size_t size = 0;

	cgu_profile_set_init(&set);
	*rc = cgu_parse_mem(data, len, name, o, &set, &err);
	if (*rc) {
		cgu_profile_set_release(&set);
		return strdup(err.msg);
	}
	FILE *f = open_memstream(&text, &size);
	assert_non_null(f);
	assert_int_equal(cgu_json_write(set.v[0], f, NULL), 0);
	fclose(f);
	cgu_profile_set_release(&set);
	return text;
}

static char *json_of_file(const char *path, int *rc)
{
	struct cgu_profile_set set;
	struct cgu_error err = { 0 };
	char *text = NULL;
	size_t size = 0;

	cgu_profile_set_init(&set);
	*rc = cgu_parse_file(path, NULL, &set, &err);
	if (*rc) {
		cgu_profile_set_release(&set);
		return strdup(err.msg);
	}
	FILE *f = open_memstream(&text, &size);
	assert_non_null(f);
	assert_int_equal(cgu_json_write(set.v[0], f, NULL), 0);
	fclose(f);
	cgu_profile_set_release(&set);
	return text;
}

static void write_file(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

/* The same JSON as the plain text, from memory and from a file. */
static void check_same(const char *plain, size_t plain_len)
{
	char path[] = "/tmp/cgu-compress-XXXXXX";
	int fd = mkstemp(path), rc;
	char *want = json_of_mem(plain, plain_len, "plain", NULL, &rc);

	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(rc, 0);
	for (int c = 0; c < NCODECS; c++) {
		size_t len;
		unsigned char *z = compress_with(c, plain, plain_len, &len);
		char *got = json_of_mem(z, len, codec_name[c], NULL, &rc);

		if (rc)
			fail_msg("%s from memory: %s", codec_name[c], got);
		assert_string_equal(got, want);
		free(got);
		write_file(path, z, len);
		got = json_of_file(path, &rc);
		if (rc)
			fail_msg("%s from a file: %s", codec_name[c], got);
		assert_string_equal(got, want);
		free(got);
		free(z);
	}
	unlink(path);
	free(want);
}

static void test_small_profile(void **state)
{
	size_t len;
	char *plain = slurp(data_path("basic.out"), &len);

	(void)state;
	check_same(plain, len);
	free(plain);
}

static void test_large_profile(void **state)
{
	size_t len;
	char *plain = chain_profile(40000, &len);

	(void)state;
	assert_true(len > 1024 * 1024);
	check_same(plain, len);
	free(plain);
}

/* Two streams one after the other (cat a.xz b.xz) read as one text. */
static void test_concatenated_streams(void **state)
{
	size_t len;
	char *plain = chain_profile(2000, &len);
	size_t half = len / 2;
	int rc;

	(void)state;
	while (plain[half - 1] != '\n')
		half--;
	char *want = json_of_mem(plain, len, "plain", NULL, &rc);
	for (int c = 0; c < NCODECS; c++) {
		size_t l1, l2;
		unsigned char *a = compress_with(c, plain, half, &l1);
		unsigned char *b = compress_with(c, plain + half, len - half, &l2);
		unsigned char *ab = malloc(l1 + l2);

		assert_non_null(ab);
		memcpy(ab, a, l1);
		memcpy(ab + l1, b, l2);
		char *got = json_of_mem(ab, l1 + l2, codec_name[c], NULL, &rc);
		if (rc)
			fail_msg("%s: %s", codec_name[c], got);
		assert_string_equal(got, want);
		free(got);
		free(a);
		free(b);
		free(ab);
	}
	free(want);
	free(plain);
}

/* Compressed data cut anywhere is an error, never a shorter profile;
 * cut in the middle it says so, naming the input. */
static void test_cut_short(void **state)
{
	size_t plen;
	char *plain = slurp(data_path("basic.out"), &plen);
	char name[64], want[256];
	int rc;

	(void)state;
	for (int c = 0; c < NCODECS; c++) {
		size_t len;
		unsigned char *z = compress_with(c, plain, plen, &len);

		for (size_t cut = 1; cut < len; cut++) {
			char *got = json_of_mem(z, cut, "cut", NULL, &rc);

			if (rc == 0)
				fail_msg("%s cut at %zu of %zu bytes: read "
					 "without an error", codec_name[c], cut,
					 len);
			free(got);
		}
		snprintf(name, sizeof(name), "basic.out.%s", codec_name[c]);
		char *got = json_of_mem(z, len / 2, name, NULL, &rc);
		assert_int_equal(rc, CGU_EIO);
		snprintf(want, sizeof(want), "%s: cannot read: %s data cut "
			 "short (truncated file?)", name, codec_name[c]);
		assert_string_equal(got, want);
		free(got);
		free(z);
	}
	free(plain);
}

/* A byte changed in the middle of the compressed data: an error that
 * names the input, never other numbers.  The data is streamed, so the
 * error may come from the parser reading the garbage before the
 * decoder reaches its checksum: "bad:LINE: ...". */
static void test_corrupt(void **state)
{
	size_t len;
	char *plain = chain_profile(3000, &len);
	char prefix[64];
	int rc;

	(void)state;
	for (int c = 0; c < NCODECS; c++) {
		size_t zlen;
		unsigned char *z = compress_with(c, plain, len, &zlen);

		for (size_t at = zlen / 3; at < zlen; at += zlen / 3) {
			z[at] ^= 0x55;
			char *got = json_of_mem(z, zlen, "bad", NULL, &rc);
			if (rc == 0)
				fail_msg("%s corrupt at %zu: read without an "
					 "error", codec_name[c], at);
			snprintf(prefix, sizeof(prefix), "bad:");
			if (strncmp(got, prefix, strlen(prefix)))
				fail_msg("%s corrupt: '%s'", codec_name[c], got);
			free(got);
			z[at] ^= 0x55;
		}
		free(z);
	}
	free(plain);
}

/* Decompressed data is bounded by max_input: exactly that many bytes
 * are read, one more is an error. */
static void test_max_input(void **state)
{
	size_t len;
	char *plain = chain_profile(3000, &len);
	char want[256];
	int rc;

	(void)state;
	for (int c = 0; c < NCODECS; c++) {
		size_t zlen;
		unsigned char *z = compress_with(c, plain, len, &zlen);
		struct cgu_parse_opts o = { .max_input = len };
		char *got = json_of_mem(z, zlen, "big", &o, &rc);

		if (rc)
			fail_msg("%s at max_input: %s", codec_name[c], got);
		free(got);
		o.max_input = len - 1;
		got = json_of_mem(z, zlen, "big", &o, &rc);
		assert_int_equal(rc, CGU_EINPUT);
		snprintf(want, sizeof(want), "big: %s data decompresses to more "
			 "than %zu bytes; expected at most that (see "
			 "--max-input)", codec_name[c], len - 1);
		assert_string_equal(got, want);
		free(got);
		free(z);
	}
	free(plain);
}

/* cgu_read_input() tells a stacks file and folded stacks from a profile
 * by their decompressed first line. */
static void test_read_input_kinds(void **state)
{
	static const char *const files[] = { "shapes.out", "shapes.out.stacks",
					     "flame-after.folded" };
	char path[] = "/tmp/cgu-compress-XXXXXX";
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	for (int k = 0; k < 3; k++) {
		size_t len;
		char *plain = slurp(data_path(files[k]), &len);

		for (int c = 0; c < NCODECS; c++) {
			struct cgu_profile_set set;
			struct cgu_cct *cct = cgu_cct_new();
			struct cgu_folded f;
			struct cgu_error err = { 0 };
			size_t zlen;
			unsigned char *z = compress_with(c, plain, len, &zlen);

			write_file(path, z, zlen);
			cgu_profile_set_init(&set);
			cgu_folded_init(&f);
			int rc = cgu_read_input(path, NULL, &set, cct, &f, &err);
			if (rc != k)
				fail_msg("%s %s: %d %s", codec_name[c], files[k],
					 rc, err.msg);
			if (k == 0)
				assert_int_equal(set.v[0]->totals[0], 312);
			if (k == 2)
				assert_int_equal(f.total, 200);
			cgu_profile_set_release(&set);
			cgu_cct_free(cct);
			cgu_folded_release(&f);
			free(z);
		}
		free(plain);
	}
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_small_profile),
		cmocka_unit_test(test_large_profile),
		cmocka_unit_test(test_concatenated_streams),
		cmocka_unit_test(test_cut_short),
		cmocka_unit_test(test_corrupt),
		cmocka_unit_test(test_max_input),
		cmocka_unit_test(test_read_input_kinds),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
