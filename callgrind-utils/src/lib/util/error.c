/* error.c - fill a struct cgu_error. */
#include <stdarg.h>
#include <stdio.h>
#include <callgrind-utils/error.h>

int cgu_error_set(struct cgu_error *err, int code, const char *file,
		  unsigned long line, const char *fmt, ...)
{
	va_list ap;
	int n = 0;

	if (!err)
		return code;
	err->code = code;
	err->line = line;
	if (file && line)
		n = snprintf(err->msg, sizeof(err->msg), "%s:%lu: ", file, line);
	else if (file)
		n = snprintf(err->msg, sizeof(err->msg), "%s: ", file);
	if (n < 0 || (size_t)n >= sizeof(err->msg))
		n = 0;
	va_start(ap, fmt);
	vsnprintf(err->msg + n, sizeof(err->msg) - (size_t)n, fmt, ap);
	va_end(ap);
	return code;
}
