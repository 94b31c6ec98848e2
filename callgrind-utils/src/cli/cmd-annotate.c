/* cmd-annotate.c - callgrind-utils annotate: the hot functions' source
 * lines with their costs and the calls made on them (the default, or
 * --source), or with --asm their instructions, disassembled from the
 * objects on disk. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#if defined(HAVE_LIBELF) && defined(HAVE_CAPSTONE)
#include <callgrind-utils/annotate.h>
#define HAVE_ASM 1
#else
#define HAVE_ASM 0
#endif

static const char usage[] = "annotate [--source | --asm] [options] [FILE|-]...";
static const char help[] =
	"Print the hottest functions with their cost for every event: by\n"
	"default (--source) their source lines, each with the function's own\n"
	"cost on it, and under a line that calls, the functions called with\n"
	"the calls' inclusive cost, as callgrind_annotate --auto=yes shows;\n"
	"with --asm, for a profile made with valgrind --dump-instr=yes, their\n"
	"instructions, disassembled from the objects on disk (x86_64, i386\n"
	"and arm64 objects, whatever the host).\n\n"
	"      --source          source-level annotation (the default)\n"
	"      --asm             instruction-level annotation"
#if !HAVE_ASM
	" (not in this build:\n"
	"                        it needs libelf and capstone)"
#endif
	"\n"
	"  -n, --top N           hottest N functions by self cost of the event\n"
	"                        (default 10, 0 for all)\n"
	"      --function RE     --source: the functions whose name (as --names\n"
	"                        prints it) matches RE, heaviest first (all of\n"
	"                        them unless -n is given)\n"
	"  -I, --include DIR     --source: look for relative source paths in\n"
	"                        DIR too, after the current directory (again\n"
	"                        for more directories)\n"
	"      --context N       --source: lines shown around a line with cost\n"
	"                        (default 3)\n"
	CLI_NAMES_HELP
	"      --debug-dir DIR   --asm: extra debug file directory for stripped\n"
	"                        objects (after $NIX_DEBUG_INFO_DIRS, before\n"
	"                        /usr/lib/debug)\n"
	CLI_INPUT_HELP;

enum { OPT_ASM = CLI_OPT_FIRST_FREE, OPT_SOURCE, OPT_DEBUG_DIR, OPT_FUNCTION,
       OPT_CONTEXT };

static const struct option longopts[] = {
	{ "asm", no_argument, NULL, OPT_ASM },
	{ "source", no_argument, NULL, OPT_SOURCE },
	{ "top", required_argument, NULL, 'n' },
	{ "function", required_argument, NULL, OPT_FUNCTION },
	{ "include", required_argument, NULL, 'I' },
	{ "context", required_argument, NULL, OPT_CONTEXT },
	{ "debug-dir", required_argument, NULL, OPT_DEBUG_DIR },
	CLI_NAMES_LONGOPT,
	CLI_INPUT_LONGOPTS,
	{ NULL, 0, NULL, 0 },
};

struct annotate_cmd {
	struct cli_input in;
	const char *debug_dir;
	size_t top;
	int top_given;
	int want_asm, want_source;
	const char *pattern;        /* --function */
	regex_t re;
	int compiled;
	const char **dirs;          /* --include, in order */
	size_t ndirs;
	size_t context;
};

/* A whole number for option name, at most max. */
static int count_arg(const char *name, const char *arg, size_t max, size_t *out)
{
	char *end;
	unsigned long long v = strtoull(arg, &end, 10);

	if (*arg < '0' || *arg > '9' || *end != '\0' || v > max)
		return cli_usage_error("annotate", "%s expects a number from 0 "
				       "to %zu, got '%s'", name, max, arg);
	*out = (size_t)v;
	return CLI_OK;
}

static int add_dir(struct annotate_cmd *a, const char *dir)
{
	const char **v = realloc(a->dirs, (a->ndirs + 1) * sizeof(*v));

	if (!v)
		abort();
	a->dirs = v;
	a->dirs[a->ndirs++] = dir;
	return CLI_OK;
}

static int annotate_option(struct annotate_cmd *a, int opt)
{
	switch (opt) {
	case OPT_ASM:
		a->want_asm = 1;
		return CLI_OK;
	case OPT_SOURCE:
		a->want_source = 1;
		return CLI_OK;
	case OPT_DEBUG_DIR:
		a->debug_dir = optarg;
		return CLI_OK;
	case OPT_FUNCTION:
		a->pattern = optarg;
		return CLI_OK;
	case 'I':
		return add_dir(a, optarg);
	case OPT_CONTEXT:
		return count_arg("--context", optarg, 10000, &a->context);
	case 'n':
		a->top_given = 1;
		return count_arg("--top", optarg, (size_t)-1, &a->top);
	case CLI_OPT_NAMES:
		return cli_name_style("annotate", optarg, &a->in.names) ?
		       CLI_USAGE : CLI_OK;
	default:
		if (opt == '?' || cli_input_option(&a->in, "annotate", opt, optarg) <= 0)
			return CLI_USAGE;
		return CLI_OK;
	}
}

/* After the options: one view, and what it needs. */
static int check_options(struct annotate_cmd *a)
{
	char why[256];
	int rc;

	if (a->want_asm && a->want_source)
		return cli_usage_error("annotate", "--asm and --source: choose one");
	if (a->want_asm && !HAVE_ASM)
		return cli_usage_error("annotate", "--asm: built without libelf "
				       "and capstone");
	if (a->want_asm && (a->pattern || a->ndirs))
		return cli_usage_error("annotate", "--function and --include "
				       "go with --source, not --asm");
	if (!a->pattern)
		return CLI_OK;
	if (!a->top_given)
		a->top = 0;
	rc = regcomp(&a->re, a->pattern, REG_EXTENDED | REG_NOSUB);
	if (!rc) {
		a->compiled = 1;
		return CLI_OK;
	}
	regerror(rc, &a->re, why, sizeof(why));
	return cli_usage_error("annotate", "--function '%s': bad regular "
			       "expression: %s", a->pattern, why);
}

static int parse_options(struct annotate_cmd *a, int argc, char **argv)
{
	int opt, rc;

	while ((opt = getopt_long(argc, argv, "e:o:hn:I:", longopts, NULL)) != -1) {
		if (opt == 'h') {
			cli_help(usage, help);
			return -1;
		}
		if ((rc = annotate_option(a, opt)) != CLI_OK)
			return rc;
	}
	return check_options(a);
}

static int matches(void *ctx, const char *name)
{
	return !regexec(ctx, name, 0, NULL, 0);
}

/* The view asked for, of set.v[0], to out. */
static int write_view(struct annotate_cmd *a, const struct cgu_profile *p,
		      int ev, void *costs, FILE *out, struct cgu_error *err)
{
	if (a->want_asm) {
#if HAVE_ASM
		struct cgu_debug_dirs dirs = { .nix_dirs = getenv("NIX_DEBUG_INFO_DIRS"),
					       .extra = a->debug_dir };
		struct cgu_asm_opts o = { .event = ev, .top = a->top, .dirs = &dirs,
					  .on_warning = cli_warning };

		return cgu_annotate_asm(p, costs, &o, out, err);
#endif
	}
	struct cgu_source_opts o = {
		.event = ev, .top = a->top, .names = a->in.names,
		.select = a->pattern ? matches : NULL, .select_ctx = &a->re,
		.context = a->context, .dirs = a->dirs, .ndirs = a->ndirs,
		.on_warning = cli_warning,
	};
	return cgu_annotate_source(p, costs, &o, out, err);
}

static int run(struct annotate_cmd *a, int nfiles, char **files)
{
	struct cgu_profile_set set;
	struct cgu_error err = { 0 };
	void *costs;
	FILE *out = NULL;

	cgu_profile_set_init(&set);
	a->in.parse.separate_parts = 0;
#if HAVE_ASM
	struct cgu_instr_costs ic;

	cgu_instr_costs_init(&ic);
	if (a->want_asm) {
		a->in.parse.on_cost_line = cgu_instr_costs_collect;
		a->in.parse.on_cost_line_ctx = costs = &ic;
	}
#endif
	if (!a->want_asm) {
		a->in.parse.on_line = cgu_line_costs_collect;
		a->in.parse.on_line_ctx = costs = cgu_line_costs_new();
	}
	int rc = cli_load_set(&a->in, nfiles, files, &set);
	int ev = rc == CLI_OK ? cli_event(&a->in, set.v[0]) : -1;
	if (rc == CLI_OK && ev < 0)
		rc = CLI_USAGE;
	if (rc == CLI_OK && !(out = cli_open_output(a->in.output)))
		rc = CLI_BADINPUT;
	if (out) {
		if (write_view(a, set.v[0], ev, costs, out, &err) != 0) {
			cli_close_output(out, a->in.output);
			rc = cli_report(&err);
		} else {
			rc = cli_close_output(out, a->in.output);
		}
	}
	cgu_profile_set_release(&set);
#if HAVE_ASM
	cgu_instr_costs_release(&ic);
#endif
	if (!a->want_asm)
		cgu_line_costs_free(costs);
	return rc;
}

int cmd_annotate(int argc, char **argv)
{
	struct annotate_cmd a = { .top = 10, .context = 3 };
	int rc;

	a.in.cmd = "annotate";
	a.in.names = CGU_NAMES_AUTO;
	rc = parse_options(&a, argc, argv);
	if (rc == CLI_OK)
		rc = run(&a, argc - optind, argv + optind);
	else if (rc < 0)
		rc = CLI_OK;
	if (a.compiled)
		regfree(&a.re);
	free(a.dirs);
	return rc;
}
