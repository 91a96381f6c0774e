// The C API of gbench_c.h over Google Benchmark 1.7.1: the only C++ in bench/.
//
// icb_state and icb_bench are never defined: they are the library's own
// objects (benchmark::State, benchmark::internal::Benchmark) behind pointers
// of an unrelated incomplete type, so nothing is allocated or copied per call.
// Functions that can allocate catch every exception at this boundary.

#include "gbench_c.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <exception>

using benchmark::Counter;

static_assert(ICB_COUNTER_RATE == Counter::kIsRate, "counter flag bits");
static_assert(ICB_COUNTER_AVG_THREADS == Counter::kAvgThreads, "counter flag bits");
static_assert(ICB_COUNTER_ITERATION_INVARIANT == Counter::kIsIterationInvariant,
              "counter flag bits");
static_assert(ICB_COUNTER_AVG_ITERATIONS == Counter::kAvgIterations, "counter flag bits");
static_assert(ICB_COUNTER_INVERT == static_cast<unsigned>(Counter::kInvert),
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

// For functions with no way to tell C they failed.
[[noreturn]] void abort_failure(const char *fn)
{
	report_failure(fn);
	std::abort();
}

// Runs f in such a function, fn being its name.
template <class F>
auto or_abort(const char *fn, F &&f) noexcept -> decltype(f())
{
	try {
		return f();
	} catch (...) {
		abort_failure(fn);
	}
}

// Run a builder call on b, passing NULL through and turning a failure into NULL.
template <class F>
icb_bench *build(const char *fn, icb_bench *b, F &&apply) noexcept
{
	if (!b)
		return nullptr;
	try {
		apply(reinterpret_cast<benchmark::internal::Benchmark *>(b));
		return b;
	} catch (...) {
		report_failure(fn);
		return nullptr;
	}
}

} // namespace

extern "C" {

void icb_initialize(int *argc, char **argv) noexcept
{
	or_abort(__func__, [&] { benchmark::Initialize(argc, argv); });
}

int icb_report_unrecognized(int argc, char **argv) noexcept
{
	return or_abort(__func__,
			[&] { return benchmark::ReportUnrecognizedArguments(argc, argv) ? 1 : 0; });
}

icb_bench *icb_register(const char *name, icb_fn fn, void *arg) noexcept
{
	if (!name || !fn) {
		std::fprintf(stderr, "icb_register: name and function are required\n");
		return nullptr;
	}
	try {
		// The C function cannot throw, so neither can this lambda.
		auto run = [fn, arg](benchmark::State &st) {
			fn(reinterpret_cast<icb_state *>(&st), arg);
		};
		return reinterpret_cast<icb_bench *>(benchmark::RegisterBenchmark(name, run));
	} catch (...) {
		report_failure("icb_register");
		return nullptr;
	}
}

// The builders that pass one value x on: C name, x's type, the call on the
// library's benchmark.
#define ICB_BUILDER(name, type, call)                                   \
	icb_bench *name(icb_bench *b, type x) noexcept                 \
	{                                                               \
		return build(#name, b, [x](auto *bm) { bm->call; });   \
	}

ICB_BUILDER(icb_arg, int64_t, Arg(x))
ICB_BUILDER(icb_threads, int, Threads(x))
ICB_BUILDER(icb_repetitions, int, Repetitions(x))
ICB_BUILDER(icb_min_time, double, MinTime(x))
ICB_BUILDER(icb_iterations, int64_t, Iterations(x))
ICB_BUILDER(icb_report_aggregates_only, int, ReportAggregatesOnly(x != 0))

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

icb_bench *icb_use_real_time(icb_bench *b) noexcept
{
	return build("icb_use_real_time", b, [](auto *bm) { bm->UseRealTime(); });
}

size_t icb_run_specified(void) noexcept
{
	try {
		return benchmark::RunSpecifiedBenchmarks();
	} catch (...) {
		report_failure("icb_run_specified");
		return 0;
	}
}

void icb_shutdown(void) noexcept
{
	or_abort(__func__, [&] { benchmark::Shutdown(); });
}

void icb_add_context(const char *key, const char *value) noexcept
{
	or_abort(__func__, [&] { benchmark::AddCustomContext(key, value); });
}

// The first and last calls synchronise threads and start or stop timers;
// the try costs nothing on the path that does not throw.
int icb_keep_running_batch(icb_state *st, int64_t n) noexcept
{
	try {
		return state_of(st).KeepRunningBatch(n) ? 1 : 0;
	} catch (...) {
		abort_failure("icb_keep_running_batch");
	}
}

// The calls on a state but the loop's: C name and its result type, the
// call on the library's state, the parameters after the state.
#define ICB_STATE_CALL(type, name, call, ...)                                   \
	type name(icb_state *st, ##__VA_ARGS__) noexcept                        \
	{                                                                       \
		return or_abort(#name, [&]() -> type { return state_of(st).call; }); \
	}

ICB_STATE_CALL(int64_t, icb_range, range(static_cast<std::size_t>(i)), int i)
ICB_STATE_CALL(int, icb_thread_index, thread_index())
ICB_STATE_CALL(int, icb_thread_count, threads())
ICB_STATE_CALL(int64_t, icb_iterations_done, iterations())
ICB_STATE_CALL(void, icb_set_items_processed, SetItemsProcessed(n), int64_t n)
ICB_STATE_CALL(void, icb_skip_with_error, SkipWithError(msg), const char *msg)
ICB_STATE_CALL(void, icb_pause_timing, PauseTiming())
ICB_STATE_CALL(void, icb_resume_timing, ResumeTiming())
ICB_STATE_CALL(void, icb_set_label, SetLabel(label), const char *label)

void icb_counter_set(icb_state *st, const char *name, double value, unsigned flags) noexcept
{
	// Through int: Flags holds ints (kInvert is INT_MIN), and bit 31 set in an
	// unsigned is above INT_MAX.
	or_abort(__func__, [&] {
		state_of(st).counters[name] = Counter(value, static_cast<Counter::Flags>(static_cast<int>(flags)));
	});
}

} // extern "C"
