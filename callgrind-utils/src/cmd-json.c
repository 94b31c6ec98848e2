/* cmd-json.c - callgrind-utils json */
#include "cli.h"

static const struct option options[] = {
	CLI_INPUT_LONGOPTS,
	{ NULL, 0, NULL, 0 }
};

static int json_write(const struct cgu_profile *p, int event, FILE *out,
		      struct cgu_error *err, void *ctx)
{
	(void)event;
	(void)ctx;
	return cgu_json_write(p, out, err);
}

int cmd_json(int argc, char **argv)
{
	struct cli_spec spec = {
		.name = "json",
		.usage = "json [options] [FILE|-]...",
		.help =
		"The model as JSON: header, events, totals, nodes (function,\n"
		"object, file, self cost per event) and edges (caller, callee,\n"
		"calls, inclusive cost per event).  --event is ignored.\n\n"
		"Options:\n" CLI_INPUT_HELP,
		.options = options,
		.shortopts = "e:o:h",
		.option = NULL,
		.write = json_write,
		.ctx = NULL,
	};

	return cli_main(argc, argv, &spec);
}
