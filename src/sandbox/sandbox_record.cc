// Sandbox records as small JSON files (see sandbox_record.h).

#include "sandbox/sandbox_record.h"

#include <signal.h>

#include "json/json.h"
#include "sys/file_system.h"
#include "sys/sys.h"
#include "sys/whole_file.h"

namespace clawexec::sandbox {
namespace {

constexpr size_t kMaxRecordBytes = 64 * 1024;

std::optional<SandboxRecord> parse_record(std::string_view text, const std::string& state_dir) {
  std::optional<json::Value> doc = json::parse(text);
  if (!doc || !doc->is_object()) return std::nullopt;
  const json::Object& o = doc->get_object();
  auto str = [&o](std::string_view key) -> std::string {
    const json::Value* v = json::find(o, key);
    return v && v->is_string() ? std::string(v->get_string()) : std::string();
  };
  auto num = [&o](std::string_view key) -> int64_t {
    const json::Value* v = json::find(o, key);
    return v && v->is_int64() ? v->get_int64() : 0;
  };
  SandboxRecord r;
  r.scope = str("scope");
  r.state_dir = state_dir;
  r.workspace = str("workspace");
  r.workdir = str("workdir");
  r.network = str("network");
  r.limits = str("limits");
  r.server_pid = static_cast<pid_t>(num("serverPid"));
  r.holder_pid = static_cast<pid_t>(num("holderPid"));
  r.holder_pid_namespace = str("holderPidNamespace");
  r.created_ms = num("createdAtMs");
  r.last_used_ms = num("lastUsedAtMs");
  if (r.scope.empty() || r.holder_pid <= 1) return std::nullopt;
  return r;
}

// The record's holder, checked against what a record cannot choose: its pid namespace is the
// recorded one and not ours (a forged record naming a host process in our namespace, whose
// inode is well known, fails here), and it is bubblewrap's pid 1.
bool holder_is_ours(const SandboxRecord& r) {
  if (r.holder_pid_namespace.empty() || pid_namespace_of(r.holder_pid) != r.holder_pid_namespace) return false;
  if (r.holder_pid_namespace == pid_namespace_of(sys::current_pid())) return false;
  const std::string proc = "/proc/" + std::to_string(r.holder_pid);
  Result<std::optional<std::string>> comm = sys::read_file_if_exists(proc + "/comm", "read comm");
  if (!comm.ok() || !*comm || **comm != "bwrap\n") return false;
  // pid 1 of its namespace: the last NSpid field.
  Result<std::optional<std::string>> status = sys::read_file_if_exists(proc + "/status", "read status");
  if (!status.ok() || !*status) return false;
  size_t at = (*status)->find("\nNSpid:");
  if (at == std::string::npos) return false;
  size_t end = (*status)->find('\n', at + 1);
  std::string_view line =
      std::string_view(**status).substr(at + 1, end == std::string::npos ? std::string_view::npos : end - at - 1);
  size_t last = line.find_last_of(" \t");
  return last != std::string_view::npos && line.substr(last + 1) == "1";
}

// A record we may believe: a regular file owned by our user, writable by nobody else, in a
// scope directory that is a real directory (not a symlink) owned by us.
bool trustworthy(const std::string& dir, const std::string& file) {
  Result<std::optional<sys::FileInfo>> d = sys::lstat_path(dir);
  Result<std::optional<sys::FileInfo>> f = sys::lstat_path(file);
  if (!d.ok() || !*d || !f.ok() || !*f) return false;
  const uint32_t me = static_cast<uint32_t>(sys::current_uid());
  return (*d)->type == sys::FileType::kDirectory && (*d)->uid == me && ((*d)->mode & 022) == 0 &&
         (*f)->type == sys::FileType::kRegular && (*f)->uid == me && ((*f)->mode & 022) == 0 && (*f)->nlink == 1;
}

}  // namespace

std::string pid_namespace_of(pid_t pid) {
  Result<std::string> link = sys::read_symlink("/proc/" + std::to_string(pid) + "/ns/pid");
  return link.ok() ? link.value() : std::string();
}

Result<void> write_record(const SandboxRecord& r) {
  json::Object o{{"scope", r.scope},
                 {"workspace", r.workspace},
                 {"workdir", r.workdir},
                 {"network", r.network},
                 {"limits", r.limits},
                 {"serverPid", static_cast<int64_t>(r.server_pid)},
                 {"holderPid", static_cast<int64_t>(r.holder_pid)},
                 {"holderPidNamespace", r.holder_pid_namespace},
                 {"createdAtMs", r.created_ms},
                 {"lastUsedAtMs", r.last_used_ms}};
  return sys::replace_file_atomically(record_path(r.state_dir, r.server_pid), json::stringify(o, 2) + "\n", 0600,
                                      sys::Durability::kNone);
}

std::string record_path(const std::string& state_dir, pid_t server_pid) {
  return state_dir + "/sandbox-" + std::to_string(server_pid) + ".json";
}

void remove_record(const SandboxRecord& record) {
  ignore_error(sys::remove_file(record_path(record.state_dir, record.server_pid)));  // unlink: no symlink followed
}

std::vector<SandboxRecord> read_records(const std::string& root) {
  std::vector<SandboxRecord> out;
  Result<std::vector<std::string>> names = sys::list_directory(root);
  if (!names.ok()) return out;
  for (const std::string& name : names.value()) {
    std::string dir = root + "/" + name;
    Result<std::vector<std::string>> files = sys::list_directory(dir);
    if (!files.ok()) continue;
    for (const std::string& f : files.value()) {
      if (f.rfind("sandbox-", 0) != 0 || f.size() < 6 || f.substr(f.size() - 5) != ".json") continue;
      std::string path = dir + "/" + f;
      if (!trustworthy(dir, path)) continue;
      Result<sys::BoundedFile> file = sys::read_regular_file_at_most(path, kMaxRecordBytes);
      if (!file.ok() || !file->bytes) continue;
      std::optional<SandboxRecord> record = parse_record(*file->bytes, dir);
      // The file's name says whose it is; a record naming another server is not believed.
      if (!record || record_path(dir, record->server_pid) != path) continue;
      record->running = holder_is_ours(*record);
      out.push_back(std::move(*record));
    }
  }
  return out;
}

bool stop_sandbox(const SandboxRecord& record) {
  Result<sys::UniqueFd> pidfd = sys::pidfd_open(record.holder_pid);
  if (!pidfd.ok()) return false;
  // The pidfd pins the process; checked after it was opened, the namespace proves it is ours.
  if (!holder_is_ours(record)) return false;
  return sys::pidfd_signal(pidfd->get(), SIGKILL).ok();
}

}  // namespace clawexec::sandbox
