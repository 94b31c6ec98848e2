/* grow.c - growing arrays, see grow.h. */
#include <stdlib.h>
#include "grow.h"

void *cgu_grow(void *v, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return v;
	*cap = *cap ? *cap * 2 : 256;
	while (*cap < need)
		*cap *= 2;
	v = realloc(v, *cap * elem);
	if (!v)
		abort();
	return v;
}
