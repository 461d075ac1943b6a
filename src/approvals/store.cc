// The approvals store on disk. Reads are lock-free (a rename replaces the file atomically, so
// a reader sees either the old or the new text); updates take the lock file, re-read under
// it, apply the caller's mutation and write through a temp file that is fsynced, renamed over
// the target, with the directory fsynced after. The directory and the file are refused when
// they are symlinks or not what they claim to be, because the file decides what may run.

#include "approvals/store.h"

#include <chrono>
#include <thread>

#include "approvals/random.h"
#include "base/time.h"
#include "sys/file_system.h"
#include "sys/sys.h"
#include "sys/whole_file.h"

namespace clawexec::approvals {
namespace {

namespace bj = boost::json;

constexpr const char* kMigrateMessage = "Exec approvals must be migrated before they can be updated";

enum class Purpose { kRead, kWrite };

struct RawFile {
  std::optional<std::string> text;  // nullopt: missing
  uint64_t nlink = 0;
};

// Reads the file without following a symlink; a symlink or non-regular file is an error.
Result<RawFile> read_raw(const std::string& path, Purpose purpose) {
  auto info = TRY(sys::lstat_path(path));
  if (!info) return RawFile{};
  if (info->type == sys::FileType::kSymlink) {
    return Error::rejected(purpose == Purpose::kRead ? "Refusing to read exec approvals via symlink: " + path
                                                     : "Refusing to write exec approvals via symlink: " + path);
  }
  if (info->type != sys::FileType::kRegular) {
    return Error::rejected(purpose == Purpose::kRead ? "Refusing to read exec approvals from non-file path: " + path
                                                     : "Refusing to write exec approvals to non-file path: " + path);
  }
  auto fd = TRY(sys::open_read_nofollow(path));
  RawFile raw;
  raw.text = TRY(sys::read_to_end(fd.get(), path));
  raw.nlink = info->nlink;
  return raw;
}

Document legacy_guard_document() {
  return normalize_document(
      bj::object{{"version", 1}, {"defaults", {{"security", "deny"}, {"ask", "always"}, {"askFallback", "deny"}}},
                 {"agents", bj::object{}}},
      [] { return std::string(); });
}

// The document without what servers write on their own: allowlist use records, ids, socket.
bj::object without_bookkeeping(const Document& doc) {
  bj::object out = doc;
  out.erase("socket");
  auto strip = [](bj::value& scope) {
    if (!scope.is_object()) return;
    bj::value* list = scope.as_object().if_contains("allowlist");
    if (!list || !list->is_array()) return;
    for (bj::value& entry : list->as_array()) {
      if (!entry.is_object()) continue;
      for (const char* key : {"id", "lastUsedAt", "lastUsedCommand", "lastResolvedPath"}) entry.as_object().erase(key);
    }
  };
  if (bj::value* agents = out.if_contains("agents"); agents && agents->is_object()) {
    for (auto& agent : agents->as_object()) strip(agent.value());
  }
  return out;
}

bool starts_with_dir(const std::string& path, const std::string& dir) {
  return path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0 && path[dir.size()] == '/';
}

}  // namespace

ApprovalsStore::ApprovalsStore(ApprovalsPaths paths, StoreOptions options)
    : paths_(std::move(paths)), options_(std::move(options)) {
  if (!options_.new_id) options_.new_id = &random_uuid;
  if (!options_.now_ms) options_.now_ms = &epoch_ms;
  if (!options_.new_token) options_.new_token = &generate_socket_token;
  if (!options_.lock.now_ms) options_.lock.now_ms = options_.now_ms;
}

ResolveContext ApprovalsStore::resolve_context() const { return {paths_.display, paths_.socket, paths_.home}; }

bool ApprovalsStore::legacy_guard_active() const {
  if (!paths_.legacy_file || *paths_.legacy_file == paths_.file) return false;
  if (sys::path_exists(paths_.file)) return false;
  auto legacy = sys::lstat_path(*paths_.legacy_file);
  return !legacy.ok() || legacy->has_value();
}

Result<ApprovalsSnapshot> ApprovalsStore::read_snapshot() const {
  ApprovalsSnapshot snap;
  snap.path = paths_.file;
  if (legacy_guard_active()) {
    snap.file = legacy_guard_document();
    snap.hash = document_hash(std::nullopt);
    return snap;
  }
  RawFile raw = TRY(read_raw(paths_.file, Purpose::kRead));
  snap.exists = raw.text.has_value();
  snap.raw = raw.text;
  snap.hash = document_hash(raw.text);
  if (!raw.text) {
    snap.file = empty_document();
    return snap;
  }
  auto doc = parse_document(*raw.text, options_.new_id);
  if (!doc.ok()) {
    return Error::invalid("exec approvals file " + paths_.file + " is invalid: " + doc.error().message);
  }
  snap.file = std::move(*doc);
  return snap;
}

Document ApprovalsStore::load() const {
  auto snap = read_snapshot();
  // Anything we cannot read or trust denies everything rather than guessing.
  return snap.ok() ? std::move(snap->file) : fail_closed_document();
}

Result<void> ApprovalsStore::prepare_directory() const {
  const std::string& dir = paths_.state_dir;
  const bool under_home = starts_with_dir(dir, paths_.home);
  // Walk the components: below the home directory none may be a symlink; elsewhere existing
  // components are the system's business (e.g. /var -> /private/var).
  const size_t begin = under_home ? paths_.home.size() + 1 : 1;
  for (size_t pos = begin; pos <= dir.size(); ++pos) {
    if (pos != dir.size() && dir[pos] != '/') continue;
    const std::string component = dir.substr(0, pos);
    if (component.empty() || component == "/") continue;
    auto info = TRY(sys::lstat_path(component));
    if (info && info->type == sys::FileType::kSymlink && under_home) {
      return Error::rejected("Refusing to traverse symlink in exec approvals path");
    }
    if (!info) TRY(sys::make_directory(component, 0700));
  }
  auto info = TRY(sys::lstat_path(dir));
  if (!info || info->type != sys::FileType::kDirectory) {
    return Error::rejected("Refusing to use unsafe exec approvals directory: " + dir);
  }
  TRY(sys::change_mode(dir, 0700));
  return {};
}

// sys's one atomic replace: a temp file beside the document, created 0600 (never readable by
// others) and set to exactly 0600, fsynced, renamed over it, and the directory fsynced so the
// rename itself survives a crash.
Result<void> ApprovalsStore::write_atomically(const std::string& text) const {
  return sys::replace_file_atomically(paths_.file, text, 0600, sys::Durability::kFsyncFileAndDirectory);
}

Result<UpdateResult> ApprovalsStore::update(const DocumentMutation& mutation,
                                            const std::optional<std::string>& base_hash) {
  return update_locked(mutation, base_hash ? Base{*base_hash, nullptr} : std::optional<Base>(), false);
}

bool differs_only_by_bookkeeping(const Document& a, const Document& b) {
  return without_bookkeeping(a) == without_bookkeeping(b);
}

Result<UpdateResult> ApprovalsStore::update_from(const ApprovalsSnapshot& seen, const DocumentMutation& mutation,
                                                 int attempts) {
  const Base base{seen.hash, &seen.file};
  for (int attempt = 1;; ++attempt) {
    Result<UpdateResult> result = update_locked(mutation, base, false);
    // Busy servers can keep the lock for longer than one acquisition waits: try again.
    if (result.ok() || result.error().code != ErrorCode::kTimedOut || attempt >= attempts) return result;
    std::this_thread::sleep_for(std::chrono::milliseconds(5 * attempt));
  }
}

Result<UpdateResult> ApprovalsStore::replace(const bj::value& document, const std::optional<std::string>& base_hash) {
  Document next = normalize_document(document, options_.new_id);
  return update_locked(
      [&](Document& doc) -> Result<bool> {
        doc = next;
        return true;
      },
      base_hash ? Base{*base_hash, nullptr} : std::optional<Base>(), base_hash.has_value());
}

Result<UpdateResult> ApprovalsStore::update_locked(const DocumentMutation& mutation, const std::optional<Base>& base,
                                                   bool allow_corrupt_replace) {
  if (legacy_guard_active()) return Error::rejected(kMigrateMessage);
  TRY(prepare_directory());
  const std::string real_dir = TRY(sys::real_path(paths_.state_dir));
  ApprovalsLock lock = TRY(ApprovalsLock::acquire(real_dir + "/exec-approvals.json.lock", options_.lock));

  RawFile raw = TRY(read_raw(paths_.file, Purpose::kWrite));
  UpdateResult result;
  result.snapshot.path = paths_.file;
  result.snapshot.exists = raw.text.has_value();
  result.snapshot.raw = raw.text;
  result.snapshot.hash = document_hash(raw.text);
  if (base && base->hash != result.snapshot.hash) {
    auto current = raw.text ? parse_document(*raw.text, options_.new_id) : Result<Document>(empty_document());
    // With the document the caller saw, a change that is only the servers' bookkeeping does not
    // count: the edit is applied to the file as it is now, under this same lock.
    const bool bookkeeping_only = base->seen && current.ok() && differs_only_by_bookkeeping(*base->seen, *current);
    if (!bookkeeping_only) {
      result.outcome = UpdateOutcome::kBaseHashMismatch;
      result.snapshot.file = current.ok() ? std::move(*current) : fail_closed_document();
      return result;
    }
  }
  Document doc = empty_document();
  if (raw.text) {
    auto parsed = parse_document(*raw.text, options_.new_id);
    if (parsed.ok()) {
      doc = std::move(*parsed);
    } else if (!allow_corrupt_replace) {
      return Error::invalid("exec approvals file " + paths_.file + " is invalid (" + parsed.error().message +
                            "); refusing to update it");
    }
  }
  result.snapshot.file = doc;
  const bool changed = TRY(mutation(doc));
  if (!changed) return result;

  const std::string text = serialize_document(doc);
  const std::string next_hash = document_hash(text);
  if (raw.text && next_hash == result.snapshot.hash) {
    // Same bytes: only re-harden the mode, and never through a hard link we do not own alone.
    if (raw.nlink <= 1) TRY(sys::change_mode(paths_.file, 0600));
    return result;
  }
  TRY(write_atomically(text));
  result.outcome = UpdateOutcome::kWritten;
  result.snapshot.exists = true;
  result.snapshot.raw = text;
  result.snapshot.hash = next_hash;
  result.snapshot.file = normalize_document(bj::value(doc), options_.new_id);
  return result;
}

Result<ApprovalsSnapshot> ApprovalsStore::ensure() {
  const DocumentMutation add_socket = [&](Document& doc) -> Result<bool> {
    bj::object& socket = doc["socket"].is_object() ? doc["socket"].get_object() : doc["socket"].emplace_object();
    if (!socket.contains("path")) socket["path"] = paths_.socket;
    if (!socket.contains("token")) socket["token"] = TRY(options_.new_token());
    // Always offer the normalised document: if it serialises to the same bytes, nothing is
    // written.
    return true;
  };
  auto result = TRY(update(add_socket));
  return std::move(result.snapshot);
}

Result<ResolvedApprovals> ApprovalsStore::resolve(std::string_view agent_id, const policy::ApprovalsOverrides& overrides,
                                                  SocketRequirement socket) {
  if (socket == SocketRequirement::kOptional) {
    const Document doc = load();
    ResolvedApprovals resolved = resolve_from_file(bj::value(doc), agent_id, overrides, resolve_context(), options_.new_id);
    const bool no_prompt = (resolved.agent.security == policy::ExecSecurity::kFull ||
                            resolved.agent.security == policy::ExecSecurity::kDeny) &&
                           resolved.agent.ask == policy::ExecAsk::kOff;
    if (no_prompt && resolved.token.empty()) {
      resolved.socket_path = paths_.socket;
      return resolved;
    }
  }
  const ApprovalsSnapshot snap = TRY(ensure());
  return resolve_from_file(bj::value(snap.file), agent_id, overrides, resolve_context(), options_.new_id);
}

}  // namespace clawexec::approvals
