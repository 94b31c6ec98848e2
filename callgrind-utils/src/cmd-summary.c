/* cmd-summary.c - callgrind-utils summary */
#include <stdlib.h>
#include "cli.h"

enum { OPT_NAMES = CLI_OPT_FIRST_FREE, OPT_INCLUSIVE };

static const struct option options[] = {
	CLI_INPUT_LONGOPTS,
	CLI_STACKS_LONGOPTS,
	{ "names", required_argument, NULL, OPT_NAMES },
	{ "inclusive", no_argument, NULL, OPT_INCLUSIVE },
	{ "top", required_argument, NULL, 'n' },
	{ NULL, 0, NULL, 0 }
};

static int summary_option(int opt, const char *arg, void *ctx)
{
	struct cgu_summary_opts *o = ctx;
	char *end;

	switch (opt) {
	case OPT_NAMES:
		return cli_name_style("summary", arg, &o->names);
	case OPT_INCLUSIVE:
		o->by_inclusive = 1;
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

/* With exact stacks: the functions of the tree, with their inclusive
 * cost counted once per stack. */
static int summary_exact(const struct cli_item *it, int event, FILE *out,
			 struct cgu_error *err, struct cgu_summary_opts *o)
{
	cgu_cost *incl;
	struct cgu_profile *q = cgu_cct_profile(it->cct, it->part, &incl);
	struct cgu_buf note = CGU_BUF_INIT;
	int rc;

	o->event = cgu_cct_event(it->cct, it->p->events[event]);
	o->inclusive = incl;
	cgu_buf_addf(&note, "stacks: exact, from %s", it->stacks_name);
	o->note = note.data;
	rc = o->event < 0 ? cgu_error_set(err, CGU_EINPUT, it->stacks_name, 0,
					  "has no event %s",
					  it->p->events[event])
			  : cgu_summary_write(q, o, out, err);
	o->inclusive = NULL;
	o->note = NULL;
	cgu_buf_release(&note);
	free(incl);
	cgu_profile_free(q);
	return rc;
}

static int summary_write(const struct cli_item *it, int event, FILE *out,
			 struct cgu_error *err, void *ctx)
{
	struct cgu_summary_opts *o = ctx;

	if (it->cct)
		return summary_exact(it, event, out, err, o);
	o->event = event;
	o->note = no_stacks;
	return cgu_summary_write(it->p, o, out, err);
}

int cmd_summary(int argc, char **argv)
{
	struct cgu_summary_opts o = { 0, 20, 0, CGU_NAMES_FUNCTION, NULL, NULL };
	struct cli_spec spec = {
		.name = "summary",
		.usage = "summary [options] [FILE|-]...",
		.help =
		"The top functions by self (or inclusive) cost for the event,\n"
		"with their share of the total.  With exact stacks (from\n"
		"callgrind --collect-stacks=yes) a function's inclusive cost\n"
		"counts every stack it is on once, recursion or not; a line\n"
		"'# stacks:' says which.\n\n"
		"Options:\n"
		"  -n, --top N           show N functions (default 20, 0 = all)\n"
		"      --inclusive       sort by inclusive cost\n"
		CLI_STACKS_HELP CLI_NAMES_HELP CLI_INPUT_HELP,
		.options = options,
		.shortopts = "e:o:hn:",
		.option = summary_option,
		.write_item = summary_write,
		.ctx = &o,
	};

	return cli_main(argc, argv, &spec);
}
