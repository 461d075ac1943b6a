// In-process throughput of the two stages every byte of command output passes through on the
// server's loop thread: term::OutputSanitizer (UTF-8 decoding, ANSI stripping, control-byte
// escaping) and session::OutputBuffer (aggregate and pending retention under the caps).
//
// The inputs are synthetic but shaped like real output: plain ASCII lines, colourised
// compiler-style lines, multi-byte UTF-8 text, control-byte noise, and the single giant line of
// `tr '\0' a`. Chunks are 256 KiB, the server's read size, plus a small-chunk case for the
// per-call overhead of an interactive program writing a line at a time. Throughput figures are
// bytes of raw input per second (Google Benchmark's bytes_per_second).

#include <benchmark/benchmark.h>

#include <cstddef>
#include <string>
#include <string_view>

#include "session/output_buffer.h"
#include "term/output_sanitizer.h"

namespace clawexec::bench {
namespace {

constexpr size_t kChunkBytes = 256 * 1024;

// Repeats `unit` until the result holds at least `size` bytes, then cuts it there (possibly
// inside a multi-byte character or escape sequence, as a read() boundary would).
std::string repeat_to(std::string_view unit, size_t size) {
  std::string out;
  out.reserve(size + unit.size());
  while (out.size() < size) out.append(unit);
  out.resize(size);
  return out;
}

std::string plain_ascii() {
  return repeat_to("2024-05-01 12:00:00 INFO worker[17]: processed batch 4711 in 12ms\n", kChunkBytes);
}

std::string ansi_colored() {
  return repeat_to(
      "\x1b[1m\x1b[32m   Compiling\x1b[0m serde v1.0.200 (\x1b[4m/src/serde\x1b[24m)\r\n"
      "\x1b[33mwarning\x1b[0m: unused variable `x` \x1b[2K\x1b[1G\n",
      kChunkBytes);
}

std::string multibyte_utf8() {
  return repeat_to("Grüße, 世界! Ünïcödé tëxt — naïve café 🙂🚀 done\n", kChunkBytes);
}

std::string control_noise() {
  return repeat_to(std::string("ok\x01\x02\x7f\tbell\x07 nul\0 esc-less\x08\x08\n", 33), kChunkBytes);
}

std::string single_line() { return std::string(kChunkBytes, 'a'); }

void run_sanitizer(benchmark::State& state, const std::string& input) {
  term::OutputSanitizer sanitizer;
  std::string out;
  out.reserve(input.size() * 2);
  for (auto _ : state) {
    out.clear();
    sanitizer.feed(input, out);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(input.size()));
}

void BM_SanitizePlainAscii(benchmark::State& state) { run_sanitizer(state, plain_ascii()); }
void BM_SanitizeSingleLine(benchmark::State& state) { run_sanitizer(state, single_line()); }
void BM_SanitizeAnsiColored(benchmark::State& state) { run_sanitizer(state, ansi_colored()); }
void BM_SanitizeMultibyteUtf8(benchmark::State& state) { run_sanitizer(state, multibyte_utf8()); }
void BM_SanitizeControlNoise(benchmark::State& state) { run_sanitizer(state, control_noise()); }

// Appends `chunk` repeatedly to one buffer that is far past both caps, draining the pending
// output every `drain_every` appends (as a poll would); measures the steady state.
void run_append(benchmark::State& state, const std::string& chunk, int drain_every) {
  session::OutputBuffer buffer;
  for (int i = 0; i < 8; ++i) buffer.append(session::Stream::kStdout, chunk);  // reach the caps
  int since_drain = 0;
  for (auto _ : state) {
    buffer.append(session::Stream::kStdout, chunk);
    if (drain_every > 0 && ++since_drain == drain_every) {
      since_drain = 0;
      benchmark::DoNotOptimize(buffer.drain_pending().text.size());
    }
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(chunk.size()));
}

void BM_OutputBufferAppend256KiB(benchmark::State& state) { run_append(state, plain_ascii(), 0); }
void BM_OutputBufferAppend80B(benchmark::State& state) {
  run_append(state, plain_ascii().substr(0, 80), 0);
}
void BM_OutputBufferAppend80BWithDrain(benchmark::State& state) {
  run_append(state, plain_ascii().substr(0, 80), 100);
}
void BM_OutputBufferAppendMultibyte256KiB(benchmark::State& state) {
  run_append(state, multibyte_utf8().substr(0, kChunkBytes - 64), 0);
}

// What the loop thread does per read(): sanitize the chunk, then append the text.
void run_pipeline(benchmark::State& state, const std::string& input) {
  term::OutputSanitizer sanitizer;
  session::OutputBuffer buffer;
  std::string text;
  for (auto _ : state) {
    text.clear();
    sanitizer.feed(input, text);
    buffer.append(session::Stream::kStdout, text);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(input.size()));
}

void BM_PipelineSingleLine(benchmark::State& state) { run_pipeline(state, single_line()); }
void BM_PipelinePlainAscii(benchmark::State& state) { run_pipeline(state, plain_ascii()); }
void BM_PipelineAnsiColored(benchmark::State& state) { run_pipeline(state, ansi_colored()); }

BENCHMARK(BM_SanitizePlainAscii);
BENCHMARK(BM_SanitizeSingleLine);
BENCHMARK(BM_SanitizeAnsiColored);
BENCHMARK(BM_SanitizeMultibyteUtf8);
BENCHMARK(BM_SanitizeControlNoise);
BENCHMARK(BM_OutputBufferAppend256KiB);
BENCHMARK(BM_OutputBufferAppend80B);
BENCHMARK(BM_OutputBufferAppend80BWithDrain);
BENCHMARK(BM_OutputBufferAppendMultibyte256KiB);
BENCHMARK(BM_PipelineSingleLine);
BENCHMARK(BM_PipelinePlainAscii);
BENCHMARK(BM_PipelineAnsiColored);

}  // namespace
}  // namespace clawexec::bench

BENCHMARK_MAIN();
