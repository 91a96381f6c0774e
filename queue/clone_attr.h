/* IC_CLONE_ATTR: the attributes of gen's `clone` form, one out-of-line copy of
 * the forced-inline body per call site (queue_clone.h for the queue,
 * body_clone.h for your own body). The copies must stay calls and stay
 * apart: gcc's noipa implies noinline, noclone and no_icf (identical copies
 * are not folded into one) and hides the body from the caller's analysis, as
 * extern's separate translation unit does. clang has no noipa, and does no
 * identical-code folding at compile time, so noinline is enough there. */
#ifndef IC_CLONE_ATTR_H
#define IC_CLONE_ATTR_H

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
