/* lex.h - private: what the two parsers share to cut a line into tokens
 * and to report an error at a line (parse.c reads profiles, cct-parse.c
 * exact stacks files). */
#ifndef CGU_LEX_H
#define CGU_LEX_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <callgrind-utils/error.h>
#include <callgrind-utils/parse.h>

static inline const char *lex_skip_space(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

static inline int lex_end_of_token(char c)
{
	return c == '\0' || c == ' ' || c == '\t';
}

/* [A-Za-z0-9_-], without the locale lookups of isalnum(). */
static inline int lex_is_key_char(char c)
{
	return (unsigned)((c | 0x20) - 'a') < 26 || (unsigned)(c - '0') < 10 ||
	       c == '_' || c == '-';
}

/* Whether the token v[0..len) is one of names[0..n): an events: line
 * that names an event twice would give one column two meanings. */
static inline int lex_event_seen(const char *const *names, size_t n,
				 const char *v, size_t len)
{
	for (size_t k = 0; k < n; k++)
		if (strlen(names[k]) == len && !strncmp(names[k], v, len))
			return 1;
	return 0;
}

/* The options, or the defaults for NULL. */
static inline const struct cgu_parse_opts *lex_opts(const struct cgu_parse_opts *o)
{
	static const struct cgu_parse_opts defaults;

	return o ? o : &defaults;
}

/* CGU_EINPUT at name:lineno, the message made from fmt and ap. */
static inline int lex_verror(struct cgu_error *err, const char *name,
			     unsigned long lineno, const char *fmt, va_list ap)
{
	char msg[768];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	return cgu_error_set(err, CGU_EINPUT, name, lineno, "%s", msg);
}

#endif
