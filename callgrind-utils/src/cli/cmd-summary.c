/* cmd-summary.c - callgrind-utils summary */
#include <stdlib.h>
#include <string.h>
#include <callgrind-utils/cct.h>
#include "cli.h"

enum { OPT_NAMES = CLI_OPT_FIRST_FREE, OPT_INCLUSIVE, OPT_SORT,
       OPT_THRESHOLD };

static const struct option options[] = {
	CLI_INPUT_LONGOPTS,
	CLI_STACKS_LONGOPTS,
	CLI_VIEW_LONGOPTS,
	{ "names", required_argument, NULL, OPT_NAMES },
	{ "inclusive", no_argument, NULL, OPT_INCLUSIVE },
	{ "sort", required_argument, NULL, OPT_SORT },
	{ "threshold", required_argument, NULL, OPT_THRESHOLD },
	{ "top", required_argument, NULL, 'n' },
	{ NULL, 0, NULL, 0 }
};

struct summary_cmd {
	struct cgu_summary_opts o;
	const char *sort;         /* --sort EVENT */
};

static int summary_option(int opt, const char *arg, void *ctx)
{
	struct summary_cmd *c = ctx;
	struct cgu_summary_opts *o = &c->o;
	char *end;

	switch (opt) {
	case OPT_NAMES:
		return cli_name_style("summary", arg, &o->names);
	case OPT_INCLUSIVE:
		o->by_inclusive = 1;
		return 0;
	case OPT_SORT:
		c->sort = arg;
		return 0;
	case OPT_THRESHOLD:
		o->threshold = strtod(arg, &end);
		if (*end || end == arg || !(o->threshold >= 0) ||
		    o->threshold > 100)
			return cli_usage_error("summary", "--threshold: "
					       "expected a percentage from 0 "
					       "to 100, got '%s'", arg), -1;
		return 0;
	case 'n':
		o->top = (size_t)strtoul(arg, &end, 10);
		if (*end || end == arg)
			return cli_usage_error("summary", "--top: expected a "
					       "number, got '%s'", arg), -1;
		return 0;
	}
	return -1;
}

static const char no_stacks[] =
	"stacks: none, inclusive costs from the call graph (exact ones with "
	"callgrind --collect-stacks=yes)";

/* The event to sort by in p (whose events may be those of the exact
 * stacks): --sort, else --event, else the first; -1 with err set. */
static int sort_event(const struct summary_cmd *c, const struct cli_item *it,
		      const struct cgu_profile *p, int event,
		      struct cgu_error *err)
{
	const char *name = c->sort ? c->sort : it->p->events[event];
	int ev = cgu_profile_event(p, name);

	if (c->sort && it->in->event && strcmp(c->sort, it->in->event)) {
		cgu_error_set(err, CGU_EUSAGE, NULL, 0, "summary --sort %s: "
			      "--event %s shows only %s", c->sort,
			      it->in->event, it->in->event);
		return -1;
	}
	if (ev >= 0)
		return ev;
	if (p != it->p && (!c->sort || cgu_profile_event(it->p, name) >= 0))
		cgu_error_set(err, CGU_EINPUT, it->stacks_name, 0,
			      "has no event %s", name);
	else
		cgu_error_set(err, CGU_EUSAGE, NULL, 0, "summary --sort: no "
			      "event '%s' in the profile", name);
	return -1;
}

/* ------------------------------------------- from the stacks of a view */

/* The profile of the stacks of it's view, every event, into *q and
 * *incl (cli_view_profile()); o->totals the whole profile's. */
static int profile_of_view(const struct cli_item *it,
			   struct cgu_summary_opts *o, struct cgu_profile **q,
			   cgu_cost **incl, struct cgu_error *err)
{
	int rc = cli_view_profile(it, o->names, q, incl, err);

	o->totals = it->cct ? cgu_cct_part_totals(it->cct, it->part)
		  : it->p->totals;
	o->names = CGU_NAMES_FUNCTION;   /* q's names are the stacks' */
	return rc;
}

static int summary_write(const struct cli_item *it, int event, FILE *out,
			 struct cgu_error *err, void *ctx)
{
	struct summary_cmd *c = ctx;
	struct cgu_summary_opts o = c->o;
	struct cgu_profile *q = NULL;
	const struct cgu_profile *shown = it->p;
	cgu_cost *incl = NULL;
	struct cgu_buf note = CGU_BUF_INIT;
	int rc = CGU_OK;

	o.all_events = !it->in->event;
	if (it->cct)
		cgu_buf_addf(&note, "stacks: exact, from %s", it->stacks_name);
	else
		cgu_buf_adds(&note, no_stacks);
	if (cgu_view_filters(&it->in->view)) {
		if (!it->cct) {
			cgu_buf_reset(&note);
			cgu_buf_addf(&note, "stacks: %s", cli_stacks_label(
				     cli_stacks_kind_of(it->p, CGU_FOLD_AUTO)));
		}
		rc = profile_of_view(it, &o, &q, &incl, err);
	} else if (it->cct) {
		q = cgu_cct_profile(it->cct, it->part, &incl);
	}
	if (q)
		shown = q;
	o.inclusive = incl;
	o.event = rc ? -1 : sort_event(c, it, shown, event, err);
	if (o.event >= 0 && q && o.totals)
		cgu_buf_addf(&note, "; --focus/--ignore/--hide keep %llu of "
			     "%llu %s", (unsigned long long)q->totals[o.event],
			     (unsigned long long)o.totals[o.event],
			     q->events[o.event]);
	o.note = note.data;
	if (o.event >= 0)
		rc = cgu_summary_write(shown, &o, out, err);
	else if (!rc)
		rc = err->code;
	free(incl);
	cgu_profile_free(q);
	cgu_buf_release(&note);
	return rc;
}

int cmd_summary(int argc, char **argv)
{
	struct summary_cmd c = {
		{ 0, 20, 0, CGU_NAMES_AUTO, NULL, NULL, 0, 0, NULL }, NULL,
	};
	struct cli_spec spec = {
		.name = "summary",
		.usage = "summary [options] [FILE|-]...",
		.help =
		"The top functions by self (or inclusive) cost, with their share\n"
		"of the total: a column for every event (or the one of --event),\n"
		"sorted by the first (or --sort, or --event).  With exact stacks\n"
		"(from callgrind --collect-stacks=yes) a function's inclusive cost\n"
		"counts every stack it is on once, recursion or not; a line\n"
		"'# stacks:' says which.  With --focus, --ignore or --hide the\n"
		"costs are those of the stacks kept (exact, else reconstructed),\n"
		"the percentages of the whole profile's.\n\n"
		"Options:\n"
		"  -n, --top N           show N functions (default 20, 0 = all)\n"
		"      --threshold PCT   show functions until those shown hold PCT\n"
		"                        percent of the sorted cost (as\n"
		"                        callgrind_annotate --threshold; default 100)\n"
		"      --sort EVENT      sort by EVENT (default: the first event)\n"
		"      --inclusive       sort by inclusive cost\n"
		CLI_VIEW_HELP CLI_STACKS_HELP CLI_NAMES_HELP CLI_INPUT_HELP,
		.options = options,
		.shortopts = "e:o:hn:",
		.option = summary_option,
		.write_item = summary_write,
		.ctx = &c,
	};

	return cli_main(argc, argv, &spec);
}
