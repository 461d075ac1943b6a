// Two clients served by one exec service (what the gateway will do for many agents): each has
// its own `/exec` defaults, sees only its own sessions through `process`, and gets only its own
// completion notifications. Drives the real service and real commands on a scratch state dir.

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/steady_timer.hpp>
#include <filesystem>

#include "exec/service.h"
#include "tools/exec_tool.h"
#include "tools/tool_schema.h"

namespace clawexec::tools {
namespace {

struct Scratch {
  std::string dir;
  Scratch() {
    char tmpl[] = "/tmp/clawexec-two-clients-XXXXXX";
    dir = ::mkdtemp(tmpl);
  }
  ~Scratch() { std::filesystem::remove_all(dir); }
};

exec::ServiceConfig scratch_config(const std::string& state) {
  exec::ServiceConfig c;
  c.shim_path = std::string(CLAWEXEC_BINARY_DIR) + "/bin/clawexec-shim";
  c.inherited_env = {{"PATH", "/usr/bin:/bin"}, {"HOME", state}, {"SHELL", "/bin/bash"}};
  c.state_dir = state;
  c.home_dir = state;
  c.default_cwd = state;
  c.approvals_paths.home = state;
  c.approvals_paths.state_dir = state;
  c.approvals_paths.file = state + "/exec-approvals.json";
  c.approvals_paths.socket = state + "/exec-approvals.sock";
  c.approvals_paths.lock = state + "/exec-approvals.json.lock";
  c.approvals_paths.display = c.approvals_paths.file;
  c.approvals_paths.transcript = c.approvals_paths.file;
  c.exec.notify_on_exit = true;
  return c;
}

class TwoClients : public ::testing::Test {
 protected:
  Scratch scratch;
  boost::asio::io_context io;
  exec::ExecService service{io, scratch_config(scratch.dir)};
  std::shared_ptr<exec::ClientSession> alice = client("alice");
  std::shared_ptr<exec::ClientSession> bob = client("bob");
  std::vector<std::pair<std::string, std::string>> heard;  // (client, text)

  std::shared_ptr<exec::ClientSession> client(const std::string& name) {
    auto c = std::make_shared<exec::ClientSession>();
    c->scope_key = "test:" + name;
    c->notify = [this, name](const std::string&, const std::string& text) { heard.emplace_back(name, text); };
    return c;
  }

  // Runs one tool call to its result, driving the io_context.
  ToolResult call(const ToolSpec& spec, const std::shared_ptr<exec::ClientSession>& who, json::Object args) {
    Result<json::Object> checked = validate_arguments(spec, json::Value(std::move(args)));
    EXPECT_TRUE(checked.ok()) << (checked.ok() ? "" : checked.error().message);
    std::optional<ToolResult> result;
    if (&spec == &process_tool_spec()) {
      run_process_tool(service, *who, *checked, nullptr, [&](ToolResult r) { result = std::move(r); });
    } else {
      run_exec_tool(service, who, *checked, {}, [&](ToolResult r) { result = std::move(r); });
    }
    run_until([&] { return result.has_value(); });
    EXPECT_TRUE(result.has_value());
    return result.value_or(ToolResult::thrown("no result"));
  }

  std::string details_string(const ToolResult& r, std::string_view key) {
    const json::Value* v = r.details ? json::find(*r.details, key) : nullptr;
    return v && v->is_string() ? std::string(v->get_string()) : std::string();
  }

  // Drives the io_context until `done` holds or `limit` passed. The guard keeps run_one waiting
  // while the analysis threads work (they post back to the io thread).
  template <typename Pred>
  void run_until(Pred done, std::chrono::milliseconds limit = std::chrono::seconds(10)) {
    boost::asio::steady_timer timer(io, limit);
    bool expired = false;
    timer.async_wait([&](const boost::system::error_code& ec) { expired = !ec; });
    auto guard = boost::asio::make_work_guard(io);
    io.restart();
    while (!done() && !expired && io.run_one()) {
    }
    timer.cancel();
    guard.reset();
    io.poll();  // the cancelled timer's handler, so nothing refers to it afterwards
  }

  void TearDown() override {
    bool stopped = false;
    service.shutdown(std::chrono::milliseconds(0), [&] { stopped = true; });
    run_until([&] { return stopped; });
  }
};

TEST_F(TwoClients, ExecDefaultsAreTheirOwn) {
  // An operator tightens alice's next run to deny; bob is untouched.
  std::optional<std::string> reply = service.exec_directive(*alice, "/exec security=deny");
  ASSERT_TRUE(reply.has_value());
  ToolResult denied = call(exec_tool_spec(), alice, {{"command", "echo alice"}});
  EXPECT_TRUE(denied.is_error);
  EXPECT_EQ(denied.text.find("alice\n"), std::string::npos) << denied.text;
  ToolResult ran = call(exec_tool_spec(), bob, {{"command", "echo bob"}});
  EXPECT_FALSE(ran.is_error) << ran.text;
  EXPECT_NE(ran.text.find("bob"), std::string::npos) << ran.text;
  // Only for the next run: alice's following call runs again.
  ToolResult again = call(exec_tool_spec(), alice, {{"command", "echo alice"}});
  EXPECT_FALSE(again.is_error) << again.text;

  // A persistent host default for bob only: host=node has no node here, so bob's runs refuse.
  service.exec_directive(*bob, "/exec host=node");
  EXPECT_NE(call(exec_tool_spec(), bob, {{"command", "true"}}).text.find("host=node"), std::string::npos);
  EXPECT_FALSE(call(exec_tool_spec(), alice, {{"command", "true"}}).is_error);
  EXPECT_NE(call(exec_tool_spec(), bob, {{"command", "true"}}).text.find("host=node"), std::string::npos);
}

TEST_F(TwoClients, SessionsAndNotificationsAreTheirOwn) {
  ToolResult started = call(exec_tool_spec(), alice, {{"command", "sleep 0.3; echo from-alice"}, {"background", true}});
  std::string id = details_string(started, "sessionId");
  ASSERT_FALSE(id.empty()) << started.text;

  // bob sees none of alice's sessions, and cannot reach one by its id.
  ToolResult bob_list = call(process_tool_spec(), bob, {{"action", "list"}});
  EXPECT_EQ(bob_list.text.find(id), std::string::npos) << bob_list.text;
  ToolResult bob_poll = call(process_tool_spec(), bob, {{"action", "poll"}, {"sessionId", id}});
  EXPECT_NE(bob_poll.text.find("No session found"), std::string::npos) << bob_poll.text;
  ToolResult bob_kill = call(process_tool_spec(), bob, {{"action", "kill"}, {"sessionId", id}});
  EXPECT_NE(bob_kill.text.find("session found for"), std::string::npos) << bob_kill.text;
  ToolResult alice_list = call(process_tool_spec(), alice, {{"action", "list"}});
  EXPECT_NE(alice_list.text.find(id.substr(0, 8)), std::string::npos) << alice_list.text;

  // The completion goes to alice alone.
  run_until([&] { return !heard.empty(); });
  ASSERT_EQ(heard.size(), 1u);
  EXPECT_EQ(heard[0].first, "alice");
  EXPECT_NE(heard[0].second.find("from-alice"), std::string::npos) << heard[0].second;
}

TEST_F(TwoClients, AGoneClientIsNotNotified) {
  ToolResult started = call(exec_tool_spec(), bob, {{"command", "sleep 0.2; echo late"}, {"background", true}});
  ASSERT_FALSE(details_string(started, "sessionId").empty()) << started.text;
  bob.reset();  // the connection closed; its session keeps running
  ToolResult waited = call(exec_tool_spec(), alice, {{"command", "sleep 0.5"}});
  EXPECT_FALSE(waited.is_error) << waited.text;
  run_until([&] { return false; }, std::chrono::milliseconds(500));  // what is pending, delivered
  EXPECT_TRUE(heard.empty()) << heard[0].second;
}

}  // namespace
}  // namespace clawexec::tools
