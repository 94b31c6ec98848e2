/* cmd-speedscope.c - callgrind-utils speedscope: a profile (every event
 * as its own profile) or folded stacks in speedscope's file format. */
#include <stdlib.h>
#include <string.h>

#include <callgrind-utils/speedscope.h>
#include "cli-stacks.h"

static const char usage[] = "speedscope [options] [FILE|-]";
static const char help[] =
	"Export a Callgrind profile or folded stacks as a speedscope file\n"
	"(open it at speedscope.app or with the speedscope command).  Every\n"
	"event of a profile becomes a profile of its own; --event keeps one.\n"
	"The stacks are a profile's exact stacks (PROFILE.stacks, from\n"
	"callgrind --collect-stacks=yes) when they are there, else\n"
	"reconstructed from the call graph, an estimate: the file's name\n"
	"says which.\n\n"
	CLI_STACKS_HELP
	CLI_PER_THREAD_HELP
	CLI_ROOT_HELP CLI_VIEW_HELP CLI_NAMES_HELP
	CLI_INPUT_HELP;

static const struct option longopts[] = {
	CLI_INPUT_LONGOPTS,
	CLI_VIEW_LONGOPTS,
	CLI_NAMES_LONGOPT,
	CLI_STACKS_LONGOPTS,
	CLI_PER_THREAD_LONGOPT,
	{ NULL, 0, NULL, 0 },
};

/* Events to export: the one of --event, or all. */
static size_t pick_events(const struct cli_stacks *s, const struct cli_input *in,
			  int *events)
{
	const struct cgu_profile *p = cli_stacks_profile(s);
	if (!p || in->event) {
		events[0] = cli_stacks_event(s, in);
		return events[0] < 0 ? 0 : 1;
	}
	for (size_t i = 0; i < p->nevents; i++)
		events[i] = (int)i;
	return p->nevents;
}

static int export(const struct cli_stacks *s, const struct cli_input *in)
{
	const struct cgu_profile *p = cli_stacks_profile(s);
	int events[CGU_MAX_EVENTS];
	struct cgu_folded tmp[CGU_MAX_EVENTS];
	struct cgu_speedscope_profile prof[CGU_MAX_EVENTS];
	size_t n = pick_events(s, in, events), done = 0;
	int rc = n ? CLI_OK : CLI_USAGE;
	for (; rc == CLI_OK && done < n; done++) {
		prof[done].stacks = cli_stacks_fold(s, events[done], &tmp[done]);
		prof[done].name = p ? p->events[events[done]] : "samples";
		if (!prof[done].stacks)
			rc = CLI_BADINPUT;
	}
	FILE *out = rc == CLI_OK ? cli_open_output(in->output) : NULL;
	if (out) {
		const char *label = cli_stacks_label(cli_stacks_kind(s));
		struct cgu_buf name = CGU_BUF_INIT;
		cgu_buf_adds(&name, p && p->cmd ? p->cmd : s->name);
		if (label)
			cgu_buf_addf(&name, " - %s", label);
		cgu_speedscope_write(prof, n, name.data, out);
		cgu_buf_release(&name);
		rc = cli_close_output(out, in->output);
	} else if (rc == CLI_OK) {
		rc = CLI_BADINPUT;
	}
	for (size_t i = 0; i < done; i++)
		cgu_folded_release(&tmp[i]);
	return rc;
}

int cmd_speedscope(int argc, char **argv)
{
	struct cli_input in = { .cmd = "speedscope", .names = CGU_NAMES_AUTO };
	int opt;
	while ((opt = getopt_long(argc, argv, "e:o:h", longopts, NULL)) != -1) {
		if (opt == 'h')
			return cli_help(usage, help);
		if (opt == '?' || cli_input_option(&in, "speedscope", opt, optarg) <= 0)
			return CLI_USAGE;
	}
	if (argc - optind > 1)
		return cli_usage_error("speedscope", "expects one input file");
	struct cli_stacks s;
	int rc = cli_view_ready(&in);
	if (rc == CLI_OK) {
		rc = cli_stacks_open(&s, &in, optind < argc ? argv[optind] : "-");
		if (rc == CLI_OK)
			rc = export(&s, &in);
		cli_stacks_release(&s);
	}
	cli_view_release(&in);
	return rc;
}
