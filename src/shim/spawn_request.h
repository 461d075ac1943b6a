#pragma once
// The spawner protocol: how the server asks the long-lived clawexec-shim spawner to start a
// command. One request is a fixed header followed by a blob of strings (program, cwd, argv...,
// env...), each a 32-bit length, its bytes and a terminating NUL (so the spawner can pass them
// to execve in place), sent on a SOCK_STREAM socket; the first sendmsg carries the command's
// three descriptors (stdin, stdout+stderr, control socket) as SCM_RIGHTS. Lengths, not
// separators, delimit the strings, so no content can break the framing. Header-only so the
// server (proc) and the shim share one definition.
//
// A sandboxed request (kSpawnFlagSandbox) carries a fourth descriptor, a pidfd of the sandbox's
// holder process whose namespaces the supervisor joins, and extra strings after the
// environment: the seccomp program (raw struct sock_filter bytes), "uid:gid" inside the
// sandbox, its resource limits, its cgroups, then the paths (inside the sandbox) that Landlock leaves writable.

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace clawexec::shim {

inline constexpr uint32_t kSpawnRequestMagic = 0x51535843;  // "CXSQ"
inline constexpr uint32_t kSpawnFlagPty = 1;
inline constexpr uint32_t kSpawnFlagSandbox = 2;
/// Upper bound on one request's blob (argv + environment), far above what execve accepts.
inline constexpr uint32_t kMaxSpawnBlob = 64u << 20;
/// Number of descriptors attached to each request: stdin, stdout (also stderr), control.
inline constexpr int kSpawnRequestFds = 3;
/// A sandboxed request adds the holder's pidfd.
inline constexpr int kSandboxRequestFds = kSpawnRequestFds + 1;
/// Extra strings of a sandboxed request before its writable paths: seccomp program, "uid:gid",
/// resource limits ("<RLIMIT_*>=<soft>:<hard>,...", "" = none), the cgroup.procs files to join
/// (newline-separated, "" = none).
inline constexpr uint32_t kSandboxFixedExtras = 4;

struct SpawnRequestHeader {
  uint32_t magic;
  uint32_t flags;
  uint32_t argc;
  uint32_t envc;
  uint32_t extrac;  // strings after the environment (sandboxed requests)
  uint32_t blob_size;
};
static_assert(sizeof(SpawnRequestHeader) == 24);

/// Serializes a request: header bytes followed by the blob.
inline std::string encode_spawn_request(uint32_t flags, std::string_view program, std::string_view cwd,
                                        const std::vector<std::string>& argv,
                                        const std::vector<std::string>& env,
                                        const std::vector<std::string>& extras = {}) {
  std::string blob;
  auto add = [&blob](std::string_view s) {
    uint32_t length = static_cast<uint32_t>(s.size());
    blob.append(reinterpret_cast<const char*>(&length), sizeof length);
    blob.append(s);
    blob.push_back('\0');
  };
  add(program);
  add(cwd);
  for (const std::string& a : argv) add(a);
  for (const std::string& e : env) add(e);
  for (const std::string& x : extras) add(x);
  SpawnRequestHeader header{kSpawnRequestMagic,
                            flags,
                            static_cast<uint32_t>(argv.size()),
                            static_cast<uint32_t>(env.size()),
                            static_cast<uint32_t>(extras.size()),
                            static_cast<uint32_t>(blob.size())};
  std::string out(sizeof header, '\0');
  std::memcpy(out.data(), &header, sizeof header);
  out += blob;
  return out;
}

/// Splits a request blob into its strings (pointers into `blob`, each NUL-terminated) and their
/// lengths (a seccomp program holds NUL bytes). False when the lengths do not add up exactly to
/// the blob.
inline bool decode_spawn_strings(std::string& blob, std::vector<char*>& out, std::vector<uint32_t>& lengths) {
  size_t i = 0;
  while (i < blob.size()) {
    uint32_t length = 0;
    if (blob.size() - i < sizeof length) return false;
    std::memcpy(&length, blob.data() + i, sizeof length);
    i += sizeof length;
    if (blob.size() - i < static_cast<size_t>(length) + 1 || blob[i + length] != '\0') return false;
    out.push_back(blob.data() + i);
    lengths.push_back(length);
    i += static_cast<size_t>(length) + 1;
  }
  return true;
}

}  // namespace clawexec::shim
