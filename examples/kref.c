/* kref.c: a reference count got and put, as the kernel's kref: get is an
 * atomic increment, put an atomic decrement that tests for zero and then
 * releases. Set-up holds one reference that is never put, so the count
 * never reaches zero in the loop and the release is never taken (it is
 * there, as it is at every kref_put call site). Shared: any number of
 * threads may get and put one count. */
#include <stdalign.h>
#include <stdatomic.h>
#include <stdint.h>

struct ic_body_state {
	alignas(64) atomic_uint refcount;      /* the contended line, alone */
	alignas(64) uint64_t released;
};

#define IC_BODY_SHARED_OK 1

/* Out of line, as the release a kref_put names usually is. */
static __attribute__((noinline)) void kref_release(struct ic_body_state *s)
{
	s->released++;
}

static inline void kref_get(struct ic_body_state *s)
{
	atomic_fetch_add_explicit(&s->refcount, 1, memory_order_relaxed);
}

/* 1 when this put released the object. The decrement orders the holder's
 * writes before it (release) and the releaser's reads after it (acquire),
 * as refcount_dec_and_test does; on x86 it is one locked instruction. */
static inline int kref_put(struct ic_body_state *s)
{
	if (__builtin_expect(atomic_fetch_sub_explicit(&s->refcount, 1, memory_order_acq_rel) == 1, 0)) {
		kref_release(s);
		return 1;
	}
	return 0;
}

uint64_t IC_BODY_FN(struct ic_body_state *s, uint32_t c)
{
	kref_get(s);
	return c + (uint64_t)kref_put(s);
}

void IC_BODY_SETUP(struct ic_body_state *s)
{
	atomic_init(&s->refcount, 1);
}
