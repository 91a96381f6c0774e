/* The context keys' names and words; see context.h. */
#include "context.h"

static const struct {
	const char *name, *word;
	int build;
} ctx_key[IC_CTX_COUNT] = {
#define IC_CTX_ROW(e, name, build, word) [IC_CTX_##e] = { #name, word, build },
	IC_CONTEXT_KEYS(IC_CTX_ROW)
	IC_GB_CONTEXT_KEYS(IC_CTX_ROW)
#undef IC_CTX_ROW
};

const char *ic_ctx_name(enum ic_ctx k)
{
	return ctx_key[k].name;
}

const char *ic_ctx_word(enum ic_ctx k)
{
	return ctx_key[k].word;
}

enum ic_ctx ic_ctx_of_build(enum ic_build_key b)
{
	int k = 0;

	while (k < IC_CTX_COUNT && ctx_key[k].build != (int)b)
		k++;
	return (enum ic_ctx)k;
}
