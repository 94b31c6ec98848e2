/* symbolize.c - name JIT code through a perf map (/tmp/perf-PID.map).
 *
 * A perf map has one symbol a line: "START SIZE name", START and SIZE in
 * hex with or without 0x, name the rest of the line.  Callgrind names
 * code without symbols "0x<hex address>"; such a name (or such a part of
 * a context name "0x..'0x..'2") becomes the symbol whose [START,
 * START+SIZE) holds the address, found by binary search.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <callgrind-utils/transform.h>

static int parse_hex(const char **s, uint64_t *out)
{
	const char *p = *s;
	uint64_t v = 0;
	int n = 0;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	for (; isxdigit((unsigned char)*p) && n < 16; p++, n++)
		v = v * 16 + (uint64_t)(isdigit((unsigned char)*p) ? *p - '0'
					: tolower((unsigned char)*p) - 'a' + 10);
	if (!n || isxdigit((unsigned char)*p) || (*p != ' ' && *p != '\t' &&
						 *p != '\0'))
		return -1;
	*s = p;
	*out = v;
	return 0;
}

static void add_sym(struct cgu_perf_map *m, uint64_t start, uint64_t size,
		    const char *name)
{
	if (m->n == m->cap) {
		m->cap = m->cap ? m->cap * 2 : 256;
		m->syms = realloc(m->syms, m->cap * sizeof(*m->syms));
		if (!m->syms)
			abort();
	}
	m->syms[m->n].start = start;
	m->syms[m->n].size = size;
	m->syms[m->n].name = cgu_arena_strdup(&m->arena, name);
	m->n++;
}

static int map_line(struct cgu_perf_map *m, char *line, const char *file,
		    unsigned long lineno, struct cgu_error *err)
{
	const char *s = line;
	uint64_t start, size;
	size_t len = strlen(line);

	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		line[--len] = '\0';
	if (!len)
		return 0;
	if (parse_hex(&s, &start) || (s += strspn(s, " \t"), parse_hex(&s, &size))
	    || !*(s += strspn(s, " \t")))
		return cgu_error_set(err, CGU_EINPUT, file, lineno,
				     "expected 'START SIZE name' with hex "
				     "START and SIZE");
	add_sym(m, start, size, s);
	return 0;
}

static int cmp_sym(const void *a, const void *b)
{
	const struct cgu_perf_sym *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

static void sort_map(struct cgu_perf_map *m)
{
	if (m->n)
		qsort(m->syms, m->n, sizeof(*m->syms), cmp_sym);
}

int cgu_perf_map_load(struct cgu_perf_map *m, const char *path,
		      struct cgu_error *err)
{
	char line[4096];
	unsigned long lineno = 0;
	gzFile gz = gzopen(path, "rb");
	int rc = 0;

	if (!gz)
		return cgu_error_set(err, CGU_EIO, path, 0, "cannot open: %m");
	while (!rc && gzgets(gz, line, sizeof(line))) {
		lineno++;
		if (!strchr(line, '\n') && !gzeof(gz))
			rc = cgu_error_set(err, CGU_EINPUT, path, lineno,
					   "line longer than %zu bytes",
					   sizeof(line) - 2);
		else
			rc = map_line(m, line, path, lineno, err);
	}
	gzclose(gz);
	sort_map(m);
	return rc;
}

int cgu_perf_map_load_mem(struct cgu_perf_map *m, const char *data,
			  size_t len, const char *name, struct cgu_error *err)
{
	struct cgu_buf line = CGU_BUF_INIT;
	unsigned long lineno = 0;
	size_t i = 0;
	int rc = 0;

	while (!rc && i < len) {
		const char *nl = memchr(data + i, '\n', len - i);
		size_t n = nl ? (size_t)(nl - (data + i)) : len - i;

		cgu_buf_reset(&line);
		cgu_buf_add(&line, data + i, n);
		rc = map_line(m, line.data, name, ++lineno, err);
		i += n + 1;
	}
	cgu_buf_release(&line);
	sort_map(m);
	return rc;
}

void cgu_perf_map_release(struct cgu_perf_map *m)
{
	free(m->syms);
	cgu_arena_release(&m->arena);
	memset(m, 0, sizeof(*m));
}

const struct cgu_perf_sym *cgu_perf_map_find(const struct cgu_perf_map *m,
					     uint64_t addr)
{
	size_t lo = 0, hi = m->n;

	while (lo < hi) {      /* first symbol with start > addr */
		size_t mid = lo + (hi - lo) / 2;

		if (m->syms[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	if (addr - m->syms[lo - 1].start < m->syms[lo - 1].size)
		return &m->syms[lo - 1];
	return NULL;
}

/* Append one part of a name, symbolized if it is a bare 0x address. */
static void symbolize_part(const struct cgu_perf_map *m, const char *s,
			   size_t len, struct cgu_buf *out)
{
	const struct cgu_perf_sym *sym = NULL;
	uint64_t addr = 0;
	size_t i;

	if (len > 2 && len <= 18 && s[0] == '0' && s[1] == 'x') {
		for (i = 2; i < len && isxdigit((unsigned char)s[i]); i++)
			addr = addr * 16 + (uint64_t)(isdigit((unsigned char)s[i])
				? s[i] - '0' : tolower((unsigned char)s[i]) - 'a' + 10);
		if (i == len)
			sym = cgu_perf_map_find(m, addr);
	}
	if (sym)
		cgu_buf_adds(out, sym->name);
	else
		cgu_buf_add(out, s, len);
}

static void symbolize_name(enum cgu_name_kind kind, const char *name,
			   struct cgu_buf *out, void *ctx)
{
	const char *q;

	if (kind != CGU_NAME_FUNCTION) {
		cgu_buf_adds(out, name);
		return;
	}
	while ((q = strchr(name, '\'')) != NULL) {
		symbolize_part(ctx, name, (size_t)(q - name), out);
		cgu_buf_addch(out, '\'');
		name = q + 1;
	}
	symbolize_part(ctx, name, strlen(name), out);
}

struct cgu_profile *cgu_symbolize(const struct cgu_profile *p,
				  const struct cgu_perf_map *m)
{
	return cgu_profile_rename(p, symbolize_name, (void *)m);
}
