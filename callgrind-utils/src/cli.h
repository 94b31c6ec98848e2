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

/* ---- helpers shared by the handlers (cli-util.c) ---- */

/* Print "callgrind-utils CMD: message" to stderr; returns CLI_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Print err->msg to stderr; returns the exit status for err->code. */
int cli_report(const struct cgu_error *err);

/* Options every command reading profiles understands (see
 * CLI_INPUT_LONGOPTS and cli_input_option()). */
struct cli_input {
	struct cgu_parse_opts parse;
	const char *event;            /* --event NAME, NULL = first */
	const char *output;           /* -o FILE, NULL or "-" = stdout */
};
/* getopt_long values of the shared options */
enum { CLI_OPT_EVENT = 1000, CLI_OPT_SEPARATE, CLI_OPT_NO_TOTALS,
       CLI_OPT_MAX_LINE, CLI_OPT_FIRST_FREE };
#define CLI_INPUT_LONGOPTS \
	{ "event", required_argument, NULL, CLI_OPT_EVENT }, \
	{ "output", required_argument, NULL, 'o' }, \
	{ "separate-parts", no_argument, NULL, CLI_OPT_SEPARATE }, \
	{ "no-check-totals", no_argument, NULL, CLI_OPT_NO_TOTALS }, \
	{ "max-line", required_argument, NULL, CLI_OPT_MAX_LINE }, \
	{ "help", no_argument, NULL, 'h' }
#define CLI_INPUT_HELP \
	"  -e, --event NAME      event to show (default: the first)\n" \
	"  -o, --output FILE     write to FILE instead of stdout ('-')\n" \
	"      --separate-parts  keep parts and files apart (default: merge)\n" \
	"      --no-check-totals do not check against summary:/totals:\n" \
	"      --max-line N      longest accepted input line (default 1 MiB)\n" \
	"  -h, --help            show this help\n"
/* Handle a shared option; returns 1 if handled, 0 if not, -1 on error. */
int cli_input_option(struct cli_input *in, const char *cmd, int opt,
		     const char *arg);

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
	void *ctx;
};
int cli_main(int argc, char **argv, const struct cli_spec *spec);

/* --names=function|file|full; -1 (printed) when unknown */
int cli_name_style(const char *cmd, const char *arg,
		   enum cgu_name_style *out);
#define CLI_NAMES_HELP \
	"      --names STYLE     function (default), file (file:function, as\n" \
	"                        callgrind_annotate shows) or full (+ [object])\n"

#endif
