#pragma once
// The approvals store: reads, fail-closed loads and locked, atomic, compare-and-swap updates
// of `exec-approvals.json` (reference spec §1.1, §1.3, §1.5, §1.6).
//
// Guarantees:
// * Readers always see a whole file (writes go to a temp file that is fsynced and renamed).
// * Concurrent updates from any number of processes serialise on the lock file; each update
//   re-reads the file under the lock, so none is lost.
// * A corrupt or unreadable file is never overwritten by an update (the update fails with an
//   error naming the path); loads treat it as the fail-closed deny policy.
// * An update that changes nothing does not rewrite the file.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "approvals/document.h"
#include "approvals/lock.h"
#include "approvals/paths.h"
#include "base/result.h"

namespace clawexec::approvals {

struct StoreOptions {
  UuidGenerator new_id;                 // entry ids; default: random UUID v4
  std::function<int64_t()> now_ms;      // lastUsedAt, lock createdAt; default: wall clock
  std::function<Result<std::string>()> new_token;  // socket token; default: base64url(24 random bytes)
  LockOptions lock;                     // retries and delay (defaults: 10 x 20 ms)
};

struct ApprovalsSnapshot {
  std::string path;                  // the file's absolute path
  bool exists = false;
  std::optional<std::string> raw;    // the file's text, when it exists
  Document file;                     // normalised (empty document when missing)
  std::string hash;                  // document_hash(raw)
};

enum class UpdateOutcome {
  kWritten,            // the file was replaced with the new document
  kUnchanged,          // the mutation made no difference; the file was not rewritten
  kBaseHashMismatch,   // compare-and-swap failed: the file changed since the caller read it
};

struct UpdateResult {
  UpdateOutcome outcome = UpdateOutcome::kUnchanged;
  ApprovalsSnapshot snapshot;  // the file after the update (before, for a mismatch)
};

/// Edits a document in place; returns whether it changed anything. An error aborts the update.
using DocumentMutation = std::function<Result<bool>(Document& doc)>;

/// Whether resolve() must make sure a socket path and token exist.
enum class SocketRequirement { kOptional, kRequired };

/// True when `a` and `b` differ at most in bookkeeping: the lastUsedAt, lastUsedCommand and
/// lastResolvedPath of allowlist entries, entry ids, and the socket section.
bool differs_only_by_bookkeeping(const Document& a, const Document& b);

class ApprovalsStore {
 public:
  explicit ApprovalsStore(ApprovalsPaths paths, StoreOptions options = {});

  const ApprovalsPaths& paths() const { return paths_; }

  /// The file as it is. Errors: the path is a symlink ("... via symlink: <path>") or not a
  /// regular file ("... non-file ..."), a read error, or invalid content ("exec approvals file
  /// <path> is invalid: <reason>"). A missing file is a snapshot with exists=false.
  Result<ApprovalsSnapshot> read_snapshot() const;

  /// The policy to enforce: the normalised file; the empty document when missing; the
  /// fail-closed document for anything unreadable or invalid; the legacy-guard policy
  /// {deny, always, deny} when an unmigrated legacy file exists.
  Document load() const;

  /// Locks, re-reads, applies `mutation`, and writes atomically if anything changed. With
  /// `base_hash`, the update happens only if the file's current hash equals it.
  Result<UpdateResult> update(const DocumentMutation& mutation,
                              const std::optional<std::string>& base_hash = std::nullopt);

  /// An operator's edit decided on `seen` (a snapshot the caller read): like update(mutation,
  /// seen.hash), except that a file changed since only by bookkeeping (servers recording
  /// allowlist use, the socket token being added: differs_only_by_bookkeeping) is no conflict -
  /// the edit is applied to the fresh document under the same lock. Any other change is a real
  /// conflict: kBaseHashMismatch with the file as it is. A lock that stays busy for longer than
  /// one acquisition waits is tried again, `attempts` times in all, with a short growing pause.
  Result<UpdateResult> update_from(const ApprovalsSnapshot& seen, const DocumentMutation& mutation,
                                   int attempts = 8);

  /// Replaces the whole document (normalised first) — `approvals set`. With `base_hash` equal to
  /// the current hash, a corrupt file may be replaced (the caller has seen exactly that file).
  Result<UpdateResult> replace(const boost::json::value& document, const std::optional<std::string>& base_hash);

  /// Makes sure socket.path (default socket path) and socket.token exist; never regenerates
  /// existing values. Returns the file after.
  Result<ApprovalsSnapshot> ensure();

  /// resolveExecApprovals: without kRequired, a no-prompt policy (security full/deny, ask off)
  /// in a file without a token is returned as is (token "", default socket) without creating
  /// the file; otherwise the file is ensured first.
  Result<ResolvedApprovals> resolve(std::string_view agent_id, const policy::ApprovalsOverrides& overrides,
                                    SocketRequirement socket = SocketRequirement::kOptional);

  /// A ResolveContext for this store's paths.
  ResolveContext resolve_context() const;

 private:
  // Compare-and-swap basis: the hash the caller saw and, optionally, the document itself (then
  // a bookkeeping-only difference is tolerated).
  struct Base {
    std::string hash;
    const Document* seen = nullptr;
  };
  Result<UpdateResult> update_locked(const DocumentMutation& mutation, const std::optional<Base>& base,
                                     bool allow_corrupt_replace);
  Result<void> prepare_directory() const;
  Result<void> write_atomically(const std::string& text) const;
  bool legacy_guard_active() const;

  ApprovalsPaths paths_;
  StoreOptions options_;
};

}  // namespace clawexec::approvals
