/* The context keys of context_keys.def as an enum and their names, for C
 * readers and the writer (bench/sites_context.c), and the name of each
 * run's start counter. */
#ifndef IC_CONTEXT_KEYS_H
#define IC_CONTEXT_KEYS_H

#include "context_keys.def"

#define IC_CTX_ENUM(e, name, build, word) IC_CTX_##e,
#define IC_CTX_NAME(e, name, build, word) #name,
enum ic_ctx_key { IC_CONTEXT_KEYS(IC_CTX_ENUM) IC_CTX_COUNT };
static const char *const ic_ctx_names[IC_CTX_COUNT] = { IC_CONTEXT_KEYS(IC_CTX_NAME) };

/* Not a context key but every run's user counter of when it began:
 * wall-clock seconds since the epoch (UTC), taken by thread 0 as the library
 * calls the run; set as is, so the library neither rates nor averages it
 * (its stddev and cv aggregates mean nothing). With process_start and
 * process_end it places every repetition in time. */
#define IC_REP_START_COUNTER "rep_start_s"

#endif
