/* testutil.h - helpers shared by the cmocka unit tests. */
#ifndef TESTUTIL_H
#define TESTUTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>
#include <callgrind-utils/callgrind-utils.h>

/* Path of tests/data/NAME (static buffer). */
const char *data_path(const char *name);

/* Parse tests/data/NAME (merged) and return the profile; fails the test
 * on error. */
struct cgu_profile *load_data(const char *name);

/* Parse a string; returns the status, err filled. */
int parse_string(const char *text, const struct cgu_parse_opts *o,
		 struct cgu_profile_set *set, struct cgu_error *err);
struct cgu_profile *load_string(const char *text);

/* Run write(p, f) on a memory stream and return what it wrote (malloc'd). */
typedef int (*write_fn)(const struct cgu_profile *p, FILE *f, void *ctx);
char *capture(const struct cgu_profile *p, write_fn write, void *ctx);

char *edges_of(const struct cgu_profile *p, int event);
char *fold_of(const struct cgu_profile *p, int event, enum cgu_fold_mode m);
/* Sum of the last numbers of "text number" lines. */
uint64_t sum_last_column(const char *text);

#endif
