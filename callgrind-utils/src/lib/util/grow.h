/* grow.h - private: the arrays of the library grow by doubling. */
#ifndef CGU_GROW_H
#define CGU_GROW_H

#include <stddef.h>

/* v, an array of *cap elements of elem bytes, with room for need of
 * them: reallocated to at least twice its size when it has less (and
 * *cap updated); aborts when memory runs out, as cgu_buf does. */
void *cgu_grow(void *v, size_t *cap, size_t need, size_t elem);

#endif
