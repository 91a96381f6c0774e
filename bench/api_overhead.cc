// What the C API costs: each loop natively (api/native/...) and through
// gbench_c.h (api/c/...), side by side in one run (api_overhead.h).

#include "api_overhead.h"

#include <benchmark/benchmark.h>

#include <string>

#include "opt_barrier.h"

namespace {

// Batch 1 crosses into the library every iteration, exposing the C API's
// per-batch call; 1000 amortises it to almost nothing.
const int64_t kBatches[] = {1, 1000};

void native_empty(benchmark::State &state)
{
	const int64_t batch = state.range(0);

	while (state.KeepRunningBatch(batch))
		for (int64_t i = 0; i < batch; i++)
			icb_sink_u64(static_cast<uint64_t>(i));
}

void native_queue(benchmark::State &state)
{
	const int64_t batch = state.range(0);
	const auto f = api_overhead_fixture();

	// Copies whose address is not taken stay in registers on both sides.
	ic_queue *const q = f.q;
	ic_node *const node = f.node;

	while (state.KeepRunningBatch(batch))
		for (int64_t i = 0; i < batch; i++) {
			ic_queue_tail_extern(q, node);
			icb_sink_ptr(ic_dequeue_extern(q));
		}
}

// Register api/native/<what> and api/c/<what> with the same batch sizes.
bool register_pair(const char *what, void (*native)(benchmark::State &), icb_fn c)
{
	auto *nb = benchmark::RegisterBenchmark(("api/native/" + std::string(what)).c_str(), native);
	icb_bench *cb = icb_register(("api/c/" + std::string(what)).c_str(), c, nullptr);

	for (int64_t batch : kBatches) {
		nb->Arg(batch);
		cb = icb_arg(cb, batch);
	}
	return cb != nullptr;
}

} // namespace

int main(int argc, char **argv)
{
	benchmark::Initialize(&argc, argv);
	if (benchmark::ReportUnrecognizedArguments(argc, argv))
		return 2;
	if (!register_pair("empty", native_empty, api_overhead_c_empty) ||
	    !register_pair("queue", native_queue, api_overhead_c_queue))
		return 1;
	benchmark::RunSpecifiedBenchmarks();
	benchmark::Shutdown();
	return 0;
}
