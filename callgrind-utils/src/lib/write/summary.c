/* summary.c - the top nodes by self or inclusive cost. */
#include <stdlib.h>
#include <callgrind-utils/output.h>

struct ranked {
	uint32_t node;
	cgu_cost key;
};

static int cmp_ranked(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if (x->key != y->key)
		return x->key > y->key ? -1 : 1;
	return x->node < y->node ? -1 : x->node > y->node;
}

static double percent(cgu_cost part, cgu_cost total)
{
	return total ? 100.0 * (double)part / (double)total : 0.0;
}

struct summary {
	const struct cgu_profile *p;
	const struct cgu_summary_opts *o;
	const cgu_cost *totals;
	size_t first, end;        /* the events shown */
	struct cgu_buf text;
};

static cgu_cost inclusive(const struct summary *s, uint32_t n, size_t e)
{
	if (s->o->inclusive)
		return s->o->inclusive[(size_t)n * s->p->nevents + e];
	return cgu_node_inclusive(s->p, n, (int)e);
}

/* How many of the sorted v to show: o->top, and no more than it takes
 * to reach o->threshold percent of the total (callgrind_annotate's
 * rule: a line is shown while the lines before hold less). */
static size_t lines_shown(const struct summary *s, const struct ranked *v)
{
	const struct cgu_summary_opts *o = s->o;
	size_t n = o->top && o->top < s->p->nnodes ? o->top : s->p->nnodes, i;
	cgu_cost sum = 0, total = s->totals[o->event];

	if (o->threshold <= 0 || o->threshold >= 100)
		return n;
	for (i = 0; i < n; i++) {
		if (percent(sum, total) >= o->threshold)
			return i;
		sum += v[i].key;
	}
	return n;
}

static void header(struct summary *s)
{
	const struct cgu_profile *p = s->p;
	const struct cgu_summary_opts *o = s->o;
	const char *ev = p->events[o->event];
	size_t e;

	if (!o->all_events) {
		cgu_buf_addf(&s->text, "# event %s, total %llu, by %s", ev,
			     (unsigned long long)s->totals[o->event],
			     o->by_inclusive ? "inclusive" : "self");
	} else {
		cgu_buf_adds(&s->text, "# events");
		for (e = 0; e < p->nevents; e++)
			cgu_buf_addf(&s->text, " %s", p->events[e]);
		cgu_buf_adds(&s->text, ", totals");
		for (e = 0; e < p->nevents; e++)
			cgu_buf_addf(&s->text, " %llu",
				     (unsigned long long)s->totals[e]);
		cgu_buf_addf(&s->text, ", by %s %s",
			     o->by_inclusive ? "inclusive" : "self", ev);
	}
	if (o->threshold > 0 && o->threshold < 100)
		cgu_buf_addf(&s->text, ", threshold %g%%", o->threshold);
	cgu_buf_addch(&s->text, '\n');
	if (o->note)
		cgu_buf_addf(&s->text, "# %s\n", o->note);
	if (!o->all_events) {
		cgu_buf_addf(&s->text, "# %14s %7s %14s %7s  function\n",
			     "self", "self%", "inclusive", "incl%");
		return;
	}
	cgu_buf_addch(&s->text, '#');
	for (e = 0; e < p->nevents; e++)
		cgu_buf_addf(&s->text, " %14s", p->events[e]);
	cgu_buf_addf(&s->text, " %7s", "self%");
	for (e = 0; e < p->nevents; e++) {
		char label[64];

		snprintf(label, sizeof(label), "incl:%s", p->events[e]);
		cgu_buf_addf(&s->text, " %14s", label);
	}
	cgu_buf_addf(&s->text, " %7s  function\n", "incl%");
}

static void line(struct summary *s, uint32_t n)
{
	const struct cgu_summary_opts *o = s->o;
	int ev = o->event;
	size_t e;

	cgu_buf_adds(&s->text, " ");
	for (e = s->first; e < s->end; e++)
		cgu_buf_addf(&s->text, " %14llu",
			     (unsigned long long)cgu_self(s->p, n)[e]);
	cgu_buf_addf(&s->text, " %6.2f%%",
		     percent(cgu_self(s->p, n)[ev], s->totals[ev]));
	for (e = s->first; e < s->end; e++)
		cgu_buf_addf(&s->text, " %14llu",
			     (unsigned long long)inclusive(s, n, e));
	cgu_buf_addf(&s->text, " %6.2f%%  ",
		     percent(inclusive(s, n, (size_t)ev), s->totals[ev]));
}

int cgu_summary_write(const struct cgu_profile *p,
		      const struct cgu_summary_opts *o, FILE *out,
		      struct cgu_error *err)
{
	struct summary s = { p, o, o->totals ? o->totals : p->totals, 0, 0,
			     CGU_BUF_INIT };
	struct cgu_name_table names;
	struct ranked *v;
	size_t i, n;
	int rc = CGU_OK;

	if (o->event < 0 || (size_t)o->event >= p->nevents)
		return cgu_error_set(err, CGU_EUSAGE, NULL, 0, "no such event");
	s.first = o->all_events ? 0 : (size_t)o->event;
	s.end = o->all_events ? p->nevents : (size_t)o->event + 1;
	v = calloc(p->nnodes ? p->nnodes : 1, sizeof(*v));
	if (!v)
		abort();
	for (i = 0; i < p->nnodes; i++) {
		v[i].node = (uint32_t)i;
		v[i].key = o->by_inclusive ? inclusive(&s, (uint32_t)i,
						       (size_t)o->event)
			 : cgu_self(p, (uint32_t)i)[o->event];
	}
	qsort(v, p->nnodes, sizeof(*v), cmp_ranked);
	n = lines_shown(&s, v);
	cgu_name_table_build(&names, p->nodes, p->nnodes, o->names);
	header(&s);
	for (i = 0; i < n; i++) {
		line(&s, v[i].node);
		cgu_buf_adds(&s.text, cgu_name_table_get(&names, v[i].node));
		cgu_buf_addch(&s.text, '\n');
	}
	if (cgu_buf_write(&s.text, out))
		rc = cgu_error_set(err, CGU_EIO, NULL, 0, "write error");
	free(v);
	cgu_name_table_release(&names);
	cgu_buf_release(&s.text);
	return rc;
}
