// Session registry bookkeeping. Finished sessions are evicted oldest-finished first when more
// than 50 are kept, or when their aggregates exceed 2 000 000 chars in total (the newest one is
// always kept, even alone above the limit); each also expires after its cleanup_ms.

#include "session/registry.h"

#include <algorithm>
#include <limits>

namespace clawexec::session {

Registry::Registry(UniformSource random) : random_(std::move(random)) {}

std::shared_ptr<Session> Registry::create(OutputLimits limits, int64_t now_ms) {
  auto session = std::make_shared<Session>(limits);
  session->id = create_session_slug(random_, [this](std::string_view id) { return is_taken(id); }, now_ms);
  session->started_at = now_ms;
  session->start_order = next_start_order_++;
  running_.emplace(session->id, session);
  live_.emplace(session->id, session);
  return session;
}

std::shared_ptr<Session> Registry::running(std::string_view id) const {
  auto it = running_.find(id);
  return it == running_.end() ? nullptr : it->second;
}

std::shared_ptr<Session> Registry::finished(std::string_view id) const {
  auto it = finished_.find(id);
  return it == finished_.end() ? nullptr : it->second.session;
}

Result<std::string> Registry::resolve_id(std::string_view text, std::optional<std::string_view> scope_key) const {
  auto in_scope = [scope_key](const Session& s) { return !scope_key || s.scope_key == *scope_key; };
  if (auto s = running(text); s && in_scope(*s)) return std::string(text);
  if (auto s = finished(text); s && in_scope(*s)) return std::string(text);
  std::vector<std::string> candidates;
  auto collect = [&](const auto& map, auto session_of) {
    for (auto it = map.lower_bound(text); it != map.end() && it->first.starts_with(text); ++it) {
      // Words are never prefixes of other words, so a complete id is only ever the start of
      // a longer id at a '-' ("cozy-owl" of "cozy-owl-2"): that text is the id of a session
      // that is gone, not an abbreviation, and must not reach another session.
      if (it->first.size() > text.size() && it->first[text.size()] == '-') continue;
      if (in_scope(*session_of(it->second))) candidates.push_back(it->first);
    }
  };
  collect(running_, [](const std::shared_ptr<Session>& s) { return s; });
  collect(finished_, [](const Finished& f) { return f.session; });
  if (candidates.empty()) return std::string(text);
  std::sort(candidates.begin(), candidates.end());
  candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
  if (candidates.size() == 1) return candidates.front();
  std::string list;
  for (const std::string& c : candidates) list += (list.empty() ? "" : ", ") + c;
  return Error::invalid("Session id prefix \"" + std::string(text) + "\" is ambiguous: it starts " +
                        std::to_string(candidates.size()) + " sessions (" + list + "). Use the full session id.");
}

void Registry::mark_backgrounded(Session& session) { session.backgrounded = true; }

void Registry::mark_exited(Session& session, ExitRecord exit, int64_t now_ms) {
  session.exit = std::move(exit);
  session.exited = true;
  session.ended_at = now_ms;
  session.output.seal();
  session.control.reset();
  live_.erase(session.id);
  auto it = running_.find(session.id);
  if (it == running_.end() || it->second.get() != &session) return;  // removed while running
  std::shared_ptr<Session> keep = it->second;
  running_.erase(it);
  if (!session.backgrounded) return;
  if (auto old = finished_.find(session.id); old != finished_.end()) forget_finished(old);
  finished_.emplace(session.id, Finished{keep, now_ms + session.cleanup_ms, next_finish_order_++});
  finished_output_chars_ += session.output.aggregated_chars();
  enforce_limits();
}

void Registry::forget_finished(std::map<std::string, Finished, std::less<>>::iterator it) {
  finished_output_chars_ -= it->second.session->output.aggregated_chars();
  finished_.erase(it);
}

void Registry::enforce_limits() {
  while (finished_.size() > kMaxFinishedSessions ||
         (finished_.size() > 1 && finished_output_chars_ > kMaxFinishedOutputChars)) {
    auto oldest = std::min_element(finished_.begin(), finished_.end(), [](const auto& a, const auto& b) {
      return a.second.finish_order < b.second.finish_order;
    });
    forget_finished(oldest);
  }
}

void Registry::remove(std::string_view id) {
  if (auto it = running_.find(id); it != running_.end()) running_.erase(it);
  if (auto it = finished_.find(id); it != finished_.end()) forget_finished(it);
}

std::vector<std::shared_ptr<Session>> Registry::list() const {
  std::vector<std::shared_ptr<Session>> out;
  for (const auto& [id, s] : running_) {
    if (s->backgrounded) out.push_back(s);
  }
  for (const auto& [id, f] : finished_) out.push_back(f.session);
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    if (a->started_at != b->started_at) return a->started_at > b->started_at;
    return a->start_order > b->start_order;
  });
  return out;
}

void Registry::sweep(int64_t now_ms) {
  for (auto it = finished_.begin(); it != finished_.end();) {
    auto next = std::next(it);
    if (it->second.expires_at <= now_ms) forget_finished(it);
    it = next;
  }
}

std::optional<int64_t> Registry::next_expiry() const {
  std::optional<int64_t> next;
  for (const auto& [id, f] : finished_) {
    if (!next || f.expires_at < *next) next = f.expires_at;
  }
  return next;
}

bool Registry::is_taken(std::string_view id) const {
  return running_.count(id) || finished_.count(id) || live_.count(id);
}

size_t Registry::live_count(std::string_view scope_key) const {
  return static_cast<size_t>(std::count_if(live_.begin(), live_.end(),
                                           [&](const auto& entry) { return entry.second->scope_key == scope_key; }));
}

std::vector<std::shared_ptr<Session>> Registry::live() const {
  std::vector<std::shared_ptr<Session>> out;
  for (const auto& [id, s] : live_) out.push_back(s);
  return out;
}

}  // namespace clawexec::session
