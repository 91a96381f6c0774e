/* A program holding one set of generated points (IC_POINTS_TABLE), built
 * with DWARF for the inlines census tests. It only has to link: the table
 * pulls in every point's sites. */
#include <stddef.h>

#include "site.h"

extern const struct ic_point *const IC_POINTS_TABLE[];

int main(void)
{
	size_t n = 0;

	while (IC_POINTS_TABLE[n])
		n++;
	return n == 0;
}
