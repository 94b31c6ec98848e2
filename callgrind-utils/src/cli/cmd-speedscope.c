/* cmd-speedscope.c - callgrind-utils speedscope: a profile (every event
 * as its own profile) or folded stacks in speedscope's file format. */
#include <callgrind-utils/speedscope.h>
#include "cli-stacks.h"

static const struct option options[] = {
	CLI_EXPORT_LONGOPTS,
	{ NULL, 0, NULL, 0 },
};

static int speedscope_write(const struct cgu_profile *p,
			const struct cgu_export_event *events, size_t n,
			    const char *title, FILE *out,
			    struct cgu_error *err, void *ctx)
{
	struct cgu_speedscope_profile prof[CGU_MAX_EVENTS];

	(void)p;
	(void)ctx;
	for (size_t i = 0; i < n; i++) {
		prof[i].name = events[i].name;
		prof[i].stacks = events[i].stacks;
	}
	if (cgu_speedscope_write(prof, n, title, out))
		return cgu_error_set(err, CGU_EIO, NULL, 0, "write error");
	return 0;
}

int cmd_speedscope(int argc, char **argv)
{
	struct cli_export x = {
		.spec = {
			.name = "speedscope",
			.usage = "speedscope [options] [FILE|-]",
			.help =
			"Export a Callgrind profile or folded stacks as a speedscope file\n"
			"(open it at speedscope.app or with the speedscope command).  Every\n"
			"event of a profile becomes a profile of its own; --event keeps one.\n"
			"The stacks are a profile's exact stacks (PROFILE.stacks, from\n"
			"callgrind --collect-stacks=yes) when they are there, else\n"
			"reconstructed from the call graph, an estimate: the file's name\n"
			"says which.\n\n"
			CLI_EXPORT_HELP,
			.options = options,
			.shortopts = "e:o:h",
		},
		.write = speedscope_write,
	};

	return cli_export_main(argc, argv, &x);
}
