// `clawexec approvals watch`: shows approval requests as they arrive and, on a terminal,
// answers the oldest unanswered one with a single key press (o allow-once, a allow-always,
// d deny, s skip, q quit); without a terminal it prints one line per event (one JSON object
// per line with --json, exact; the text forms are escaped for display, since a request's
// command and cwd are the agent's text). If the hub goes away, it follows the process that
// takes over (up to 5 s).

#include <poll.h>
#include <termios.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <deque>
#include <iostream>
#include <memory>
#include <set>
#include <thread>

#include "cli/policy_cmd_common.h"
#include "cli/policy_cmd_queue.h"
#include "json/json.h"
#include "operator/pending_approvals.h"
#include "term/display_escape.h"

namespace clawexec::cli {

namespace bj = boost::json;
using approvals::OperatorClient;

namespace {

termios g_saved_termios{};
bool g_raw_mode = false;

void restore_terminal() {
  if (g_raw_mode) ::tcsetattr(STDIN_FILENO, TCSANOW, &g_saved_termios);
  g_raw_mode = false;
}

extern "C" void watch_signal(int signo) {
  if (g_raw_mode) ::tcsetattr(STDIN_FILENO, TCSANOW, &g_saved_termios);
  ::signal(signo, SIG_DFL);
  ::raise(signo);
}

void enter_raw_mode() {
  if (::tcgetattr(STDIN_FILENO, &g_saved_termios) != 0) return;
  termios raw = g_saved_termios;
  raw.c_lflag &= ~static_cast<tcflag_t>(ICANON | ECHO);
  raw.c_cc[VMIN] = 1;
  raw.c_cc[VTIME] = 0;
  if (::tcsetattr(STDIN_FILENO, TCSANOW, &raw) != 0) return;
  g_raw_mode = true;
  ::signal(SIGINT, watch_signal);
  ::signal(SIGTERM, watch_signal);
  ::signal(SIGHUP, watch_signal);
}

std::string shown_decisions(const bj::object& a) { return term::escape_for_display(decisions_of(a)); }

void print_request(const bj::object& a) {
  std::cout << "\nApproval requested: " << shown(a, "slug") << " (full " << shown(a, "id") << ", pid " << shown(a, "pid")
            << ")\n  Command: " << shown(a, "command") << "\n  CWD: " << shown(a, "cwd")
            << "\n  Allowed: " << shown_decisions(a) << "\n";
  if (std::string warning = field_text(a, "warningText"); !warning.empty()) {
    std::cout << "  " << term::escape_for_display(warning, term::DisplayStyle::kLines) << "\n";
  }
}

// One line per event; the command comes last, escaped, so it cannot end or fake the line.
std::string event_line(const bj::object& e) {
  const std::string kind = field_text(e, "event");
  if (kind == "requested") {
    const bj::value* a = json::find(e, "approval");
    if (!a || !a->is_object()) return "requested";
    const bj::object& o = a->as_object();
    return "requested " + shown(o, "slug") + " id=" + shown(o, "id") + " cwd=" + shown(o, "cwd") + " allowed=" +
           shown_decisions(o) + " command=" + shown(o, "command");
  }
  if (kind == "resolved") {
    std::string decision = shown(e, "decision");
    return "resolved " + shown(e, "id") + " decision=" + (decision.empty() ? "none" : decision) + " by=" +
           shown(e, "resolvedBy");
  }
  bj::object rest = e;
  rest.erase("type");
  rest.erase("event");
  return term::escape_for_display(kind) + " " +
         term::escape_for_display(json::serialize(rest), term::DisplayStyle::kJsonText);
}

struct WatchState {
  std::deque<bj::object> queue;  // unanswered requests, oldest first
  std::set<std::string> printed;  // request ids already printed (a reconnect re-lists them)
  bool prompted = false;
};

void prompt(WatchState& state) {
  if (state.queue.empty() || state.prompted) return;
  const bj::object& a = state.queue.front();
  std::cout << "[" << shown(a, "slug") << "] o=allow-once" << (decisions_of(a).find("allow-always") != std::string::npos ? " a=allow-always" : "")
            << " d=deny s=skip q=quit > " << std::flush;
  state.prompted = true;
}

void forget(WatchState& state, const std::string& id) {
  for (auto it = state.queue.begin(); it != state.queue.end(); ++it) {
    if (field_text(*it, "id") == id) {
      if (it == state.queue.begin() && state.prompted) {
        std::cout << "\n";
        state.prompted = false;
      }
      state.queue.erase(it);
      return;
    }
  }
}

// One event: track it and print it (interactive: request details / resolution notes).
void on_event(WatchState& state, const bj::object& e, bool interactive, bool as_json) {
  if (!interactive) {
    if (field_text(e, "event") == "requested") {
      const bj::value* a = json::find(e, "approval");
      if (a && a->is_object() && !state.printed.insert(field_text(a->as_object(), "id")).second) return;
    }
    std::cout << (as_json ? json::serialize(e) : event_line(e)) << "\n" << std::flush;
    return;
  }
  const std::string kind = field_text(e, "event");
  if (kind == "requested") {
    const bj::value* a = json::find(e, "approval");
    if (!a || !a->is_object()) return;
    for (const bj::object& known : state.queue) {
      if (field_text(known, "id") == field_text(a->as_object(), "id")) return;
    }
    if (state.prompted) std::cout << "\n";
    state.prompted = false;
    print_request(a->as_object());
    state.queue.push_back(a->as_object());
  } else if (kind == "resolved") {
    forget(state, field_text(e, "id"));
    std::cout << "Resolved " << shown(e, "id") << ": " << (field_text(e, "decision").empty() ? "no decision" : shown(e, "decision"))
              << " (" << shown(e, "resolvedBy") << ")\n";
  }
}

// Handles one key; false to quit.
bool on_key(WatchState& state, OperatorClient& client, char key) {
  if (key == 'q' || key == 4) return false;
  if (state.queue.empty()) return true;
  const std::string decision = key == 'o' ? "allow-once" : key == 'a' ? "allow-always" : key == 'd' ? "deny" : "";
  bj::object current = state.queue.front();
  if (key == 's') {
    std::cout << "skipped\n";
    state.queue.pop_front();
    state.queue.push_back(current);
    state.prompted = false;
    return true;
  }
  if (decision.empty()) return true;
  std::cout << decision << "\n";
  state.prompted = false;
  auto reply = client.resolve(field_text(current, "id"), decision);
  if (!reply.ok()) {
    std::cout << "Failed: " << term::escape_for_display(reply.error().message) << "\n";
  } else if (reply->at("ok") == bj::value(true)) {
    forget(state, field_text(current, "id"));
  } else {
    std::cout << "Failed: " << shown(*reply, "error") << "\n";
    if (field_text(*reply, "error") == "unknown or expired approval id") forget(state, field_text(current, "id"));
  }
  return true;
}

Result<void> watch_session(OperatorClient& client, WatchState& state, bool interactive, bool as_json) {
  TRY(client.subscribe());
  state.queue.clear();  // (re)connected: the hub's list is the truth
  for (const bj::object& a : TRY(client.list())) {
    on_event(state, bj::object{{"type", "event"}, {"event", "requested"}, {"approval", a}}, interactive, as_json);
  }
  for (;;) {
    while (client.has_buffered()) {
      auto m = TRY(client.next_message(0));
      if (m && field_text(*m, "type") == "event") on_event(state, *m, interactive, as_json);
    }
    if (interactive) prompt(state);
    pollfd fds[2] = {{client.native_handle(), POLLIN, 0}, {STDIN_FILENO, POLLIN, 0}};
    if (::poll(fds, interactive ? 2 : 1, -1) < 0) continue;
    if (interactive && (fds[1].revents & (POLLIN | POLLHUP))) {
      char key = 0;
      if (::read(STDIN_FILENO, &key, 1) != 1 || !on_key(state, client, key)) return {};
    }
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
      auto m = TRY(client.next_message(0));
      if (m && field_text(*m, "type") == "event") on_event(state, *m, interactive, as_json);
    }
  }
}

}  // namespace

int run_watch(bool as_json) {
  const char* command = "approvals watch";
  if (std::optional<int> refused = refuse_under_clawexec(command)) return *refused;
  const operator_ops::OperatorEnv env = operator_ops::process_operator_env();
  auto client = operator_ops::connect_to_hub(env);
  if (!client.ok()) return report(command, client.error());
  const bool interactive = ::isatty(STDIN_FILENO) && ::isatty(STDOUT_FILENO) && !as_json;
  if (interactive) {
    enter_raw_mode();
    std::cout << "Watching exec approvals (o allow-once, a allow-always, d deny, s skip, q quit).\n";
  }
  WatchState state;
  std::unique_ptr<OperatorClient> current = std::move(*client);
  for (;;) {
    auto ended = watch_session(*current, state, interactive, as_json);
    if (ended.ok()) break;  // the operator quit
    // The hub went away: another serve process takes over within moments; follow it.
    current.reset();
    for (int i = 0; i < 50 && !current; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      auto again = operator_ops::connect_to_hub(env);
      if (again.ok()) current = std::move(*again);
    }
    if (!current) {
      restore_terminal();
      return report(command, Error{ErrorCode::kIo, 0, "the approvals hub went away: " + ended.error().message});
    }
    state.prompted = false;
  }
  restore_terminal();
  return 0;
}

}  // namespace clawexec::cli
