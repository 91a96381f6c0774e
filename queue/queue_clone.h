/* IC_CLONE_ATTR: the attributes of gen's `clone` form, one out-of-line copy of
 * the forced-inline body (queue_inline.h) per call site and operation. The
 * copies must stay calls and stay apart: gcc's noipa implies noinline,
 * noclone and no_icf (identical copies are not folded into one) and hides
 * the body from the caller's analysis, as extern's separate translation unit
 * does. clang has no noipa, and does no identical-code folding at compile
 * time, so noinline is enough there. */
#ifndef IC_QUEUE_CLONE_H
#define IC_QUEUE_CLONE_H
#include "queue_inline.h"

/* Defined beforehand, it wins: tests/test_gen_clone.sh drops noipa to show
 * that codesize catches the folding. */
#ifndef IC_CLONE_ATTR
#ifdef __clang__
#define IC_CLONE_ATTR __attribute__((noinline))
#else
#define IC_CLONE_ATTR __attribute__((noinline, noipa))
#endif
#endif
#endif
