/* A body that does not compile (tests/test_gen_body_check.sh): the function
 * uses a field the state does not have. body_check must print the first
 * error, one line, and exit 1. */
#include <stdint.h>

struct ic_body_state {
	uint64_t count;
};

uint64_t IC_BODY_FN(struct ic_body_state *s, uint32_t c)
{
	s->cuont += c;
	return s->count;
}
