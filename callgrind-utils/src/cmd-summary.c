/* cmd-summary.c - callgrind-utils summary */
#include <stdlib.h>
#include "cli.h"

enum { OPT_NAMES = CLI_OPT_FIRST_FREE, OPT_INCLUSIVE };

static const struct option options[] = {
	CLI_INPUT_LONGOPTS,
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

static int summary_write(const struct cgu_profile *p, int event, FILE *out,
			 struct cgu_error *err, void *ctx)
{
	struct cgu_summary_opts *o = ctx;

	o->event = event;
	return cgu_summary_write(p, o, out, err);
}

int cmd_summary(int argc, char **argv)
{
	struct cgu_summary_opts o = { 0, 20, 0, CGU_NAMES_FUNCTION };
	struct cli_spec spec = {
		.name = "summary",
		.usage = "summary [options] [FILE|-]...",
		.help =
		"The top functions by self (or inclusive) cost for the event,\n"
		"with their share of the total.\n\n"
		"Options:\n"
		"  -n, --top N           show N functions (default 20, 0 = all)\n"
		"      --inclusive       sort by inclusive cost\n"
		CLI_NAMES_HELP CLI_INPUT_HELP,
		.options = options,
		.shortopts = "e:o:hn:",
		.option = summary_option,
		.write = summary_write,
		.ctx = &o,
	};

	return cli_main(argc, argv, &spec);
}
