/* A body that compiles but cannot link (tests/test_gen_body_check.sh): a global
 * that is not static is defined in every site file. */
#include <stdint.h>

struct ic_body_state {
	uint64_t count;
};

uint64_t calls;

uint64_t IC_BODY_FN(struct ic_body_state *s, uint32_t c)
{
	calls++;
	s->count += c;
	return s->count;
}
