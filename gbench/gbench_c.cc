// gbench_c.h over Google Benchmark 1.7.1. icb_state and icb_bench are never
// defined: they are the library's own objects (benchmark::State,
// benchmark::internal::Benchmark) behind pointers of an unrelated incomplete
// type, so nothing is allocated or copied per call. Functions that can
// allocate catch every exception at this boundary.

#include "gbench_c.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <exception>

using benchmark::Counter;

static_assert(ICB_COUNTER_RATE == Counter::kIsRate && ICB_COUNTER_AVG_THREADS == Counter::kAvgThreads &&
		      ICB_COUNTER_ITERATION_INVARIANT == Counter::kIsIterationInvariant &&
		      ICB_COUNTER_AVG_ITERATIONS == Counter::kAvgIterations &&
		      ICB_COUNTER_INVERT == static_cast<unsigned>(Counter::kInvert),
	      "counter flag bits");

namespace {

benchmark::State &state_of(icb_state *st)
{
	return *reinterpret_cast<benchmark::State *>(st);
}

// Inside a catch: "fn: what" on stderr.
void report_failure(const char *fn)
{
	try {
		throw;
	} catch (const std::exception &x) {
		std::fprintf(stderr, "%s: %s\n", fn, x.what());
	} catch (...) {
		std::fprintf(stderr, "%s: unknown exception\n", fn);
	}
}

// Runs f, named fn: a failure aborts (Abort: no way to tell C) or tells C by 0 (NULL).
template <bool Abort, class F>
auto guard(const char *fn, F &&f) noexcept -> decltype(f())
{
	try {
		return f();
	} catch (...) {
		report_failure(fn);
		if constexpr (Abort)
			std::abort();
		else
			return {};
	}
}

// Run a builder call on b, passing NULL through and turning a failure into NULL.
template <class F>
icb_bench *build(const char *fn, icb_bench *b, F &&apply) noexcept
{
	return !b ? nullptr : guard<false>(fn, [&] {
		apply(reinterpret_cast<benchmark::internal::Benchmark *>(b));
		return b;
	});
}

} // namespace

extern "C" {

// The calls that abort on a C++ failure: result type, C name, parameters, the call.
#define ICB_CALL(type, name, params, call) \
	type name params noexcept \
	{ \
		return guard<true>(#name, [&]() -> type { return call; }); \
	}

ICB_CALL(void, icb_initialize, (int *argc, char **argv), benchmark::Initialize(argc, argv))
ICB_CALL(int, icb_report_unrecognized, (int argc, char **argv),
	 benchmark::ReportUnrecognizedArguments(argc, argv) ? 1 : 0)
ICB_CALL(void, icb_shutdown, (void), benchmark::Shutdown())
ICB_CALL(void, icb_add_context, (const char *key, const char *value), benchmark::AddCustomContext(key, value))
// The calls on a state but the loop's.
ICB_CALL(int64_t, icb_range, (icb_state *st, int i), state_of(st).range(static_cast<std::size_t>(i)))
ICB_CALL(int, icb_thread_index, (icb_state *st), state_of(st).thread_index())
ICB_CALL(int, icb_thread_count, (icb_state *st), state_of(st).threads())
ICB_CALL(int64_t, icb_iterations_done, (icb_state *st), state_of(st).iterations())
ICB_CALL(void, icb_set_items_processed, (icb_state *st, int64_t n), state_of(st).SetItemsProcessed(n))
ICB_CALL(void, icb_skip_with_error, (icb_state *st, const char *msg), state_of(st).SkipWithError(msg))
ICB_CALL(void, icb_pause_timing, (icb_state *st), state_of(st).PauseTiming())
ICB_CALL(void, icb_resume_timing, (icb_state *st), state_of(st).ResumeTiming())
ICB_CALL(void, icb_set_label, (icb_state *st, const char *label), state_of(st).SetLabel(label))
// Through int: Flags holds ints (kInvert is INT_MIN), and bit 31 set in an
// unsigned is above INT_MAX.
ICB_CALL(void, icb_counter_set, (icb_state *st, const char *name, double value, unsigned flags),
	 void(state_of(st).counters[name] = Counter(value, static_cast<Counter::Flags>(static_cast<int>(flags)))))

icb_bench *icb_register(const char *name, icb_fn fn, void *arg) noexcept
{
	if (!name || !fn) {
		std::fprintf(stderr, "icb_register: name and function are required\n");
		return nullptr;
	}
	// The C function cannot throw, so neither can the benchmark's lambda.
	return guard<false>("icb_register", [&] {
		return reinterpret_cast<icb_bench *>(benchmark::RegisterBenchmark(
			name, [fn, arg](benchmark::State &st) { fn(reinterpret_cast<icb_state *>(&st), arg); }));
	});
}

// The builders: C name, the call on the library's benchmark, the parameters after b.
#define ICB_BUILDER(name, call, ...) \
	icb_bench *name(icb_bench *b, ##__VA_ARGS__) noexcept \
	{ \
		return build(#name, b, [&](auto *bm) { bm->call; }); \
	}

ICB_BUILDER(icb_arg, Arg(x), int64_t x)
ICB_BUILDER(icb_threads, Threads(x), int x)
ICB_BUILDER(icb_repetitions, Repetitions(x), int x)
ICB_BUILDER(icb_min_time, MinTime(x), double x)
ICB_BUILDER(icb_iterations, Iterations(x), int64_t x)
ICB_BUILDER(icb_report_aggregates_only, ReportAggregatesOnly(x != 0), int x)
ICB_BUILDER(icb_use_real_time, UseRealTime())

icb_bench *icb_time_unit(icb_bench *b, enum icb_time_unit unit) noexcept
{
	static const benchmark::TimeUnit units[] = { benchmark::kNanosecond, benchmark::kMicrosecond,
						      benchmark::kMillisecond, benchmark::kSecond };

	if (static_cast<unsigned>(unit) > ICB_S) {
		std::fprintf(stderr, "icb_time_unit: unknown unit %d\n", static_cast<int>(unit));
		return nullptr;
	}
	return build("icb_time_unit", b, [u = units[unit]](auto *bm) { bm->Unit(u); });
}

size_t icb_run_specified(void) noexcept
{
	return guard<false>("icb_run_specified", [] { return benchmark::RunSpecifiedBenchmarks(); });
}

// The first and last calls synchronise threads and start or stop timers; the
// try costs nothing on the path that does not throw.
int icb_keep_running_batch(icb_state *st, int64_t n) noexcept
{
	try {
		return state_of(st).KeepRunningBatch(n) ? 1 : 0;
	} catch (...) {
		report_failure("icb_keep_running_batch");
		std::abort();
	}
}

} // extern "C"
