/* merge.c - merge the functions Callgrind keeps apart by how they were
 * reached: recursion levels (--separate-recs, "fib'2") and caller
 * contexts (--separate-callers, "a'b'c"), see transform.h. */
#include <string.h>
#include <callgrind-utils/transform.h>

/* Is name[i] the ' of a recursion level ('N, up to the next ' or the
 * end)?  *end is then past the digits. */
static int recursion_level(const char *name, size_t i, size_t *end)
{
	size_t k = i + 1;

	while (name[k] >= '0' && name[k] <= '9')
		k++;
	*end = k;
	return k > i + 1 && (name[k] == '\0' || name[k] == '\'');
}

void cgu_merge_name(const char *name, unsigned what, struct cgu_buf *out)
{
	size_t i = 0, end;

	while (name[i]) {
		if (name[i] != '\'') {
			cgu_buf_addch(out, name[i++]);
			continue;
		}
		if (recursion_level(name, i, &end)) {
			if (!(what & CGU_MERGE_RECURSION))
				cgu_buf_add(out, name + i, end - i);
			i = end;
			continue;
		}
		if (what & CGU_MERGE_CALLERS)
			return;          /* the callers start here */
		cgu_buf_addch(out, name[i++]);
	}
}

static void rename_merged(enum cgu_name_kind kind, const char *name,
			  struct cgu_buf *out, void *ctx)
{
	if (kind == CGU_NAME_FUNCTION)
		cgu_merge_name(name, *(const unsigned *)ctx, out);
	else
		cgu_buf_adds(out, name);
}

struct cgu_profile *cgu_merge_names(const struct cgu_profile *p,
				    unsigned what)
{
	return cgu_profile_rename(p, rename_merged, &what);
}
