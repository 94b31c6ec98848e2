/* cli-stacks.c - load the input of flamegraph, speedscope and diff. */
#include <errno.h>
#include <string.h>

#include "cli-stacks.h"

static int read_all(FILE *in, struct cgu_buf *b)
{
	char chunk[65536];
	size_t n;
	while ((n = fread(chunk, 1, sizeof(chunk), in)) > 0)
		cgu_buf_add(b, chunk, n);
	return ferror(in) ? -1 : 0;
}

static int fail(const struct cgu_error *err)
{
	return cli_report(err);
}

static int open_stdin(struct cli_stacks *s, const struct cli_input *in)
{
	struct cgu_buf b = CGU_BUF_INIT;
	struct cgu_error err = { 0 };
	int rc;
	if (read_all(stdin, &b) < 0)
		rc = cgu_error_set(&err, CGU_EIO, s->name, 0, "cannot read: %s", strerror(errno));
	else if (cgu_folded_is_profile(b.data, b.len))
		rc = cgu_parse_mem(b.data, b.len, s->name, &in->parse, &s->set, &err);
	else
		rc = cgu_folded_read_buf(&s->folded, b.data, b.len, s->name, &err);
	cgu_buf_release(&b);
	return rc ? fail(&err) : CLI_OK;
}

static int open_path(struct cli_stacks *s, const struct cli_input *in, const char *path)
{
	struct cgu_error err = { 0 };
	char head[64];
	FILE *f = fopen(path, "rb");
	if (!f) {
		cgu_error_set(&err, CGU_EIO, path, 0, "cannot open: %s", strerror(errno));
		return fail(&err);
	}
	size_t n = fread(head, 1, sizeof(head), f);
	int rc;
	if (cgu_folded_is_profile(head, n)) {
		fclose(f);
		rc = cgu_parse_file(path, &in->parse, &s->set, &err);
		return rc ? fail(&err) : CLI_OK;
	}
	rewind(f);
	rc = cgu_folded_read(&s->folded, f, path, &err);
	fclose(f);
	return rc ? fail(&err) : CLI_OK;
}

int cli_stacks_open(struct cli_stacks *s, const struct cli_input *in, const char *path)
{
	memset(s, 0, sizeof(*s));
	cgu_profile_set_init(&s->set);
	cgu_folded_init(&s->folded);
	s->name = strcmp(path, "-") == 0 ? "<stdin>" : path;
	if (strcmp(path, "-") == 0)
		return open_stdin(s, in);
	return open_path(s, in, path);
}

void cli_stacks_release(struct cli_stacks *s)
{
	cgu_profile_set_release(&s->set);
	cgu_folded_release(&s->folded);
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

const struct cgu_folded *cli_stacks_fold(const struct cli_stacks *s, int ev,
				      struct cgu_folded *tmp)
{
	const struct cgu_profile *p = cli_stacks_profile(s);
	struct cgu_error err = { 0 };
	cgu_folded_init(tmp);
	if (!p)
		return &s->folded;
	struct cgu_fold_opts o = { .event = ev, .mode = CGU_FOLD_AUTO };
	if (cgu_folded_from_profile(tmp, p, &o, s->name, &err)) {
		fail(&err);
		return NULL;
	}
	return tmp;
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
}
