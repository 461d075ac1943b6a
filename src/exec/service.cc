// ExecService glue: starting runs, what happens when one exits (the background completion
// notification), the retention sweep of finished sessions, and shutdown.

#include "exec/service.h"

#include "env/host_exec_env.h"
#include "exec/exec_planning.h"

#include <algorithm>
#include <boost/asio/post.hpp>

#include "base/time.h"
#include "session/format.h"
#include "sys/sys.h"

namespace clawexec::exec {
namespace asio = boost::asio;

namespace {

// The reviewer's credentials never reach a command: withheld before the shell environment or
// the filtered environment is made from the server's.
ServiceConfig without_reviewer_secrets(ServiceConfig config) {
  if (!withhold_reviewer_secrets(config.reviewer, config.inherited_env).empty()) config.filtered_inherited_env.reset();
  return config;
}

// Every call's environment starts from the server's filtered one, and runs under the server's
// shell: both depend only on the server's environment, so they are worked out here once.
void prepare_once(ServiceConfig& config) {
  if (!config.filtered_inherited_env) {
    config.filtered_inherited_env = std::make_shared<const env::EnvList>(env::filter_inherited_env(config.inherited_env));
  }
  if (!config.server_shell) config.server_shell = std::make_shared<const ShellInvocation>(shell_for(config.inherited_env));
}

}  // namespace

ExecService::ExecService(asio::io_context& io, ServiceConfig config)
    : io_(io),
      config_(without_reviewer_secrets(std::move(config))),
      spawner_(config_.shim_path),
      registry_([](uint32_t bound) { return sys::random_below(bound); }),
      sweep_timer_(io),
      sandbox_prune_timer_(io),
      shutdown_timer_(io),
      shell_env_(std::make_unique<shellenv::ShellEnvironment>(
          io, spawner_,
          shellenv::ShellEnvironmentSettings{.server_env = config_.inherited_env,
                                             .home = config_.home_dir,
                                             .state_dir = config_.state_dir})) {
  prepare_once(config_);
}

ShellInvocation server_shell(const ServiceConfig& config) {
  return config.server_shell ? *config.server_shell : shell_for(config.inherited_env);
}

ExecService::~ExecService() {
  analysis_.join();  // an analysis still running posts its answer to io_, which outlives us
  background_.join();
}

void ExecService::off_io_thread(std::function<void()> work, std::function<void()> then,
                                std::function<void()> stopped) {
  begin_preparing();
  std::weak_ptr<bool> alive = alive_;
  asio::post(analysis_, [this, alive, work = std::move(work), then = std::move(then),
                         stopped = std::move(stopped)]() mutable {
    work();
    work = nullptr;  // whatever the call owns is released on the io thread, not here
    asio::post(io_, [this, alive, then = std::move(then), stopped = std::move(stopped)] {
      if (alive.expired()) return;
      if (!end_preparing()) return stopped();
      then();
    });
  });
}

std::shared_ptr<const ServiceConfig> ExecService::shared_config() {
  if (!config_snapshot_ || config_snapshot_->exec.host != config_.exec.host ||
      config_snapshot_->exec.node != config_.exec.node) {
    config_snapshot_ = std::make_shared<const ServiceConfig>(config_);
  }
  return config_snapshot_;
}

void ExecService::set_exec_settings(config::ExecSettings exec) {
  config_.exec = std::move(exec);
  config_snapshot_.reset();
}

void ExecService::post_background(std::function<void()> work) { asio::post(background_, std::move(work)); }

Result<void> ExecService::check_live_sessions(const std::string& scope_key) const {
  // Every running session holds descriptors, a supervisor and output buffers: one client gets
  // a bounded number of them at a time.
  size_t cap = static_cast<size_t>(config_.exec.max_live_sessions);
  if (registry_.live_count(scope_key) >= cap) {
    return Error::rejected("exec: this client already has " + std::to_string(cap) +
                           " running sessions, the limit (tools.exec.maxLiveSessions = " + std::to_string(cap) +
                           "). Wait for one to finish or stop one with `process kill`, or raise the limit.");
  }
  return {};
}

Result<std::shared_ptr<Run>> ExecService::start_run(RunRequest request) {
  proc::SpawnSpec spec = request.spawn;
  return start_run(std::move(request), [this, &spec](proc::ChildEvents events) -> Result<std::shared_ptr<proc::Child>> {
    return std::shared_ptr<proc::Child>(TRY(proc::Process::start(io_, spec, spawner_, std::move(events))));
  });
}

Result<std::shared_ptr<Run>> ExecService::start_run(RunRequest request, const Run::Launcher& launch) {
  TRY(check_live_sessions(request.scope_key));
  std::shared_ptr<Run> run = TRY(Run::start_with(io_, registry_, std::move(request), launch, config_.kill_timing));
  std::weak_ptr<Run> weak = run;
  run->on_exited([this, weak](const ExecOutcome&) {
    if (auto r = weak.lock()) on_run_exited(r);
  });
  run->on_started([this](Result<pid_t> pid) {
    if (!pid.ok()) finish_shutdown_if_idle();  // a run that never started is not live either
  });
  return run;
}

void ExecService::on_run_exited(const std::shared_ptr<Run>& run) {
  maybe_notify(*run->session());
  schedule_sweep();
  finish_shutdown_if_idle();
}

void ExecService::finish_shutdown_if_idle() {
  if (!shutting_down_ || !registry_.live().empty() || preparing_ > 0) return;
  shutdown_timer_.cancel();
  std::vector<std::function<void()>> waiters = std::move(shutdown_waiters_);
  for (auto& w : waiters) w();
}

// Reference §1.11, for a backgrounded run that nobody has polled to its end.
void ExecService::maybe_notify(const session::Session& s) {
  if (!s.backgrounded || !config_.exec.notify_on_exit || s.terminal_poll_observed || !s.exit) return;
  if (!s.approval_id.empty()) return;  // announced by the approval flow (approval_runs.cc)
  if (registry_.finished(s.id).get() != &s) return;  // removed by the agent: it asked for silence
  const session::ExitRecord& exit = *s.exit;
  std::string output = session::compact_notify_output(s.output.tail());
  bool failed = exit.status == session::TerminalStatus::kFailed;
  if (failed && exit.exit_reason == session::ExitReason::kManualCancel && output.empty()) return;
  bool empty_success = config_.exec.notify_on_exit_empty_success.value_or(false);
  if (!failed && exit.exit_code == 0 && output.empty() && !empty_success) return;
  std::string text = std::string("Exec ") + (failed ? "failed" : "completed") + " (" + s.id.substr(0, 8) + ", " +
                     session::exit_label(exit.exit_code, exit.exit_signal) + ")";
  if (!output.empty()) text += " :: " + output;
  if (exit.timed_out()) text += "\n\n" + std::string(session::kTimeoutRetryGuidance);
  notify(s.scope_key, s.id, text);
}

void ExecService::notify(const std::string& scope_key, const std::string& session_id, const std::string& text) {
  auto it = clients_.find(scope_key);
  if (it == clients_.end()) return;
  std::shared_ptr<ClientSession> client = it->second.lock();
  if (!client) {
    clients_.erase(it);  // the client is gone; nobody can read this any more
    return;
  }
  if (client->notify) client->notify(session_id, text);
}

std::shared_ptr<const ServiceConfig> ExecService::config_for(ClientSession& client) {
  ExecDefaults& d = client.defaults;
  bool own_agent = !client.agent_id.empty() && client.agent_id != config_.agent_id;
  if (!d.host && !d.node && !d.security && !d.ask && !d.next_security && !d.next_ask && !own_agent) {
    return shared_config();
  }
  auto call = std::make_shared<ServiceConfig>(config_);
  if (d.host) call->exec.host = *d.host;
  if (d.node) call->exec.node = *d.node;
  if (own_agent) call->agent_id = client.agent_id;
  // Tightenings only: the lower security and the stricter ask win.
  auto tighter_security = [](std::optional<config::ExecSecurity> a, std::optional<config::ExecSecurity> b) {
    if (!a) return b;
    if (!b) return a;
    return std::optional<config::ExecSecurity>(std::min(*a, *b));
  };
  auto tighter_ask = [](std::optional<config::ExecAsk> a, std::optional<config::ExecAsk> b) {
    if (!a) return b;
    if (!b) return a;
    return std::optional<config::ExecAsk>(std::max(*a, *b));
  };
  call->session_security = tighter_security(d.security, d.next_security);
  call->session_ask = tighter_ask(d.ask, d.next_ask);
  d.next_security.reset();
  d.next_ask.reset();
  return call;
}

void ExecService::schedule_sweep() {
  registry_.sweep(epoch_ms());
  std::optional<int64_t> next = registry_.next_expiry();
  sweep_timer_.cancel();
  if (!next) return;
  sweep_timer_.expires_after(std::chrono::milliseconds(std::max<int64_t>(0, *next - epoch_ms())));
  sweep_timer_.async_wait([this](const boost::system::error_code& ec) {
    if (!ec) schedule_sweep();
  });
}

void ExecService::schedule_sandbox_prune() {
  if (sandbox_prune_scheduled_ || shutting_down_ || !config_.sandbox) return;
  const config::SandboxSettings& s = config_.sandbox->settings;
  int64_t shortest = 0;
  for (int64_t limit : {s.prune_idle_ms, s.prune_max_age_ms}) {
    if (limit > 0) shortest = shortest == 0 ? limit : std::min(shortest, limit);
  }
  if (shortest == 0) return;  // both limits off
  // Checked often enough that a sandbox lives at most about 1/4 longer than its limit.
  int64_t interval = std::clamp<int64_t>(shortest / 4, 250, 5 * 60'000);
  sandbox_prune_scheduled_ = true;
  sandbox_prune_timer_.expires_after(std::chrono::milliseconds(interval));
  sandbox_prune_timer_.async_wait([this](const boost::system::error_code& ec) {
    if (ec) return;  // cancelled: the service may be going away
    sandbox_prune_scheduled_ = false;
    const config::SandboxSettings& settings = config_.sandbox->settings;
    sandboxes_.prune(steady_ms(), settings.prune_idle_ms, settings.prune_max_age_ms);
    if (!sandboxes_.all().empty()) schedule_sandbox_prune();
  });
}

void ExecService::begin_preparing() { ++preparing_; }

bool ExecService::end_preparing() {
  --preparing_;
  if (!stopping_foreground_) return true;
  finish_shutdown_if_idle();
  return false;
}

void ExecService::shutdown(std::chrono::milliseconds foreground_grace, std::function<void()> done) {
  shutting_down_ = true;
  sweep_timer_.cancel();
  sandbox_prune_timer_.cancel();
  shutdown_waiters_.push_back(std::move(done));
  if (registry_.live().empty() && preparing_ == 0) return finish_shutdown_if_idle();
  auto cancel = [this](bool background_only) {
    if (!background_only) stopping_foreground_ = true;
    for (const auto& s : registry_.live()) {
      if (s->control && (s->backgrounded || !background_only)) s->control->cancel();
    }
  };
  cancel(foreground_grace.count() > 0);
  if (foreground_grace.count() <= 0) return;
  shutdown_timer_.expires_after(foreground_grace);
  shutdown_timer_.async_wait([cancel](const boost::system::error_code& ec) {
    if (!ec) cancel(false);
  });
}

}  // namespace clawexec::exec
