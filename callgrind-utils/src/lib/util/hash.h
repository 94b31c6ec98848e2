/* hash.h - private hash tables of the library.
 *
 * cgu_itab maps a key to a uint32_t index into an array the caller owns
 * (names, nodes, edges).  The table only stores the 32-bit hash and the
 * index; the caller's eq() compares the key with the element at an index.
 * Open addressing with linear probing, kept at most half full.
 */
#ifndef CGU_HASH_H
#define CGU_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct cgu_itab {
	uint64_t *slots;  /* (hash << 32) | (index + 1); 0 = empty */
	size_t mask;
	size_t count;
};

typedef int (*cgu_itab_eq)(const void *ctx, uint32_t index, const void *key);

void cgu_itab_init(struct cgu_itab *t);
void cgu_itab_release(struct cgu_itab *t);
/* Index of the element equal to key, or UINT32_MAX.  Inline, so that
 * a constant eq is inlined too: the tables are looked up once a line. */
static inline uint32_t cgu_itab_find(const struct cgu_itab *t, uint32_t hash,
				     cgu_itab_eq eq, const void *ctx,
				     const void *key)
{
	size_t i = hash & t->mask;

	for (;; i = (i + 1) & t->mask) {
		uint64_t s = t->slots[i];

		if (!s)
			return UINT32_MAX;
		if ((uint32_t)(s >> 32) == hash &&
		    eq(ctx, (uint32_t)s - 1, key))
			return (uint32_t)s - 1;
	}
}
/* Record index under hash (the key must not be present yet). */
void cgu_itab_insert(struct cgu_itab *t, uint32_t hash, uint32_t index);

static inline uint64_t cgu_hash_mix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	return h;
}

static inline uint32_t cgu_hash_bytes(const char *s, size_t len)
{
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ len;
	uint64_t w;

	for (; len >= 8; s += 8, len -= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0x100000001b3ULL;
		h ^= h >> 29;
	}
	w = 0;
	memcpy(&w, s, len);
	h = (h ^ w) * 0x100000001b3ULL;
	return (uint32_t)(cgu_hash_mix(h) >> 32);
}

static inline uint32_t cgu_hash_u64(uint64_t v)
{
	return (uint32_t)(cgu_hash_mix(v * 0x9e3779b97f4a7c15ULL) >> 32);
}

#endif
