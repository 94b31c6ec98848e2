/* edges.c - "caller -> callee calls cost" lines, sorted and merged. */
#include <callgrind-utils/output.h>
#include "lines.h"

int cgu_edges_write(const struct cgu_profile *p, int event,
		    enum cgu_name_style names, FILE *out,
		    struct cgu_error *err)
{
	struct cgu_name_table shown;
	struct cgu_lines l;
	size_t i;
	int rc = 0;

	if (event < 0 || (size_t)event >= p->nevents)
		return cgu_error_set(err, CGU_EUSAGE, NULL, 0, "no such event");
	cgu_lines_init(&l);
	cgu_name_table_build(&shown, p->nodes, p->nnodes, names);
	for (i = 0; i < p->nedges; i++) {
		size_t start = l.text.len;

		cgu_buf_adds(&l.text, cgu_name_table_get(&shown, p->edges[i].caller));
		cgu_buf_adds(&l.text, " -> ");
		cgu_buf_adds(&l.text, cgu_name_table_get(&shown, p->edges[i].callee));
		cgu_lines_add(&l, start, p->edges[i].calls,
			      cgu_edge_cost(p, (uint32_t)i)[event]);
	}
	cgu_lines_sort_merge(&l);
	for (i = 0; i < l.n && rc >= 0; i++)
		rc = fprintf(out, "%.*s %llu %llu\n", (int)l.v[i].len,
			     cgu_line_key(&l, i), (unsigned long long)l.v[i].a,
			     (unsigned long long)l.v[i].b);
	cgu_lines_release(&l);
	cgu_name_table_release(&shown);
	return rc < 0 ? cgu_error_set(err, CGU_EIO, NULL, 0, "write error") : 0;
}
