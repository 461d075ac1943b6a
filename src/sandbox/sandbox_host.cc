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

#include <cctype>
#include <chrono>
#include <thread>

#include "base/strings.h"
#include "hash/sha256.h"
#include "proc/spawn.h"
#include "sys/file_system.h"
#include "sys/sys.h"

namespace clawexec::sandbox {
namespace {

constexpr int kInfoFd = 3;
constexpr int kStartTimeoutMs = 10'000;

// Reads `fd` to end-of-file (or until `timeout_ms`), for bubblewrap's short outputs.
std::string read_until_eof(int fd, int timeout_ms) {
  std::string out;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  char buffer[4096];
  while (out.size() < (1u << 16)) {
    int left = static_cast<int>(
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count());
    if (left <= 0) break;
    struct pollfd p = {fd, POLLIN, 0};
    if (::poll(&p, 1, left) <= 0) continue;
    Result<size_t> got = sys::read_some(fd, buffer, sizeof buffer);
    if (!got.ok() || got.value() == 0) break;
    out.append(buffer, got.value());
  }
  return out;
}

// The holder: says it is running (so is the sandbox), then waits for end-of-file on its stdin.
std::vector<std::string> holder_command() { return {"/bin/sh", "-c", "echo ready; exec /bin/cat"}; }

// One line from `fd` (without its newline), "" on end-of-file or timeout.
std::string read_line(int fd, int timeout_ms) {
  std::string line;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  char c = 0;
  while (line.size() < 64) {
    int left = static_cast<int>(
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count());
    if (left <= 0) return "";
    struct pollfd p = {fd, POLLIN, 0};
    if (::poll(&p, 1, left) <= 0) continue;
    Result<size_t> got = sys::read_some(fd, &c, 1);
    if (!got.ok() || got.value() == 0) return "";
    if (c == '\n') return line;
    line.push_back(c);
  }
  return line;
}

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

}  // namespace

std::string scope_directory_name(const std::string& scope) {
  std::string readable;
  for (char c : scope) {
    readable.push_back(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' ? c : '-');
    if (readable.size() >= 40) break;
  }
  return readable + "-" + hash::sha256_hex(scope).substr(0, 10);
}

Result<std::shared_ptr<Sandbox>> Sandbox::create(const SandboxSpec& spec) {
  std::shared_ptr<Sandbox> box(new Sandbox());
  box->spec_ = spec;
  SandboxLayout& layout = box->spec_.layout;
  TRY(sys::make_directories(spec.state_dir));
  TRY(sys::change_mode(spec.state_dir, 0700));
  if (layout.workspace_source.empty()) {
    layout.workspace_source = spec.state_dir + "/workspace";
    TRY(sys::make_directories(layout.workspace_source));
  }
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
  std::string facts = read_until_eof(info.read_end.get(), kStartTimeoutMs);
  std::optional<pid_t> holder = child_pid_of(facts);
  // bubblewrap reports its pid before it has built the file system; the holder's first line
  // says the sandbox is complete (end-of-file instead: bubblewrap gave up).
  if (holder && read_line(ready.read_end.get(), kStartTimeoutMs) != "ready") holder.reset();
  Result<sys::UniqueFd> holder_fd = holder ? sys::pidfd_open(*holder) : Result<sys::UniqueFd>(Error::internal("no pid"));
  if (!holder || !holder_fd.ok()) {
    ours.reset();
    std::string why = std::string(trim_ascii(read_until_eof(errors.read_end.get(), 1000)));
    stop_bwrap(box->bwrap_pid_);
    box->bwrap_pid_ = -1;
    return Error::internal("sandbox " + spec.scope + ": bubblewrap could not create the sandbox" +
                     (why.empty() ? std::string(".") : ": " + why));
  }
  box->holder_pid_ = *holder;
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
      ours.reset();
      stop_bwrap(box->bwrap_pid_);
      box->bwrap_pid_ = -1;
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
  return box;
}

Sandbox::~Sandbox() {
  keepalive_.reset();  // the holder sees end-of-file; the pid namespace goes with it
  stop_bwrap(bwrap_pid_);
  cgroup_.reset();     // kills stragglers, removes the directories
}

bool Sandbox::alive() const {
  if (!join_ || !join_->holder_pidfd.valid()) return false;
  struct pollfd p = {join_->holder_pidfd.get(), POLLIN, 0};
  return ::poll(&p, 1, 0) == 0;  // a pidfd turns readable when its process exits
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
    bool idle = idle_ms > 0 && now_ms - box.last_used_ms() > idle_ms;
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
