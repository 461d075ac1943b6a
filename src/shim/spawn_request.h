#pragma once
// The spawner protocol: how the server asks the long-lived clawexec-shim spawner to start a
// command. One request is a fixed header followed by a blob of NUL-terminated strings
// (program, cwd, argv..., env...), sent on a SOCK_STREAM socket; the first sendmsg carries the
// command's three descriptors (stdin, stdout+stderr, control socket) as SCM_RIGHTS.
// Header-only so the server (proc) and the shim share one definition.

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace clawexec::shim {

inline constexpr uint32_t kSpawnRequestMagic = 0x51535843;  // "CXSQ"
inline constexpr uint32_t kSpawnFlagPty = 1;
/// Upper bound on one request's blob (argv + environment), far above what execve accepts.
inline constexpr uint32_t kMaxSpawnBlob = 64u << 20;
/// Number of descriptors attached to each request: stdin, stdout (also stderr), control.
inline constexpr int kSpawnRequestFds = 3;

struct SpawnRequestHeader {
  uint32_t magic;
  uint32_t flags;
  uint32_t argc;
  uint32_t envc;
  uint32_t blob_size;
};
static_assert(sizeof(SpawnRequestHeader) == 20);

/// Serializes a request: header bytes followed by the blob.
inline std::string encode_spawn_request(uint32_t flags, std::string_view program, std::string_view cwd,
                                        const std::vector<std::string>& argv,
                                        const std::vector<std::string>& env) {
  std::string blob;
  auto add = [&blob](std::string_view s) {
    blob.append(s);
    blob.push_back('\0');
  };
  add(program);
  add(cwd);
  for (const std::string& a : argv) add(a);
  for (const std::string& e : env) add(e);
  SpawnRequestHeader header{kSpawnRequestMagic, flags, static_cast<uint32_t>(argv.size()),
                            static_cast<uint32_t>(env.size()), static_cast<uint32_t>(blob.size())};
  std::string out(sizeof header, '\0');
  std::memcpy(out.data(), &header, sizeof header);
  out += blob;
  return out;
}

}  // namespace clawexec::shim
