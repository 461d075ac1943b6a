// The auto-reviewer in the exec pipeline (auto_review.h): a gateway command that would wait for
// a human under mode "auto" is first shown to the reviewer (§7.1 step 6, §8).
//
// Problem: the reviewer may take seconds (a remote model) or never answer; it must not hold
// the io thread, must be asked at most once per command, and what it approves must be exactly
// what runs. Its answer, whatever it is, must reach the human who decides next, and leave a
// trace an operator can audit.
// Approach: the pre-screen and the default reviewer answer at once, without a model; otherwise
// one asynchronous completion (ServiceConfig::model_completer) with the configured timeout.
// allow+low runs the approval's enforced rendering, bound as a human's allow-once is (the
// executables must still be the files analysed), once; nothing is persisted. Any other answer
// adds the reviewer's warning to the result and to the approval request (warningText), marks
// the approval as needing a human (no timeout fallback may run it), and takes the human path.
// Each decision is appended to <state>/logs/exec-reviews.jsonl off the io thread.

#include "exec/auto_review.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "base/time.h"
#include "base/utf.h"
#include "env/host_exec_env.h"
#include "exec/exec_plan.h"
#include "exec/gateway_approval.h"
#include "exec/service.h"

namespace clawexec::exec {

// A command longer than this is cut in its record (the reviewer refuses requests past 16 000
// characters anyway), so one call cannot write megabytes to the log.
constexpr size_t kRecordCommandUnits = 4096;

policy::ReviewAnswer review_answer_for(const ModelReply& reply, int64_t timeout_ms) {
  switch (reply.kind) {
    case ModelReply::Kind::kTimedOut:
      return policy::reviewer_timed_out(timeout_ms);
    case ModelReply::Kind::kFailed:
      return policy::reviewer_failed(reply.error);
    case ModelReply::Kind::kAnswered:
      break;
  }
  if (std::optional<policy::ReviewAnswer> failed = policy::reviewer_completion_failure(reply.stop_reason, reply.error_message)) {
    return *failed;
  }
  return policy::parse_review_output(reply.text);
}

json::Object review_record_json(const ReviewRecord& r) {
  json::Object o{{"ts", r.at_ms},
                 {"agentId", r.input->agent_id},
                 {"host", r.input->host},
                 {"command", std::string(utf16_prefix(r.input->command, kRecordCommandUnits))},
                 {"cwd", r.input->cwd.value_or("")},
                 {"reason", r.input->reason},
                 {"decision", policy::review_decision_name(r.answer->decision)},
                 {"risk", policy::review_level_name(r.answer->risk)},
                 {"rationale", r.answer->rationale},
                 {"modelCalled", r.model_called},
                 {"latencyMs", r.latency_us / 1000},
                 {"latencyUs", r.latency_us},
                 {"modelUs", r.model_us}};
  if (r.input->resolved_path) o["resolvedPath"] = *r.input->resolved_path;
  if (!r.model.empty()) o["model"] = r.model;
  return o;
}

std::string review_log_path(const std::string& state_dir) { return state_dir + "/logs/exec-reviews.jsonl"; }

void append_review_record(const std::string& state_dir, const std::string& line) {
  const std::string dir = state_dir + "/logs";
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) {
    std::fprintf(stderr, "clawexec: exec reviewer audit: mkdir %s: %s\n", dir.c_str(), std::strerror(errno));
    return;
  }
  // Neither the directory nor the file may be a symlink, and both must be ours and private:
  // the record is never written where someone else pointed it.
  int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  struct stat st {};
  if (dfd < 0 || ::fstat(dfd, &st) != 0 || st.st_uid != ::geteuid() || (st.st_mode & 022) != 0) {
    std::fprintf(stderr, "clawexec: exec reviewer audit: %s is not a private directory of this user; record not written\n", dir.c_str());
    if (dfd >= 0) ::close(dfd);
    return;
  }
  const std::string path = review_log_path(state_dir);
  int fd = ::openat(dfd, "exec-reviews.jsonl", O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  ::close(dfd);
  if (fd < 0 || ::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != ::geteuid()) {
    std::fprintf(stderr, "clawexec: exec reviewer audit: open %s: %s\n", path.c_str(), fd < 0 ? std::strerror(errno) : "not a regular file of this user");
    if (fd >= 0) ::close(fd);
    return;
  }
  if ((st.st_mode & 077) != 0) ::fchmod(fd, 0600);
  // Past kReviewLogMaxBytes the file becomes exec-reviews.jsonl.1 (replacing the previous one)
  // and a new one starts: the log keeps the recent decisions without growing without bound.
  if (st.st_size >= kReviewLogMaxBytes) {
    ::close(fd);
    int again = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (again >= 0) {
      ::renameat(again, "exec-reviews.jsonl", again, "exec-reviews.jsonl.1");
      fd = ::openat(again, "exec-reviews.jsonl", O_WRONLY | O_APPEND | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
      ::close(again);
    } else {
      fd = -1;
    }
    if (fd < 0) {
      std::fprintf(stderr, "clawexec: exec reviewer audit: rotate %s: %s\n", path.c_str(), std::strerror(errno));
      return;
    }
  }
  // One write per record: O_APPEND keeps concurrent writers' lines whole.
  std::string record = line + "\n";
  ssize_t n = ::write(fd, record.data(), record.size());
  if (n != static_cast<ssize_t>(record.size())) {
    std::fprintf(stderr, "clawexec: exec reviewer audit: write %s: %s\n", path.c_str(),
                 n < 0 ? std::strerror(errno) : "short write");
  }
  ::close(fd);
}

std::vector<std::string> endpoint_secrets(const config::ModelEndpoint& endpoint) {
  std::vector<std::string> out;
  if (!endpoint.api_key.empty()) out.push_back(endpoint.api_key);
  for (const auto& [name, value] : endpoint.headers) {
    if (value.size() >= 8) out.push_back(value);
  }
  return out;
}

std::vector<std::string> withhold_reviewer_secrets(const ReviewerConfig& reviewer, env::EnvList& env) {
  std::vector<std::string> removed;
  if (!reviewer.endpoint) return removed;
  const std::vector<std::string> secrets = endpoint_secrets(*reviewer.endpoint);
  for (auto it = env.begin(); it != env.end();) {
    if (std::find(secrets.begin(), secrets.end(), it->second) != secrets.end()) {
      removed.push_back(it->first);
      it = env.erase(it);
    } else {
      ++it;
    }
  }
  return removed;
}

void ExecService::set_reviewer(ReviewerConfig reviewer) {
  config_.reviewer = std::move(reviewer);
  // A reload may name another provider and key: withhold that one too, before any new call.
  if (!withhold_reviewer_secrets(config_.reviewer, config_.inherited_env).empty()) {
    config_.filtered_inherited_env = std::make_shared<const env::EnvList>(env::filter_inherited_env(config_.inherited_env));
  }
  config_snapshot_.reset();
}

void ExecService::review(policy::ReviewInput input, std::shared_ptr<CancelSignal> cancel,
                         std::function<void(const policy::ReviewAnswer&)> answered) {
  struct Reviewing {
    policy::ReviewInput input;
    std::function<void(const policy::ReviewAnswer&)> answered;
    std::chrono::steady_clock::time_point started;
  };
  auto state = std::make_shared<Reviewing>(Reviewing{std::move(input), std::move(answered), std::chrono::steady_clock::now()});
  const ReviewerConfig& reviewer = config_.reviewer;
  auto finish = [this, state](const policy::ReviewAnswer& answer, const std::string& model, bool called, int64_t model_us = 0) {
    int64_t latency = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - state->started).count();
    std::string line = json::serialize(review_record_json({&state->input, &answer, model, called, latency, model_us, epoch_ms()}));
    post_background([dir = config_.state_dir, line = std::move(line)] { append_review_record(dir, line); });
    state->answered(answer);
  };
  // Answers that need no model: reviewer-directed text, an oversized request, no reviewer
  // configured, or one configured that cannot be reached.
  if (std::optional<policy::ReviewAnswer> screened = policy::prescreen(state->input)) return finish(*screened, "", false);
  if (!reviewer.endpoint && reviewer.unavailable.empty()) return finish(policy::default_reviewer_answer(state->input), "", false);
  if (!reviewer.unavailable.empty() || !config_.model_completer) {
    std::string why = reviewer.unavailable.empty() ? "no model transport in this process" : reviewer.unavailable;
    return finish(policy::reviewer_model_unavailable(why), reviewer.model, false);
  }
  const int64_t timeout_ms = reviewer.timeout_ms;
  policy::ReviewPrompt prompt = policy::build_review_prompt(state->input);
  if (reviewer.endpoint->max_tokens) prompt.max_tokens = policy::reviewer_max_tokens(static_cast<double>(*reviewer.endpoint->max_tokens));
  auto asked = std::chrono::steady_clock::now();
  std::function<void()> stop = config_.model_completer(io_, *reviewer.endpoint, prompt, std::chrono::milliseconds(timeout_ms),
                          [finish, timeout_ms, asked, model = reviewer.model](ModelReply reply) {
                            int64_t model_us = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - asked).count();
                            finish(review_answer_for(reply, timeout_ms), model, true, model_us);
                          });
  // The caller gave up (MCP cancel): the model call ends now instead of at its timeout.
  if (cancel && stop) cancel->on_cancel(std::move(stop));
}

void ExecService::review_then_launch(ExecPlan plan, CallContext ctx, ExecStartDone done) {
  std::vector<std::string> env_keys = env::sorted_names(plan.env_overrides);  // never their values
  struct Waiting {
    ExecPlan plan;
    CallContext ctx;
    ExecStartDone done;
  };
  // An agent already at its cap of waiting approvals costs no model call: a deferral could not
  // be registered anyway, and an allow would only reward the flood.
  if (pending_.waiting_for(plan.approval->agent_id(), epoch_ms()) >= approvals::kMaxPendingPerAgent) {
    return ask_human(std::move(plan), std::move(ctx), std::move(done));
  }
  auto state = std::make_shared<Waiting>(Waiting{std::move(plan), std::move(ctx), std::move(done)});
  policy::ReviewInput input = *state->plan.approval->review_input(env_keys);
  review(std::move(input), state->ctx.cancel, [this, state](const policy::ReviewAnswer& answer) {
    if (state->ctx.cancel && state->ctx.cancel->cancelled()) return state->done(Reply::thrown("Tool execution was aborted"));
    ExecPlan& p = state->plan;
    if (policy::review_allows_run(answer)) {
      ApprovalOutcome outcome = p.approval->reviewer_allowed();
      if (!outcome.approved) return state->done(denied_reply(*p.approval, outcome.reason));
      p.warnings.push_back(policy::review_allowed_warning(answer));
      p.command = std::move(outcome.command);
      p.rendered = outcome.rendered;
      p.approval.reset();
      p.no_route_denial.clear();
      return launch(std::move(p), std::move(state->ctx), std::move(state->done));
    }
    std::string warning = policy::review_deferred_warning(answer);
    p.warnings.push_back(warning);
    p.approval->reviewer_deferred(warning);
    ask_human(std::move(p), std::move(state->ctx), std::move(state->done));
  });
}

}  // namespace clawexec::exec
