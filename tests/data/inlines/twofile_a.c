#include "twofile.h"

uint64_t ic_twofile_a(uint64_t x)
{
	x = ic_twofile_mix(x, 0x9e3779b97f4a7c15u);
	x = ic_twofile_mix(x, 0xbf58476d1ce4e5b9u);
	return ic_twofile_mix(x, 0x94d049bb133111ebu);
}

int main(int argc, char **argv)
{
	(void)argv;
	return (int)((ic_twofile_a((uint64_t)argc) ^ ic_twofile_b((uint64_t)argc)) & 1);
}
