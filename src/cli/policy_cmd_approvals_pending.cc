// `clawexec approvals pending|resolve|watch`: the operator's side of the approvals socket.
// The socket path and token come from the approvals document (socket.path, socket.token; the
// default path is <state>/exec-approvals.sock); the commands talk to whichever `clawexec
// serve` process is the hub (approvals/operator_channel.h) with the blocking client.
// `watch` shows requests as they arrive and, on a terminal, answers the oldest unanswered one
// with a single key press (o allow-once, a allow-always, d deny, s skip, q quit); without a
// terminal it prints one line per event (one JSON object per line with --json).

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

#include <CLI/CLI.hpp>

#include "approvals/document.h"
#include "approvals/operator_client.h"
#include "base/strings.h"
#include "base/utf.h"
#include "cli/policy_cmd_common.h"
#include "json/json.h"

namespace clawexec::cli {

namespace bj = boost::json;
using approvals::OperatorClient;

namespace {

std::string str(const bj::object& o, std::string_view key) {
  const bj::value* v = json::find(o, key);
  if (!v) return "";
  if (v->is_string()) return std::string(v->as_string());
  if (v->is_null()) return "";
  return json::serialize(*v);
}

std::string decisions_of(const bj::object& approval) {
  std::vector<std::string> out;
  if (const bj::value* d = json::find(approval, "allowedDecisions"); d && d->is_array()) {
    for (const bj::value& v : d->as_array()) {
      if (v.is_string()) out.emplace_back(v.as_string());
    }
  }
  return out.empty() ? "allow-once|allow-always|deny" : join(out, "|");
}

struct Endpoint {
  std::string socket;
  std::string token;
};

Result<Endpoint> socket_endpoint() {
  OperatorEnv env = operator_env();
  auto snap = open_store(env).read_snapshot();
  if (!snap.ok()) return std::move(snap).error();
  Endpoint out{env.approvals.socket, ""};
  if (auto s = snap->file.find("socket"); s != snap->file.end() && s->value().is_object()) {
    const bj::object& socket = s->value().as_object();
    if (std::string path = str(socket, "path"); !path.empty()) {
      out.socket = approvals::expand_home_prefix(path, env.approvals.home);
    }
    out.token = str(socket, "token");
  }
  return out;
}

Result<std::unique_ptr<OperatorClient>> connect_to_hub() {
  Endpoint endpoint = TRY(socket_endpoint());
  auto client = OperatorClient::connect(endpoint.socket, endpoint.token);
  if (!client.ok() && client.error().code == ErrorCode::kNotFound) {
    return Error{ErrorCode::kNotFound, 0,
                 "No clawexec server is serving approvals (socket " + endpoint.socket + " not found)."};
  }
  return client;
}

// Prints the no-hub message alone (it is a complete sentence), anything else prefixed.
int report(std::string_view command, const Error& error) {
  if (error.code == ErrorCode::kNotFound) {
    std::cerr << error.message << "\n";
    return 1;
  }
  return fail(command, error.message);
}

std::string expires_in(const bj::object& approval) {
  const bj::value* v = json::find(approval, "expiresAtMs");
  auto at = v ? json::as_number(*v) : std::nullopt;
  if (!at) return "-";
  const double now = static_cast<double>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                             std::chrono::system_clock::now().time_since_epoch())
                                             .count());
  const int64_t seconds = static_cast<int64_t>((*at - now) / 1000);
  if (seconds <= 0) return "expired";
  return seconds >= 60 ? std::to_string(seconds / 60) + "m" : std::to_string(seconds) + "s";
}

std::string pad(const std::string& s, size_t width) {
  const size_t len = utf16_length(s);
  return len >= width ? s + " " : s + std::string(width - len, ' ');
}

int run_pending(bool as_json) {
  const char* command = "approvals pending";
  auto client = connect_to_hub();
  if (!client.ok()) return report(command, client.error());
  auto list = (*client)->list();
  if (!list.ok()) return report(command, list.error());
  if (as_json) {
    bj::array out;
    for (const bj::object& a : *list) out.push_back(a);
    print_json(out);
    return 0;
  }
  if (list->empty()) {
    std::cout << "No pending approvals.\n";
    return 0;
  }
  std::cout << pad("ID", 10) << pad("EXPIRES", 9) << pad("PID", 9) << pad("DECISIONS", 29) << "COMMAND\n";
  for (const bj::object& a : *list) {
    std::string command_text = str(a, "command");
    for (char& c : command_text) {
      if (c == '\n' || c == '\r' || c == '\t') c = ' ';
    }
    std::string slug = str(a, "slug");
    if (slug.empty()) slug = str(a, "id").substr(0, 8);
    std::cout << pad(slug, 10) << pad(expires_in(a), 9) << pad(str(a, "pid"), 9) << pad(decisions_of(a), 29)
              << truncate_middle(command_text, 80) << "\n";
    std::cout << "  cwd " << str(a, "cwd") << "  agent " << str(a, "agentId") << "  host " << str(a, "host") << "\n";
  }
  return 0;
}

int run_resolve(const std::string& id, const std::string& decision, bool as_json) {
  const char* command = "approvals resolve";
  if (std::optional<int> refused = refuse_under_clawexec(command)) return *refused;
  auto client = connect_to_hub();
  if (!client.ok()) return report(command, client.error());
  auto reply = (*client)->resolve(id, decision);
  if (!reply.ok()) return report(command, reply.error());
  reply->erase("requestId");
  const bool ok = reply->contains("ok") && reply->at("ok") == bj::value(true);
  if (as_json) {
    print_json(*reply);
  } else if (ok) {
    std::cout << "Approval " << decision << " submitted for " << str(*reply, "id") << ".\n";
  }
  if (!ok && !as_json) return fail(command, str(*reply, "error"));
  return ok ? 0 : 1;
}

// `/approve <id> <decision>` or `/exec ...` as text, the way a chat operator would type it.
int run_say(const std::vector<std::string>& words) {
  const char* command = "approvals say";
  if (std::optional<int> refused = refuse_under_clawexec(command)) return *refused;
  std::string text;
  for (const std::string& w : words) text += (text.empty() ? "" : " ") + w;
  auto client = connect_to_hub();
  if (!client.ok()) return report(command, client.error());
  auto reply = (*client)->command(text);
  if (!reply.ok()) return report(command, reply.error());
  std::cout << *reply << "\n";
  return reply->rfind("\u274c", 0) == 0 ? 1 : 0;  // replies that start with ❌ are failures
}

// ---- watch ----

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

void print_request(const bj::object& a) {
  std::cout << "\nApproval requested: " << str(a, "slug") << " (full " << str(a, "id") << ", pid " << str(a, "pid")
            << ")\n  Command: " << str(a, "command") << "\n  CWD: " << str(a, "cwd")
            << "\n  Allowed: " << decisions_of(a) << "\n";
  if (std::string warning = str(a, "warningText"); !warning.empty()) std::cout << "  " << warning << "\n";
}

std::string event_line(const bj::object& e) {
  const std::string kind = str(e, "event");
  if (kind == "requested") {
    const bj::value* a = json::find(e, "approval");
    if (!a || !a->is_object()) return "requested";
    const bj::object& o = a->as_object();
    return "requested " + str(o, "slug") + " id=" + str(o, "id") + " cwd=" + str(o, "cwd") + " allowed=" +
           decisions_of(o) + " command=" + json::serialize(bj::value(str(o, "command")));
  }
  if (kind == "resolved") {
    std::string decision = str(e, "decision");
    return "resolved " + str(e, "id") + " decision=" + (decision.empty() ? "none" : decision) + " by=" +
           str(e, "resolvedBy");
  }
  bj::object rest = e;
  rest.erase("type");
  rest.erase("event");
  return kind + " " + json::serialize(rest);
}

struct WatchState {
  std::deque<bj::object> queue;  // unanswered requests, oldest first
  std::set<std::string> printed;  // request ids already printed (a reconnect re-lists them)
  bool prompted = false;
};

void prompt(WatchState& state) {
  if (state.queue.empty() || state.prompted) return;
  const bj::object& a = state.queue.front();
  std::cout << "[" << str(a, "slug") << "] o=allow-once" << (decisions_of(a).find("allow-always") != std::string::npos ? " a=allow-always" : "")
            << " d=deny s=skip q=quit > " << std::flush;
  state.prompted = true;
}

void forget(WatchState& state, const std::string& id) {
  for (auto it = state.queue.begin(); it != state.queue.end(); ++it) {
    if (str(*it, "id") == id) {
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
    if (str(e, "event") == "requested") {
      const bj::value* a = json::find(e, "approval");
      if (a && a->is_object() && !state.printed.insert(str(a->as_object(), "id")).second) return;
    }
    std::cout << (as_json ? json::serialize(e) : event_line(e)) << "\n" << std::flush;
    return;
  }
  const std::string kind = str(e, "event");
  if (kind == "requested") {
    const bj::value* a = json::find(e, "approval");
    if (!a || !a->is_object()) return;
    for (const bj::object& known : state.queue) {
      if (str(known, "id") == str(a->as_object(), "id")) return;
    }
    if (state.prompted) std::cout << "\n";
    state.prompted = false;
    print_request(a->as_object());
    state.queue.push_back(a->as_object());
  } else if (kind == "resolved") {
    forget(state, str(e, "id"));
    std::cout << "Resolved " << str(e, "id") << ": " << (str(e, "decision").empty() ? "no decision" : str(e, "decision"))
              << " (" << str(e, "resolvedBy") << ")\n";
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
  auto reply = client.resolve(str(current, "id"), decision);
  if (!reply.ok()) {
    std::cout << "Failed: " << reply.error().message << "\n";
  } else if (reply->at("ok") == bj::value(true)) {
    forget(state, str(current, "id"));
  } else {
    std::cout << "Failed: " << str(*reply, "error") << "\n";
    if (str(*reply, "error") == "unknown or expired approval id") forget(state, str(current, "id"));
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
      if (m && str(*m, "type") == "event") on_event(state, *m, interactive, as_json);
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
      if (m && str(*m, "type") == "event") on_event(state, *m, interactive, as_json);
    }
  }
}

int run_watch(bool as_json) {
  const char* command = "approvals watch";
  if (std::optional<int> refused = refuse_under_clawexec(command)) return *refused;
  auto client = connect_to_hub();
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
      auto again = connect_to_hub();
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

}  // namespace

void add_approval_queue_commands(CLI::App& approvals_cmd, int& exit_code) {
  auto* pending = approvals_cmd.add_subcommand("pending", "List the approvals waiting for a decision");
  auto pending_json = std::make_shared<bool>(false);
  pending->add_flag("--json", *pending_json, "Output as JSON");
  pending->callback([&exit_code, pending_json] { exit_code = run_pending(*pending_json); });

  auto* resolve = approvals_cmd.add_subcommand("resolve", "Answer a pending approval");
  auto args = std::make_shared<std::pair<std::string, std::string>>();
  auto resolve_json = std::make_shared<bool>(false);
  resolve->add_option("id", args->first, "Approval id, slug or unique id prefix")->required();
  resolve->add_option("decision", args->second, "allow-once, allow-always or deny")
      ->required()
      ->check(CLI::IsMember({"allow-once", "allow-always", "deny"}));
  resolve->add_flag("--json", *resolve_json, "Output as JSON");
  resolve->callback([&exit_code, args, resolve_json] {
    exit_code = run_resolve(args->first, args->second, *resolve_json);
  });

  auto* say = approvals_cmd.add_subcommand("say", "Send /approve or /exec text to the operator channel");
  auto words = std::make_shared<std::vector<std::string>>();
  say->add_option("text", *words, "The text, e.g. /approve ab12cd34 allow-once")->required();
  say->callback([&exit_code, words] { exit_code = run_say(*words); });

  auto* watch = approvals_cmd.add_subcommand("watch", "Show approval requests as they come and answer them");
  auto watch_json = std::make_shared<bool>(false);
  watch->add_flag("--json", *watch_json, "Print events as JSON lines (never interactive)");
  watch->callback([&exit_code, watch_json] { exit_code = run_watch(*watch_json); });
}

}  // namespace clawexec::cli
