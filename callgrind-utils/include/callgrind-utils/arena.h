/* arena.h - a bump allocator for objects that live as long as a profile.
 *
 * Names, cost vectors and other per-profile data are carved out of large
 * blocks and freed all at once by cgu_arena_release().  There is no
 * per-object free.
 */
#ifndef CALLGRIND_UTILS_ARENA_H
#define CALLGRIND_UTILS_ARENA_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct cgu_arena_block;

struct cgu_arena {
	struct cgu_arena_block *head;
	size_t used;     /* bytes used in head */
	size_t size;     /* usable bytes in head */
	size_t total;    /* bytes allocated over all blocks */
};

#define CGU_ARENA_INIT { NULL, 0, 0, 0 }

void *cgu_arena_alloc(struct cgu_arena *a, size_t size);     /* 16-aligned */
void *cgu_arena_zalloc(struct cgu_arena *a, size_t size);    /* zeroed */
char *cgu_arena_strndup(struct cgu_arena *a, const char *s, size_t len);
char *cgu_arena_strdup(struct cgu_arena *a, const char *s);
void cgu_arena_release(struct cgu_arena *a);

#ifdef __cplusplus
}
#endif
#endif
