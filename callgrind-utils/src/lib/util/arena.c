/* arena.c - bump allocator, see arena.h. */
#include <stdlib.h>
#include <string.h>
#include <callgrind-utils/arena.h>

#define ARENA_BLOCK (64u * 1024u)
#define ARENA_ALIGN 16u

struct cgu_arena_block {
	struct cgu_arena_block *next;
	size_t pad;                   /* keeps data 16-aligned */
	unsigned char data[];
};

static void *xmalloc(size_t n)
{
	void *p = malloc(n);

	if (!p)
		abort();
	return p;
}

static void arena_new_block(struct cgu_arena *a, size_t need)
{
	size_t size = need > ARENA_BLOCK ? need : ARENA_BLOCK;
	struct cgu_arena_block *b = xmalloc(sizeof(*b) + size);

	b->next = a->head;
	a->head = b;
	a->used = 0;
	a->size = size;
	a->total += size;
}

void *cgu_arena_alloc(struct cgu_arena *a, size_t size)
{
	size_t n = (size + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
	void *p;

	if (n == 0)
		n = ARENA_ALIGN;
	if (!a->head || a->size - a->used < n)
		arena_new_block(a, n);
	p = a->head->data + a->used;
	a->used += n;
	return p;
}

void *cgu_arena_zalloc(struct cgu_arena *a, size_t size)
{
	void *p = cgu_arena_alloc(a, size);

	memset(p, 0, size);
	return p;
}

char *cgu_arena_strndup(struct cgu_arena *a, const char *s, size_t len)
{
	char *p = cgu_arena_alloc(a, len + 1);

	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

char *cgu_arena_strdup(struct cgu_arena *a, const char *s)
{
	return cgu_arena_strndup(a, s, strlen(s));
}

void cgu_arena_release(struct cgu_arena *a)
{
	struct cgu_arena_block *b = a->head;

	while (b) {
		struct cgu_arena_block *next = b->next;
		free(b);
		b = next;
	}
	a->head = NULL;
	a->used = a->size = a->total = 0;
}
