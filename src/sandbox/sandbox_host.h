#pragma once
// The sandbox host: one long-lived bubblewrap sandbox per scope, created on first use and
// joined by every command of that scope (see sandbox_host.cc for how it lives and dies).

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "base/result.h"
#include "proc/spawn.h"
#include "sandbox/bwrap_args.h"
#include "sandbox/cgroup.h"
#include "sandbox/sandbox_record.h"
#include "sys/fd.h"

namespace clawexec::sandbox {

/// What a sandbox is made of.
struct SandboxSpec {
  std::string scope;        // e.g. "agent:main"
  std::string bwrap_path;   // absolute
  std::string shim_path;    // runs the holder inside (bound read-only into the sandbox)
  std::string state_dir;    // this scope's directory under workspaceRoot
  SandboxLayout layout;     // workspace_source "" = <state_dir>/workspace
  std::string seccomp_program;
  std::string limits;         // resource limits of every command (proc::SandboxJoin::limits)
  CgroupLimits cgroup_limits; // enforced by a cgroup of the sandbox's own
  std::string setup_command;  // run once with `sh -lc` after creation ("" = none)
  /// docker.network "bridge": outbound access through pasta (user-mode networking) from the
  /// sandbox's own network namespace; the host's loopback stays unreachable. false: only lo.
  bool bridge_network = false;
  std::string pasta_path;                // absolute; needed for bridge_network
  std::vector<std::string> dns;          // nameservers for /etc/resolv.conf ("" list = see below)
  std::vector<std::string> extra_hosts;  // "name:ip" lines for /etc/hosts
};

/// The addresses a bridged sandbox sees (slirp's conventions): itself, its gateway (not mapped
/// to the host), and the DNS forwarder pasta answers at when docker.dns names none.
inline constexpr const char* kBridgeAddress = "10.0.2.100";
inline constexpr const char* kBridgeGateway = "10.0.2.2";
inline constexpr const char* kBridgeDns = "10.0.2.3";

/// One running sandbox.
class Sandbox {
 public:
  /// Creates the sandbox (blocks for the few milliseconds bubblewrap takes). Errors name what
  /// failed and carry bubblewrap's own message.
  static Result<std::shared_ptr<Sandbox>> create(const SandboxSpec& spec);
  ~Sandbox();
  Sandbox(const Sandbox&) = delete;
  Sandbox& operator=(const Sandbox&) = delete;

  /// How commands join it (for proc::SpawnSpec::sandbox).
  const std::shared_ptr<const proc::SandboxJoin>& join() const { return join_; }
  /// False once its holder has gone (killed from inside, or torn down).
  bool alive() const;
  const SandboxSpec& spec() const { return spec_; }
  pid_t holder_pid() const { return holder_pid_; }
  int64_t created_ms() const { return created_ms_; }
  int64_t last_used_ms() const { return last_used_ms_; }
  /// How its resource limits are enforced ("" = none configured).
  const std::string& limits_summary() const { return limits_summary_; }
  /// docker.setupCommand has yet to run in it (once, before its first command).
  bool needs_setup() const { return !spec_.setup_command.empty() && !set_up_; }
  /// Distinct for every sandbox this process makes (a replaced sandbox never shares it).
  uint64_t id() const { return id_; }
  void mark_set_up() { set_up_ = true; }
  /// Marks it used now (steady clock); its record's lastUsedAtMs follows at most once a minute.
  void touch(int64_t now_ms);

 private:
  friend class SandboxRegistry;
  Sandbox() = default;
  SandboxSpec spec_;
  pid_t bwrap_pid_ = -1;    // bubblewrap's outer process, our child
  pid_t holder_pid_ = -1;   // the sandbox's pid 1, as the host sees it
  sys::UniqueFd keepalive_; // its end of the holder's stdin: closing it ends the sandbox
  sys::UniqueFd pasta_pidfd_;  // bridge networking; pasta also quits by itself with the holder
  std::shared_ptr<const proc::SandboxJoin> join_;
  std::unique_ptr<SandboxCgroup> cgroup_;
  std::string limits_summary_;
  int64_t created_ms_ = 0;
  int64_t last_used_ms_ = 0;
  int64_t record_written_ms_ = 0;  // steady clock, when the record was last written
  bool set_up_ = false;
  uint64_t id_ = 0;
  SandboxRecord record_;
};

/// The sandboxes of one server, by scope. Owned by the io thread.
class SandboxRegistry {
 public:
  /// The scope's sandbox: the live one, or a new one made from `spec` (a dead one is replaced).
  Result<std::shared_ptr<Sandbox>> get_or_create(const SandboxSpec& spec, int64_t now_ms);
  /// Tears a scope's sandbox down (its processes are killed). False when there was none.
  bool remove(const std::string& scope);
  /// Tears down those idle longer than `idle_ms` (a sandbox with a command still running is
  /// not idle), older than `max_age_ms` (whatever runs in them), or dead (0 = no limit).
  std::vector<std::string> prune(int64_t now_ms, int64_t idle_ms, int64_t max_age_ms);
  const std::map<std::string, std::shared_ptr<Sandbox>>& all() const { return sandboxes_; }
  void clear() { sandboxes_.clear(); }

 private:
  std::map<std::string, std::shared_ptr<Sandbox>> sandboxes_;
};

/// The host directory mounted at the sandbox's workdir: the layout's, or <state_dir>/workspace.
std::string workspace_source(const SandboxSpec& spec);

/// A directory name for a scope key: readable, and distinct for distinct keys.
std::string scope_directory_name(const std::string& scope);

}  // namespace clawexec::sandbox
