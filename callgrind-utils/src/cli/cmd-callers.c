/* cmd-callers.c - callgrind-utils callers and callees: the functions
 * that call (or are called by) the functions matching a regular
 * expression, with calls and the inclusive cost of those calls, as
 * callgrind_annotate --tree=caller/calling and KCachegrind show them. */
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

enum { OPT_NAMES = CLI_OPT_FIRST_FREE, OPT_FUNCTION };

static const struct option options[] = {
	CLI_INPUT_LONGOPTS,
	{ "function", required_argument, NULL, OPT_FUNCTION },
	{ "names", required_argument, NULL, OPT_NAMES },
	{ "merge", required_argument, NULL, CLI_OPT_MERGE },
	{ NULL, 0, NULL, 0 }
};

struct tree_cmd {
	const char *name;          /* "callers" or "callees" */
	int callees;
	enum cgu_name_style names;
	const char *pattern;
	regex_t re;
	int compiled;
};

static int tree_option(int opt, const char *arg, void *ctx)
{
	struct tree_cmd *t = ctx;

	if (opt == OPT_FUNCTION) {
		t->pattern = arg;
		return 0;
	}
	return opt == OPT_NAMES ? cli_name_style(t->name, arg, &t->names) : -1;
}

/* After the options: --function is needed, and a good expression. */
static int tree_check(void *ctx)
{
	struct tree_cmd *t = ctx;
	char why[256];
	int rc;

	if (!t->pattern)
		return cli_usage_error(t->name, "--function REGEX is required");
	rc = regcomp(&t->re, t->pattern, REG_EXTENDED | REG_NOSUB);
	if (!rc) {
		t->compiled = 1;
		return CLI_OK;
	}
	regerror(rc, &t->re, why, sizeof(why));
	return cli_usage_error(t->name, "--function '%s': bad regular "
			       "expression: %s", t->pattern, why);
}

static double percent(cgu_cost part, cgu_cost total)
{
	return total ? 100.0 * (double)part / (double)total : 0.0;
}

/* The callers (callees) of node n, heaviest first. */
static void neighbours(const struct tree_cmd *t, const struct cgu_profile *p,
		       uint32_t n, int ev, const struct cgu_name_table *names,
		       struct cgu_buf *text)
{
	const uint32_t *start = t->callees ? p->out_start : p->in_start;
	const uint32_t *list = t->callees ? p->out_edges : p->in_edges;
	uint32_t k, m = start[n + 1] - start[n], i, j;
	uint32_t *v = malloc((m ? m : 1) * sizeof(*v));

	if (!v)
		abort();
	for (k = 0; k < m; k++) {          /* insertion sort: few edges */
		uint32_t e = list[start[n] + k];
		cgu_cost c = cgu_edge_cost(p, e)[ev];

		for (j = k; j > 0 && cgu_edge_cost(p, v[j - 1])[ev] < c; j--)
			v[j] = v[j - 1];
		v[j] = e;
	}
	cgu_buf_addf(text, "  %14s %14s %7s  %s\n", "calls", "inclusive",
		     "incl%", t->callees ? "callee" : "caller");
	for (i = 0; i < m; i++) {
		const struct cgu_edge *e = &p->edges[v[i]];
		cgu_cost c = cgu_edge_cost(p, v[i])[ev];

		cgu_buf_addf(text, "  %14llu %14llu %6.2f%%  %s\n",
			     (unsigned long long)e->calls, (unsigned long long)c,
			     percent(c, p->totals[ev]), cgu_name_table_get(names,
			     t->callees ? e->callee : e->caller));
	}
	if (!m)
		cgu_buf_addf(text, "  (none)\n");
	free(v);
}

static int tree_write(const struct cgu_profile *p, int ev, FILE *out,
		      struct cgu_error *err, void *ctx)
{
	struct tree_cmd *t = ctx;
	struct cgu_name_table names;
	struct cgu_buf text = CGU_BUF_INIT;
	size_t found = 0;
	uint32_t n;
	int rc = CGU_OK;

	cgu_name_table_build(&names, p->nodes, p->nnodes, t->names);
	cgu_buf_addf(&text, "# event %s, total %llu; %s of /%s/\n",
		     p->events[ev], (unsigned long long)p->totals[ev], t->name,
		     t->pattern);
	for (n = 0; n < p->nnodes; n++) {
		const char *name = cgu_name_table_get(&names, n);
		cgu_cost self = cgu_self(p, n)[ev];
		cgu_cost incl = cgu_node_inclusive(p, n, ev);

		if (regexec(&t->re, name, 0, NULL, 0))
			continue;
		found++;
		cgu_buf_addf(&text, "\n%s: self %llu (%.2f%%), inclusive %llu "
			     "(%.2f%%)\n", name, (unsigned long long)self,
			     percent(self, p->totals[ev]),
			     (unsigned long long)incl, percent(incl, p->totals[ev]));
		neighbours(t, p, n, ev, &names, &text);
	}
	if (!found)
		rc = cgu_error_set(err, CGU_EUSAGE, NULL, 0, "%s: no function "
				   "matches '%s'", t->name, t->pattern);
	else if (cgu_buf_write(&text, out))
		rc = cgu_error_set(err, CGU_EIO, NULL, 0, "write error");
	cgu_buf_release(&text);
	cgu_name_table_release(&names);
	return rc;
}

static int run(int argc, char **argv, const char *name, int callees)
{
	struct tree_cmd t = { name, callees, CGU_NAMES_AUTO, NULL, { 0 }, 0 };
	struct cgu_buf usage = CGU_BUF_INIT, help = CGU_BUF_INIT;
	struct cli_spec spec = {
		.name = name, .options = options, .shortopts = "e:o:h",
		.option = tree_option, .check = tree_check, .write = tree_write,
		.ctx = &t,
	};
	int rc;

	cgu_buf_addf(&usage, "%s --function REGEX [options] [FILE|-]...", name);
	cgu_buf_addf(&help,
		"For every function whose name (as printed, --names) matches\n"
		"REGEX (a POSIX extended regular expression), its self and\n"
		"inclusive cost for the event, then the functions %s, heaviest\n"
		"first, with the calls and the inclusive cost of those calls (from\n"
		"the call graph).\n\nOptions:\n"
		"      --function REGEX  the functions to show (required)\n"
		"%s%s%s", callees ? "it calls" : "that call it", CLI_MERGE_HELP,
		CLI_NAMES_HELP, CLI_INPUT_HELP);
	spec.usage = usage.data;
	spec.help = help.data;
	rc = cli_main(argc, argv, &spec);
	if (t.compiled)
		regfree(&t.re);
	cgu_buf_release(&usage);
	cgu_buf_release(&help);
	return rc;
}

int cmd_callers(int argc, char **argv)
{
	return run(argc, argv, "callers", 0);
}

int cmd_callees(int argc, char **argv)
{
	return run(argc, argv, "callees", 1);
}
