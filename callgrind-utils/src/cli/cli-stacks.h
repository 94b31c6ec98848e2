/* cli-stacks.h - input of the flame graph commands: a folded file or a
 * Callgrind profile, told apart by their first bytes. */
#ifndef CGU_CLI_STACKS_H
#define CGU_CLI_STACKS_H

#include <callgrind-utils/folded.h>
#include "cli.h"

struct cli_stacks {
	const char *name;              /* file name for messages */
	struct cgu_profile_set set;    /* a profile: set.v[0]; empty for folded;
					  for a stacks file its call graph */
	struct cgu_folded folded;      /* folded input, read whole */
	struct cgu_cct *cct;           /* exact stacks, or NULL */
	const char *stacks_name;       /* cct's file */
	size_t part;                   /* of cct: 0 with --separate-parts */
	int per_thread;
	int lanes;                     /* --per-thread without exact stacks:
					  set holds a profile a thread, each
					  drawn under its [thread N] frame */
	enum cgu_name_style names;     /* the input's --names */
	const struct cgu_view *view;   /* the input's view (cli_input) */
};

/* Read path ("-" = stdin).  Returns CLI_OK or an exit status (printed).
 * s keeps a pointer to in->view.  With --per-thread every part is a
 * profile of its own: the exact stacks draw a lane a thread, and without
 * them so do parts that are threads (callgrind --separate-threads=yes,
 * "thread:" in their header). */
int cli_stacks_open(struct cli_stacks *s, const struct cli_input *in, const char *path);
/* The same for several profiles or stacks files (none: stdin), merged
 * as fold merges them; one file is cli_stacks_open(). */
int cli_stacks_open_files(struct cli_stacks *s, const struct cli_input *in,
			  int nfiles, char **files);
void cli_stacks_release(struct cli_stacks *s);
/* The profile, or NULL for folded input. */
const struct cgu_profile *cli_stacks_profile(const struct cli_stacks *s);
/* Stacks of event ev: the folded input itself, or the profile folded into
 * *tmp, which the caller releases either way.  NULL on error (printed). */
const struct cgu_folded *cli_stacks_fold(const struct cli_stacks *s, int ev,
					 struct cgu_folded *tmp);
/* Event index of in->event for s (0 for folded input), or -1 (printed). */
int cli_stacks_event(const struct cli_stacks *s, const struct cli_input *in);
/* "cmd: ..., event: ..., exact stacks" of a profile into sub (what the
 * stacks are: see cli_stacks_label()), and the event name into unit. */
void cli_stacks_describe(const struct cli_stacks *s, int ev, struct cgu_buf *sub,
			 struct cgu_buf *unit);
/* What the stacks of s are. */
enum cli_stacks_kind cli_stacks_kind(const struct cli_stacks *s);
/* The subtitle: the user's (with the label of kind added) or dflt. */
const char *cli_stacks_subtitle(const char *user, const char *dflt,
				const char *label, struct cgu_buf *buf);

/* Commands that write the stacks of every event into one file
 * (speedscope, pprof, firefox): options (spec: name, usage, help,
 * options, shortopts, option, ctx), one input read by
 * cli_stacks_open(), the events of --event (one) or all of them, folded
 * as the fold command folds them (the same view options: --all-frames,
 * --focus, --ignore, --hide, --merge, --names, --per-thread), given to
 * write with the profile (NULL for folded input) and a title ("CMD -
 * exact stacks", see cli_stacks_label()). */
#include <callgrind-utils/export.h>
#define CLI_EXPORT_LONGOPTS \
	CLI_INPUT_LONGOPTS, \
	CLI_VIEW_LONGOPTS, \
	CLI_NAMES_LONGOPT, \
	CLI_STACKS_LONGOPTS, \
	CLI_PER_THREAD_LONGOPT
#define CLI_EXPORT_HELP \
	CLI_STACKS_HELP CLI_PER_THREAD_HELP \
	CLI_ROOT_HELP CLI_VIEW_HELP CLI_NAMES_HELP \
	CLI_INPUT_HELP
typedef int (*cli_export_fn)(const struct cgu_profile *p,
			     const struct cgu_export_event *events, size_t n,
			     const char *title, FILE *out,
			     struct cgu_error *err, void *ctx);
struct cli_export {
	struct cli_spec spec;
	cli_export_fn write;
	int binary;                /* no terminal as the output */
};
int cli_export_main(int argc, char **argv, const struct cli_export *x);

/* Options shared by flamegraph and diff (cmd-flamegraph.c). */
enum { CLI_FLAME_TITLE = CLI_OPT_FIRST_FREE, CLI_FLAME_SUBTITLE, CLI_FLAME_WIDTH,
       CLI_FLAME_HEIGHT, CLI_FLAME_MINWIDTH, CLI_FLAME_COLORS, CLI_FLAME_COUNTNAME,
       CLI_FLAME_REVERSE, CLI_FLAME_INVERTED, CLI_FLAME_MAX_DEPTH,
       CLI_FLAME_MAX_FRAMES, CLI_FLAME_FLAMECHART, CLI_FLAME_OPT_FREE };
#define CLI_FLAME_LONGOPTS \
	{ "title", required_argument, NULL, CLI_FLAME_TITLE }, \
	{ "subtitle", required_argument, NULL, CLI_FLAME_SUBTITLE }, \
	{ "width", required_argument, NULL, CLI_FLAME_WIDTH }, \
	{ "height", required_argument, NULL, CLI_FLAME_HEIGHT }, \
	{ "minwidth", required_argument, NULL, CLI_FLAME_MINWIDTH }, \
	{ "colors", required_argument, NULL, CLI_FLAME_COLORS }, \
	{ "countname", required_argument, NULL, CLI_FLAME_COUNTNAME }, \
	{ "reverse", no_argument, NULL, CLI_FLAME_REVERSE }, \
	{ "inverted", no_argument, NULL, CLI_FLAME_INVERTED }, \
	{ "max-depth", required_argument, NULL, CLI_FLAME_MAX_DEPTH }, \
	{ "max-frames", required_argument, NULL, CLI_FLAME_MAX_FRAMES }, \
	{ "flamechart", no_argument, NULL, CLI_FLAME_FLAMECHART }
#define CLI_FLAME_HELP \
	"      --title TEXT      title (default: Flame Graph, Icicle Graph)\n" \
	"      --subtitle TEXT   subtitle (default for a profile: command, event)\n" \
	"      --width PX        image width (default 1200)\n" \
	"      --height PX       frame height (default 16)\n" \
	"      --minwidth PX     leave out of the SVG the frames narrower than\n" \
	"                        PX pixels (default 0.1), or with N%, than N\n" \
	"                        percent of the total\n" \
	"      --colors NAME     palette: object (by object: user code, libc,\n" \
	"                        loader, JIT, skipped), hot, cold (default object)\n" \
	"      --countname NAME  unit shown in details (default: event or samples)\n" \
	"      --reverse         reverse every stack: leaves become the roots\n" \
	"      --inverted        icicle graph: the root at the top\n" \
	"      --max-depth N     frames deeper than N drawn as one [deeper]\n" \
	"                        frame (default 4096, 0 = no limit)\n" \
	"      --max-frames N    draw at most N frames, leaving the narrowest\n" \
	"                        out, as the subtitle says (default 200000,\n" \
	"                        0 = no limit)\n" \
	"      --flamechart      folded stacks in the order of their lines (time\n" \
	"                        order, where they are in it), each merged with\n" \
	"                        the line before only; not for a profile, which\n" \
	"                        does not record when calls happened\n"
struct cgu_flame_options;
/* Handle one of them: CLI_OK, CLI_USAGE (printed), or -1 if not one. */
int cli_flame_option(struct cgu_flame_options *o, const char *cmd, int opt,
		     const char *arg);

#endif
