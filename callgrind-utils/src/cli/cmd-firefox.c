/* cmd-firefox.c - callgrind-utils firefox: the stacks of every event as
 * a Firefox Profiler processed profile. */
#include "cli-stacks.h"

static const struct option options[] = {
	CLI_EXPORT_LONGOPTS,
	{ NULL, 0, NULL, 0 },
};

static int firefox_write(const struct cgu_profile *p,
			const struct cgu_export_event *events, size_t n,
			 const char *title, FILE *out, struct cgu_error *err,
			 void *ctx)
{
	(void)p;
	(void)ctx;
	return cgu_firefox_write(events, n, title, out, err);
}

int cmd_firefox(int argc, char **argv)
{
	struct cli_export x = {
		.spec = {
			.name = "firefox",
			.usage = "firefox [options] [FILE|-]",
			.help =
			"Export a Callgrind profile or folded stacks for the Firefox Profiler\n"
			"(load the file at profiler.firefox.com, or with samply load or\n"
			"profiler-cli load).  Every event is a track of its own, named after\n"
			"it; --event keeps one.  A sample is a stack weighted by its cost,\n"
			"so the call tree, flame graph and function list show costs, not\n"
			"counts of samples (the timeline's time is only the order of the\n"
			"stacks: Callgrind measures no time).  Frames are coloured by\n"
			"object: user code, libc, loader, JIT, skipped.  The stacks are\n"
			"those of the fold command: a profile's exact stacks\n"
			"(PROFILE.stacks, from callgrind --collect-stacks=yes) when they are\n"
			"there, else reconstructed from the call graph, an estimate; the\n"
			"profile's title says which.\n\n"
			CLI_EXPORT_HELP,
			.options = options,
			.shortopts = "e:o:h",
		},
		.write = firefox_write,
	};

	return cli_export_main(argc, argv, &x);
}
