/* cmd-diff.c - callgrind-utils diff: a differential flame graph, or the
 * folded diff text, between two profiles or folded files. */
#include <string.h>

#include <callgrind-utils/diff.h>
#include "cli-stacks.h"

static const char usage[] = "diff [options] BEFORE AFTER";
static const char help[] =
	"Compare two profiles (or folded files): an SVG flame graph with the\n"
	"widths of AFTER, red where a frame grew and blue where it shrank, or\n"
	"with --folded the lines 'a;b;c BEFORE AFTER'.\n\n"
	"      --normalize       scale BEFORE to the total of AFTER first\n"
	"      --folded          write the folded diff text, not an SVG\n"
	"      --reconstructed   leave exact stacks (PROFILE.stacks) aside\n"
	CLI_FLAME_HELP CLI_ROOT_HELP CLI_VIEW_HELP CLI_NAMES_HELP
	CLI_INPUT_HELP;

enum { OPT_NORMALIZE = CLI_FLAME_OPT_FREE, OPT_FOLDED };

static const struct option longopts[] = {
	{ "normalize", no_argument, NULL, OPT_NORMALIZE },
	{ "folded", no_argument, NULL, OPT_FOLDED },
	{ "reconstructed", no_argument, NULL, CLI_OPT_RECONSTRUCTED },
	CLI_FLAME_LONGOPTS,
	CLI_INPUT_LONGOPTS,
	CLI_VIEW_LONGOPTS,
	CLI_NAMES_LONGOPT,
	{ NULL, 0, NULL, 0 },
};

struct diff_cmd {
	struct cli_input in;
	struct cgu_flame_options flame;
	bool normalize, folded;
};

static int write_diff(const struct diff_cmd *d, const struct cgu_flame_tree *t)
{
	FILE *out = cli_open_output(d->in.output);
	if (!out)
		return CLI_BADINPUT;
	if (d->folded)
		cgu_diff_write_folded(t, out);
	else
		cgu_diff_write_svg(t, &d->flame, out);
	return cli_close_output(out, d->in.output);
}

/* What the stacks of both inputs are: one label if it is the same. */
static const char *subtitle(const char *user, const struct cli_stacks *a,
			    const struct cli_stacks *b, struct cgu_buf *buf)
{
	const char *la = cli_stacks_label(cli_stacks_kind(a));
	const char *lb = cli_stacks_label(cli_stacks_kind(b));
	struct cgu_buf both = CGU_BUF_INIT;
	const char *s;

	if (la && lb && strcmp(la, lb))
		cgu_buf_addf(&both, "before: %s; after: %s", la, lb);
	else if (la || lb)
		cgu_buf_adds(&both, la ? la : lb);
	s = cli_stacks_subtitle(user, both.data, both.data, buf);
	if (s == both.data) {
		cgu_buf_adds(buf, both.data);
		s = buf->data;
	}
	cgu_buf_release(&both);
	return s;
}

static int compare(struct diff_cmd *d, const struct cli_stacks *a,
		   const struct cli_stacks *b)
{
	struct cgu_folded ta, tb;
	struct cgu_flame_tree t;
	struct cgu_buf sub = CGU_BUF_INIT, unit = CGU_BUF_INIT;
	int ea = cli_stacks_event(a, &d->in), eb = cli_stacks_event(b, &d->in);
	if (ea < 0 || eb < 0)
		return CLI_USAGE;
	const struct cgu_folded *fa = cli_stacks_fold(a, ea, &ta);
	const struct cgu_folded *fb = cli_stacks_fold(b, eb, &tb);
	int rc = fa && fb ? CLI_OK : CLI_BADINPUT;
	cgu_flame_tree_init(&t);
	t.max_depth = d->flame.max_depth;
	if (rc == CLI_OK && cgu_diff_tree(&t, fa, fb, d->normalize, d->flame.reverse) < 0)
		rc = CLI_BADINPUT;
	if (rc == CLI_OK) {
		cli_stacks_describe(b, eb, &sub, &unit);
		if (!d->flame.countname)
			d->flame.countname = unit.data;
		cgu_buf_reset(&sub);
		d->flame.subtitle = subtitle(d->flame.subtitle, a, b, &sub);
		rc = write_diff(d, &t);
	}
	cgu_flame_tree_release(&t);
	cgu_folded_release(&ta);
	cgu_folded_release(&tb);
	cgu_buf_release(&sub);
	cgu_buf_release(&unit);
	return rc;
}

static int parse_options(struct diff_cmd *d, int argc, char **argv)
{
	int opt;
	while ((opt = getopt_long(argc, argv, "e:o:h", longopts, NULL)) != -1) {
		if (opt == 'h')
			return cli_help(usage, help) == CLI_OK ? -1 : CLI_USAGE;
		if (opt == '?')
			return CLI_USAGE;
		if (opt == OPT_NORMALIZE || opt == OPT_FOLDED) {
			*(opt == OPT_NORMALIZE ? &d->normalize : &d->folded) = true;
			continue;
		}
		int rc = cli_flame_option(&d->flame, "diff", opt, optarg);
		if (rc == CLI_USAGE)
			return rc;
		if (rc != CLI_OK && cli_input_option(&d->in, "diff", opt, optarg) <= 0)
			return CLI_USAGE;
	}
	if (d->flame.flamechart)
		return cli_usage_error("diff", "--flamechart: a differential graph "
				       "has no time order");
	if (argc - optind != 2)
		return cli_usage_error("diff", "expects two inputs, BEFORE and AFTER");
	return CLI_OK;
}

int cmd_diff(int argc, char **argv)
{
	struct diff_cmd d = { .in = { .cmd = "diff", .names = CGU_NAMES_AUTO } };
	struct cli_stacks a, b;
	cgu_flame_options_init(&d.flame);
	d.flame.countname = NULL;
	int rc = parse_options(&d, argc, argv);
	if (rc != CLI_OK)
		return rc < 0 ? CLI_OK : rc;
	rc = cli_view_ready(&d.in);
	if (rc != CLI_OK) {
		cli_view_release(&d.in);
		return rc;
	}
	rc = cli_stacks_open(&a, &d.in, argv[optind]);
	if (rc == CLI_OK) {
		rc = cli_stacks_open(&b, &d.in, argv[optind + 1]);
		if (rc == CLI_OK)
			rc = compare(&d, &a, &b);
		cli_stacks_release(&b);
	}
	cli_stacks_release(&a);
	cli_view_release(&d.in);
	return rc;
}
