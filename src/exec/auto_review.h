#pragma once
// The exec auto-reviewer's place in the pipeline (`mode: "auto"`, reference §7.1 step 6, §8):
// what the service needs to ask a model about a command that would otherwise wait for a human,
// and what it makes of the answer.
//
// The pure rules (pre-screen, prompt, parsing, fallbacks) are policy/auto_review.h. The model
// call itself is the network layer's (net/model_client.h), which exec cannot reach: the daemon
// hands the service a ModelCompleter that makes the call on the service's io_context without
// blocking it. A ReviewerConfig says, per agent, which model reviews and how long it may take.
//
// Every decision is appended as one JSON line to <state>/logs/exec-reviews.jsonl (0600): the
// command, cwd, agent, decision, risk, rationale, model, latency and whether a model was asked.

#include <boost/asio/io_context.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "config/model_providers.h"
#include "env/env_list.h"
#include "json/json.h"
#include "policy/auto_review.h"

namespace clawexec::exec {

/// tools.exec.reviewer for one agent, resolved when the configuration is read.
struct ReviewerConfig {
  /// The model to ask. Unset with `unavailable` empty: no model is configured anywhere, and the
  /// default reviewer answers (ask: "no model-backed exec reviewer is configured for <host>").
  std::optional<config::ModelEndpoint> endpoint;
  /// Set when a model is configured but cannot be used (no provider, no key...): every review
  /// answers "exec reviewer model unavailable: <this>".
  std::string unavailable;
  /// "provider/model", for the audit trail and `policy explain` (never a key).
  std::string model;
  /// Where the model came from ("tools.exec.reviewer.model", "agents.defaults.model", ...).
  std::string model_source;
  int64_t timeout_ms = 30000;
};

/// What a model call came back with.
struct ModelReply {
  enum class Kind { kAnswered, kTimedOut, kFailed };
  Kind kind = Kind::kFailed;
  std::string text;           // kAnswered: the model's text
  std::string stop_reason;    // kAnswered: stop | length | toolUse | error | aborted
  std::string error_message;  // kAnswered with stop_reason "error": what the provider said
  std::string error;          // kFailed: why there was no answer (names the URL, never the key)
};

/// Makes one completion call on `io` and calls `done` there exactly once; returns a function
/// that ends the call early (`done` then reports it aborted). Provided by the daemon
/// (net/model_client.h); an empty function means no transport (every configured reviewer is
/// then unavailable).
using ModelCompleter =
    std::function<std::function<void()>(boost::asio::io_context& io, const config::ModelEndpoint& endpoint,
                                        const policy::ReviewPrompt& prompt, std::chrono::milliseconds timeout,
                                        std::function<void(ModelReply)> done)>;

/// The secrets of `endpoint`: its API key and header values that look secret (8 characters or
/// more). Never shown anywhere.
std::vector<std::string> endpoint_secrets(const config::ModelEndpoint& endpoint);

/// Removes from `env` (what commands inherit) every variable whose value is one of the
/// reviewer's secrets: the agent's commands must not read the credential the server calls the
/// model with (`printenv OPENAI_API_KEY`). Returns the names removed.
std::vector<std::string> withhold_reviewer_secrets(const ReviewerConfig& reviewer, env::EnvList& env);

/// The reviewer's answer for a model call's outcome (§8: parse a complete answer, else the
/// fallback for the stop reason, the timeout or the failure).
policy::ReviewAnswer review_answer_for(const ModelReply& reply, int64_t timeout_ms);

/// One audit record (a JSON object, one line of exec-reviews.jsonl).
struct ReviewRecord {
  const policy::ReviewInput* input = nullptr;
  const policy::ReviewAnswer* answer = nullptr;
  std::string model;       // "" when no model was asked
  bool model_called = false;
  int64_t latency_us = 0;  // from the start of the review to its answer
  int64_t model_us = 0;    // of which inside the model call (0 when none was made)
  int64_t at_ms = 0;       // epoch
};
json::Object review_record_json(const ReviewRecord& record);

/// The review log is rotated (to exec-reviews.jsonl.1) once it reaches this size.
inline constexpr int64_t kReviewLogMaxBytes = 10 * 1024 * 1024;

/// Appends `line` and a newline to <state_dir>/logs/exec-reviews.jsonl (the directory 0700,
/// the file 0600; neither may be a symlink or another user's; rotated at kReviewLogMaxBytes).
/// Blocking: run it off the io thread. A failure is reported on stderr, never stops the
/// command.
void append_review_record(const std::string& state_dir, const std::string& line);

/// The file append_review_record writes.
std::string review_log_path(const std::string& state_dir);

}  // namespace clawexec::exec
