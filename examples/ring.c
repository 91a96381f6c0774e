/* ring.c: a bounds-checked ring buffer, one push then one pop per call.
 * Power-of-two size, free-running head and tail (their difference is the
 * fill), a push refused when full and a pop when empty, both counted.
 * Set-up fills it half, so in the loop neither check fires, but both are
 * tested at every site. One thread per ring: not safe to share. */
#include <stdint.h>

#define RING_SIZE 64u                  /* power of two: index = count & mask */

struct ic_body_state {
	uint32_t head;                     /* next slot to push */
	uint32_t tail;                     /* next slot to pop */
	uint64_t refused_full, refused_empty;
	uint64_t slot[RING_SIZE];
};

static inline int ring_push(struct ic_body_state *s, uint64_t v)
{
	if (s->head - s->tail == RING_SIZE) {
		s->refused_full++;
		return -1;
	}
	s->slot[s->head++ & (RING_SIZE - 1)] = v;
	return 0;
}

static inline int ring_pop(struct ic_body_state *s, uint64_t *v)
{
	if (s->head == s->tail) {
		s->refused_empty++;
		return -1;
	}
	*v = s->slot[s->tail++ & (RING_SIZE - 1)];
	return 0;
}

uint64_t IC_BODY_FN(struct ic_body_state *s, uint32_t c)
{
	uint64_t v = 0;

	ring_push(s, c);
	ring_pop(s, &v);
	return v;
}

void IC_BODY_SETUP(struct ic_body_state *s)
{
	for (uint32_t i = 0; i < RING_SIZE / 2; i++)
		ring_push(s, i);
}
