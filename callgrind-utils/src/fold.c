/* fold.c - not written yet. */
#include <callgrind-utils/callgrind-utils.h>
int cgu_fold_write(const struct cgu_profile *p, const struct cgu_fold_opts *o,
		   FILE *out, struct cgu_error *err)
{
	(void)p; (void)o; (void)out;
	return cgu_error_set(err, CGU_EUSAGE, NULL, 0, "fold not written yet");
}
