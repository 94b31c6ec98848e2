/* cmd-fold.c - callgrind-utils fold */
#include <stdlib.h>
#include <string.h>
#include "cli.h"

enum { OPT_NAMES = CLI_OPT_FIRST_FREE, OPT_MODE, OPT_MIN };

static const struct option options[] = {
	CLI_INPUT_LONGOPTS,
	{ "names", required_argument, NULL, OPT_NAMES },
	{ "mode", required_argument, NULL, OPT_MODE },
	{ "min-fraction", required_argument, NULL, OPT_MIN },
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
	}
	return -1;
}

static int fold_write(const struct cgu_profile *p, int event, FILE *out,
		      struct cgu_error *err, void *ctx)
{
	struct cgu_fold_opts *o = ctx;

	o->event = event;
	return cgu_fold_write(p, o, out, err);
}

int cmd_fold(int argc, char **argv)
{
	struct cgu_fold_opts o = { 0, CGU_FOLD_AUTO, 0, CGU_NAMES_FUNCTION };
	struct cli_spec spec = {
		.name = "fold",
		.usage = "fold [options] [FILE|-]...",
		.help =
		"Folded stacks 'root;...;leaf cost' (the input of flamegraph.pl,\n"
		"inferno, speedscope) for the event.  The costs add up to the\n"
		"profile total.\n\n"
		"Options:\n"
		"      --mode MODE       exact: stacks from caller context in names\n"
		"                        (--separate-callers=N); graph: stacks\n"
		"                        reconstructed from the call graph, self\n"
		"                        cost shared over callers in proportion to\n"
		"                        their inclusive cost, no call carrying more\n"
		"                        than its cost, cycles cut; auto\n"
		"                        (default): exact when names have context\n"
		"      --min-fraction F  graph mode: a share below F of the total\n"
		"                        follows its heaviest caller instead of\n"
		"                        being split (default 0.0001, 0 = never)\n"
		CLI_NAMES_HELP CLI_INPUT_HELP,
		.options = options,
		.shortopts = "e:o:h",
		.option = fold_option,
		.write = fold_write,
		.ctx = &o,
	};

	return cli_main(argc, argv, &spec);
}
