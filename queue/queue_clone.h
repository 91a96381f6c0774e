/* The queue's `clone` form: gen writes one out-of-line copy of the
 * forced-inline body (queue_inline.h) per call site and operation, each
 * IC_CLONE_ATTR (clone_attr.h says why that keeps them apart). */
#ifndef IC_QUEUE_CLONE_H
#define IC_QUEUE_CLONE_H
#include "queue_inline.h"
#include "clone_attr.h"
#endif
