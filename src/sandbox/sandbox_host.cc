// Per-scope sandboxes (see sandbox_host.h).
//
// Problem: OpenClaw keeps one container per scope so that files, background servers and the
// process list persist between commands; without a container engine, the same lifetime has
// to be built from bubblewrap, and nothing may outlive the server, even after SIGKILL.
//
// Approach: bubblewrap creates the namespaces and the file system and runs a holder, `cat`,
// whose stdin is one end of a socket pair the server keeps. Commands join the holder's
// namespaces (shim/sandbox_entry.cc); they never go through bubblewrap again, which is why a
// command in an existing sandbox costs little more than one on the host. The sandbox ends
// when the server closes its end or dies in any way (the kernel closes it): `cat` sees
// end-of-file and exits, bubblewrap's pid 1 exits with it, and the kernel kills every process
// left in the pid namespace. bubblewrap's --die-with-parent covers its own outer process.

#include "sandbox/sandbox_host.h"

#include <poll.h>
#include <sys/resource.h>
#include <signal.h>

#include <atomic>
#include <cctype>
#include <cstdlib>
#include <chrono>
#include <thread>

#include "base/strings.h"
#include "base/time.h"
#include "hash/sha256.h"
#include "proc/spawn.h"
#include "sys/file_system.h"
#include "sys/run_capture.h"
#include "sys/spawn_process.h"
#include "sys/whole_file.h"
#include "sys/sys.h"

namespace clawexec::sandbox {
namespace {

constexpr int kInfoFd = 3;
constexpr int kStartTimeoutMs = 10'000;

// The holder: says it is running (so is the sandbox), then waits for end-of-file on its stdin.
std::vector<std::string> holder_command() { return {"/bin/sh", "-c", "echo ready; exec /bin/cat"}; }

// "child-pid": N in bubblewrap's --info-fd JSON.
std::optional<pid_t> child_pid_of(const std::string& info) {
  size_t key = info.find("\"child-pid\"");
  if (key == std::string::npos) return std::nullopt;
  size_t i = info.find(':', key);
  if (i == std::string::npos) return std::nullopt;
  ++i;
  while (i < info.size() && std::isspace(static_cast<unsigned char>(info[i]))) ++i;
  long value = 0;
  size_t digits = 0;
  while (i < info.size() && std::isdigit(static_cast<unsigned char>(info[i])) && digits < 10) {
    value = value * 10 + (info[i++] - '0');
    ++digits;
  }
  if (digits == 0 || value <= 1) return std::nullopt;
  return static_cast<pid_t>(value);
}

HostPaths real_host_paths() {
  return {.symlink_target =
              [](const std::string& p) -> std::optional<std::string> {
                Result<std::string> target = sys::read_symlink(p);
                if (!target.ok()) return std::nullopt;
                return target.value();
              },
          .exists = [](const std::string& p) { return sys::path_exists(p); }};
}

void stop_bwrap(pid_t pid) {
  if (pid <= 0) return;
  for (int i = 0; i < 100; ++i) {
    Result<std::optional<int>> r = sys::try_reap(pid);
    if (!r.ok() || r.value()) return;
    if (i == 50) ignore_error(sys::send_signal(pid, SIGKILL));
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  ignore_error(sys::send_signal(pid, SIGKILL));
  ignore_error(sys::reap(pid));
}

// The sandbox's own /etc/hosts (localhost, its name, extraHosts) and, when it has a network or
// names servers, /etc/resolv.conf, written into its state directory and bound read-only.
Result<void> write_etc_files(const SandboxSpec& spec, SandboxLayout& layout) {
  const std::string dir = spec.state_dir + "/etc";
  TRY(sys::make_directories(dir));
  std::string hosts = "127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n127.0.1.1\t" + layout.hostname + "\n";
  for (const std::string& entry : spec.extra_hosts) {
    size_t colon = entry.find(':');
    hosts += entry.substr(colon + 1) + "\t" + entry.substr(0, colon) + "\n";
  }
  layout.hosts_file = dir + "/hosts";
  TRY(sys::replace_file_atomically(layout.hosts_file, hosts, 0644, sys::Durability::kNone));
  std::vector<std::string> servers = spec.dns;
  if (servers.empty() && spec.bridge_network) servers.push_back(kBridgeDns);
  if (!servers.empty()) {
    std::string resolv;
    for (const std::string& server : servers) resolv += "nameserver " + server + "\n";
    layout.resolv_file = dir + "/resolv.conf";
    TRY(sys::replace_file_atomically(layout.resolv_file, resolv, 0644, sys::Durability::kNone));
  }
  return {};
}

// pasta joins the holder's user and network namespaces, configures eth0 (kBridgeAddress, the
// gateway not mapped to the host, no port forwarding either way, DNS forwarded), and goes to
// the background once the interface is up: its first process exiting with 0 means ready. It
// quits by itself when the holder exits.
Result<sys::UniqueFd> start_pasta(const SandboxSpec& spec, pid_t holder) {
  if (spec.pasta_path.empty()) {
    return Error::invalid("docker.network \"bridge\" needs pasta: install the passt package (apt-get install passt)");
  }
  const std::string pid_file = spec.state_dir + "/pasta-" + std::to_string(sys::current_pid()) + ".pid";
  ignore_error(sys::remove_file(pid_file));
  const std::string ids = std::to_string(sys::current_uid()) + ":" + std::to_string(sys::current_gid());
  std::vector<std::string> argv = {spec.pasta_path, "--quiet", "--runas", ids, "--ipv4-only", "--config-net",
                                   "-a", kBridgeAddress, "-n", "24", "-g", kBridgeGateway, "--no-map-gw",
                                   "--dns-forward", kBridgeDns, "-t", "none", "-u", "none", "-T", "none", "-U", "none",
                                   "-P", pid_file, std::to_string(holder)};
  sys::CapturedRun run = TRY(sys::run_and_capture(spec.pasta_path, argv, {"PATH=/usr/bin:/bin"}, kStartTimeoutMs));
  if (run.exit_code != 0) {
    std::string why(trim_ascii(run.output));
    return Error::internal("pasta could not set up the bridge network" + (why.empty() ? std::string(".") : ": " + why));
  }
  Result<std::optional<std::string>> text = sys::read_file_if_exists(pid_file, "read pasta pid file " + pid_file);
  pid_t pid = 0;
  if (text.ok() && *text) pid = static_cast<pid_t>(std::strtol(std::string(trim_ascii(**text)).c_str(), nullptr, 10));
  ignore_error(sys::remove_file(pid_file));
  if (pid <= 1) return sys::UniqueFd();  // it runs; only the backstop signal at teardown is lost
  Result<sys::UniqueFd> fd = sys::pidfd_open(pid);
  return fd.ok() ? std::move(fd).value() : sys::UniqueFd();
}

}  // namespace

std::string scope_directory_name(const std::string& scope) {
  std::string readable;
  for (char c : scope) {
    readable.push_back(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' ? c : '-');
    if (readable.size() >= 40) break;
  }
  return readable + "-" + hash::sha256_hex(scope).substr(0, 10);
}

std::string workspace_source(const SandboxSpec& spec) {
  return spec.layout.workspace_source.empty() ? spec.state_dir + "/workspace" : spec.layout.workspace_source;
}

Result<std::shared_ptr<Sandbox>> Sandbox::create(const SandboxSpec& spec) {
  static std::atomic<uint64_t> next_id{1};
  std::shared_ptr<Sandbox> box(new Sandbox());
  box->id_ = next_id++;
  box->spec_ = spec;
  SandboxLayout& layout = box->spec_.layout;
  TRY(sys::make_directories(spec.state_dir));
  TRY(sys::change_mode(spec.state_dir, 0700));
  if (layout.workspace_source.empty()) {
    layout.workspace_source = workspace_source(spec);
    TRY(sys::make_directories(layout.workspace_source));
  }
  TRY(write_etc_files(spec, layout));
  auto [ours, theirs] = TRY(sys::make_stream_pair());
  sys::Pipe info = TRY(sys::make_pipe());
  sys::Pipe errors = TRY(sys::make_pipe());
  sys::Pipe ready = TRY(sys::make_pipe());
  std::vector<std::string> argv = {spec.bwrap_path};
  std::vector<std::string> rest = bwrap_arguments(layout, real_host_paths(), kInfoFd, holder_command());
  argv.insert(argv.end(), rest.begin(), rest.end());
  Result<pid_t> pid = proc::spawn_shim_process(spec.bwrap_path, argv, {"PATH=/usr/bin:/bin"},
                                               {theirs.get(), ready.write_end.get(), errors.write_end.get(), info.write_end.get()}, "/");
  if (!pid.ok()) return Error::internal("sandbox " + spec.scope + ": start " + spec.bwrap_path + ": " + pid.error().message);
  box->bwrap_pid_ = pid.value();
  theirs.reset();
  info.write_end.reset();
  errors.write_end.reset();
  ready.write_end.reset();
  std::string facts = sys::read_with_deadline(info.read_end.get(), kStartTimeoutMs, 1 << 16).data;
  std::optional<pid_t> holder = child_pid_of(facts);
  // bubblewrap reports its pid before it has built the file system; the holder's first line
  // says the sandbox is complete (end-of-file instead: bubblewrap gave up).
  if (holder && sys::read_with_deadline(ready.read_end.get(), kStartTimeoutMs, 64, '\n').data != "ready") holder.reset();
  Result<sys::UniqueFd> holder_fd = holder ? sys::pidfd_open(*holder) : Result<sys::UniqueFd>(Error::internal("no pid"));
  if (!holder || !holder_fd.ok()) {
    ours.reset();
    std::string why = std::string(trim_ascii(sys::read_with_deadline(errors.read_end.get(), 1000, 1 << 16).data));
    stop_bwrap(box->bwrap_pid_);
    box->bwrap_pid_ = -1;
    return Error::internal("sandbox " + spec.scope + ": bubblewrap could not create the sandbox" +
                     (why.empty() ? std::string(".") : ": " + why));
  }
  box->holder_pid_ = *holder;
  auto abandon = [&box, &ours] {
    ours.reset();
    stop_bwrap(box->bwrap_pid_);
    box->bwrap_pid_ = -1;
  };
  if (spec.bridge_network) {
    Result<sys::UniqueFd> pasta = start_pasta(spec, box->holder_pid_);
    if (!pasta.ok()) {
      abandon();
      return Error::internal("sandbox " + spec.scope + ": " + pasta.error().message);
    }
    box->pasta_pidfd_ = std::move(pasta).value();
  }
  if (spec.cgroup_limits.any()) {
    Result<std::unique_ptr<SandboxCgroup>> group =
        SandboxCgroup::create("clawexec-" + scope_directory_name(spec.scope) + "-" + std::to_string(sys::current_pid()),
                              spec.cgroup_limits);
    if (group.ok()) {
      ignore_error(group.value()->add(box->holder_pid_));
      box->limits_summary_ = group.value()->summary();
      box->cgroup_ = std::move(group).value();
    } else if (sys::current_uid() == 0) {
      // The rlimit fallback does not bound root's processes: refuse rather than pretend.
      abandon();
      return Error::rejected("sandbox " + spec.scope + ": " + group.error().message);
    } else {
      // The nearest rlimits, per user and per process: weaker, and said so.
      box->limits_summary_ = "rlimits only (" + group.error().message + ")";
      auto add = [&box](int resource, int64_t value) {
        std::string& l = box->spec_.limits;
        l += (l.empty() ? "" : ",") + std::to_string(resource) + "=" + std::to_string(value) + ":" + std::to_string(value);
      };
      if (spec.cgroup_limits.pids) add(RLIMIT_NPROC, *spec.cgroup_limits.pids);
      if (spec.cgroup_limits.memory_bytes) add(RLIMIT_AS, *spec.cgroup_limits.memory_bytes);
    }
  }
  box->keepalive_ = std::move(ours);
  auto join = std::make_shared<proc::SandboxJoin>();
  join->holder_pidfd = std::move(holder_fd).value();
  join->seccomp_program = spec.seccomp_program;
  join->limits = box->spec_.limits;
  if (box->cgroup_) {
    for (const std::string& procs : box->cgroup_->procs_files()) join->cgroups += procs + "\n";
  }
  unsigned uid = layout.ids ? layout.ids->first : static_cast<unsigned>(sys::current_uid());
  unsigned gid = layout.ids ? layout.ids->second : static_cast<unsigned>(sys::current_gid());
  join->user = std::to_string(uid) + ":" + std::to_string(gid);
  join->writable_paths = writable_paths(layout);
  box->join_ = std::move(join);
  SandboxRecord& record = box->record_;
  record.scope = spec.scope;
  record.state_dir = spec.state_dir;
  record.workspace = layout.workspace_source;
  record.workdir = layout.workdir;
  record.network = spec.bridge_network ? "bridge" : "none";
  record.limits = box->limits_summary_;
  record.server_pid = sys::current_pid();
  record.holder_pid = box->holder_pid_;
  record.holder_pid_namespace = pid_namespace_of(box->holder_pid_);
  record.created_ms = epoch_ms();
  record.last_used_ms = record.created_ms;
  // Without its record the sandbox still works; only `clawexec sandbox list` would miss it.
  ignore_error(write_record(record));
  box->record_written_ms_ = steady_ms();
  return box;
}

void Sandbox::touch(int64_t now_ms) {
  last_used_ms_ = now_ms;
  if (now_ms - record_written_ms_ < 60'000) return;
  record_written_ms_ = now_ms;
  record_.last_used_ms = epoch_ms();
  ignore_error(write_record(record_));
}

Sandbox::~Sandbox() {
  if (!record_.state_dir.empty()) remove_record(record_);
  keepalive_.reset();  // the holder sees end-of-file; the pid namespace goes with it
  stop_bwrap(bwrap_pid_);
  if (pasta_pidfd_.valid()) ignore_error(sys::pidfd_signal(pasta_pidfd_.get(), SIGTERM));
  cgroup_.reset();     // kills stragglers, removes the directories
}

bool Sandbox::alive() const {
  if (!join_ || !join_->holder_pidfd.valid()) return false;
  struct pollfd p = {join_->holder_pidfd.get(), POLLIN, 0};
  if (::poll(&p, 1, 0) != 0) return false;  // a pidfd turns readable when its process has exited
  // A killed pid 1 stays in exit, its pidfd not yet readable, until every process of its
  // namespace is reaped; its namespaces are released first, and joining it then fails. So a
  // holder whose mount namespace is gone is dead too.
  return sys::read_symlink("/proc/" + std::to_string(holder_pid_) + "/ns/mnt").ok();
}

Result<std::shared_ptr<Sandbox>> SandboxRegistry::get_or_create(const SandboxSpec& spec, int64_t now_ms) {
  auto it = sandboxes_.find(spec.scope);
  if (it != sandboxes_.end() && it->second->alive()) {
    it->second->touch(now_ms);
    return it->second;
  }
  if (it != sandboxes_.end()) sandboxes_.erase(it);
  std::shared_ptr<Sandbox> box = TRY(Sandbox::create(spec));
  box->created_ms_ = now_ms;
  box->touch(now_ms);
  sandboxes_[spec.scope] = box;
  return box;
}

bool SandboxRegistry::remove(const std::string& scope) { return sandboxes_.erase(scope) > 0; }

std::vector<std::string> SandboxRegistry::prune(int64_t now_ms, int64_t idle_ms, int64_t max_age_ms) {
  std::vector<std::string> removed;
  for (auto it = sandboxes_.begin(); it != sandboxes_.end();) {
    const Sandbox& box = *it->second;
    // Commands still running hold the join (proc::SpawnSpec::sandbox): such a sandbox is in
    // use, however long ago its last command started.
    bool busy = box.join_.use_count() > 1;
    bool idle = idle_ms > 0 && now_ms - box.last_used_ms() > idle_ms && !busy;
    bool old = max_age_ms > 0 && now_ms - box.created_ms() > max_age_ms;
    if (idle || old || !box.alive()) {
      removed.push_back(it->first);
      it = sandboxes_.erase(it);
    } else {
      ++it;
    }
  }
  return removed;
}

}  // namespace clawexec::sandbox
