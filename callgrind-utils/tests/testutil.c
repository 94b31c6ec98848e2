/* testutil.c - helpers shared by the cmocka unit tests. */
#include <stdlib.h>
#include <string.h>
#include "testutil.h"

const char *data_path(const char *name)
{
	static char path[4096];

	snprintf(path, sizeof(path), "%s/%s", TEST_DATA, name);
	return path;
}

struct cgu_profile *load_data(const char *name)
{
	const char *path = data_path(name);
	struct cgu_error err = { 0 };
	struct cgu_profile *p = cgu_load(&path, 1, NULL, &err);

	if (!p)
		fail_msg("%s", err.msg);
	return p;
}

int parse_string(const char *text, const struct cgu_parse_opts *o,
		 struct cgu_profile_set *set, struct cgu_error *err)
{
	cgu_profile_set_init(set);
	memset(err, 0, sizeof(*err));
	return cgu_parse_mem(text, strlen(text), "mem", o, set, err);
}

struct cgu_profile *load_string(const char *text)
{
	struct cgu_profile_set set;
	struct cgu_error err;
	struct cgu_profile *p;

	if (parse_string(text, NULL, &set, &err))
		fail_msg("%s", err.msg);
	p = set.v[0];
	set.n = 0;
	cgu_profile_set_release(&set);
	return p;
}

char *capture(const struct cgu_profile *p, write_fn write, void *ctx)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	assert_int_equal(write(p, f, ctx), 0);
	fclose(f);
	return text;
}

static int write_edges(const struct cgu_profile *p, FILE *f, void *ctx)
{
	return cgu_edges_write(p, *(int *)ctx, CGU_NAMES_FUNCTION, f, NULL);
}

char *edges_of(const struct cgu_profile *p, int event)
{
	return capture(p, write_edges, &event);
}

static int write_fold(const struct cgu_profile *p, FILE *f, void *ctx)
{
	return cgu_fold_write(p, ctx, f, NULL);
}

char *fold_of(const struct cgu_profile *p, int event, enum cgu_fold_mode m)
{
	struct cgu_fold_opts o = { .event = event, .mode = m,
				   .names = CGU_NAMES_FUNCTION };

	return capture(p, write_fold, &o);
}

uint64_t sum_last_column(const char *text)
{
	uint64_t sum = 0;
	const char *line = text;

	while (*line) {
		const char *nl = strchr(line, '\n');
		const char *sp;

		if (!nl)
			nl = line + strlen(line);
		for (sp = nl; sp > line && sp[-1] != ' '; sp--)
			;
		sum += strtoull(sp, NULL, 10);
		line = *nl ? nl + 1 : nl;
	}
	return sum;
}
