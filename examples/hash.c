/* hash.c: a lookup in a small open-addressing hash table with linear
 * probing. Set-up inserts a fixed set of keys; the site's constant picks the
 * key it looks up among them (c mod HASH_KEYS), so every site finds its key,
 * some after a few probes. Read-only once built, so safe to share. */
#include <stdint.h>

#define HASH_BITS 7
#define HASH_SLOTS (1u << HASH_BITS)   /* power of two: the probe wraps by mask */
#define HASH_KEYS 80                   /* load 0.625: probes of one to a few slots */

struct ic_body_state {
	uint32_t slot_key[HASH_SLOTS];     /* 0: empty */
	uint32_t slot_value[HASH_SLOTS];
	uint32_t keys[HASH_KEYS];          /* the set the sites pick from */
};

#define IC_BODY_SHARED_OK 1

/* Fibonacci hashing: the top HASH_BITS of key x 2^32/phi. */
static inline uint32_t hash_slot(uint32_t key)
{
	return (key * UINT32_C(0x9e3779b1)) >> (32 - HASH_BITS);
}

/* The value of key, or 0 when it is absent. The table always has an empty
 * slot, so the probe ends. */
static inline uint32_t hash_lookup(const struct ic_body_state *s, uint32_t key)
{
	for (uint32_t i = hash_slot(key);; i = (i + 1) & (HASH_SLOTS - 1)) {
		if (s->slot_key[i] == key)
			return s->slot_value[i];
		if (s->slot_key[i] == 0)
			return 0;
	}
}

static inline void hash_insert(struct ic_body_state *s, uint32_t key, uint32_t value)
{
	uint32_t i = hash_slot(key);

	while (s->slot_key[i] != 0 && s->slot_key[i] != key)
		i = (i + 1) & (HASH_SLOTS - 1);
	s->slot_key[i] = key;
	s->slot_value[i] = value;
}

uint64_t IC_BODY_FN(struct ic_body_state *s, uint32_t c)
{
	return hash_lookup(s, s->keys[c % HASH_KEYS]);
}

void IC_BODY_SETUP(struct ic_body_state *s)
{
	/* Distinct non-zero keys (an odd multiplier is a bijection), spread
	 * over the table so that some collide and probe. */
	for (uint32_t j = 0; j < HASH_KEYS; j++) {
		s->keys[j] = (j + 1) * UINT32_C(0x2545f491);
		hash_insert(s, s->keys[j], j + 1);
	}
}
