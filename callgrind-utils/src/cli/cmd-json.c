/* cmd-json.c - callgrind-utils json */
#include "cli.h"

static const struct option options[] = {
	CLI_INPUT_LONGOPTS,
	CLI_STACKS_LONGOPTS,
	{ NULL, 0, NULL, 0 }
};

static int json_write(const struct cli_item *it, int event, FILE *out,
		      struct cgu_error *err, void *ctx)
{
	(void)event;
	(void)ctx;
	return cgu_json_write_cct(it->p, it->cct, it->part, out, err);
}

int cmd_json(int argc, char **argv)
{
	struct cli_spec spec = {
		.name = "json",
		.usage = "json [options] [FILE|-]...",
		.help =
		"The model as JSON: header, events, totals, nodes (function,\n"
		"object, file, self cost per event) and edges (caller, callee,\n"
		"calls, inclusive cost per event).  \"stacks\" says \"exact\"\n"
		"when the exact stacks (from callgrind --collect-stacks=yes) are\n"
		"there, then in \"cct\" (frames and nodes of the calling-context\n"
		"tree), else \"none\".  --event is ignored.\n\n"
		"Options:\n" CLI_STACKS_HELP CLI_INPUT_HELP,
		.options = options,
		.shortopts = "e:o:h",
		.option = NULL,
		.write_item = json_write,
		.ctx = NULL,
	};

	return cli_main(argc, argv, &spec);
}
