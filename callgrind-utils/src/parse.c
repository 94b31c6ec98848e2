/* parse.c - not written yet. */
#include <callgrind-utils/callgrind-utils.h>
int cgu_parse_file(const char *path, const struct cgu_parse_opts *opts,
		   struct cgu_profile_set *set, struct cgu_error *err)
{
	(void)opts; (void)set;
	return cgu_error_set(err, CGU_EUSAGE, path, 0, "parser not written yet");
}

struct cgu_profile *cgu_load(const char *const *paths, size_t npaths,
			     const struct cgu_parse_opts *opts,
			     struct cgu_error *err)
{
	(void)npaths; (void)opts;
	cgu_error_set(err, CGU_EUSAGE, paths[0], 0, "parser not written yet");
	return NULL;
}
