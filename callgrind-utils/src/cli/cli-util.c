/* cli-util.c - helpers shared by the command handlers. */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "callgrind-utils %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n(see 'callgrind-utils %s --help')\n", cmd);
	return CLI_USAGE;
}

int cli_report(const struct cgu_error *err)
{
	fprintf(stderr, "callgrind-utils: %s\n", err->msg);
	return err->code == CGU_EUSAGE ? CLI_USAGE : CLI_BADINPUT;
}

void cli_warning(void *ctx, const struct cgu_error *w)
{
	(void)ctx;
	fprintf(stderr, "callgrind-utils: warning: %s\n", w->msg);
}

int cli_help(const char *usage, const char *text)
{
	printf("Usage: callgrind-utils %s\n\n%s", usage, text);
	return CLI_OK;
}

/* A positive number of bytes, with an optional binary suffix k, M or
 * G (KiB, MiB, GiB). */
static int parse_size(const char *s, unsigned long long *out)
{
	static const char suffixes[] = "kMG";
	const char *sfx;
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *s == '-' || v == 0)
		return -1;
	if (*end && (sfx = strchr(suffixes, *end)) != NULL && !end[1]) {
		int shift = 10 * (int)(sfx - suffixes + 1);

		if (v > ULLONG_MAX >> shift)
			return -1;
		v <<= shift;
	} else if (*end) {
		return -1;
	}
	*out = v;
	return 0;
}

int cli_input_option(struct cli_input *in, const char *cmd, int opt,
		     const char *arg)
{
	unsigned long long size;

	switch (opt) {
	case CLI_OPT_EVENT:
	case 'e':
		in->event = arg;
		return 1;
	case 'o':
		in->output = arg;
		return 1;
	case CLI_OPT_SEPARATE:
		in->parse.separate_parts = 1;
		return 1;
	case CLI_OPT_NO_TOTALS:
		in->parse.no_check_totals = 1;
		return 1;
	case CLI_OPT_STACKS:
		in->stacks = arg;
		return 1;
	case CLI_OPT_RECONSTRUCTED:
		in->reconstructed = 1;
		return 1;
	case CLI_OPT_PER_THREAD:
		in->per_thread = 1;
		return 1;
	case CLI_OPT_VERBOSE:
	case 'v':
		in->verbose = 1;
		return 1;
	case CLI_OPT_ALL_FRAMES:
		in->view.all_frames = 1;
		return 1;
	case CLI_OPT_FOCUS:
	case CLI_OPT_IGNORE:
	case CLI_OPT_HIDE:
		in->view.re[opt == CLI_OPT_FOCUS ? CGU_VIEW_FOCUS
			    : opt == CLI_OPT_IGNORE ? CGU_VIEW_IGNORE
			    : CGU_VIEW_HIDE] = arg;
		return 1;
	case CLI_OPT_MERGE:
		if (!strcmp(arg, "recursion"))
			in->merge |= CGU_MERGE_RECURSION;
		else if (!strcmp(arg, "callers"))
			in->merge |= CGU_MERGE_CALLERS;
		else if (!strcmp(arg, "all"))
			in->merge |= CGU_MERGE_RECURSION | CGU_MERGE_CALLERS;
		else {
			cli_usage_error(cmd, "--merge: expected recursion, "
					"callers or all, got '%s'", arg);
			return -1;
		}
		return 1;
	case CLI_OPT_NAMES:
		return cli_name_style(cmd, arg, &in->names) ? -1 : 1;
	case CLI_OPT_MAX_LINE:
		if (parse_size(arg, &size) || size > SIZE_MAX / 2) {
			cli_usage_error(cmd, "--max-line: expected a positive "
					"number, got '%s'", arg);
			return -1;
		}
		in->parse.max_line = (size_t)size;
		return 1;
	case CLI_OPT_MAX_INPUT:
		if (parse_size(arg, &in->parse.max_input)) {
			cli_usage_error(cmd, "--max-input: expected a positive "
					"number of bytes, got '%s'", arg);
			return -1;
		}
		return 1;
	}
	return 0;
}

int cli_view_ready(struct cli_input *in)
{
	struct cgu_error err;

	if (cgu_view_compile(&in->view, &err) == CGU_OK)
		return CLI_OK;
	return cli_usage_error(in->cmd, "%s", err.msg);
}

void cli_view_release(struct cli_input *in)
{
	cgu_view_release(&in->view);
}

void cli_merge(const struct cli_input *in, struct cgu_profile_set *set,
	       struct cgu_cct **cct)
{
	size_t i;

	if (!in->merge)
		return;
	if (cct && *cct) {
		struct cgu_cct *q = cgu_cct_merge_names(*cct, in->merge);

		cgu_cct_free(*cct);
		*cct = q;
	}
	for (i = 0; i < set->n; i++) {
		struct cgu_profile *q = cgu_merge_names(set->v[i], in->merge);

		set->source[i] = cgu_profile_intern(q, set->source[i],
						    strlen(set->source[i]));
		cgu_profile_free(set->v[i]);
		set->v[i] = q;
	}
}

int cli_load_set(struct cli_input *in, int nfiles, char **files,
		 struct cgu_profile_set *set)
{
	struct cgu_error err;
	int i;

	cgu_profile_set_init(set);
	if (!in->parse.on_warning)
		in->parse.on_warning = cli_warning;
	if (nfiles == 0) {
		static char dash[] = "-";
		static char *stdin_only[] = { dash };

		files = stdin_only;
		nfiles = 1;
	}
	for (i = 0; i < nfiles; i++) {
		if (cgu_parse_file(files[i], &in->parse, set, &err)) {
			cgu_profile_set_release(set);
			return cli_report(&err);
		}
	}
	return CLI_OK;
}

int cli_event(const struct cli_input *in, const struct cgu_profile *p)
{
	int ev;

	if (!in->event)
		return 0;
	ev = cgu_profile_event(p, in->event);
	if (ev < 0)
		fprintf(stderr, "callgrind-utils: no event '%s' in the "
			"profile\n", in->event);
	return ev;
}

/* Outputs run to tens of megabytes (folded stacks repeat every frame
 * name); a larger buffer than stdio's 4 KiB saves most write() calls.
 * One output is open at a time; a terminal keeps its line buffering. */
#define OUT_BUFFER (256 * 1024)
static char *stdout_buffer;
static struct { FILE *f; char *buffer; } open_output;

static void buffer_output(FILE *f)
{
	char *b;

	if (f == stdout ? stdout_buffer || isatty(STDOUT_FILENO)
			: open_output.f != NULL)
		return;
	b = malloc(OUT_BUFFER);
	if (!b || setvbuf(f, b, _IOFBF, OUT_BUFFER)) {
		free(b);
		return;
	}
	if (f == stdout) {
		stdout_buffer = b;
	} else {
		open_output.f = f;
		open_output.buffer = b;
	}
}

FILE *cli_open_output(const char *path)
{
	FILE *f;

	if (!path || !strcmp(path, "-")) {
		buffer_output(stdout);
		return stdout;
	}
	f = fopen(path, "w");
	if (!f)
		fprintf(stderr, "callgrind-utils: %s: cannot open: %s\n", path,
			strerror(errno));
	else
		buffer_output(f);
	return f;
}

int cli_close_output(FILE *f, const char *path)
{
	int bad = fflush(f) != 0 || ferror(f);

	if (f != stdout && fclose(f))
		bad = 1;
	if (f == open_output.f) {
		free(open_output.buffer);
		open_output.f = NULL;
		open_output.buffer = NULL;
	}
	if (bad)
		fprintf(stderr, "callgrind-utils: %s: write error\n",
			path && strcmp(path, "-") ? path : "<stdout>");
	return bad ? CLI_BADINPUT : CLI_OK;
}

int cli_run_items(struct cli_input *in, struct cli_inputs *l,
		  cli_item_fn write, void *ctx)
{
	struct cgu_profile_set *set = &l->set;
	struct cgu_error err;
	FILE *out = cli_open_output(in->output);
	int rc = CLI_OK;
	size_t i;

	if (!out)
		return CLI_BADINPUT;
	for (i = 0; i < set->n && rc == CLI_OK; i++) {
		struct cli_item it = {
			set->v[i], l->cct,
			l->parts ? l->parts[i] : CGU_CCT_ALL_PARTS,
			l->stacks_name, in,
		};
		int ev = cli_event(in, set->v[i]);

		if (ev < 0) {
			rc = CLI_USAGE;
			break;
		}
		if (set->n > 1)
			fprintf(out, "# part: %s\n", set->source[i]);
		if (write(&it, ev, out, &err, ctx))
			rc = cli_report(&err);
	}
	if (cli_close_output(out, in->output) && rc == CLI_OK)
		rc = CLI_BADINPUT;
	return rc;
}

struct write_profile {
	cli_write_fn write;
	void *ctx;
};

static int write_profile(const struct cli_item *it, int event, FILE *out,
			 struct cgu_error *err, void *ctx)
{
	const struct write_profile *w = ctx;

	return w->write(it->p, event, out, err, w->ctx);
}

int cli_run_outputs(struct cli_input *in, struct cgu_profile_set *set,
		    cli_write_fn write, void *ctx)
{
	struct cli_inputs l = { *set, NULL, NULL, NULL };
	struct write_profile w = { write, ctx };

	return cli_run_items(in, &l, write_profile, &w);
}

int cli_name_style(const char *cmd, const char *arg, enum cgu_name_style *out)
{
	if (!strcmp(arg, "auto"))
		*out = CGU_NAMES_AUTO;
	else if (!strcmp(arg, "function"))
		*out = CGU_NAMES_FUNCTION;
	else if (!strcmp(arg, "file"))
		*out = CGU_NAMES_FILE_FUNCTION;
	else if (!strcmp(arg, "full"))
		*out = CGU_NAMES_FULL;
	else
		return cli_usage_error(cmd, "--names: expected auto, function, "
				       "file or full, got '%s'", arg), -1;
	return 0;
}

int cli_options(int argc, char **argv, const struct cli_spec *spec,
		       struct cli_input *in)
{
	int opt, r;

	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, spec->shortopts, spec->options,
				  NULL)) != -1) {
		if (opt == 'h')
			return cli_help(spec->usage, spec->help);
		if (opt == '?' || opt == ':')
			return cli_usage_error(spec->name, "bad option '%s'",
					       argv[optind - 1]);
		r = cli_input_option(in, spec->name, opt, optarg);
		if (r < 0)
			return CLI_USAGE;
		if (r == 0 && (!spec->option ||
			       spec->option(opt, optarg, spec->ctx)))
			return CLI_USAGE;
	}
	return -1;
}

int cli_main(int argc, char **argv, const struct cli_spec *spec)
{
	struct cli_input in;
	struct cgu_profile_set set;
	struct cli_inputs l;
	int rc;

	memset(&in, 0, sizeof(in));
	in.cmd = spec->name;
	in.names = CGU_NAMES_AUTO;
	rc = cli_options(argc, argv, spec, &in);
	if (rc >= 0)
		return rc;
	if (spec->check && (rc = spec->check(spec->ctx)))
		return rc;
	rc = cli_view_ready(&in);
	if (rc == CLI_OK && spec->write_item) {
		rc = cli_load_inputs(&in, argc - optind, argv + optind, &l);
		if (rc == CLI_OK) {
			cli_merge(&in, &l.set, &l.cct);
			rc = cli_run_items(&in, &l, spec->write_item,
					   spec->ctx);
			cli_inputs_release(&l);
		}
	} else if (rc == CLI_OK) {
		rc = cli_load_set(&in, argc - optind, argv + optind, &set);
		if (rc == CLI_OK) {
			cli_merge(&in, &set, NULL);
			rc = cli_run_outputs(&in, &set, spec->write, spec->ctx);
			cgu_profile_set_release(&set);
		}
	}
	cli_view_release(&in);
	return rc;
}
