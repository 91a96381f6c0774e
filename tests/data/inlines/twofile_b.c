#include "twofile.h"

uint64_t ic_twofile_b(uint64_t x)
{
	x = ic_twofile_mix(x, 0xd6e8feb86659fd93u);
	return ic_twofile_mix(x, 0xa0761d6478bd642fu);
}
