/* cmd-flamegraph.c - callgrind-utils flamegraph: folded stacks or a profile
 * to an interactive SVG. */
#include <getopt.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <callgrind-utils/diff.h>
#include <callgrind-utils/flame.h>
#include "cli-stacks.h"

static const char usage[] = "flamegraph [options] [FILE|-]...";
static const char help[] =
	"Draw an interactive SVG flame graph from folded stacks ('a;b;c 123'\n"
	"lines) or straight from a Callgrind profile: from its exact stacks\n"
	"(PROFILE.stacks, from callgrind --collect-stacks=yes) when they are\n"
	"there, else reconstructed from the call graph, an estimate.  The\n"
	"subtitle says which.  Differential folded stacks ('a;b;c BEFORE\n"
	"AFTER' lines, as diff --folded writes them) make a differential graph:\n"
	"the widths of AFTER, red where a frame grew, blue where it shrank.\n\n"
	CLI_FLAME_HELP
	CLI_STACKS_HELP
	CLI_PER_THREAD_HELP
	CLI_ROOT_HELP CLI_VIEW_HELP CLI_NAMES_HELP
	CLI_INPUT_HELP;

static const struct option longopts[] = {
	CLI_FLAME_LONGOPTS,
	CLI_INPUT_LONGOPTS,
	CLI_VIEW_LONGOPTS,
	CLI_NAMES_LONGOPT,
	CLI_STACKS_LONGOPTS,
	CLI_PER_THREAD_LONGOPT,
	{ NULL, 0, NULL, 0 },
};

static int positive(const char *cmd, const char *opt, const char *arg, double *out)
{
	char *end;
	double v = strtod(arg, &end);
	if (*arg == '\0' || *end != '\0' || !(v >= 0) || v > 1e6)
		return cli_usage_error(cmd, "--%s expects a number of pixels, got '%s'", opt, arg);
	*out = v;
	return CLI_OK;
}

/* --minwidth: pixels, or with a '%' a percent of the total. */
static int minwidth(const char *cmd, const char *arg, struct cgu_flame_options *o)
{
	size_t len = strlen(arg);
	char num[64];
	char *end;
	double v;

	o->minwidth_percent = len > 0 && arg[len - 1] == '%';
	if (!o->minwidth_percent)
		return positive(cmd, "minwidth", arg, &o->minwidth);
	snprintf(num, sizeof(num), "%.*s", (int)(len - 1), arg);
	v = strtod(num, &end);
	if (len == 1 || len > sizeof(num) || *end || !(v >= 0) || v > 100)
		return cli_usage_error(cmd, "--minwidth expects pixels or a percent "
				       "from 0%% to 100%%, got '%s'", arg);
	o->minwidth = v;
	return CLI_OK;
}

int cli_flame_option(struct cgu_flame_options *o, const char *cmd, int opt,
		     const char *arg)
{
	double v;
	switch (opt) {
	case CLI_FLAME_TITLE: o->title = arg; return CLI_OK;
	case CLI_FLAME_SUBTITLE: o->subtitle = arg; return CLI_OK;
	case CLI_FLAME_COUNTNAME: o->countname = arg; return CLI_OK;
	case CLI_FLAME_REVERSE: o->reverse = true; return CLI_OK;
	case CLI_FLAME_INVERTED: o->inverted = true; return CLI_OK;
	case CLI_FLAME_WIDTH:
		if (positive(cmd, "width", arg, &o->width) || o->width < 100)
			return cli_usage_error(cmd, "--width expects at least 100 pixels");
		return CLI_OK;
	case CLI_FLAME_HEIGHT:
		if (positive(cmd, "height", arg, &v) || v < 4)
			return cli_usage_error(cmd, "--height expects at least 4 pixels");
		o->frame_height = (unsigned)v;
		return CLI_OK;
	case CLI_FLAME_MINWIDTH:
		return minwidth(cmd, arg, o);
	case CLI_FLAME_FLAMECHART: o->flamechart = true; return CLI_OK;
	case CLI_FLAME_MAX_DEPTH:
	case CLI_FLAME_MAX_FRAMES: {
		char *end;
		unsigned long long n = strtoull(arg, &end, 10);

		if (*arg < '0' || *arg > '9' || *end || n > UINT32_MAX)
			return cli_usage_error(cmd, "--%s expects a number, got '%s'",
					       opt == CLI_FLAME_MAX_DEPTH ? "max-depth"
					       : "max-frames", arg);
		if (opt == CLI_FLAME_MAX_DEPTH)
			o->max_depth = (unsigned)n;
		else
			o->max_frames = (size_t)n;
		return CLI_OK;
	}
	case CLI_FLAME_COLORS:
		if (cgu_flame_palette_parse(arg, &o->palette) < 0)
			return cli_usage_error(cmd, "--colors expects object, hot or cold, got '%s'", arg);
		return CLI_OK;
	}
	return -1;
}

static int draw(const struct cli_stacks *s, const struct cli_input *in,
		struct cgu_flame_options *o)
{
	struct cgu_buf sub = CGU_BUF_INIT, unit = CGU_BUF_INIT, own = CGU_BUF_INIT;
	struct cgu_folded tmp;
	int rc = CLI_BADINPUT;
	int ev = cli_stacks_event(s, in);
	if (ev < 0)
		return CLI_USAGE;
	if (o->flamechart && cli_stacks_kind(s) != CLI_STACKS_FOLDED)
		return cli_usage_error("flamegraph", "--flamechart: a Callgrind "
				       "profile does not record when calls happened "
				       "(it sums each call path's cost over the run, and "
				       "its exact stacks are a tree in name order); it "
				       "takes folded stacks whose lines are in time order");
	const struct cgu_folded *f = cli_stacks_fold(s, ev, &tmp);
	if (f && o->flamechart && f->before) {
		cgu_folded_release(&tmp);
		return cli_usage_error("flamegraph", "--flamechart: differential "
				       "stacks have no time order");
	}
	if (f) {
		cli_stacks_describe(s, ev, &sub, &unit);
		o->subtitle = cli_stacks_subtitle(o->subtitle, sub.data,
						  cli_stacks_label(cli_stacks_kind(s)),
						  &own);
		if (!o->countname)
			o->countname = unit.data;
		FILE *out = cli_open_output(in->output);
		if (out && f->before) {        /* diff --folded output */
			struct cgu_flame_tree t;
			cgu_flame_tree_init(&t);
			t.max_depth = o->max_depth;
			if (cgu_diff_tree_folded(&t, f, false, o->reverse) == 0)
				cgu_diff_write_svg(&t, o, out);
			cgu_flame_tree_release(&t);
			rc = cli_close_output(out, in->output);
		} else if (out) {
			cgu_flame_write_svg(f, o, out);
			rc = cli_close_output(out, in->output);
		}
	}
	cgu_folded_release(&tmp);
	cgu_buf_release(&sub);
	cgu_buf_release(&unit);
	cgu_buf_release(&own);
	return rc;
}

int cmd_flamegraph(int argc, char **argv)
{
	struct cli_input in = { .cmd = "flamegraph", .names = CGU_NAMES_AUTO };
	struct cgu_flame_options o;
	int opt;
	cgu_flame_options_init(&o);
	o.countname = NULL;
	while ((opt = getopt_long(argc, argv, "e:o:h", longopts, NULL)) != -1) {
		if (opt == 'h')
			return cli_help(usage, help);
		if (opt == '?')
			return CLI_USAGE;
		int rc = cli_flame_option(&o, "flamegraph", opt, optarg);
		if (rc == CLI_USAGE)
			return rc;
		if (rc == CLI_OK)
			continue;
		if (cli_input_option(&in, "flamegraph", opt, optarg) <= 0)
			return CLI_USAGE;
	}
	struct cli_stacks s;
	int rc = cli_view_ready(&in);
	if (rc == CLI_OK) {
		rc = cli_stacks_open_files(&s, &in, argc - optind, argv + optind);
		if (rc == CLI_OK)
			rc = draw(&s, &in, &o);
		cli_stacks_release(&s);
	}
	cli_view_release(&in);
	return rc;
}
