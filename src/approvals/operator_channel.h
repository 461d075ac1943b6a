#pragma once
// The operator channel: the approvals socket `<state>/exec-approvals.sock` through which an
// operator lists pending approvals, resolves them, and watches approval and exec events, for
// every clawexec process on the machine at once.
//
// Exactly one process (the hub) listens on the socket; every other process that starts a
// channel connects to it as a member, pushes its pending approvals and executes the
// resolutions the hub forwards. Election: connect; if nothing answers, take the exclusive
// flock on `<socket>.lock` (held for the hub's whole life, released by the kernel when it
// dies), remove a stale socket file and bind. A member whose hub goes away runs the election
// again and re-pushes its pending list, so a new hub appears when the old one exits.
//
// Wire protocol (one JSON object per line) and its messages: docs/approvals.md, "Operator
// channel". All socket work is asynchronous on the caller's io_context; every method must be
// called on that io_context's thread.

#include <boost/asio/io_context.hpp>
#include <boost/json/object.hpp>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"

namespace clawexec::approvals {

class OperatorChannel {
 public:
  /// What this process contributes: its pending approvals and a way to resolve one of them.
  struct Provider {
    /// The pending approvals of this process. Each object carries at least "id"; the channel
    /// adds "pid" (this process) when missing. Shape: id, slug, command, cwd, host, agentId,
    /// allowedDecisions, createdAtMs, expiresAtMs, warningText.
    std::function<std::vector<boost::json::object>()> list;
    /// Resolves the approval with this FULL id (prefixes are resolved by the channel first).
    /// `done` reports success or the error shown to the operator; it may be called later.
    std::function<void(std::string id, std::string decision, std::string resolved_by,
                       std::function<void(Result<void>)> done)>
        resolve;
    /// Optional: handles operator text the channel does not understand itself (anything but
    /// `/approve`), e.g. `/exec ...`; nullopt means "not a command of ours".
    std::function<std::optional<std::string>(const std::string& text)> command;
  };

  /// Timing knobs (tests shorten them) and the seams of the "decisions come from humans"
  /// checks (tests replace them; unset means the real ones of approvals/peer_check.h).
  struct Options {
    int retry_initial_ms = 25;   // first election retry delay
    int retry_max_ms = 1000;     // backoff cap between election attempts
    /// Why the process on the other end of a connected socket (an operator or member on the
    /// hub; the hub, for a member) must be refused, or nullopt.
    std::function<std::optional<std::string>(int socket_fd)> refuse_peer;
    /// Why this process must not take part at all (it runs under a clawexec command), or nullopt.
    std::function<std::optional<std::string>()> refuse_self;
    /// Where refusals are logged (default: one line on stderr, escaped for display).
    std::function<void(const std::string& line)> log;
  };

  OperatorChannel(boost::asio::io_context& io, std::string socket_path, std::string token, Provider provider);
  OperatorChannel(boost::asio::io_context& io, std::string socket_path, std::string token, Provider provider,
                  Options options);
  ~OperatorChannel();
  OperatorChannel(const OperatorChannel&) = delete;
  OperatorChannel& operator=(const OperatorChannel&) = delete;

  /// Starts the election (asynchronous; is_hub()/is_member() tell the outcome later). A process
  /// that runs under a clawexec command does not take part (last_error() says why).
  void start();
  /// Leaves the channel: a hub closes every connection, removes its socket file and releases
  /// the election lock; a member disconnects. Idempotent.
  void stop();

  /// A new pending approval of this process (an object as Provider::list returns).
  void publish_requested(const boost::json::object& approval);
  /// One of this process's approvals was decided (decision "" for expiry without decision).
  void publish_resolved(const std::string& id, const std::string& decision, const std::string& resolved_by);
  /// Any other event for subscribers, e.g. ("exec.finished", {id, exitCode, ...}). Delivered as
  /// {"type":"event","event":<event>, ...fields, "pid":<this process>}.
  void publish_event(const std::string& event, const boost::json::object& fields);

  /// This process currently listens on the socket.
  bool is_hub() const;
  /// This process is currently connected to a hub as a member.
  bool is_member() const;
  /// Operators of other processes subscribed to events (`clawexec approvals watch`): known only
  /// while this process is the hub (0 otherwise).
  size_t foreign_subscribers() const;
  /// The last election or socket problem (empty when none), for logs.
  std::string last_error() const;

  struct Impl;

 private:
  std::shared_ptr<Impl> impl_;
};

}  // namespace clawexec::approvals
