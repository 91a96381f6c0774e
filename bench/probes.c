/* Probes: the machine in its own terms, each a short run beside the watch's
 * sentinel in the same processes, so that the watch can say which of them
 * change with the machine's state (probes.h lists them). Each loop is
 * written in asm: what runs is exactly the instructions named, whatever the
 * compiler. x86-64 only; elsewhere there are no probes.
 */
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "context_keys.def"
#include "gbench_c.h"
#include "probes.h"
#include "topology.h"

#if defined(__x86_64__)

/* Two words on one 64-byte line, a third on the next line. */
static struct {
	_Alignas(64) uint32_t same[2];
	_Alignas(64) uint32_t other;
} probe_lines;

/* 64 dependent adds of a register: one per cycle on every x86-64 core, so
 * its time is the clock's. (Not of an immediate: newer Intel cores fold
 * chains of small immediate adds at rename and run 64 in a few cycles.) */
static void probe_clock(uint64_t n)
{
	uint64_t x = 0, k = 1;

	for (uint64_t i = 0; i < n; i++)
		__asm__ volatile(".rept 64\n\tadd %1, %0\n\t.endr" : "+r"(x) : "r"(k) : "cc");
}

/* A store, then a locked add to the other word of the same line: the lock
 * waits for the store to drain from the store buffer and owns the line. */
static void probe_locked_same(uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		__asm__ volatile("movl $1, %0\n\tlock addl $1, %1"
				 : "=m"(probe_lines.same[0]), "+m"(probe_lines.same[1]) : : "cc", "memory");
}

/* The same with the store to another line. */
static void probe_locked_other(uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		__asm__ volatile("movl $1, %0\n\tlock addl $1, %1"
				 : "=m"(probe_lines.same[0]), "+m"(probe_lines.other) : : "cc", "memory");
}

/* locked_same_line's pair 32 times, straight-line: as many locked
 * instructions as the inlined sites at N = 16 run, each at an address of
 * its own, with no call between them. Beside locked_same_line (the same
 * pair at one address) it tells a cost per locked address from the drain;
 * beside clone (such copies, called) a cost of the calls. */
static void probe_locked_copies(uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		__asm__ volatile(".rept 32\n\tmovl $1, %0\n\tlock addl $1, %1\n\t.endr"
				 : "=m"(probe_lines.same[0]), "+m"(probe_lines.same[1]) : : "cc", "memory");
}

/* 16 calls to a function that only returns: the call/return pair, its
 * return-stack prediction and the branch to the target. The calls push
 * below the stack pointer: past the 128-byte red zone, which the compiler
 * may use in a function it thinks makes no call. */
__asm__(".pushsection .text\n"
	".p2align 4\n"
	"ic_probe_ret:\n"
	"\tret\n"
	".popsection\n");

static void probe_call_return(uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		__asm__ volatile("sub $128, %%rsp\n\t.rept 16\n\tcall ic_probe_ret\n\t.endr\n\tadd $128, %%rsp"
				 : : : "memory");
}

/* 128 KiB of straight-line code, four times a 32 KiB L1i and twice the
 * largest an x86-64 core has: 9-byte NOPs, which need no execution unit,
 * so the fetch from past the L1i, not the adds of a chain, sets the pace.
 * A call per pass. */
__asm__(".pushsection .text\n"
	".p2align 6\n"
	"ic_probe_footprint:\n"
	"\t.rept 14563\n"
	"\t.byte 0x66, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00\n"
	"\t.endr\n"
	"\tret\n"
	".popsection\n");

static void probe_code_past_l1i(uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		__asm__ volatile("sub $128, %%rsp\n\tcall ic_probe_footprint\n\tadd $128, %%rsp"
				 : : : "memory");
}

static const struct ic_probe ic_probes_all[] = {
	{ "clock", "64 dependent adds", probe_clock },
	{ "locked_same_line", "a store, then a locked add on its line", probe_locked_same },
	{ "locked_other_line", "a store, then a locked add on another line", probe_locked_other },
	{ "locked_copies", "32 straight-line copies of a store and a locked add on its line",
	  probe_locked_copies },
	{ "call_return", "16 calls to a bare return", probe_call_return },
	{ "code_past_l1i", "128 KiB of straight-line NOPs", probe_code_past_l1i },
	{ NULL, NULL, NULL },
};

#else

static const struct ic_probe ic_probes_all[] = { { NULL, NULL, NULL } };

#endif

const struct ic_probe *const ic_probes = ic_probes_all;

static double probe_wall_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* One probe's run: on the core the sentinel's single thread takes, warmed
 * once, then timed in batches; its start recorded as the sites' are. */
void ic_probe_run(icb_state *st, void *arg)
{
	const struct ic_probe *p = arg;
	double start = probe_wall_s();
	char why[256];

	if (ic_topo_bind_thread(0, NULL, NULL, why, sizeof(why)) != 0)
		ic_topo_warn_once(why);
	p->run(IC_PROBE_BATCH);
	while (icb_keep_running_batch(st, IC_PROBE_BATCH))
		p->run(IC_PROBE_BATCH);
	icb_set_items_processed(st, icb_iterations_done(st));
	icb_counter_set(st, IC_REP_START_COUNTER, start, 0);
	icb_set_label(st, p->what);
	ic_topo_unbind_thread();
}
