#pragma once
// The registry of exec sessions (reference §2.3): running sessions by id, finished background
// sessions kept for polling within the retention limits (50 sessions, 2 000 000 chars of
// aggregate output, a TTL), and the ids still reserved by live processes that were removed
// from view. Foreground runs are registered too (so their ids are taken) but only backgrounded
// ones become visible to `process` or are kept after they finish.
//
// Pure bookkeeping: time is passed in, and the caller schedules sweep() at next_expiry().

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "session/names.h"
#include "session/session.h"

namespace clawexec::session {

inline constexpr size_t kMaxFinishedSessions = 50;
inline constexpr uint64_t kMaxFinishedOutputChars = 2'000'000;

class Registry {
 public:
  explicit Registry(UniformSource random);

  /// Registers a new running session with a fresh id and returns it.
  std::shared_ptr<Session> create(OutputLimits limits, int64_t now_ms);

  /// A running session (backgrounded or not), or nullptr.
  std::shared_ptr<Session> running(std::string_view id) const;
  /// A retained finished session, or nullptr.
  std::shared_ptr<Session> finished(std::string_view id) const;

  /// The session id `process` was given: `text` itself when a session started in
  /// `scope_key` (running or retained) has that id, else the id of the one such session it is
  /// a prefix of (completion notices show only 8 characters of the id). A prefix that ends
  /// where a longer id continues with '-' is not an abbreviation but the id of a session that
  /// is gone ("cozy-owl" never names "cozy-owl-2"). Several: an error naming the prefix and
  /// listing the candidates. None: `text` (the caller reports "No session found"). A null
  /// scope_key looks in every scope (the gateway operator's view).
  Result<std::string> resolve_id(std::string_view text, std::optional<std::string_view> scope_key) const;

  void mark_backgrounded(Session& session);

  /// The run ended: records `exit`, seals the output, and either keeps the session as finished
  /// (backgrounded runs, subject to the retention limits) or forgets it (foreground runs).
  void mark_exited(Session& session, ExitRecord exit, int64_t now_ms);

  /// Hides a session (running or finished). A live process keeps its id reserved until it exits.
  void remove(std::string_view id);

  /// Backgrounded running sessions and finished sessions, newest start first.
  std::vector<std::shared_ptr<Session>> list() const;

  /// Forgets finished sessions whose retention has expired.
  void sweep(int64_t now_ms);
  /// When the next finished session expires, if any.
  std::optional<int64_t> next_expiry() const;

  bool is_taken(std::string_view id) const;
  size_t running_count() const { return running_.size(); }
  /// Live sessions (not yet exited, hidden ones included) started in `scope_key`.
  size_t live_count(std::string_view scope_key) const;
  size_t finished_count() const { return finished_.size(); }
  /// All live sessions, including hidden ones (for shutdown).
  std::vector<std::shared_ptr<Session>> live() const;

 private:
  struct Finished {
    std::shared_ptr<Session> session;
    int64_t expires_at;
    uint64_t finish_order;
  };
  void forget_finished(std::map<std::string, Finished, std::less<>>::iterator it);
  void enforce_limits();

  UniformSource random_;
  std::map<std::string, std::shared_ptr<Session>, std::less<>> running_;
  std::map<std::string, Finished, std::less<>> finished_;
  std::map<std::string, std::shared_ptr<Session>, std::less<>> live_;  // not yet exited
  uint64_t finished_output_chars_ = 0;
  uint64_t next_start_order_ = 0;
  uint64_t next_finish_order_ = 0;
};

}  // namespace clawexec::session
