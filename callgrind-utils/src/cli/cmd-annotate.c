/* cmd-annotate.c - callgrind-utils annotate --asm: hot functions'
 * instructions with their costs, disassembled from the objects on disk. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#if !defined(HAVE_LIBELF) || !defined(HAVE_CAPSTONE)
int cmd_annotate(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cli_usage_error("annotate", "built without libelf and capstone");
}
#else
#include <callgrind-utils/annotate.h>

static const char usage[] = "annotate --asm [options] [FILE|-]...";
static const char help[] =
	"For a profile made with valgrind --dump-instr=yes, print the\n"
	"instructions of the hottest functions with their cost for every\n"
	"event, disassembled from the objects on disk (x86_64, i386 and arm64\n"
	"objects, whatever the host).\n\n"
	"      --asm             instruction-level annotation (required)\n"
	"  -n, --top N           hottest N functions by self cost of the event\n"
	"                        (default 10, 0 for all)\n"
	"      --debug-dir DIR   extra debug file directory for stripped objects\n"
	"                        (after $NIX_DEBUG_INFO_DIRS, before /usr/lib/debug)\n"
	CLI_INPUT_HELP;

enum { OPT_ASM = CLI_OPT_FIRST_FREE, OPT_DEBUG_DIR };

static const struct option longopts[] = {
	{ "asm", no_argument, NULL, OPT_ASM },
	{ "top", required_argument, NULL, 'n' },
	{ "debug-dir", required_argument, NULL, OPT_DEBUG_DIR },
	CLI_INPUT_LONGOPTS,
	{ NULL, 0, NULL, 0 },
};

struct annotate_cmd {
	struct cli_input in;
	struct cgu_debug_dirs dirs;
	size_t top;
	int want_asm;
};

static int parse_options(struct annotate_cmd *a, int argc, char **argv)
{
	int opt;
	char *end;
	while ((opt = getopt_long(argc, argv, "e:o:hn:", longopts, NULL)) != -1) {
		switch (opt) {
		case 'h':
			cli_help(usage, help);
			return -1;
		case OPT_ASM:
			a->want_asm = 1;
			break;
		case OPT_DEBUG_DIR:
			a->dirs.extra = optarg;
			break;
		case 'n':
			a->top = strtoul(optarg, &end, 10);
			if (*optarg == '\0' || *end != '\0')
				return cli_usage_error("annotate", "--top expects a number, got '%s'", optarg);
			break;
		default:
			if (opt == '?' || cli_input_option(&a->in, "annotate", opt, optarg) <= 0)
				return CLI_USAGE;
		}
	}
	if (!a->want_asm)
		return cli_usage_error("annotate", "--asm is required (the only view so far)");
	return CLI_OK;
}

static int run(struct annotate_cmd *a, int nfiles, char **files)
{
	struct cgu_instr_costs ic;
	struct cgu_profile_set set;
	struct cgu_error err = { 0 };
	cgu_instr_costs_init(&ic);
	cgu_profile_set_init(&set);
	a->in.parse.separate_parts = 0;
	a->in.parse.on_cost_line = cgu_instr_costs_collect;
	a->in.parse.on_cost_line_ctx = &ic;
	int rc = cli_load_set(&a->in, nfiles, files, &set);
	int ev = rc == CLI_OK ? cli_event(&a->in, set.v[0]) : -1;
	if (rc == CLI_OK && ev < 0)
		rc = CLI_USAGE;
	FILE *out = rc == CLI_OK ? cli_open_output(a->in.output) : NULL;
	if (out) {
		struct cgu_asm_opts o = { .event = ev, .top = a->top, .dirs = &a->dirs,
					  .on_warning = cli_warning };
		if (cgu_annotate_asm(set.v[0], &ic, &o, out, &err) != 0) {
			cli_close_output(out, a->in.output);
			rc = cli_report(&err);
		} else {
			rc = cli_close_output(out, a->in.output);
		}
	} else if (rc == CLI_OK) {
		rc = CLI_BADINPUT;
	}
	cgu_profile_set_release(&set);
	cgu_instr_costs_release(&ic);
	return rc;
}

int cmd_annotate(int argc, char **argv)
{
	struct annotate_cmd a = { .top = 10 };
	a.dirs.nix_dirs = getenv("NIX_DEBUG_INFO_DIRS");
	int rc = parse_options(&a, argc, argv);
	if (rc != CLI_OK)
		return rc < 0 ? CLI_OK : rc;
	return run(&a, argc - optind, argv + optind);
}
#endif
