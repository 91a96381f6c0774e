/* The clone form of your body (body.h): gen writes, before each site's
 * function, a copy of its own, static IC_CLONE_ATTR, that calls the forced
 * inline body (body_inline.h): as many copies as inline, and a call each. */
#ifndef IC_BODY_CLONE_H
#define IC_BODY_CLONE_H
#include "body_inline.h"
#include "clone_attr.h"
#endif
