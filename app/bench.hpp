// `liveconv bench`: variants x mask sizes x image sizes x formats, medians
// after warm-up, kernel-only and with transfers, beside the device's measured
// copy bandwidth, its launch round trip and its FMA limit.
#pragma once

#include <string>
#include <vector>

namespace liveconv::app {

int runBench(const std::vector<std::string>& args);
void printBenchUsage();
// `bench --pipeline`: in-memory frames through the double-buffered stream (bench_pipeline.cpp).
int runPipelineBench(const std::vector<std::string>& args);

}  // namespace liveconv::app
