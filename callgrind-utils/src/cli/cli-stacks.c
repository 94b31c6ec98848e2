/* cli-stacks.c - load the input of flamegraph, speedscope and diff: folded
 * stacks, a profile (with its exact stacks when they are beside it) or a
 * stacks file. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <callgrind-utils/cct.h>
#include "cli-stacks.h"

static int fail(const struct cgu_error *err)
{
	return cli_report(err);
}

/* c was read from the input: its call graph is the profile, it the
 * exact stacks (unless --reconstructed). */
static int use_stacks_input(struct cli_stacks *s, const struct cli_input *in,
			    struct cgu_cct *c)
{
	if (in->stacks) {
		cgu_cct_free(c);
		return cli_usage_error(in->cmd, "--stacks: the input is a "
				       "stacks file already");
	}
	cgu_profile_set_add(&s->set, cgu_cct_profile(c, s->part, NULL),
			    s->name);
	if (in->reconstructed) {
		cgu_cct_free(c);
		return CLI_OK;
	}
	s->cct = c;
	s->stacks_name = s->name;
	return CLI_OK;
}

/* The profile was read from path: find its exact stacks. */
static int find_stacks(struct cli_stacks *s, const struct cli_input *in,
		       const char *path)
{
	struct cli_inputs l = { s->set, NULL, NULL, NULL };
	char *files[] = { (char *)path };
	int rc = cli_find_stacks(in, 1, files, &l);

	s->cct = l.cct;
	s->stacks_name = l.stacks_name;
	if (l.parts)                /* --separate-parts: the first profile's */
		s->part = l.parts[0];
	free(l.parts);
	return rc;
}

/* path ("-" = stdin), plain or compressed: a profile, a stacks file or
 * folded stacks, told apart by the first line. */
static int open_input(struct cli_stacks *s, const struct cli_input *in,
		      const char *path)
{
	struct cgu_error err = { 0 };
	struct cgu_cct *c = cgu_cct_new();
	int rc = cgu_read_input(path, &in->parse, &s->set, c, &s->folded, &err);

	if (rc < 0) {
		cgu_cct_free(c);
		return fail(&err);
	}
	if (rc == 1)
		return use_stacks_input(s, in, c);
	cgu_cct_free(c);
	if (rc == 0)
		return find_stacks(s, in, path);
	if (in->stacks)
		return cli_usage_error(in->cmd, "--stacks goes with a profile, "
				       "not with folded stacks");
	/* only the flame graph draws both counts of differential stacks */
	if (s->folded.before && strcmp(in->cmd, "flamegraph"))
		fprintf(stderr, "callgrind-utils: warning: %s: differential folded "
			"stacks ('STACK BEFORE AFTER'); %s takes their AFTER "
			"counts\n", s->name, in->cmd);
	/* an empty file (or stdin) is a mistake upstream, such as a fold
	 * that failed, not a graph of nothing */
	if (s->folded.nstacks == 0) {
		cgu_error_set(&err, CGU_EINPUT, s->name, 0, "no stacks; expected "
			      "folded stacks ('a;b;c 123' lines), a Callgrind "
			      "profile or a stacks file");
		return fail(&err);
	}
	return CLI_OK;
}

/* The parts of profiles read for --per-thread without exact stacks are
 * the lanes: each must be a thread's. */
static int use_lanes(struct cli_stacks *s, const struct cli_input *in)
{
	size_t i;

	for (i = 0; i < s->set.n && s->set.v[i]->thread; i++)
		;
	if (i < s->set.n)
		return cli_usage_error(in->cmd, "--per-thread needs exact "
				       "stacks (PROFILE.stacks of callgrind "
				       "--collect-stacks=yes) or a profile a "
				       "thread (callgrind --separate-threads=yes), "
				       "but %s has no thread: line",
				       s->set.source[i]);
	s->lanes = 1;
	return CLI_OK;
}

/* s made ready to read into; in a copy of given that reads every part
 * apart for --per-thread. */
static int stacks_init(struct cli_stacks *s, const struct cli_input *given,
		       struct cli_input *in, const char *name)
{
	*in = *given;
	if (!in->parse.on_warning)
		in->parse.on_warning = cli_warning;
	if (in->per_thread)
		in->parse.separate_parts = 1;
	memset(s, 0, sizeof(*s));
	cgu_profile_set_init(&s->set);
	cgu_folded_init(&s->folded);
	s->name = strcmp(name, "-") == 0 ? "<stdin>" : name;
	s->part = given->parse.separate_parts ? 0 : CGU_CCT_ALL_PARTS;
	s->per_thread = in->per_thread;
	s->names = in->names;
	s->view = &given->view;
	if (in->stacks && in->reconstructed)
		return cli_usage_error(in->cmd, "--stacks and --reconstructed "
				       "exclude each other");
	return CLI_OK;
}

/* After reading: merged names, and what --per-thread draws. */
static int stacks_ready(struct cli_stacks *s, const struct cli_input *in)
{
	cli_merge(in, &s->set, &s->cct);
	if (!in->per_thread || s->cct)
		return CLI_OK;
	return s->set.n ? use_lanes(s, in) : cli_check_per_thread(in, NULL);
}

int cli_stacks_open(struct cli_stacks *s, const struct cli_input *given,
		    const char *path)
{
	struct cli_input in;
	int rc = stacks_init(s, given, &in, path);

	if (rc == CLI_OK)
		rc = open_input(s, &in, path);
	if (in.per_thread)          /* every part's stacks, in lanes */
		s->part = CGU_CCT_ALL_PARTS;
	return rc ? rc : stacks_ready(s, &in);
}

int cli_stacks_open_files(struct cli_stacks *s, const struct cli_input *given,
			  int nfiles, char **files)
{
	struct cli_input in;
	struct cli_inputs l;
	int rc;

	if (nfiles <= 1)
		return cli_stacks_open(s, given, nfiles ? files[0] : "-");
	rc = stacks_init(s, given, &in, nfiles ? files[0] : "-");
	in.per_thread = 0;          /* stacks_ready() says what it draws */
	if (rc == CLI_OK)
		rc = cli_load_inputs(&in, nfiles, files, &l);
	if (rc != CLI_OK)
		return rc;
	s->set = l.set;
	s->cct = l.cct;
	s->stacks_name = l.stacks_name;
	if (l.parts && !given->per_thread)   /* --separate-parts: the first */
		s->part = l.parts[0];
	free(l.parts);
	in.per_thread = given->per_thread;
	return stacks_ready(s, &in);
}

void cli_stacks_release(struct cli_stacks *s)
{
	cgu_profile_set_release(&s->set);
	cgu_folded_release(&s->folded);
	cgu_cct_free(s->cct);
	s->cct = NULL;
}

const struct cgu_profile *cli_stacks_profile(const struct cli_stacks *s)
{
	return s->set.n ? s->set.v[0] : NULL;
}

int cli_stacks_event(const struct cli_stacks *s, const struct cli_input *in)
{
	const struct cgu_profile *p = cli_stacks_profile(s);
	return p ? cli_event(in, p) : 0;
}

/* The stacks of every profile of s->set (a thread's each), each under a
 * frame [thread N], into f. */
static int fold_lanes(const struct cli_stacks *s, int ev, struct cgu_folded *f,
		      struct cgu_error *err)
{
	struct cgu_fold_opts o = { .event = ev, .mode = CGU_FOLD_AUTO,
				   .names = s->names, .view = s->view };
	struct cgu_buf lane = CGU_BUF_INIT;
	int rc = 0;

	for (size_t i = 0; rc == 0 && i < s->set.n; i++) {
		const struct cgu_profile *p = s->set.v[i];
		struct cgu_folded one;

		cgu_folded_init(&one);
		rc = cgu_folded_from_profile(&one, p, &o, s->set.source[i], err);
		cgu_buf_reset(&lane);
		cgu_buf_addf(&lane, "[thread %s]", p->thread);
		if (rc == 0 && cgu_folded_add_lane(f, &one, lane.data) < 0)
			rc = cgu_error_set(err, CGU_EIO, s->name, 0, "out of memory");
		cgu_folded_release(&one);
	}
	cgu_buf_release(&lane);
	return rc;
}

const struct cgu_folded *cli_stacks_fold(const struct cli_stacks *s, int ev,
				      struct cgu_folded *tmp)
{
	const struct cgu_profile *p = cli_stacks_profile(s);
	struct cgu_error err = { 0 };
	int rc;
	cgu_folded_init(tmp);
	if (!p && !cgu_view_filters(s->view))
		return &s->folded;
	if (!p) {
		if (cgu_folded_view(tmp, &s->folded, s->view) == 0)
			return tmp;
		cgu_error_set(&err, CGU_EIO, s->name, 0, "out of memory");
		rc = -1;
	} else if (s->lanes) {
		rc = fold_lanes(s, ev, tmp, &err);
	} else if (s->cct) {
		struct cgu_cct_fold_opts o = {
			cgu_cct_event(s->cct, p->events[ev]), s->names,
			s->per_thread, s->part, s->view,
		};
		rc = cgu_folded_from_cct(tmp, s->cct, &o, s->stacks_name, &err);
	} else {
		struct cgu_fold_opts o = { .event = ev, .mode = CGU_FOLD_AUTO,
					   .names = s->names, .view = s->view };
		rc = cgu_folded_from_profile(tmp, p, &o, s->name, &err);
	}
	if (rc) {
		fail(&err);
		return NULL;
	}
	return tmp;
}

enum cli_stacks_kind cli_stacks_kind(const struct cli_stacks *s)
{
	const struct cgu_profile *p = cli_stacks_profile(s);
	if (!p)
		return CLI_STACKS_FOLDED;
	if (s->cct)
		return CLI_STACKS_EXACT;
	return cli_stacks_kind_of(p, CGU_FOLD_AUTO);
}

void cli_stacks_describe(const struct cli_stacks *s, int ev, struct cgu_buf *sub,
			 struct cgu_buf *unit)
{
	const struct cgu_profile *p = cli_stacks_profile(s);
	if (!p) {
		cgu_buf_adds(unit, "samples");
		return;
	}
	cgu_buf_adds(unit, p->events[ev]);
	if (p->cmd)
		cgu_buf_addf(sub, "cmd: %s, ", p->cmd);
	cgu_buf_addf(sub, "event: %s", p->events[ev]);
	if (p->event_desc[ev])
		cgu_buf_addf(sub, " (%s)", p->event_desc[ev]);
	cgu_buf_addf(sub, ", %s", cli_stacks_label(cli_stacks_kind(s)));
}

const char *cli_stacks_subtitle(const char *user, const char *dflt,
				const char *label, struct cgu_buf *buf)
{
	if (!user)
		return dflt && *dflt ? dflt : NULL;
	cgu_buf_adds(buf, user);
	if (label)
		cgu_buf_addf(buf, ", %s", label);
	return buf->data;
}

/* ---- the exports (cli_export_main) */

struct events {
	size_t n;
	struct cgu_export_event v[CGU_MAX_EVENTS];
	struct cgu_folded tmp[CGU_MAX_EVENTS];
};

/* Fold the events to export: --event's, or all; CLI_OK or an exit
 * status (printed).  The caller releases e->tmp[0..e->n). */
static int fold_events(const struct cli_stacks *s, const struct cli_input *in,
		       struct events *e)
{
	const struct cgu_profile *p = cli_stacks_profile(s);
	size_t n = p && !in->event ? p->nevents : 1;

	for (e->n = 0; e->n < n; e->n++) {
		int ev = p && !in->event ? (int)e->n : cli_stacks_event(s, in);
		struct cgu_export_event *x = &e->v[e->n];

		if (ev < 0)
			return CLI_USAGE;
		x->name = p ? p->events[ev] : "samples";
		x->desc = p ? p->event_desc[ev] : NULL;
		x->stacks = cli_stacks_fold(s, ev, &e->tmp[e->n]);
		if (!x->stacks) {
			cgu_folded_release(&e->tmp[e->n]);
			return CLI_BADINPUT;
		}
	}
	return CLI_OK;
}

static int write_export(const struct cli_stacks *s, const struct cli_input *in,
			const struct cli_export *x, const struct events *e)
{
	const struct cgu_profile *p = cli_stacks_profile(s);
	const char *label = cli_stacks_label(cli_stacks_kind(s));
	struct cgu_buf title = CGU_BUF_INIT;
	struct cgu_error err = { 0 };
	FILE *out;
	int rc;

	if (x->binary && (!in->output || !strcmp(in->output, "-")) &&
	    isatty(STDOUT_FILENO))
		return cli_usage_error(in->cmd, "not writing binary output to a "
				       "terminal; use -o FILE or a redirection");
	out = cli_open_output(in->output);
	if (!out)
		return CLI_BADINPUT;
	cgu_buf_adds(&title, p && p->cmd ? p->cmd : s->name);
	if (label)
		cgu_buf_addf(&title, " - %s", label);
	rc = x->write(p, e->v, e->n, title.data, out, &err, x->spec.ctx);
	cgu_buf_release(&title);
	rc = rc ? cli_report(&err) : CLI_OK;
	if (cli_close_output(out, in->output) && rc == CLI_OK)
		rc = CLI_BADINPUT;
	return rc;
}

int cli_export_main(int argc, char **argv, const struct cli_export *x)
{
	struct cli_input in;
	struct cli_stacks s;
	struct events e;
	int rc;

	memset(&in, 0, sizeof(in));
	in.cmd = x->spec.name;
	in.names = CGU_NAMES_AUTO;
	rc = cli_options(argc, argv, &x->spec, &in);
	if (rc >= 0)
		return rc;
	if (argc - optind > 1)
		return cli_usage_error(in.cmd, "expects one input file");
	rc = cli_view_ready(&in);
	if (rc != CLI_OK) {
		cli_view_release(&in);
		return rc;
	}
	rc = cli_stacks_open(&s, &in, optind < argc ? argv[optind] : "-");
	e.n = 0;
	if (rc == CLI_OK)
		rc = fold_events(&s, &in, &e);
	if (rc == CLI_OK)
		rc = write_export(&s, &in, x, &e);
	for (size_t i = 0; i < e.n; i++)
		cgu_folded_release(&e.tmp[i]);
	cli_stacks_release(&s);
	cli_view_release(&in);
	return rc;
}
