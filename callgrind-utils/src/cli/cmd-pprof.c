/* cmd-pprof.c - callgrind-utils pprof: the stacks of every event as a
 * gzip'd profile.proto for go tool pprof and pprof's web UI. */
#include <stdlib.h>
#include "cli-stacks.h"

enum { OPT_MAX_FRAMES = CLI_OPT_FIRST_FREE };

static const struct option options[] = {
	CLI_EXPORT_LONGOPTS,
	{ "max-frames", required_argument, NULL, OPT_MAX_FRAMES },
	{ NULL, 0, NULL, 0 },
};

static int pprof_option(int opt, const char *arg, void *ctx)
{
	struct cgu_pprof_opts *o = ctx;
	char *end;

	if (opt != OPT_MAX_FRAMES)
		return -1;
	o->max_frames = strtoull(arg, &end, 10);
	if (*end || end == arg || *arg == '-' || o->max_frames == 0)
		return cli_usage_error("pprof", "--max-frames: expected a "
				       "positive number, got '%s'", arg), -1;
	return 0;
}

static int pprof_write(const struct cgu_profile *p,
			const struct cgu_export_event *events, size_t n,
		       const char *title, FILE *out, struct cgu_error *err,
		       void *ctx)
{
	struct cgu_pprof_opts *o = ctx;
	const char *comments[] = { title };

	o->comments = comments;
	o->ncomments = 1;
	o->program = p ? p->cmd : NULL;
	return cgu_pprof_write(events, n, o, out, err);
}

int cmd_pprof(int argc, char **argv)
{
	struct cgu_pprof_opts o = { NULL, 0, NULL, 0 };
	struct cli_export x = {
		.spec = {
			.name = "pprof",
			.usage = "pprof [options] [FILE|-]",
			.help =
			"Export a Callgrind profile or folded stacks as a gzip'd pprof\n"
			"profile (profile.proto), for 'go tool pprof' and pprof's web UI:\n"
			"  callgrind-utils pprof -o cg.pb.gz callgrind.out.1234\n"
			"  go tool pprof -top -sample_index=Ir cg.pb.gz\n"
			"  go tool pprof -http=: cg.pb.gz\n"
			"Every event is a sample type (unit: count), the first the default;\n"
			"--event keeps one.  A sample is a stack with its cost per event; a\n"
			"function is a frame, with its source file; an object is a mapping.\n"
			"The stacks are those of the fold command: a profile's exact stacks\n"
			"(PROFILE.stacks, from callgrind --collect-stacks=yes) when they are\n"
			"there, else reconstructed from the call graph, an estimate; the\n"
			"profile's comment says which (go tool pprof -comments).  Binary: it\n"
			"is not written to a terminal.\n\n"
			"Options:\n"
			"      --max-frames N    stop with an error once the samples hold N\n"
			"                        frames in all (default 50000000, about\n"
			"                        100 MB before compression)\n"
			CLI_EXPORT_HELP,
			.options = options,
			.shortopts = "e:o:h",
			.option = pprof_option,
			.ctx = &o,
		},
		.write = pprof_write,
		.binary = 1,
	};

	return cli_export_main(argc, argv, &x);
}
