/* cli.h - the command-line shell over libcallgrind-utils.
 *
 * main() in cli.c looks the command up in a table of
 * {name, handler, one-line help}.  A handler gets argv with argv[0] the
 * command name and returns the exit status:
 */
#ifndef CGU_CLI_H
#define CGU_CLI_H

#include <stdio.h>
#include <callgrind-utils/callgrind-utils.h>
#include <callgrind-utils/view.h>

#define CLI_OK 0        /* success */
#define CLI_USAGE 1     /* bad command line */
#define CLI_BADINPUT 2  /* malformed profile or other input, I/O error */

int cmd_summary(int argc, char **argv);
int cmd_edges(int argc, char **argv);
int cmd_json(int argc, char **argv);
int cmd_fold(int argc, char **argv);
int cmd_symbolize(int argc, char **argv);
int cmd_redact(int argc, char **argv);
int cmd_speedscope(int argc, char **argv);
int cmd_flamegraph(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_annotate(int argc, char **argv);
int cmd_callers(int argc, char **argv);
int cmd_callees(int argc, char **argv);
int cmd_dot(int argc, char **argv);
int cmd_firefox(int argc, char **argv);
int cmd_pprof(int argc, char **argv);

/* ---- helpers shared by the handlers (cli-util.c) ---- */

/* Print "callgrind-utils CMD: message" to stderr; returns CLI_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Print err->msg to stderr; returns the exit status for err->code. */
int cli_report(const struct cgu_error *err);
/* Print "callgrind-utils: warning: w->msg" to stderr (the parsers'
 * on_warning; the loaders below set it when the command did not). */
void cli_warning(void *ctx, const struct cgu_error *w);

/* Options every command reading profiles understands (see
 * CLI_INPUT_LONGOPTS and cli_input_option()), and those of the commands
 * that use exact stacks (CLI_STACKS_LONGOPTS). */
struct cli_input {
	const char *cmd;              /* the command, for messages */
	struct cgu_parse_opts parse;
	const char *event;            /* --event NAME, NULL = first */
	const char *output;           /* -o FILE, NULL or "-" = stdout */
	const char *stacks;           /* --stacks FILE */
	int reconstructed;            /* --reconstructed */
	int per_thread;               /* --per-thread */
	int verbose;                  /* -v, --verbose */
	struct cgu_view view;         /* --all-frames, --focus, --ignore,
					 --hide */
	unsigned merge;               /* --merge: CGU_MERGE_* */
	enum cgu_name_style names;    /* --names of the flame graph commands
					 (they set CGU_NAMES_AUTO first) */
};
/* getopt_long values of the shared options */
enum { CLI_OPT_EVENT = 1000, CLI_OPT_SEPARATE, CLI_OPT_NO_TOTALS,
       CLI_OPT_MAX_LINE, CLI_OPT_MAX_INPUT, CLI_OPT_STACKS, CLI_OPT_RECONSTRUCTED,
       CLI_OPT_PER_THREAD, CLI_OPT_VERBOSE, CLI_OPT_ALL_FRAMES,
       CLI_OPT_FOCUS, CLI_OPT_IGNORE, CLI_OPT_HIDE, CLI_OPT_MERGE,
       CLI_OPT_NAMES, CLI_OPT_FIRST_FREE };
#define CLI_INPUT_LONGOPTS \
	{ "event", required_argument, NULL, CLI_OPT_EVENT }, \
	{ "output", required_argument, NULL, 'o' }, \
	{ "separate-parts", no_argument, NULL, CLI_OPT_SEPARATE }, \
	{ "no-check-totals", no_argument, NULL, CLI_OPT_NO_TOTALS }, \
	{ "max-line", required_argument, NULL, CLI_OPT_MAX_LINE }, \
	{ "max-input", required_argument, NULL, CLI_OPT_MAX_INPUT }, \
	{ "help", no_argument, NULL, 'h' }
#define CLI_INPUT_HELP \
	"  -e, --event NAME      event to show (default: the first)\n" \
	"  -o, --output FILE     write to FILE instead of stdout ('-')\n" \
	"      --separate-parts  keep parts and files apart (default: merge)\n" \
	"      --no-check-totals do not check against summary:/totals:\n" \
	"      --max-line N      longest accepted input line (default 1 MiB)\n" \
	"      --max-input N     most bytes compressed input may decompress\n" \
	"                        to (default 16 GiB; N may end in k, M or G)\n" \
	"  -h, --help            show this help\n"
#define CLI_STACKS_LONGOPTS \
	{ "stacks", required_argument, NULL, CLI_OPT_STACKS }, \
	{ "reconstructed", no_argument, NULL, CLI_OPT_RECONSTRUCTED }
#define CLI_PER_THREAD_LONGOPT \
	{ "per-thread", no_argument, NULL, CLI_OPT_PER_THREAD }
#define CLI_STACKS_HELP \
	"      --stacks FILE     exact stacks from FILE (default: PROFILE.stacks\n" \
	"                        when it is there, see callgrind\n" \
	"                        --collect-stacks=yes); a stacks file can also\n" \
	"                        be the input itself\n" \
	"      --reconstructed   leave exact stacks aside: stacks reconstructed\n" \
	"                        from the call graph, an estimate\n"
#define CLI_PER_THREAD_HELP \
	"      --per-thread      one lane a thread, each stack under a frame\n" \
	"                        [thread N] (default: merged): from the exact\n" \
	"                        stacks, or (but in fold) from profiles of a\n" \
	"                        thread each (callgrind --separate-threads=yes)\n"
#define CLI_VIEW_LONGOPTS \
	{ "all-frames", no_argument, NULL, CLI_OPT_ALL_FRAMES }, \
	{ "focus", required_argument, NULL, CLI_OPT_FOCUS }, \
	{ "ignore", required_argument, NULL, CLI_OPT_IGNORE }, \
	{ "hide", required_argument, NULL, CLI_OPT_HIDE }, \
	{ "merge", required_argument, NULL, CLI_OPT_MERGE }
#define CLI_ROOT_HELP \
	"      --all-frames      stacks from their very root: the loader's\n" \
	"                        entry, _start, (below main), ... (default:\n" \
	"                        a stack through main starts at main, others\n" \
	"                        after their start-up frames, whose own cost\n" \
	"                        is one frame [start-up])\n"
#define CLI_VIEW_HELP \
	"      --focus RE        only the stacks with a frame matching RE\n" \
	"      --ignore RE       leave out the stacks with a frame matching RE\n" \
	"      --hide RE         take the frames matching RE out of the stacks\n" \
	"                        (RE: POSIX extended regular expression,\n" \
	"                        matched anywhere in the names as printed)\n" \
	CLI_MERGE_HELP
#define CLI_MERGE_HELP \
	"      --merge WHAT      recursion: fib'2 into fib (--separate-recs);\n" \
	"                        callers: a'b'c into a (--separate-callers);\n" \
	"                        all: both\n"
#define CLI_NAMES_LONGOPT \
	{ "names", required_argument, NULL, CLI_OPT_NAMES }
/* Handle a shared option; returns 1 if handled, 0 if not, -1 on error. */
int cli_input_option(struct cli_input *in, const char *cmd, int opt,
		     const char *arg);

/* Compile in->view's regular expressions: CLI_OK or CLI_USAGE
 * (printed); cli_view_release() afterwards either way. */
int cli_view_ready(struct cli_input *in);
void cli_view_release(struct cli_input *in);
/* --merge: every profile of set, and the exact stacks *cct when cct
 * and *cct are not NULL, merged as in->merge says. */
struct cgu_cct;
void cli_merge(const struct cli_input *in, struct cgu_profile_set *set,
	       struct cgu_cct **cct);

/* Parse the files (argv[first..argc), none means "-") into set. */
int cli_load_set(struct cli_input *in, int nfiles, char **files,
		 struct cgu_profile_set *set);
/* Resolve in->event for p; prints an error and returns -1 if unknown. */
int cli_event(const struct cli_input *in, const struct cgu_profile *p);
/* Open in->output; "-" or NULL is stdout.  NULL on error (printed). */
FILE *cli_open_output(const char *path);
/* Flush and close (not stdout's fd); returns CLI_OK or CLI_BADINPUT. */
int cli_close_output(FILE *f, const char *path);

/* Write one line of "Usage:" plus the help text and return CLI_OK. */
int cli_help(const char *usage, const char *text);

/* Run write(p, ctx) for every profile of set to the output, prefixing a
 * "# part: SOURCE" line when there are several.  Exit status. */
typedef int (*cli_write_fn)(const struct cgu_profile *p, int event,
			    FILE *out, struct cgu_error *err, void *ctx);
int cli_run_outputs(struct cli_input *in, struct cgu_profile_set *set,
		    cli_write_fn write, void *ctx);

/* ---- exact stacks (cli-exact.c) ---- */

/* What stacks an output draws. */
enum cli_stacks_kind {
	CLI_STACKS_FOLDED,          /* folded input: whatever it holds */
	CLI_STACKS_EXACT,           /* the calling-context tree (.stacks) */
	CLI_STACKS_CONTEXT,         /* context names (--separate-callers) */
	CLI_STACKS_RECONSTRUCTED,   /* from the call graph: an estimate */
};
/* "exact stacks", "reconstructed stacks: an estimate (...)", ...; NULL
 * for folded input. */
const char *cli_stacks_label(enum cli_stacks_kind k);
/* What fold mode m draws for p without exact stacks. */
enum cli_stacks_kind cli_stacks_kind_of(const struct cgu_profile *p,
					enum cgu_fold_mode m);

/* The inputs of a command that uses exact stacks: profiles, and the
 * stacks of all of them, or none. */
struct cli_inputs {
	struct cgu_profile_set set;
	struct cgu_cct *cct;           /* NULL: draw reconstructed stacks */
	const char *stacks_name;       /* cct's file(s), for messages */
	size_t *parts;                 /* --separate-parts: the part of cct
					  of each profile of set */
};
/* Read files (none: "-"): profiles with the stacks beside them (or
 * --stacks), or stacks files alone (their call graph as the profiles).
 * Exact stacks are checked against their profiles.  Exit status. */
int cli_load_inputs(struct cli_input *in, int nfiles, char **files,
		    struct cli_inputs *l);
void cli_inputs_release(struct cli_inputs *l);
/* The same for the profiles already loaded from files (flamegraph and
 * the like): find, read and check their exact stacks into l->cct. */
int cli_find_stacks(const struct cli_input *in, int nfiles, char **files,
		    struct cli_inputs *l);
/* --per-thread without exact stacks: a usage error (printed). */
int cli_check_per_thread(const struct cli_input *in, const struct cgu_cct *c);

/* One profile to write, with its exact stacks when there are. */
struct cli_item {
	const struct cgu_profile *p;
	const struct cgu_cct *cct;     /* NULL: none */
	size_t part;                   /* of cct, or CGU_CCT_ALL_PARTS */
	const char *stacks_name;
	const struct cli_input *in;
};
typedef int (*cli_item_fn)(const struct cli_item *it, int event, FILE *out,
			   struct cgu_error *err, void *ctx);
/* cli_run_outputs() with items. */
int cli_run_items(struct cli_input *in, struct cli_inputs *l,
		  cli_item_fn write, void *ctx);

/* The functions of the stacks it->in->view keeps (--focus, --ignore,
 * --hide; every frame, as the root cut changes no function's cost), the
 * exact stacks when there are, every event (those of the exact stacks
 * then), into *q: a node a frame name as names prints it (no file, no
 * object), its self cost where it is the leaf of a stack, *incl (per
 * node and event, as q's self) where it is on the stack, once however
 * often; an edge a caller -> callee of adjacent frames with the cost of
 * the stacks it is on (once a stack), and no calls.  The caller frees
 * *q and *incl either way (cli-view.c). */
int cli_view_profile(const struct cli_item *it, enum cgu_name_style names,
		     struct cgu_profile **q, cgu_cost **incl,
		     struct cgu_error *err);

/* The whole of a command that reads profiles and writes an output:
 * parses options (the shared ones and spec->options), loads the files
 * and runs spec->write on every profile.  Returns the exit status. */
#include <getopt.h>
struct cli_spec {
	const char *name;                /* the command */
	const char *usage;               /* "edges [options] [FILE|-]..." */
	const char *help;                /* option lines after the usage */
	const struct option *options;    /* includes CLI_INPUT_LONGOPTS,
					    ends with a zero entry */
	const char *shortopts;           /* includes "e:o:h" */
	/* command options: 0 ok, -1 usage error (already printed) */
	int (*option)(int opt, const char *arg, void *ctx);
	/* after the options, before reading input: 0 or an exit status */
	int (*check)(void *ctx);
	cli_write_fn write;
	/* instead of write, for the commands that use exact stacks */
	cli_item_fn write_item;
	void *ctx;
};
int cli_main(int argc, char **argv, const struct cli_spec *spec);
/* Its first step: parse the options into in (in->cmd set); returns -1
 * to go on, else the exit status (--help, a usage error). */
int cli_options(int argc, char **argv, const struct cli_spec *spec,
		struct cli_input *in);

/* --names=function|file|full; -1 (printed) when unknown */
int cli_name_style(const char *cmd, const char *arg,
		   enum cgu_name_style *out);
#define CLI_NAMES_HELP \
	"      --names STYLE     auto (default: function, and where functions\n" \
	"                        of other files or objects have the same name\n" \
	"                        base:function, file:function or\n" \
	"                        file:function [object], as it takes),\n" \
	"                        function, file (file:function, as\n" \
	"                        callgrind_annotate shows) or full (+ [object])\n"

#endif
