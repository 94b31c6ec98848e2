/* cmd-edges.c - callgrind-utils edges */
#include "cli.h"

enum { OPT_NAMES = CLI_OPT_FIRST_FREE };

static const struct option options[] = {
	CLI_INPUT_LONGOPTS,
	{ "names", required_argument, NULL, OPT_NAMES },
	{ "merge", required_argument, NULL, CLI_OPT_MERGE },
	{ NULL, 0, NULL, 0 }
};

static int edges_option(int opt, const char *arg, void *ctx)
{
	return opt == OPT_NAMES ? cli_name_style("edges", arg, ctx) : -1;
}

static int edges_write(const struct cgu_profile *p, int event, FILE *out,
		       struct cgu_error *err, void *ctx)
{
	return cgu_edges_write(p, event, *(enum cgu_name_style *)ctx, out, err);
}

int cmd_edges(int argc, char **argv)
{
	enum cgu_name_style names = CGU_NAMES_AUTO;
	struct cli_spec spec = {
		.name = "edges",
		.usage = "edges [options] [FILE|-]...",
		.help =
		"One line 'caller -> callee calls cost' per edge of the call\n"
		"graph, sorted bytewise; cost is the inclusive cost of the calls\n"
		"for the event.  Edges with equal printed names are summed.\n\n"
		"Options:\n" CLI_MERGE_HELP CLI_NAMES_HELP CLI_INPUT_HELP,
		.options = options,
		.shortopts = "e:o:h",
		.option = edges_option,
		.write = edges_write,
		.ctx = &names,
	};

	return cli_main(argc, argv, &spec);
}
