/* redact.c - host-independent names, for snapshots and cross-host diffs.
 *
 * Objects and files:
 *   - the dynamic loader (ld-linux-x86-64.so.2, ld-linux-aarch64.so.1,
 *     ld64.so.N, ld-2.31.so, anywhere in a path) becomes "ld.so";
 *   - an absolute path under the root (--root) becomes relative to it,
 *     any other absolute path keeps only its basename
 *     (/usr/lib/x86_64-linux-gnu/libc.so.6 -> libc.so.6).
 * Functions (each '-separated context part alike):
 *   - versioned symbols lose the version: memcpy@@GLIBC_2.14 -> memcpy;
 *   - glibc's internal aliases lose the prefix: __GI_memcpy -> memcpy;
 *   - CPU-specific string function variants chosen by ifunc become the
 *     function: __memcpy_avx_unaligned_erms, __strlen_sse2,
 *     __memset_generic -> memcpy, strlen, memset;
 *   - raw addresses 0x<hex> (functions without symbols) become "0xADDR".
 * Names that become equal merge (nodes and edges are summed).  The pid
 * header is dropped.
 */
#include <ctype.h>
#include <string.h>
#include <callgrind-utils/transform.h>

static const char *const string_functions[] = {
	"memcpy", "memmove", "memset", "memcmp", "memchr", "memrchr",
	"mempcpy", "rawmemchr", "bzero", "strlen", "strnlen", "strchr",
	"strchrnul", "strrchr", "strcmp", "strncmp", "strcpy", "strncpy",
	"stpcpy", "stpncpy", "strcat", "strncat", "strcasecmp",
	"strncasecmp", "strstr", "strspn", "strcspn", "strpbrk", "wmemset",
	"wmemchr", "wmemcmp", "wcslen", "wcsnlen", "wcschr", "wcscmp",
	"wcsncmp", "wcscpy", "wcsrchr", "memcpy_chk", "memmove_chk",
	"memset_chk", "mempcpy_chk",
};

static const char *const cpu_variant_words[] = {
	"sse2", "ssse3", "sse4", "avx", "evex", "erms", "unaligned",
	"aligned", "generic", "asimd", "neon", "sve", "mops", "zva", "simd",
	"rtm", "nocache", "thunderx", "falkor", "kunpeng", "a64fx", "emag",
	"oryon", "ifunc", "power", "z13", "z15", "rvv",
};

static int contains_any(const char *s, size_t len, const char *const *words,
			size_t n)
{
	size_t i, w;

	for (i = 0; i < n; i++) {
		w = strlen(words[i]);
		for (size_t k = 0; k + w <= len; k++)
			if (!memcmp(s + k, words[i], w))
				return 1;
	}
	return 0;
}

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* "__memcpy_avx_unaligned" -> length of "memcpy" at s + 2, or 0. */
static size_t ifunc_base(const char *s, size_t len)
{
	size_t i, n;

	if (len < 4 || s[0] != '_' || s[1] != '_')
		return 0;
	for (i = 0; i < COUNT(string_functions); i++) {
		n = strlen(string_functions[i]);
		if (n + 3 <= len && !memcmp(s + 2, string_functions[i], n) &&
		    s[2 + n] == '_' &&
		    contains_any(s + 3 + n, len - 3 - n, cpu_variant_words,
				 COUNT(cpu_variant_words)))
			return n;
	}
	return 0;
}

static int is_hex_address(const char *s, size_t len)
{
	size_t i;

	if (len < 3 || s[0] != '0' || s[1] != 'x')
		return 0;
	for (i = 2; i < len; i++)
		if (!isxdigit((unsigned char)s[i]))
			return 0;
	return 1;
}

static void redact_function_part(const char *s, size_t len,
				 struct cgu_buf *out)
{
	const char *at = memchr(s, '@', len);
	size_t base;

	if (at)
		len = (size_t)(at - s);          /* foo@@GLIBC_2.2.5 */
	if (len > 5 && !memcmp(s, "__GI_", 5)) {
		s += 5;
		len -= 5;
	}
	if (is_hex_address(s, len)) {
		cgu_buf_adds(out, "0xADDR");
		return;
	}
	base = ifunc_base(s, len);
	if (base)
		cgu_buf_add(out, s + 2, base);
	else
		cgu_buf_add(out, s, len);
}

/* Split at ' into parts; a numeric part ('2) is copied unchanged. */
static void redact_function(const char *name, struct cgu_buf *out)
{
	for (;;) {
		size_t len = strcspn(name, "'");

		redact_function_part(name, len, out);
		if (!name[len])
			return;
		cgu_buf_addch(out, '\'');
		name += len + 1;
	}
}

static int is_loader(const char *base)
{
	return !strncmp(base, "ld-linux", 8) || !strncmp(base, "ld64.so", 7) ||
	       (!strncmp(base, "ld-", 3) && strstr(base, ".so"));
}

static void redact_path(const char *name, const struct cgu_redact_opts *o,
			struct cgu_buf *out)
{
	const char *base = strrchr(name, '/');
	size_t rootlen;

	base = base ? base + 1 : name;
	if (is_loader(base)) {
		cgu_buf_adds(out, "ld.so");
		return;
	}
	if (name[0] != '/') {
		cgu_buf_adds(out, name);
		return;
	}
	rootlen = o && o->root ? strlen(o->root) : 0;
	while (rootlen > 1 && o->root[rootlen - 1] == '/')
		rootlen--;
	if (rootlen && !strncmp(name, o->root, rootlen) &&
	    name[rootlen] == '/' && name[rootlen + 1]) {
		cgu_buf_adds(out, name + rootlen + 1);
		return;
	}
	cgu_buf_adds(out, base);
}

void cgu_redact_name(enum cgu_name_kind kind, const char *name,
		     const struct cgu_redact_opts *o, struct cgu_buf *out)
{
	if (kind == CGU_NAME_FUNCTION)
		redact_function(name, out);
	else
		redact_path(name, o, out);
}

static void redact_cb(enum cgu_name_kind kind, const char *name,
		      struct cgu_buf *out, void *ctx)
{
	cgu_redact_name(kind, name, ctx, out);
}

struct cgu_profile *cgu_redact(const struct cgu_profile *p,
			       const struct cgu_redact_opts *o)
{
	struct cgu_profile *q = cgu_profile_rename(p, redact_cb, (void *)o);

	q->pid = NULL;      /* differs on every run */
	return q;
}
