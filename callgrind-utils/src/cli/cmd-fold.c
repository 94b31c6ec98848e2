/* cmd-fold.c - callgrind-utils fold */
#include <stdlib.h>
#include <string.h>
#include "cli.h"

enum { OPT_NAMES = CLI_OPT_FIRST_FREE, OPT_MODE, OPT_MIN, OPT_MAX_FRAMES };

static const struct option options[] = {
	CLI_INPUT_LONGOPTS,
	CLI_STACKS_LONGOPTS,
	CLI_PER_THREAD_LONGOPT,
	CLI_VIEW_LONGOPTS,
	{ "verbose", no_argument, NULL, CLI_OPT_VERBOSE },
	{ "names", required_argument, NULL, OPT_NAMES },
	{ "mode", required_argument, NULL, OPT_MODE },
	{ "min-fraction", required_argument, NULL, OPT_MIN },
	{ "max-frames", required_argument, NULL, OPT_MAX_FRAMES },
	{ NULL, 0, NULL, 0 }
};

static int fold_option(int opt, const char *arg, void *ctx)
{
	struct cgu_fold_opts *o = ctx;
	char *end;

	switch (opt) {
	case OPT_NAMES:
		return cli_name_style("fold", arg, &o->names);
	case OPT_MODE:
		if (!strcmp(arg, "auto"))
			o->mode = CGU_FOLD_AUTO;
		else if (!strcmp(arg, "exact"))
			o->mode = CGU_FOLD_EXACT;
		else if (!strcmp(arg, "graph"))
			o->mode = CGU_FOLD_GRAPH;
		else
			return cli_usage_error("fold", "--mode: expected auto, "
					       "exact or graph, got '%s'",
					       arg), -1;
		return 0;
	case OPT_MIN:
		o->min_fraction = strtod(arg, &end);
		if (*end || end == arg || o->min_fraction > 1)
			return cli_usage_error("fold", "--min-fraction: "
					       "expected a number <= 1, got "
					       "'%s'", arg), -1;
		if (o->min_fraction == 0)
			o->min_fraction = -1;
		return 0;
	case OPT_MAX_FRAMES:
		o->max_frames = strtoull(arg, &end, 10);
		if (*end || end == arg || *arg == '-' || o->max_frames == 0)
			return cli_usage_error("fold", "--max-frames: expected a "
					       "positive number, got '%s'",
					       arg), -1;
		return 0;
	}
	return -1;
}

/* The exact stacks' event of the profile's event. */
static int cct_event(const struct cli_item *it, int event,
		     struct cgu_error *err)
{
	int ev = cgu_cct_event(it->cct, it->p->events[event]);

	if (ev < 0)
		cgu_error_set(err, CGU_EINPUT, it->stacks_name, 0,
			      "has no event %s", it->p->events[event]);
	return ev;
}

static int fold_write(const struct cli_item *it, int event, FILE *out,
		      struct cgu_error *err, void *ctx)
{
	struct cgu_fold_opts *o = ctx;
	int exact = it->cct && o->mode != CGU_FOLD_GRAPH;
	struct cgu_cct_fold_opts co = { 0, o->names, it->in->per_thread,
					it->part, &it->in->view };

	o->event = event;
	o->view = &it->in->view;
	if (it->in->verbose)
		fprintf(stderr, "callgrind-utils fold: %s%s%s\n",
			cli_stacks_label(exact ? CLI_STACKS_EXACT
					 : cli_stacks_kind_of(it->p, o->mode)),
			exact ? " from " : "", exact ? it->stacks_name : "");
	if (!exact && it->in->per_thread)
		return cgu_error_set(err, CGU_EUSAGE, NULL, 0, "callgrind-utils "
				     "fold: --per-thread needs exact stacks, "
				     "not --mode graph");
	if (!exact)
		return cgu_fold_write(it->p, o, out, err);
	co.event = cct_event(it, event, err);
	if (co.event < 0)
		return CGU_EINPUT;
	return cgu_cct_fold_write(it->cct, &co, out, err);
}

int cmd_fold(int argc, char **argv)
{
	struct cgu_fold_opts o = { 0, CGU_FOLD_AUTO, 0, CGU_NAMES_AUTO, 0, NULL };
	struct cli_spec spec = {
		.name = "fold",
		.usage = "fold [options] [FILE|-]...",
		.help =
		"Folded stacks 'root;...;leaf cost' (the input of flamegraph.pl,\n"
		"inferno, speedscope) for the event.  The costs add up to the\n"
		"profile total.  With exact stacks (PROFILE.stacks, from\n"
		"callgrind --collect-stacks=yes) the stacks are the program's\n"
		"own; without, they are reconstructed from the call graph, an\n"
		"estimate.  Nothing on stdout says which: --verbose says it on\n"
		"stderr.\n\n"
		"Options:\n"
		"      --mode MODE       exact: the exact stacks, else stacks from\n"
		"                        caller context in names\n"
		"                        (--separate-callers=N); graph: stacks\n"
		"                        reconstructed from the call graph, self\n"
		"                        cost shared over callers in proportion to\n"
		"                        their inclusive cost, no call carrying more\n"
		"                        than its cost, cycles cut (as\n"
		"                        --reconstructed); auto (default): exact\n"
		"                        when there are exact stacks or names have\n"
		"                        context, else graph\n"
		"      --min-fraction F  graph mode: a share below F of the total\n"
		"                        follows its heaviest caller instead of\n"
		"                        being split (default 0.0001, 0 = never)\n"
		"      --max-frames N    graph mode: stop with an error once the\n"
		"                        stacks hold N frames in all (default\n"
		"                        50000000, about 200 MB)\n"
		CLI_STACKS_HELP CLI_PER_THREAD_HELP CLI_ROOT_HELP CLI_VIEW_HELP
		"  -v, --verbose         say on stderr which stacks are drawn\n"
		CLI_NAMES_HELP CLI_INPUT_HELP,
		.options = options,
		.shortopts = "e:o:hv",
		.option = fold_option,
		.write_item = fold_write,
		.ctx = &o,
	};

	return cli_main(argc, argv, &spec);
}
