/* cmd-symbolize.c - callgrind-utils symbolize --perf-map FILE */
#include "cli.h"

enum { OPT_PERF_MAP = CLI_OPT_FIRST_FREE };

static const struct option options[] = {
	CLI_INPUT_LONGOPTS,
	{ "perf-map", required_argument, NULL, OPT_PERF_MAP },
	{ NULL, 0, NULL, 0 }
};

struct symbolize_ctx {
	struct cgu_perf_map map;
	int loaded;
	int status;
};

static int symbolize_option(int opt, const char *arg, void *ctx)
{
	struct symbolize_ctx *s = ctx;
	struct cgu_error err;

	if (opt != OPT_PERF_MAP)
		return -1;
	if (cgu_perf_map_load(&s->map, arg, &err)) {
		s->status = cli_report(&err);
		return -1;
	}
	s->loaded = 1;
	return 0;
}

static int symbolize_check(void *ctx)
{
	struct symbolize_ctx *s = ctx;

	if (s->status)
		return s->status;
	if (!s->loaded)
		return cli_usage_error("symbolize", "--perf-map MAP is required");
	return 0;
}

static int symbolize_write(const struct cgu_profile *p, int event, FILE *out,
			   struct cgu_error *err, void *ctx)
{
	struct symbolize_ctx *s = ctx;
	struct cgu_profile *q = cgu_symbolize(p, &s->map);
	int rc = cgu_callgrind_write(q, out, err);

	(void)event;
	cgu_profile_free(q);
	return rc;
}

int cmd_symbolize(int argc, char **argv)
{
	struct symbolize_ctx s = { { 0, 0, NULL, CGU_ARENA_INIT }, 0, 0 };
	struct cli_spec spec = {
		.name = "symbolize",
		.usage = "symbolize --perf-map MAP [options] [FILE|-]...",
		.help =
		"Write the profile back in Callgrind format with functions named\n"
		"0x<address> (JIT code) replaced by the perf map symbol whose\n"
		"range holds the address.  MAP has lines 'START SIZE name' in hex\n"
		"(/tmp/perf-PID.map).  Parts of context names ('-separated) are\n"
		"symbolized alike; 'N recursion suffixes are kept.\n\n"
		"Options:\n"
		"      --perf-map MAP    the perf map (required; may repeat)\n"
		CLI_INPUT_HELP,
		.options = options,
		.shortopts = "e:o:h",
		.option = symbolize_option,
		.check = symbolize_check,
		.write = symbolize_write,
		.ctx = &s,
	};
	int rc;

	rc = cli_main(argc, argv, &spec);
	if (s.status)
		rc = s.status;
	cgu_perf_map_release(&s.map);
	return rc;
}
