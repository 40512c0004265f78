// A mutational fuzzing driver for LLVMFuzzerTestOneInput, for compilers
// without libFuzzer (GCC): no coverage feedback, but a pool of seeds and of
// inputs the target accepted, mutated with byte edits, splices and tokens of
// the mask syntax (numbers at the float limits, option names, JSON brackets).
//
// usage: fuzz_mask_driver SECONDS CORPUS_DIR...
// The random seed is printed; LIVECONV_FUZZ_SEED=N repeats a run. On a
// finding (an abort from the target, or a sanitizer report) the input is
// written to ./mask-fuzz-finding.bin and printed escaped on stderr.
#include <csignal>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);
extern "C" int liveconvFuzzLastAccepted;
extern "C" void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));

namespace {

std::string current;  // the input being tried, for the finding report

void reportFinding() {
  std::ofstream("mask-fuzz-finding.bin", std::ios::binary) << current;
  std::string escaped;
  for (unsigned char c : current) {
    if (c >= 32 && c < 127 && c != '\\') {
      escaped += static_cast<char>(c);
    } else {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      escaped += hex;
    }
  }
  std::fprintf(stderr, "mask fuzz: the input that failed (also in mask-fuzz-finding.bin): \"%s\"\n", escaped.c_str());
}

void onAbort(int) {
  reportFinding();
  std::signal(SIGABRT, SIG_DFL);
  std::abort();
}

const std::vector<std::string> kTokens = {
    "0", "1", "-1", "3", "7", "63", "65", "64", "0.5", "1e38", "3e38", "-3e38", "1e39", "1e-39", "1e-45", "1e-40",
    "nan", "inf", "-inf", "4294967297", "4294967299", "x", "X", ",", ";", ":", "=", ";divisor=", ";bias=",
    ";normalize=auto", ";normalize=none", ":sigma=", ":amount=", "gaussian:", "unsharp:", "box:", "sharpen",
    "motion45:", "identity", "3x3:", "1x1:", "63x63:", "{", "}", "[", "]", "[[", "]]", "\"", "\"width\":",
    "\"height\":", "\"coefficients\":", "\"divisor\":", "\"bias\":", "\"normalize\":", "\"auto\"", "\"none\"", " ",
    "\n", "e", "-", "+", "."};

std::string mutate(std::string s, const std::vector<std::string>& pool, std::mt19937_64& rng) {
  auto pick = [&](std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(rng() % n); };
  const int edits = 1 + static_cast<int>(rng() % 4);
  for (int e = 0; e < edits; ++e) {
    switch (rng() % 7) {
      case 0:  // flip a bit
        if (!s.empty()) s[pick(s.size())] ^= static_cast<char>(1u << (rng() % 8));
        break;
      case 1:  // a random byte
        if (!s.empty()) s[pick(s.size())] = static_cast<char>(rng() % 256);
        break;
      case 2:
      case 3:  // a token of the syntax
        s.insert(pick(s.size() + 1), kTokens[pick(kTokens.size())]);
        break;
      case 4: {  // delete a run
        if (s.size() < 2) break;
        const std::size_t at = pick(s.size()), n = 1 + pick(std::min<std::size_t>(8, s.size() - at));
        s.erase(at, n);
        break;
      }
      case 5: {  // duplicate a run
        if (s.empty()) break;
        const std::size_t at = pick(s.size()), n = 1 + pick(std::min<std::size_t>(16, s.size() - at));
        s.insert(pick(s.size() + 1), s.substr(at, n));
        break;
      }
      default: {  // splice with another input
        const std::string& other = pool[pick(pool.size())];
        if (other.size() < 2 || s.size() < 2) break;
        s = s.substr(0, pick(s.size())) + other.substr(pick(other.size()));
        break;
      }
    }
  }
  if (s.size() > 4096) s.resize(4096);
  return s;
}

bool run(const std::string& input) {
  current = input;
  LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(input.data()), input.size());
  return liveconvFuzzLastAccepted != 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s SECONDS CORPUS_DIR...\n", argv[0]);
    return 2;
  }
  const double seconds = std::atof(argv[1]);
  std::vector<std::string> seeds;
  for (int i = 2; i < argc; ++i)
    for (const auto& entry : std::filesystem::directory_iterator(argv[i])) {
      std::ifstream in(entry.path(), std::ios::binary);
      std::stringstream text;
      text << in.rdbuf();
      seeds.push_back(text.str());
    }
  if (seeds.empty()) {
    std::fprintf(stderr, "fuzz: no seed inputs in the corpus folders\n");
    return 2;
  }
  std::signal(SIGABRT, onAbort);
  if (__sanitizer_set_death_callback) __sanitizer_set_death_callback(reportFinding);
  const char* fixed = std::getenv("LIVECONV_FUZZ_SEED");
  const std::uint64_t seed = fixed ? std::strtoull(fixed, nullptr, 10) : std::random_device{}();
  std::mt19937_64 rng(seed);
  std::printf("mask fuzz: %zu seeds, %.0f s, random seed %llu (LIVECONV_FUZZ_SEED repeats it)\n", seeds.size(),
              seconds, static_cast<unsigned long long>(seed));
  std::fflush(stdout);

  std::vector<std::string> pool = seeds;
  long long inputs = 0, accepted = 0;
  for (const auto& s : seeds) accepted += run(s), ++inputs;
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < end) {
    for (int k = 0; k < 256; ++k) {
      const std::string input = mutate(pool[rng() % pool.size()], pool, rng);
      ++inputs;
      if (run(input)) {
        ++accepted;
        if (pool.size() < 4096) pool.push_back(input);
        else pool[seeds.size() + rng() % (pool.size() - seeds.size())] = input;
      }
    }
  }
  std::printf("mask fuzz: %lld inputs, %lld accepted, no finding\n", inputs, accepted);
  return 0;
}
