/* cli-exact.c - the exact stacks of a command's inputs: a profile's are
 * in PROFILE.stacks beside it (callgrind --collect-stacks=yes) or named
 * with --stacks; a stacks file can also be the input itself.  They are
 * checked against their profiles (same totals), so a stale stacks file
 * of an earlier run is never drawn as this run's.  --reconstructed
 * leaves them aside. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"

const char *cli_stacks_label(enum cli_stacks_kind k)
{
	switch (k) {
	case CLI_STACKS_EXACT:
		return "exact stacks";
	case CLI_STACKS_CONTEXT:
		return "stacks from caller context (--separate-callers)";
	case CLI_STACKS_RECONSTRUCTED:
		return "reconstructed stacks: an estimate (exact ones with "
		       "callgrind --collect-stacks=yes)";
	case CLI_STACKS_FOLDED:
		break;
	}
	return NULL;
}

enum cli_stacks_kind cli_stacks_kind_of(const struct cgu_profile *p,
					enum cgu_fold_mode m)
{
	return cgu_fold_uses_context(p, m) ? CLI_STACKS_CONTEXT
					   : CLI_STACKS_RECONSTRUCTED;
}

void cli_inputs_release(struct cli_inputs *l)
{
	cgu_profile_set_release(&l->set);
	cgu_cct_free(l->cct);
	free(l->parts);
	l->cct = NULL;
	l->parts = NULL;
}

int cli_check_per_thread(const struct cli_input *in, const struct cgu_cct *c)
{
	if (!in->per_thread || c)
		return CLI_OK;
	return cli_usage_error(in->cmd, "--per-thread needs exact stacks: "
			       "PROFILE.stacks of callgrind "
			       "--collect-stacks=yes");
}

static int has_cost(const struct cgu_profile *p)
{
	size_t e;

	for (e = 0; e < p->nevents; e++)
		if (p->totals[e])
			return 1;
	return 0;
}

/* With --separate-parts, the part of the stacks of every profile: the
 * profile parts with a cost and the stacks parts with nodes go one to
 * one, in order.  A part without cost makes no node, and the profile
 * parser joins a part without cost lines to the next; such parts get
 * no stacks (CGU_CCT_NO_PART). */
static int pair_parts(struct cli_inputs *l, struct cgu_error *err)
{
	const struct cgu_cct *c = l->cct;
	size_t i, j = 0;
	int rc = 0;

	l->parts = calloc(l->set.n ? l->set.n : 1, sizeof(*l->parts));
	if (!l->parts)
		abort();
	for (i = 0; i < l->set.n && !rc; i++) {
		l->parts[i] = CGU_CCT_NO_PART;
		if (!has_cost(l->set.v[i]))
			continue;
		while (j < c->nparts && !c->parts[j].nnodes)
			j++;
		if (j == c->nparts)
			break;
		l->parts[i] = j;
		rc = cgu_cct_check_profile(c, j, l->set.v[i],
					   c->parts[j].source, err);
		j++;
	}
	while (!rc && j < c->nparts && !c->parts[j].nnodes)
		j++;
	if (!rc && (i < l->set.n || j < c->nparts))
		rc = cgu_error_set(err, CGU_EINPUT, l->stacks_name, 0,
				   "has %s parts with nodes than the profiles "
				   "have parts with costs; expected the stacks "
				   "of the same run", i < l->set.n ? "fewer"
				   : "more");
	return rc;
}

/* Are the stacks those of the profiles: equal totals, part by part with
 * --separate-parts?  Exit status. */
static int check_stacks(const struct cli_input *in, struct cli_inputs *l)
{
	struct cgu_error err;
	int rc;

	if (!in->parse.separate_parts)
		rc = cgu_cct_check_profile(l->cct, CGU_CCT_ALL_PARTS,
					   l->set.v[0], l->stacks_name, &err);
	else
		rc = pair_parts(l, &err);
	if (!rc)
		return CLI_OK;
	cli_report(&err);
	fprintf(stderr, "callgrind-utils: (--reconstructed leaves the stacks "
		"aside)\n");
	return CLI_BADINPUT;
}

static int read_stacks(const struct cli_input *in, struct cgu_cct *c,
		       const char *path)
{
	struct cgu_error err;

	if (cgu_cct_parse_file(c, path, &in->parse, &err))
		return cli_report(&err);
	return CLI_OK;
}

/* The stacks file beside profile into path: PROFILE.stacks, or
 * compressed PROFILE.stacks.gz (.xz, .bz2, .zst), and for a compressed
 * PROFILE.gz (.xz, ...) also those of PROFILE.  Returns 1 if there is
 * one. */
static int beside(const char *profile, struct cgu_buf *path)
{
	static const char *const tails[] = { "", ".gz", ".xz", ".bz2", ".zst" };
	const size_t ntails = sizeof(tails) / sizeof(tails[0]);
	size_t len = strlen(profile), t, i;

	if (!strcmp(profile, "-"))
		return 0;
	for (t = 0; t < ntails; t++) {      /* the profile's own tail */
		size_t n = strlen(tails[t]);

		if (t && (len <= n || strcmp(profile + len - n, tails[t])))
			continue;
		for (i = 0; i < ntails; i++) {
			cgu_buf_reset(path);
			cgu_buf_add(path, profile, len - n);
			cgu_buf_adds(path, ".stacks");
			cgu_buf_adds(path, tails[i]);
			if (!access(path->data, F_OK))
				return 1;
		}
	}
	return 0;
}

/* The profiles' own stacks files: all of them, or none (with a warning
 * when only some have one).  Exit status. */
static int stacks_beside(const struct cli_input *in, int nfiles,
			 char **files, struct cli_inputs *l)
{
	struct cgu_buf path = CGU_BUF_INIT;
	int i, have = 0, rc = CLI_OK;
	const char *missing = NULL;

	for (i = 0; i < nfiles; i++) {
		if (beside(files[i], &path))
			have++;
		else if (!missing)
			missing = files[i];
	}
	if (have && missing)
		fprintf(stderr, "callgrind-utils: warning: %s has no stacks "
			"file beside it; drawing reconstructed stacks (an "
			"estimate) for every input\n", missing);
	if (!have || missing)
		goto out;
	l->cct = cgu_cct_new();
	for (i = 0; i < nfiles && rc == CLI_OK; i++) {
		beside(files[i], &path);
		rc = read_stacks(in, l->cct, path.data);
	}
	l->stacks_name = nfiles == 1 ? cgu_cct_strdup(l->cct, path.data)
				     : "the stacks files";
out:
	cgu_buf_release(&path);
	return rc;
}

int cli_find_stacks(const struct cli_input *in, int nfiles, char **files,
		    struct cli_inputs *l)
{
	static char dash[] = "-";
	static char *stdin_only[] = { dash };
	int rc;

	if (in->reconstructed)
		return CLI_OK;
	if (nfiles == 0) {
		files = stdin_only;
		nfiles = 1;
	}
	if (in->stacks) {
		if (nfiles > 1)
			return cli_usage_error(in->cmd, "--stacks names the "
					       "stacks of one profile; with "
					       "several, each one's "
					       "PROFILE.stacks is used");
		l->cct = cgu_cct_new();
		l->stacks_name = in->stacks;
		rc = read_stacks(in, l->cct, in->stacks);
	} else {
		rc = stacks_beside(in, nfiles, files, l);
	}
	if (rc == CLI_OK && l->cct)
		rc = check_stacks(in, l);
	return rc;
}

/* The inputs were stacks files: their call graphs are the profiles. */
static int graphs_of_stacks(const struct cli_input *in, struct cgu_cct *c,
			    const char *name, struct cli_inputs *l)
{
	size_t i;

	if (in->stacks) {
		cgu_cct_free(c);
		return cli_usage_error(in->cmd, "--stacks: the input is a "
				       "stacks file already");
	}
	if (!in->parse.separate_parts) {
		cgu_profile_set_add(&l->set, cgu_cct_profile(c,
				    CGU_CCT_ALL_PARTS, NULL), name);
	} else {
		l->parts = calloc(c->nparts ? c->nparts : 1,
				  sizeof(*l->parts));
		if (!l->parts)
			abort();
		for (i = 0; i < c->nparts; i++) {
			struct cgu_buf src = CGU_BUF_INIT;

			l->parts[i] = i;
			cgu_buf_addf(&src, "%s#%s", c->parts[i].source,
				     c->parts[i].part);
			cgu_profile_set_add(&l->set,
					    cgu_cct_profile(c, i, NULL),
					    src.data);
			cgu_buf_release(&src);
		}
	}
	if (in->reconstructed) {
		cgu_cct_free(c);
		free(l->parts);
		l->parts = NULL;
		return CLI_OK;
	}
	l->cct = c;
	l->stacks_name = name;
	return CLI_OK;
}

int cli_load_inputs(struct cli_input *in, int nfiles, char **files,
		    struct cli_inputs *l)
{
	static char dash[] = "-";
	static char *stdin_only[] = { dash };
	struct cgu_cct *c = cgu_cct_new();
	struct cgu_error err;
	int i, nstacks = 0, rc;

	memset(l, 0, sizeof(*l));
	cgu_profile_set_init(&l->set);
	if (!in->parse.on_warning)
		in->parse.on_warning = cli_warning;
	if (in->stacks && in->reconstructed) {
		cgu_cct_free(c);
		return cli_usage_error(in->cmd, "--stacks and --reconstructed "
				       "exclude each other");
	}
	if (nfiles == 0) {
		files = stdin_only;
		nfiles = 1;
	}
	for (i = 0; i < nfiles; i++) {
		rc = cgu_parse_any(files[i], &in->parse, &l->set, c, &err);
		if (rc < 0) {
			cgu_cct_free(c);
			cli_inputs_release(l);
			return cli_report(&err);
		}
		nstacks += rc;
	}
	if (nstacks && nstacks != nfiles) {
		cgu_cct_free(c);
		cli_inputs_release(l);
		return cli_usage_error(in->cmd, "give profiles (their "
				       "PROFILE.stacks is found beside them) "
				       "or stacks files, not both");
	}
	if (nstacks)
		rc = graphs_of_stacks(in, c, nfiles == 1 ? files[0]
				      : "the stacks files", l);
	else {
		cgu_cct_free(c);
		rc = cli_find_stacks(in, nfiles, files, l);
	}
	if (rc == CLI_OK)
		rc = cli_check_per_thread(in, l->cct);
	if (rc)
		cli_inputs_release(l);
	return rc;
}
