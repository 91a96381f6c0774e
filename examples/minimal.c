/* minimal.c: the smallest complete body (queue/body.h has the contract):
 * each call adds the site's constant to a counter in the state. */
#include <stdint.h>

struct ic_body_state {
	uint64_t count;
};

uint64_t IC_BODY_FN(struct ic_body_state *s, uint32_t c)
{
	s->count += c;
	return s->count;
}

void IC_BODY_SETUP(struct ic_body_state *s)
{
	s->count = 1;
}
