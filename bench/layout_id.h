/* Which layout variant this binary is (issue 8). Defined per executable by
 * bench/CMakeLists.txt: variant 0 is the ordinary link, variants >= 1 the
 * same objects placed by gen/layout's linker script from the seed. */
#ifndef IC_LAYOUT_ID_H
#define IC_LAYOUT_ID_H

extern const unsigned ic_layout_variant;
extern const char ic_layout_seed[];   /* "" for variant 0 */

#endif
