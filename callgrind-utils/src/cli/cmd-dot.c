/* cmd-dot.c - callgrind-utils dot: the call graph as Graphviz DOT. */
#include <stdlib.h>
#include <callgrind-utils/cct.h>
#include <callgrind-utils/export.h>
#include "cli.h"

enum { OPT_NODE_THRES = CLI_OPT_FIRST_FREE, OPT_EDGE_THRES };

/* The view options but --all-frames: a call graph has every function
 * (and a graph of stacks is made of all their frames). */
static const struct option options[] = {
	CLI_INPUT_LONGOPTS,
	CLI_STACKS_LONGOPTS,
	CLI_NAMES_LONGOPT,
	{ "focus", required_argument, NULL, CLI_OPT_FOCUS },
	{ "ignore", required_argument, NULL, CLI_OPT_IGNORE },
	{ "hide", required_argument, NULL, CLI_OPT_HIDE },
	{ "merge", required_argument, NULL, CLI_OPT_MERGE },
	{ "node-thres", required_argument, NULL, OPT_NODE_THRES },
	{ "edge-thres", required_argument, NULL, OPT_EDGE_THRES },
	{ NULL, 0, NULL, 0 }
};

static int percent_option(const char *name, const char *arg, double *out)
{
	char *end;

	*out = strtod(arg, &end);
	if (*end || end == arg || !(*out >= 0 && *out <= 100))
		return cli_usage_error("dot", "--%s: expected a percentage "
				       "from 0 to 100, got '%s'", name, arg), -1;
	return 0;
}

static int dot_option(int opt, const char *arg, void *ctx)
{
	struct cgu_dot_opts *o = ctx;

	switch (opt) {
	case OPT_NODE_THRES:
		return percent_option("node-thres", arg, &o->node_thres);
	case OPT_EDGE_THRES:
		return percent_option("edge-thres", arg, &o->edge_thres);
	}
	return -1;
}

/* "cmd: X, event: Ir (desc), STACKS" into b */
static void title(const struct cli_item *it, int event, const char *stacks,
		  struct cgu_buf *b)
{
	const struct cgu_profile *p = it->p;

	if (p->cmd)
		cgu_buf_addf(b, "cmd: %s, ", p->cmd);
	cgu_buf_addf(b, "event: %s", p->events[event]);
	if (p->event_desc[event])
		cgu_buf_addf(b, " (%s)", p->event_desc[event]);
	cgu_buf_addf(b, ", %s", stacks);
}

/* --focus, --ignore, --hide: the graph of the stacks they keep. */
static int dot_of_view(const struct cli_item *it, int event,
		       struct cgu_dot_opts *o, struct cgu_profile **q,
		       cgu_cost **incl, struct cgu_buf *label,
		       struct cgu_error *err)
{
	const char *name = it->p->events[event];
	int rc = cli_view_profile(it, o->names, q, incl, err);

	o->names = CGU_NAMES_FUNCTION;   /* q's names are the stacks' */
	o->event = rc ? -1 : cgu_profile_event(*q, name);
	o->inclusive = *incl;
	o->no_calls = 1;
	o->totals = it->cct ? cgu_cct_part_totals(it->cct, it->part)
		  : it->p->totals;
	title(it, event, cli_stacks_label(it->cct ? CLI_STACKS_EXACT
	      : cli_stacks_kind_of(it->p, CGU_FOLD_AUTO)), label);
	if (o->event >= 0)
		cgu_buf_addf(label, "; the graph of the stacks --focus/--ignore/"
			     "--hide keep, %llu of %llu %s",
			     (unsigned long long)(*q)->totals[o->event],
			     (unsigned long long)o->totals[o->event], name);
	if (!rc && o->event < 0)
		rc = cgu_error_set(err, CGU_EINPUT, it->stacks_name, 0,
				   "has no event %s", name);
	return rc;
}

static int dot_write(const struct cli_item *it, int event, FILE *out,
		     struct cgu_error *err, void *ctx)
{
	struct cgu_dot_opts o = *(struct cgu_dot_opts *)ctx;
	struct cgu_buf label = CGU_BUF_INIT;
	struct cgu_profile *q = NULL;
	cgu_cost *incl = NULL;
	int rc;

	o.event = event;
	o.names = it->in->names;
	if (cgu_view_filters(&it->in->view)) {
		rc = dot_of_view(it, event, &o, &q, &incl, &label, err);
		o.title = label.data;
		if (!rc)
			rc = cgu_dot_write(q, &o, out, err);
		cgu_buf_release(&label);
		free(incl);
		cgu_profile_free(q);
		return rc;
	}
	if (it->cct) {
		q = cgu_cct_profile(it->cct, it->part, &incl);
		o.event = cgu_cct_event(it->cct, it->p->events[event]);
		o.inclusive = incl;
		title(it, event, "inclusive costs from the exact stacks", &label);
	} else {
		title(it, event, "inclusive costs from the call graph (exact "
		      "ones with callgrind --collect-stacks=yes)", &label);
	}
	o.title = label.data;
	rc = o.event < 0 ? cgu_error_set(err, CGU_EINPUT, it->stacks_name, 0,
					 "has no event %s",
					 it->p->events[event])
			 : cgu_dot_write(q ? q : it->p, &o, out, err);
	cgu_buf_release(&label);
	free(incl);
	cgu_profile_free(q);
	return rc;
}

int cmd_dot(int argc, char **argv)
{
	struct cgu_dot_opts o = { 0, 0.5, 0.1, CGU_NAMES_AUTO, NULL, NULL,
				  NULL, 0 };
	struct cli_spec spec = {
		.name = "dot",
		.usage = "dot [options] [FILE|-]...",
		.help =
		"The call graph of the event as a Graphviz graph, as gprof2dot draws\n"
		"one:  callgrind-utils dot cg.out | dot -Tsvg -o cg.svg\n"
		"A node is a function: its name, its inclusive cost and (in\n"
		"parentheses) its self cost in percent of the total, and the calls\n"
		"into it; an edge is the calls of a caller to a callee: the\n"
		"inclusive cost of those calls in percent and their number.  Both\n"
		"are coloured from blue (cold) to red (hot); hover for the costs.\n"
		"With exact stacks (from callgrind --collect-stacks=yes) a function's\n"
		"inclusive cost counts every stack it is on once, recursion or not;\n"
		"the graph's label says which.  Several parts (--separate-parts) are\n"
		"several graphs.  With --focus, --ignore or --hide the graph is that\n"
		"of the stacks they keep (exact, else reconstructed; every frame):\n"
		"a function's costs are those of the stacks it is on, a call's\n"
		"those of the stacks holding it, in percent of the whole profile's\n"
		"total; numbers of calls are not drawn.\n\n"
		"Options:\n"
		"      --node-thres PCT  leave out functions whose inclusive cost is\n"
		"                        below PCT percent of the total (default 0.5)\n"
		"      --edge-thres PCT  leave out calls whose inclusive cost is below\n"
		"                        PCT percent of the total (default 0.1), and\n"
		"                        those to or from a function left out\n"
		CLI_VIEW_HELP CLI_STACKS_HELP CLI_NAMES_HELP CLI_INPUT_HELP,
		.options = options,
		.shortopts = "e:o:h",
		.option = dot_option,
		.write_item = dot_write,
		.ctx = &o,
	};

	return cli_main(argc, argv, &spec);
}
