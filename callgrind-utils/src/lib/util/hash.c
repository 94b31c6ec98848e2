/* hash.c - open-addressing index table, see hash.h. */
#include <stdlib.h>
#include "hash.h"

void cgu_itab_init(struct cgu_itab *t)
{
	t->mask = 63;
	t->count = 0;
	t->slots = calloc(t->mask + 1, sizeof(*t->slots));
	if (!t->slots)
		abort();
}

void cgu_itab_release(struct cgu_itab *t)
{
	free(t->slots);
	t->slots = NULL;
	t->mask = t->count = 0;
}

static void itab_put(uint64_t *slots, size_t mask, uint64_t s)
{
	size_t i = (s >> 32) & mask;

	while (slots[i])
		i = (i + 1) & mask;
	slots[i] = s;
}

static void itab_grow(struct cgu_itab *t)
{
	size_t mask = t->mask * 2 + 1, i;
	uint64_t *slots = calloc(mask + 1, sizeof(*slots));

	if (!slots)
		abort();
	for (i = 0; i <= t->mask; i++)
		if (t->slots[i])
			itab_put(slots, mask, t->slots[i]);
	free(t->slots);
	t->slots = slots;
	t->mask = mask;
}

void cgu_itab_insert(struct cgu_itab *t, uint32_t hash, uint32_t index)
{
	if ((t->count + 1) * 2 > t->mask + 1)
		itab_grow(t);
	itab_put(t->slots, t->mask, ((uint64_t)hash << 32) | (index + 1u));
	t->count++;
}
