/* cli.c - main() of callgrind-utils: dispatch on the command name. */
#include <stdio.h>
#include <string.h>
#include "cli.h"

struct cli_command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *help;
};

/* Keep one entry a line, sorted by name. */
static const struct cli_command commands[] = {
	{ "annotate", cmd_annotate, "instructions of hot functions with their costs (--asm)" },
	{ "callees", cmd_callees, "functions a function calls, with calls and cost" },
	{ "callers", cmd_callers, "functions that call a function, with calls and cost" },
	{ "diff", cmd_diff, "differential flame graph or folded diff of two inputs" },
	{ "dot", cmd_dot, "call graph for Graphviz, with node and edge thresholds" },
	{ "edges", cmd_edges, "sorted 'caller -> callee calls cost' lines" },
	{ "firefox", cmd_firefox, "Firefox Profiler file, costs as sample weights" },
	{ "flamegraph", cmd_flamegraph, "interactive SVG flame graph" },
	{ "fold", cmd_fold, "folded stacks 'a;b;c cost' for flame graphs" },
	{ "json", cmd_json, "nodes and edges with all events as JSON" },
	{ "pprof", cmd_pprof, "gzip'd pprof profile.proto, one sample type per event" },
	{ "redact", cmd_redact, "host-independent names, as a Callgrind profile" },
	{ "speedscope", cmd_speedscope, "speedscope file, one profile per event" },
	{ "summary", cmd_summary, "top functions by self or inclusive cost" },
	{ "symbolize", cmd_symbolize, "name JIT addresses through a perf map" },
};

static void print_usage(FILE *f)
{
	size_t i;

	fputs("Usage: callgrind-utils <command> [options] [FILE|-]...\n"
	      "       callgrind-utils --version | --help\n\nCommands:\n", f);
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-12s %s\n", commands[i].name, commands[i].help);
	fputs("\nRun 'callgrind-utils <command> --help' for its options.\n"
	      "Exit status: 0 ok, 1 usage error, 2 bad input.\n", f);
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		print_usage(stderr);
		return CLI_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		print_usage(stdout);
		return CLI_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("callgrind-utils %s\n", CGU_VERSION_STRING);
		return CLI_OK;
	}
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].run(argc - 1, argv + 1);
	fprintf(stderr, "callgrind-utils: unknown command '%s'\n", argv[1]);
	print_usage(stderr);
	return CLI_USAGE;
}
