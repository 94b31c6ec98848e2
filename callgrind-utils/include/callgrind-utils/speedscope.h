/* speedscope.h - export folded stacks in speedscope's file format
 * (https://www.speedscope.app/file-format-schema.json): one "sampled"
 * profile per event, frames shared between them. */
#ifndef CALLGRIND_UTILS_SPEEDSCOPE_H
#define CALLGRIND_UTILS_SPEEDSCOPE_H

#include <stddef.h>
#include <stdio.h>
#include <callgrind-utils/folded.h>

struct cgu_speedscope_profile {
	const char *name;                /* e.g. the event, "Ir" */
	const struct cgu_folded *stacks;
};

/* Write one file holding n profiles; name is the file's "name" field.
 * Returns 0, or CGU_EIO on a write error. */
int cgu_speedscope_write(const struct cgu_speedscope_profile *profiles, size_t n,
			 const char *name, FILE *out);

#endif
