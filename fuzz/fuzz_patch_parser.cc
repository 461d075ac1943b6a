// libFuzzer target: arbitrary bytes as an apply_patch input (patch::parse_patch), and the
// parsed update chunks applied to arbitrary text (patch::apply_chunks).
//
// Problem: the patch text comes straight from a model and the file text from disk; neither may
// crash the server, whatever they hold (invalid UTF-8, lone CRs, huge or empty chunks).
//
// Approach: the input is split at the first NUL byte into a patch and a file text (no NUL: the
// patch's own text is the file). Parse; every error must carry a message. For each update hunk,
// apply its chunks to the file text; a success is checked for one property that holds for any
// input: same_content is reflexive on it.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string_view>

#include "patch/patch.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  size_t nul = input.find('\0');
  std::string_view patch_text = input.substr(0, nul);
  std::string_view file_text = nul == std::string_view::npos ? input : input.substr(nul + 1);

  auto hunks = clawexec::patch::parse_patch(patch_text);
  if (!hunks.ok()) {
    if (hunks.error().message.empty()) {
      std::fprintf(stderr, "\n*** parse_patch failed without a message\n");
      __builtin_trap();
    }
    return 0;
  }
  for (const clawexec::patch::Hunk& hunk : *hunks) {
    if (hunk.kind != clawexec::patch::HunkKind::kUpdate) continue;
    auto applied = clawexec::patch::apply_chunks(file_text, hunk.chunks, hunk.path);
    if (applied.ok() && !clawexec::patch::same_content(*applied, *applied)) __builtin_trap();
  }
  return 0;
}
