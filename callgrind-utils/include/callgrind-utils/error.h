/* error.h - how the library reports a failure.
 *
 * Functions that can fail take a struct cgu_error * (may be NULL) and
 * return 0 on success or a negative CGU_E* code.  On failure err->msg holds
 * a complete one-line message, "file:line: what was expected" for bad input.
 */
#ifndef CALLGRIND_UTILS_ERROR_H
#define CALLGRIND_UTILS_ERROR_H

#ifdef __cplusplus
extern "C" {
#endif

enum cgu_status {
	CGU_OK = 0,
	CGU_EINPUT = -1,   /* malformed or inconsistent input */
	CGU_EIO = -2,      /* cannot open, read or write */
	CGU_EUSAGE = -3,   /* bad argument from the caller */
};

struct cgu_error {
	int code;                /* enum cgu_status */
	unsigned long line;      /* input line, 0 if none */
	char msg[1024];          /* "file:line: message" */
};

/* Fill err (if not NULL) and return code. */
int cgu_error_set(struct cgu_error *err, int code, const char *file,
		  unsigned long line, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

#ifdef __cplusplus
}
#endif
#endif
