#pragma once
// Matching the answers of a peer to the requests we sent it. Every protocol we speak with a
// peer that can be asked something (MCP clients: elicitation; later operator and node peers
// over the gateway's WebSocket frames) needs the same bookkeeping: mint an id nobody else uses,
// remember who waits for the answer, hand the answer (or the error) to exactly that waiter once,
// ignore answers to ids we never sent or already settled, and fail everything still waiting when
// the connection goes away. The framing differs per protocol, so this class knows only ids and
// JSON payloads; rpc::Peer puts JSON-RPC 2.0 around it. Single-threaded (the io thread).

#include <cstdint>
#include <functional>
#include <map>
#include <string>

#include "base/result.h"
#include "json/json.h"

namespace clawexec::rpc {

class Correlator {
 public:
  using Done = std::function<void(Result<json::Value>)>;

  /// Ids are "<prefix><n>", n counting from 1; the prefix keeps them apart from the peer's own.
  explicit Correlator(std::string id_prefix) : prefix_(std::move(id_prefix)) {}
  /// Whatever still waits fails with kCancelled "<closed_reason>".
  ~Correlator();
  Correlator(const Correlator&) = delete;
  Correlator& operator=(const Correlator&) = delete;

  /// A fresh id, registered with its waiter. The caller sends the request under that id.
  std::string expect(Done done);
  /// Delivers the answer of `id`. False (and nothing called) when no request of ours waits under
  /// it: an id we never sent, or one already answered.
  bool settle(const std::string& id, Result<json::Value> answer);
  /// Fails every waiting request with `error` (the connection closed). Waiters may start new
  /// requests from their callbacks; those wait normally.
  void fail_all(const Error& error);
  /// What the destructor says to the requests still waiting.
  void set_closed_reason(std::string reason) { closed_reason_ = std::move(reason); }
  size_t waiting() const { return waiting_.size(); }

 private:
  std::string prefix_;
  uint64_t next_ = 1;
  std::map<std::string, Done> waiting_;
  std::string closed_reason_ = "the connection closed before the peer answered";
};

}  // namespace clawexec::rpc
