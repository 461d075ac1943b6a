// See correlator.h. A settled waiter is removed before it is called, so a callback that sends
// another request, or closes the connection, never sees itself still registered.

#include "rpc/correlator.h"

#include <utility>

namespace clawexec::rpc {

Correlator::~Correlator() { fail_all(Error{ErrorCode::kCancelled, 0, closed_reason_}); }

std::string Correlator::expect(Done done) {
  std::string id = prefix_ + std::to_string(next_++);
  waiting_.emplace(id, std::move(done));
  return id;
}

bool Correlator::settle(const std::string& id, Result<json::Value> answer) {
  auto it = waiting_.find(id);
  if (it == waiting_.end()) return false;
  Done done = std::move(it->second);
  waiting_.erase(it);
  done(std::move(answer));
  return true;
}

void Correlator::fail_all(const Error& error) {
  std::map<std::string, Done> failing = std::move(waiting_);
  waiting_.clear();
  for (auto& [id, done] : failing) done(error);
}

}  // namespace clawexec::rpc
