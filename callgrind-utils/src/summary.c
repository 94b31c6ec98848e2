/* summary.c - the top nodes by self or inclusive cost. */
#include <stdlib.h>
#include <callgrind-utils/output.h>

struct ranked {
	uint32_t node;
	cgu_cost self, incl;
};

static int by_inclusive;

static int cmp_ranked(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;
	cgu_cost kx = by_inclusive ? x->incl : x->self;
	cgu_cost ky = by_inclusive ? y->incl : y->self;

	if (kx != ky)
		return kx > ky ? -1 : 1;
	return x->node < y->node ? -1 : x->node > y->node;
}

static double percent(cgu_cost part, cgu_cost total)
{
	return total ? 100.0 * (double)part / (double)total : 0.0;
}

int cgu_summary_write(const struct cgu_profile *p,
		      const struct cgu_summary_opts *o, FILE *out,
		      struct cgu_error *err)
{
	struct cgu_buf text = CGU_BUF_INIT;
	struct ranked *v;
	cgu_cost total;
	size_t i, n;
	int rc = CGU_OK;

	if (o->event < 0 || (size_t)o->event >= p->nevents)
		return cgu_error_set(err, CGU_EUSAGE, NULL, 0, "no such event");
	total = p->totals[o->event];
	v = calloc(p->nnodes ? p->nnodes : 1, sizeof(*v));
	if (!v)
		abort();
	for (i = 0; i < p->nnodes; i++) {
		v[i].node = (uint32_t)i;
		v[i].self = cgu_self(p, (uint32_t)i)[o->event];
		v[i].incl = o->inclusive ? o->inclusive[i * p->nevents + o->event]
			  : cgu_node_inclusive(p, (uint32_t)i, o->event);
	}
	by_inclusive = o->by_inclusive;
	qsort(v, p->nnodes, sizeof(*v), cmp_ranked);
	n = o->top && o->top < p->nnodes ? o->top : p->nnodes;
	cgu_buf_addf(&text, "# event %s, total %llu, by %s\n",
		     p->events[o->event], (unsigned long long)total,
		     o->by_inclusive ? "inclusive" : "self");
	if (o->note)
		cgu_buf_addf(&text, "# %s\n", o->note);
	cgu_buf_addf(&text, "# %14s %7s %14s %7s  function\n",
		     "self", "self%", "inclusive", "incl%");
	for (i = 0; i < n; i++) {
		cgu_buf_addf(&text, "  %14llu %6.2f%% %14llu %6.2f%%  ",
			     (unsigned long long)v[i].self,
			     percent(v[i].self, total),
			     (unsigned long long)v[i].incl,
			     percent(v[i].incl, total));
		cgu_node_name(p, v[i].node, o->names, &text);
		cgu_buf_addch(&text, '\n');
	}
	if (cgu_buf_write(&text, out))
		rc = cgu_error_set(err, CGU_EIO, NULL, 0, "write error");
	free(v);
	cgu_buf_release(&text);
	return rc;
}
