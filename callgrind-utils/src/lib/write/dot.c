/* dot.c - the call graph of one event as a Graphviz DOT graph, in the
 * manner of gprof2dot: nodes and edges under a share of the total are
 * left out, the rest coloured from blue (cold) to red (hot).
 *
 *   digraph "callgrind" {
 *     graph [label="...", labelloc=t, ...];
 *     n0 [label="main\n98.10%\n(1.20%)\n1×", fillcolor="#...", ...];
 *     n0 -> n3 [label="45.00%\n12×", color="#...", penwidth=2.1];
 *   }
 *
 * Node identifiers are n + the node index, so names never need to be
 * identifiers; they are written inside double quotes only, escaped by
 * cgu_buf_add_dot().
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <callgrind-utils/export.h>

/* The colour of a share f (0..1) of the total: hue from blue to red,
 * the square root spreading the small shares, which are most. */
static void color(struct cgu_buf *b, double f)
{
	double h = 240.0 * (1.0 - sqrt(f < 0 ? 0 : f > 1 ? 1 : f)) / 60.0;
	double s = 0.85, l = 0.42;
	double c = (1.0 - fabs(2.0 * l - 1.0)) * s;
	double x = c * (1.0 - fabs(fmod(h, 2.0) - 1.0)), m = l - c / 2.0;
	double rgb[3] = { 0, 0, 0 };
	int sector = (int)h;

	switch (sector) {
	case 0: rgb[0] = c; rgb[1] = x; break;
	case 1: rgb[0] = x; rgb[1] = c; break;
	case 2: rgb[1] = c; rgb[2] = x; break;
	case 3: rgb[1] = x; rgb[2] = c; break;
	default: rgb[0] = x; rgb[2] = c; break;
	}
	cgu_buf_addf(b, "\"#%02x%02x%02x\"", (unsigned)lround((rgb[0] + m) * 255),
		     (unsigned)lround((rgb[1] + m) * 255),
		     (unsigned)lround((rgb[2] + m) * 255));
}

struct graph {
	const struct cgu_profile *p;
	const struct cgu_dot_opts *o;
	int ev;
	cgu_cost total;
	struct cgu_name_table names;   /* in o->names */
	cgu_cost *incl;           /* per node */
	char *keep;               /* per node */
	size_t nkept, ekept;
	struct cgu_buf b;
};

static double share(const struct graph *g, cgu_cost c)
{
	return g->total ? (double)c / (double)g->total : 0.0;
}

static int above(const struct graph *g, cgu_cost c, double thres)
{
	return 100.0 * (double)c >= thres * (double)g->total;
}

static void node_name(struct graph *g, uint32_t n)
{
	cgu_buf_add_dot(&g->b, cgu_name_table_get(&g->names, n));
}

/* The name with file and object, when the node has them (a graph of
 * stacks has names only). */
static void full_name(struct graph *g, uint32_t n)
{
	const struct cgu_node *node = &g->p->nodes[n];
	struct cgu_buf name = CGU_BUF_INIT;

	if (!node->file[0] && !node->object[0]) {
		node_name(g, n);
		return;
	}
	cgu_node_name(g->p, n, CGU_NAMES_FULL, &name);
	cgu_buf_add_dot(&g->b, name.data);
	cgu_buf_release(&name);
}

static uint64_t calls_into(const struct cgu_profile *p, uint32_t n)
{
	uint64_t calls = 0;

	for (uint32_t k = p->in_start[n]; k < p->in_start[n + 1]; k++)
		if (p->edges[p->in_edges[k]].caller != n)
			calls += p->edges[p->in_edges[k]].calls;
	return calls;
}

static void write_node(struct graph *g, uint32_t n)
{
	const char *ev = g->p->events[g->ev];
	cgu_cost self = cgu_self(g->p, n)[g->ev];
	uint64_t calls = calls_into(g->p, n);
	double f = share(g, g->incl[n]);

	cgu_buf_addf(&g->b, "  n%u [label=\"", n);
	node_name(g, n);
	cgu_buf_addf(&g->b, "\\n%.2f%%\\n(%.2f%%)", 100.0 * f,
		     100.0 * share(g, self));
	if (calls)
		cgu_buf_addf(&g->b, "\\n%llu\xc3\x97", (unsigned long long)calls);
	cgu_buf_adds(&g->b, "\", tooltip=\"");
	full_name(g, n);
	cgu_buf_addf(&g->b, "\\ninclusive %llu %s, self %llu %s\", color=",
		     (unsigned long long)g->incl[n], ev,
		     (unsigned long long)self, ev);
	color(&g->b, f);
	cgu_buf_adds(&g->b, ", fillcolor=");
	color(&g->b, f);
	cgu_buf_adds(&g->b, "];\n");
}

static void write_edge(struct graph *g, uint32_t j)
{
	const struct cgu_edge *e = &g->p->edges[j];
	cgu_cost c = cgu_edge_cost(g->p, j)[g->ev];
	/* a recursive call's cost counts again at every level: more than
	 * the function's own, a share of nothing; it is drawn thin */
	int self = e->caller == e->callee;
	double f = self ? 0.0 : share(g, c);

	cgu_buf_addf(&g->b, "  n%u -> n%u [label=\"", e->caller, e->callee);
	if (!self)
		cgu_buf_addf(&g->b, "%.2f%%", 100.0 * f);
	if (!g->o->no_calls)
		cgu_buf_addf(&g->b, "%s%llu\xc3\x97", self ? "" : "\\n",
			     (unsigned long long)e->calls);
	cgu_buf_adds(&g->b, "\", tooltip=\"");
	node_name(g, e->caller);
	cgu_buf_adds(&g->b, " -> ");
	node_name(g, e->callee);
	cgu_buf_adds(&g->b, "\\n");
	if (!g->o->no_calls)
		cgu_buf_addf(&g->b, "%llu calls, ",
			     (unsigned long long)e->calls);
	cgu_buf_addf(&g->b, "inclusive %llu %s\", color=",
		     (unsigned long long)c, g->p->events[g->ev]);
	color(&g->b, self ? share(g, g->incl[e->caller]) : f);
	cgu_buf_addf(&g->b, ", penwidth=%.2f];\n", 0.5 + 3.5 * fmin(f, 1.0));
}

static void header(struct graph *g)
{
	const struct cgu_dot_opts *o = g->o;

	cgu_buf_adds(&g->b, "digraph \"callgrind\" {\n  graph [fontname=\"Helvetica\", "
		     "nodesep=0.25, ranksep=0.35, labelloc=t, label=\"");
	if (o->title) {
		cgu_buf_add_dot(&g->b, o->title);
		cgu_buf_adds(&g->b, "\\n");
	}
	cgu_buf_addf(&g->b, "total %llu %s; %zu of %zu functions (inclusive >= "
		     "%g%%), %zu of %zu calls (>= %g%%)\"];\n",
		     (unsigned long long)g->total, g->p->events[g->ev], g->nkept,
		     g->p->nnodes, o->node_thres, g->ekept, g->p->nedges,
		     o->edge_thres);
	cgu_buf_adds(&g->b, "  node [fontname=\"Helvetica\", fontsize=10, shape=box, "
		     "style=\"filled,rounded\", fontcolor=\"#ffffff\"];\n"
		     "  edge [fontname=\"Helvetica\", fontsize=9, arrowsize=0.6];\n");
}

static int edge_kept(const struct graph *g, uint32_t j)
{
	const struct cgu_edge *e = &g->p->edges[j];

	return g->keep[e->caller] && g->keep[e->callee] &&
	       above(g, cgu_edge_cost(g->p, j)[g->ev], g->o->edge_thres);
}

int cgu_dot_write(const struct cgu_profile *p, const struct cgu_dot_opts *o,
		  FILE *out, struct cgu_error *err)
{
	struct graph g = { p, o, o->event, 0, { CGU_BUF_INIT, NULL, 0 }, NULL,
			   NULL, 0, 0, CGU_BUF_INIT };
	int rc = 0;

	if (o->event < 0 || (size_t)o->event >= p->nevents)
		return cgu_error_set(err, CGU_EUSAGE, NULL, 0, "no such event");
	g.total = o->totals ? o->totals[g.ev] : p->totals[g.ev];
	cgu_name_table_build(&g.names, p->nodes, p->nnodes, o->names);
	g.incl = calloc(p->nnodes ? p->nnodes : 1, sizeof(*g.incl));
	g.keep = calloc(p->nnodes ? p->nnodes : 1, 1);
	if (!g.incl || !g.keep)
		abort();
	for (uint32_t n = 0; n < p->nnodes; n++) {
		g.incl[n] = o->inclusive ? o->inclusive[(size_t)n * p->nevents + g.ev]
			  : cgu_node_inclusive(p, n, g.ev);
		g.keep[n] = g.incl[n] > 0 && above(&g, g.incl[n], o->node_thres);
		g.nkept += g.keep[n];
	}
	for (uint32_t j = 0; j < p->nedges; j++)
		g.ekept += edge_kept(&g, j);
	header(&g);
	for (uint32_t n = 0; n < p->nnodes && rc == 0; n++) {
		if (g.keep[n])
			write_node(&g, n);
		rc = cgu_buf_flush(&g.b, out, 1 << 16);
	}
	for (uint32_t j = 0; j < p->nedges && rc == 0; j++) {
		if (edge_kept(&g, j))
			write_edge(&g, j);
		rc = cgu_buf_flush(&g.b, out, 1 << 16);
	}
	cgu_buf_adds(&g.b, "}\n");
	if (rc == 0)
		rc = cgu_buf_flush(&g.b, out, 0);
	free(g.incl);
	free(g.keep);
	cgu_name_table_release(&g.names);
	cgu_buf_release(&g.b);
	return rc ? cgu_error_set(err, CGU_EIO, NULL, 0, "write error") : 0;
}
