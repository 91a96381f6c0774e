/* Which layout this binary is. Defined per executable by bench/CMakeLists.txt
 * (the ordinary link: no seed) or written by bench/link_variant (a layout
 * variant: the seed its linker script was drawn from). The variant's number
 * in a run is the caller's (sites_bench --layout-variant). */
#ifndef IC_LAYOUT_ID_H
#define IC_LAYOUT_ID_H

extern const char ic_layout_seed[];   /* "" for the ordinary link */

#endif
