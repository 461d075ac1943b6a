// Operator channel: election, the union of pending approvals, resolution routing, events and
// the handshake, with several channels (as separate "processes") on one io_context in a temp
// state directory, and an operator speaking the wire protocol.

#include "approvals/operator_channel.h"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "approvals/operator_channel_wire.h"
#include "json/json.h"

namespace clawexec::approvals {
namespace {

namespace bj = boost::json;
using boost::asio::local::stream_protocol;

// A provider with a fixed list and a record of resolve calls.
struct FakeProcess {
  std::vector<bj::object> pending;
  std::vector<std::string> resolved;  // "id decision by"
  std::string fail_with;              // non-empty: resolve reports this error

  OperatorChannel::Provider provider() {
    OperatorChannel::Provider p;
    p.list = [this] { return pending; };
    p.resolve = [this](std::string id, std::string decision, std::string by, std::function<void(Result<void>)> done) {
      resolved.push_back(id + " " + decision + " " + by);
      if (!fail_with.empty()) return done(Error::rejected(fail_with));
      std::erase_if(pending, [&](const bj::object& a) { return a.at("id").as_string() == id; });
      done({});
    };
    return p;
  }
};

bj::object approval(const std::string& id, int64_t created, bj::array allowed = {"allow-once", "allow-always", "deny"}) {
  return {{"id", id},         {"slug", id.substr(0, 8)}, {"command", "echo " + id}, {"cwd", "/tmp"},
          {"host", "gateway"}, {"agentId", "main"},      {"allowedDecisions", allowed}, {"createdAtMs", created},
          {"expiresAtMs", created + 1800000}, {"warningText", ""}};
}

// An operator speaking the wire protocol on the same io_context.
struct Operator {
  std::shared_ptr<JsonConnection> conn;
  std::vector<bj::object> received;
  bool closed = false;

  Operator(boost::asio::io_context& io, const std::string& path, const std::string& token) {
    stream_protocol::socket socket(io);
    boost::system::error_code ec;
    socket.connect(stream_protocol::endpoint(path), ec);
    EXPECT_FALSE(ec) << ec.message();
    conn = std::make_shared<JsonConnection>(std::move(socket));
    conn->start([this](const bj::object& m) { received.push_back(m); }, [this] { closed = true; });
    conn->send({{"type", "hello"}, {"token", token}, {"role", "operator"}, {"pid", 1}});
  }
  ~Operator() { conn->close(); }

  std::vector<bj::object> of_type(const std::string& type) const {
    std::vector<bj::object> out;
    for (const auto& m : received) {
      if (m.at("type").as_string() == type) out.push_back(m);
    }
    return out;
  }
};

class OperatorChannelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/clawexec-opsock-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    ::chmod(dir_.c_str(), 0700);
    path_ = dir_ + "/exec-approvals.sock";
  }
  void TearDown() override {
    channels_.clear();
    io_.restart();
    io_.poll();
    std::filesystem::remove_all(dir_);
  }

  OperatorChannel& add_channel(FakeProcess& process, const std::string& token = "secret-token") {
    return add_channel(process, OperatorChannel::Options{}, token);
  }

  OperatorChannel& add_channel(FakeProcess& process, OperatorChannel::Options options,
                               const std::string& token = "secret-token") {
    options.retry_initial_ms = 5;
    options.retry_max_ms = 40;
    if (!options.log) options.log = [this](const std::string& line) { logged_.push_back(line); };
    channels_.push_back(std::make_unique<OperatorChannel>(io_, path_, token, process.provider(), options));
    channels_.back()->start();
    return *channels_.back();
  }

  bool run_until(const std::function<bool()>& done, int timeout_ms = 4000) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    while (!done()) {
      if (std::chrono::steady_clock::now() > deadline) return false;
      io_.restart();
      io_.run_for(std::chrono::milliseconds(5));
    }
    return true;
  }

  // Sends a request and waits for the first reply of `type`.
  bj::object ask(Operator& op, bj::object request, const std::string& type) {
    const size_t before = op.of_type(type).size();
    op.conn->send(request);
    EXPECT_TRUE(run_until([&] { return op.of_type(type).size() > before; })) << "no " << type << " reply";
    auto replies = op.of_type(type);
    return replies.size() > before ? replies.back() : bj::object{};
  }

  std::vector<std::string> listed_ids(Operator& op) {
    bj::object reply = ask(op, {{"type", "list"}}, "pending");
    std::vector<std::string> ids;
    for (const auto& a : reply.at("approvals").as_array()) ids.emplace_back(a.at("id").as_string());
    return ids;
  }

  boost::asio::io_context io_;
  std::string dir_;
  std::string path_;
  std::vector<std::unique_ptr<OperatorChannel>> channels_;
  std::vector<std::string> logged_;
};

// ---- decisions come from humans ----

constexpr const char* kRefusal =
    "operator channel: refusing a peer that runs under a clawexec command (pid 4321); approvals must come from a human";

TEST_F(OperatorChannelTest, TheHubRefusesAnOperatorThatRunsUnderAClawexecCommand) {
  FakeProcess a;
  a.pending = {approval("aaaa1111-0000-4000-8000-000000000001", 1)};
  OperatorChannel::Options options;
  options.refuse_peer = [](int) -> std::optional<std::string> { return kRefusal; };
  OperatorChannel& hub = add_channel(a, options);
  ASSERT_TRUE(run_until([&] { return hub.is_hub(); }));
  Operator op(io_, path_, "secret-token");
  ASSERT_TRUE(run_until([&] { return op.closed; }));
  ASSERT_EQ(op.of_type("error").size(), 1u);
  EXPECT_EQ(op.of_type("error")[0].at("error"), bj::value(kRefusal));
  EXPECT_TRUE(op.of_type("hello").empty());
  op.conn->send({{"type", "resolve"}, {"id", "aaaa1111"}, {"decision", "allow-once"}});
  run_until([] { return false; }, 50);
  EXPECT_TRUE(a.resolved.empty()) << "the token alone resolves nothing";
  ASSERT_FALSE(logged_.empty());
  EXPECT_EQ(logged_.back(), kRefusal) << "the server logs the refusal";
}

TEST_F(OperatorChannelTest, TheHubRefusesAMemberThatRunsUnderAClawexecCommand) {
  FakeProcess a, b;
  b.pending = {approval("bbbb2222-0000-4000-8000-000000000002", 2)};
  bool refuse = false;
  int refused = 0;
  OperatorChannel::Options hub_options;
  hub_options.refuse_peer = [&](int) -> std::optional<std::string> {
    if (!refuse) return std::nullopt;
    ++refused;
    return std::string(kRefusal);
  };
  OperatorChannel& hub = add_channel(a, hub_options);
  ASSERT_TRUE(run_until([&] { return hub.is_hub(); }));
  refuse = true;
  OperatorChannel& member = add_channel(b);
  ASSERT_TRUE(run_until([&] { return refused >= 3; })) << "the member keeps trying and keeps being refused";
  EXPECT_FALSE(member.is_member());
  EXPECT_FALSE(member.is_hub());
  member.stop();
  refuse = false;
  Operator op(io_, path_, "secret-token");
  ASSERT_TRUE(run_until([&] { return !op.of_type("hello").empty(); }));
  EXPECT_TRUE(listed_ids(op).empty()) << "a refused member injects nothing";
}

TEST_F(OperatorChannelTest, AMemberRefusesAHubThatRunsUnderAClawexecCommand) {
  FakeProcess a, b;
  OperatorChannel& hub = add_channel(a);
  ASSERT_TRUE(run_until([&] { return hub.is_hub(); }));
  OperatorChannel::Options options;
  options.refuse_peer = [](int) -> std::optional<std::string> { return kRefusal; };
  OperatorChannel& member = add_channel(b, options);
  ASSERT_TRUE(run_until([&] { return !member.last_error().empty(); }));
  run_until([] { return false; }, 200);
  EXPECT_FALSE(member.is_member());
  EXPECT_NE(member.last_error().find(kRefusal), std::string::npos) << member.last_error();
  EXPECT_EQ(logged_.size(), 1u) << "retries do not repeat the log line";
}

TEST_F(OperatorChannelTest, AProcessThatRunsUnderAClawexecCommandDoesNotJoin) {
  FakeProcess a, b;
  OperatorChannel::Options options;
  options.refuse_self = []() -> std::optional<std::string> { return std::string("operator channel: not joining"); };
  OperatorChannel& nested = add_channel(a, options);
  run_until([] { return false; }, 100);
  EXPECT_FALSE(nested.is_hub());
  EXPECT_FALSE(nested.is_member());
  EXPECT_EQ(nested.last_error(), "operator channel: not joining");
  OperatorChannel& real = add_channel(b);
  ASSERT_TRUE(run_until([&] { return real.is_hub(); })) << "the socket is left to the real servers";
}

TEST_F(OperatorChannelTest, TheRealChecksAcceptThisTestProcess) {
  FakeProcess a, b;
  OperatorChannel::Options real;
  real.log = nullptr;
  OperatorChannel& hub = add_channel(a, real);
  ASSERT_TRUE(run_until([&] { return hub.is_hub(); }));
  OperatorChannel& member = add_channel(b, real);
  ASSERT_TRUE(run_until([&] { return member.is_member(); }));
  Operator op(io_, path_, "secret-token");
  ASSERT_TRUE(run_until([&] { return !op.of_type("hello").empty(); }));
  EXPECT_TRUE(logged_.empty());
}

TEST_F(OperatorChannelTest, FirstChannelBecomesHubAndSecondBecomesMember) {
  FakeProcess a, b;
  OperatorChannel& hub = add_channel(a);
  ASSERT_TRUE(run_until([&] { return hub.is_hub(); }));
  OperatorChannel& member = add_channel(b);
  ASSERT_TRUE(run_until([&] { return member.is_member(); }));
  EXPECT_TRUE(hub.is_hub());
  EXPECT_FALSE(member.is_hub());
  struct stat st {};
  ASSERT_EQ(::lstat(path_.c_str(), &st), 0);
  EXPECT_TRUE(S_ISSOCK(st.st_mode));
  EXPECT_EQ(st.st_mode & 0777, 0600u);
}

TEST_F(OperatorChannelTest, ListShowsThePendingApprovalsOfEveryProcessOldestFirst) {
  FakeProcess a, b;
  a.pending = {approval("aaaa1111-0000-4000-8000-000000000001", 200)};
  b.pending = {approval("bbbb2222-0000-4000-8000-000000000002", 100)};
  OperatorChannel& hub = add_channel(a);
  ASSERT_TRUE(run_until([&] { return hub.is_hub(); }));
  OperatorChannel& member = add_channel(b);
  ASSERT_TRUE(run_until([&] { return member.is_member(); }));
  Operator op(io_, path_, "secret-token");
  ASSERT_TRUE(run_until([&] { return !op.of_type("hello").empty(); }));
  EXPECT_EQ(op.of_type("hello")[0].at("ok"), bj::value(true));
  bj::object reply;
  ASSERT_TRUE(run_until([&] {
    reply = ask(op, {{"type", "list"}, {"requestId", 7}}, "pending");
    return reply.at("approvals").as_array().size() == 2;
  }));
  const bj::array& list = reply.at("approvals").as_array();
  EXPECT_EQ(list[0].at("id"), bj::value("bbbb2222-0000-4000-8000-000000000002"));
  EXPECT_EQ(list[1].at("id"), bj::value("aaaa1111-0000-4000-8000-000000000001"));
  EXPECT_EQ(list[0].at("pid"), bj::value(static_cast<int64_t>(::getpid())));
  EXPECT_EQ(list[0].at("command"), bj::value("echo bbbb2222-0000-4000-8000-000000000002"));
  EXPECT_EQ(reply.at("requestId"), bj::value(7));
}

TEST_F(OperatorChannelTest, ResolveByPrefixReachesTheOwningProviderWithTheFullId) {
  FakeProcess a, b;
  a.pending = {approval("aaaa1111-0000-4000-8000-000000000001", 1)};
  b.pending = {approval("bbbb2222-0000-4000-8000-000000000002", 2)};
  OperatorChannel& hub = add_channel(a);
  ASSERT_TRUE(run_until([&] { return hub.is_hub(); }));
  OperatorChannel& member = add_channel(b);
  ASSERT_TRUE(run_until([&] { return member.is_member(); }));
  Operator op(io_, path_, "secret-token");
  ASSERT_TRUE(run_until([&] { return listed_ids(op).size() == 2; }));

  bj::object r1 = ask(op, {{"type", "resolve"}, {"id", "BBBB2222"}, {"decision", "deny"}}, "resolved");
  EXPECT_EQ(r1.at("ok"), bj::value(true));
  EXPECT_EQ(r1.at("id"), bj::value("bbbb2222-0000-4000-8000-000000000002"));
  EXPECT_EQ(r1.at("decision"), bj::value("deny"));
  ASSERT_EQ(b.resolved.size(), 1u);
  EXPECT_EQ(b.resolved[0], "bbbb2222-0000-4000-8000-000000000002 deny operator");
  EXPECT_TRUE(a.resolved.empty());

  bj::object r2 = ask(op, {{"type", "resolve"}, {"id", "aaaa"}, {"decision", "allow-once"}, {"resolvedBy", "cli"}},
                      "resolved");
  EXPECT_EQ(r2.at("ok"), bj::value(true));
  ASSERT_EQ(a.resolved.size(), 1u);
  EXPECT_EQ(a.resolved[0], "aaaa1111-0000-4000-8000-000000000001 allow-once cli");
}

TEST_F(OperatorChannelTest, ResolveFailuresAreReportedWithTheReferenceMessages) {
  FakeProcess a, b;
  a.pending = {approval("abcd1111-0000-4000-8000-000000000001", 1, {"allow-once", "deny"})};
  b.pending = {approval("abcd2222-0000-4000-8000-000000000002", 2)};
  OperatorChannel& hub = add_channel(a);
  ASSERT_TRUE(run_until([&] { return hub.is_hub(); }));
  OperatorChannel& member = add_channel(b);
  ASSERT_TRUE(run_until([&] { return member.is_member(); }));
  Operator op(io_, path_, "secret-token");
  ASSERT_TRUE(run_until([&] { return listed_ids(op).size() == 2; }));

  auto error_of = [&](const std::string& id, const std::string& decision) {
    bj::object r = ask(op, {{"type", "resolve"}, {"id", id}, {"decision", decision}}, "resolved");
    EXPECT_EQ(r.at("ok"), bj::value(false));
    return r.contains("error") ? std::string(r.at("error").as_string()) : std::string();
  };
  EXPECT_EQ(error_of("abcd", "deny"), "ambiguous approval id prefix; use the full id");
  EXPECT_EQ(error_of("ffff", "deny"), "unknown or expired approval id");
  EXPECT_EQ(error_of("abcd1", "allow-always"), "allow-always is unavailable for this command");
  EXPECT_EQ(error_of("abcd1", "sure"), "invalid decision");
  b.fail_with = "Exec approval changed before execution";
  EXPECT_EQ(error_of("abcd2", "allow-once"), "Exec approval changed before execution");
  EXPECT_TRUE(a.resolved.empty());
}

TEST_F(OperatorChannelTest, WrongTokenIsRefusedAndClosed) {
  FakeProcess a;
  OperatorChannel& hub = add_channel(a);
  ASSERT_TRUE(run_until([&] { return hub.is_hub(); }));
  Operator op(io_, path_, "not-the-token");
  ASSERT_TRUE(run_until([&] { return op.closed; }));
  ASSERT_EQ(op.received.size(), 1u);
  EXPECT_EQ(json::serialize(op.received[0]), R"({"type":"error","error":"invalid token"})");
}

TEST_F(OperatorChannelTest, RequestsBeforeHelloAreRefused) {
  FakeProcess a;
  OperatorChannel& hub = add_channel(a);
  ASSERT_TRUE(run_until([&] { return hub.is_hub(); }));
  stream_protocol::socket socket(io_);
  socket.connect(stream_protocol::endpoint(path_));
  auto conn = std::make_shared<JsonConnection>(std::move(socket));
  std::vector<bj::object> got;
  bool closed = false;
  conn->start([&](const bj::object& m) { got.push_back(m); }, [&] { closed = true; });
  conn->send({{"type", "list"}});
  ASSERT_TRUE(run_until([&] { return closed; }));
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].at("error"), bj::value("hello required"));
}

TEST_F(OperatorChannelTest, MemberWithTheWrongTokenNeverJoins) {
  FakeProcess a, b;
  b.pending = {approval("bbbb2222-0000-4000-8000-000000000002", 2)};
  OperatorChannel& hub = add_channel(a);
  ASSERT_TRUE(run_until([&] { return hub.is_hub(); }));
  OperatorChannel& member = add_channel(b, "stale-token");
  run_until([] { return false; }, 200);
  EXPECT_FALSE(member.is_member());
  EXPECT_FALSE(member.is_hub());
  Operator op(io_, path_, "secret-token");
  EXPECT_TRUE(listed_ids(op).empty());
}

TEST_F(OperatorChannelTest, HubStopHandsTheSocketToAMemberWhichRepublishes) {
  FakeProcess a, b, c;
  a.pending = {approval("aaaa1111-0000-4000-8000-000000000001", 1)};
  b.pending = {approval("bbbb2222-0000-4000-8000-000000000002", 2)};
  c.pending = {approval("cccc3333-0000-4000-8000-000000000003", 3)};
  OperatorChannel& hub = add_channel(a);
  ASSERT_TRUE(run_until([&] { return hub.is_hub(); }));
  OperatorChannel& m1 = add_channel(b);
  OperatorChannel& m2 = add_channel(c);
  ASSERT_TRUE(run_until([&] { return m1.is_member() && m2.is_member(); }));

  hub.stop();
  EXPECT_FALSE(hub.is_hub());
  ASSERT_TRUE(run_until([&] { return (m1.is_hub() && m2.is_member()) || (m2.is_hub() && m1.is_member()); }));
  Operator op(io_, path_, "secret-token");
  std::vector<std::string> ids;
  ASSERT_TRUE(run_until([&] {
    ids = listed_ids(op);
    return ids.size() == 2;
  }));
  EXPECT_EQ(ids, (std::vector<std::string>{"bbbb2222-0000-4000-8000-000000000002",
                                           "cccc3333-0000-4000-8000-000000000003"}));
  // The new hub routes resolutions to the remaining member too.
  OperatorChannel& new_member = m1.is_member() ? m1 : m2;
  FakeProcess& member_process = m1.is_member() ? b : c;
  (void)new_member;
  bj::object r = ask(op, {{"type", "resolve"}, {"id", std::string(member_process.pending[0].at("id").as_string())},
                          {"decision", "allow-once"}}, "resolved");
  EXPECT_EQ(r.at("ok"), bj::value(true));
  EXPECT_EQ(member_process.resolved.size(), 1u);
}

TEST_F(OperatorChannelTest, StoppedHubRemovesItsSocketFile) {
  FakeProcess a;
  OperatorChannel& hub = add_channel(a);
  ASSERT_TRUE(run_until([&] { return hub.is_hub(); }));
  hub.stop();
  EXPECT_NE(::access(path_.c_str(), F_OK), 0);
}

TEST_F(OperatorChannelTest, StaleSocketFileIsReplaced) {
  // A socket file left behind by a crashed hub: bound, then closed without unlinking.
  int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::snprintf(addr.sun_path, sizeof(addr.sun_path), "%s", path_.c_str());
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
  ::close(fd);
  FakeProcess a;
  OperatorChannel& hub = add_channel(a);
  ASSERT_TRUE(run_until([&] { return hub.is_hub(); }));
  Operator op(io_, path_, "secret-token");
  ASSERT_TRUE(run_until([&] { return !op.of_type("hello").empty(); }));
}

TEST_F(OperatorChannelTest, ARegularFileAtTheSocketPathIsNeverReplaced) {
  { std::FILE* f = std::fopen(path_.c_str(), "w"); std::fputs("keep", f); std::fclose(f); }
  FakeProcess a;
  OperatorChannel& channel = add_channel(a);
  run_until([] { return false; }, 100);
  EXPECT_FALSE(channel.is_hub());
  EXPECT_NE(channel.last_error().find("not a socket"), std::string::npos) << channel.last_error();
  struct stat st {};
  ASSERT_EQ(::lstat(path_.c_str(), &st), 0);
  EXPECT_TRUE(S_ISREG(st.st_mode));
}

TEST_F(OperatorChannelTest, SubscribersSeeRequestsAndResolutionsOfEveryProcess) {
  FakeProcess a, b;
  OperatorChannel& hub = add_channel(a);
  ASSERT_TRUE(run_until([&] { return hub.is_hub(); }));
  OperatorChannel& member = add_channel(b);
  ASSERT_TRUE(run_until([&] { return member.is_member(); }));
  Operator op(io_, path_, "secret-token");
  ask(op, {{"type", "subscribe"}}, "subscribed");

  b.pending.push_back(approval("bbbb2222-0000-4000-8000-000000000002", 2));
  member.publish_requested(b.pending.back());
  a.pending.push_back(approval("aaaa1111-0000-4000-8000-000000000001", 1));
  hub.publish_requested(a.pending.back());
  ASSERT_TRUE(run_until([&] { return op.of_type("event").size() == 2; }));
  member.publish_resolved("bbbb2222-0000-4000-8000-000000000002", "deny", "operator");
  hub.publish_resolved("aaaa1111-0000-4000-8000-000000000001", "", "expired");
  member.publish_event("exec.finished", {{"id", "bbbb2222"}, {"exitCode", 0}});
  ASSERT_TRUE(run_until([&] { return op.of_type("event").size() == 5; }));
  auto events = op.of_type("event");
  std::vector<std::string> kinds;
  for (const auto& e : events) kinds.emplace_back(e.at("event").as_string());
  // Member and hub events travel different paths; only per-process order is guaranteed.
  std::sort(kinds.begin(), kinds.end());
  EXPECT_EQ(kinds, (std::vector<std::string>{"exec.finished", "requested", "requested", "resolved", "resolved"}));
  for (const auto& e : events) {
    if (e.at("event") == "resolved" && e.at("id") == "bbbb2222-0000-4000-8000-000000000002") {
      EXPECT_EQ(e.at("decision"), bj::value("deny"));
      EXPECT_EQ(e.at("resolvedBy"), bj::value("operator"));
    }
    if (e.at("event") == "resolved" && e.at("id") == "aaaa1111-0000-4000-8000-000000000001") {
      EXPECT_TRUE(e.at("decision").is_null());
    }
    if (e.at("event") == "requested") {
      EXPECT_TRUE(e.at("approval").as_object().contains("pid"));
    }
  }
  // The member's resolved approval is gone from the hub's list.
  a.pending.clear();
  EXPECT_TRUE(listed_ids(op).empty());
}

TEST_F(OperatorChannelTest, MemberDisconnectDropsItsApprovals) {
  FakeProcess a, b;
  b.pending = {approval("bbbb2222-0000-4000-8000-000000000002", 2)};
  OperatorChannel& hub = add_channel(a);
  ASSERT_TRUE(run_until([&] { return hub.is_hub(); }));
  OperatorChannel& member = add_channel(b);
  ASSERT_TRUE(run_until([&] { return member.is_member(); }));
  Operator op(io_, path_, "secret-token");
  ASSERT_TRUE(run_until([&] { return listed_ids(op).size() == 1; }));
  member.stop();
  ASSERT_TRUE(run_until([&] { return listed_ids(op).empty(); }));
}

TEST_F(OperatorChannelTest, ApproveCommandTextResolvesWithTheReferenceReplies) {
  FakeProcess a, b;
  a.pending = {approval("abcd1111-0000-4000-8000-000000000001", 1)};
  b.pending = {approval("abcd2222-0000-4000-8000-000000000002", 2)};
  OperatorChannel& hub = add_channel(a);
  ASSERT_TRUE(run_until([&] { return hub.is_hub(); }));
  OperatorChannel& member = add_channel(b);
  ASSERT_TRUE(run_until([&] { return member.is_member(); }));
  Operator op(io_, path_, "secret-token");
  ASSERT_TRUE(run_until([&] { return listed_ids(op).size() == 2; }));
  auto say = [&](const std::string& text) {
    bj::object r = ask(op, {{"type", "command"}, {"text", text}}, "reply");
    return r.contains("text") ? std::string(r.at("text").as_string()) : std::string();
  };
  EXPECT_EQ(say("/approve abcd allow-once"), "❌ Failed to submit approval: ambiguous approval id prefix; use the full id");
  EXPECT_EQ(say("/approve abcd2222"),
            "Usage: /approve <id> <decision> (see the pending approval message for available decisions)");
  EXPECT_EQ(say("/approve 9999 deny"), "❌ Failed to submit approval: unknown or expired approval id");
  EXPECT_TRUE(b.resolved.empty());
  EXPECT_EQ(say("/approve always abcd2222"), "✅ Approval allow-always submitted for abcd2222.");
  ASSERT_EQ(b.resolved.size(), 1u);
  EXPECT_EQ(b.resolved[0], "abcd2222-0000-4000-8000-000000000002 allow-always operator");
  EXPECT_TRUE(a.resolved.empty());

  bj::object refused = ask(op, {{"type", "command"}, {"text", "/status"}}, "error");
  EXPECT_NE(std::string(refused.at("error").as_string()).find("unsupported command"), std::string::npos);
}

TEST(OperatorChannelIds, LookupFollowsTheReferenceOrder) {
  const std::vector<std::string> ids{"abcdef12-0000-4000-8000-000000000001", "abcdef99-0000-4000-8000-000000000002",
                                     "ABC"};
  EXPECT_EQ(lookup_approval_id("ABC", ids).kind, IdLookup::Kind::kExact);
  EXPECT_EQ(lookup_approval_id("  abcdef12-0000-4000-8000-000000000001 ", ids).kind, IdLookup::Kind::kExact);
  IdLookup prefix = lookup_approval_id("ABCDEF1", ids);
  EXPECT_EQ(prefix.kind, IdLookup::Kind::kPrefix);
  EXPECT_EQ(prefix.id, "abcdef12-0000-4000-8000-000000000001");
  EXPECT_EQ(lookup_approval_id("abcdef", ids).kind, IdLookup::Kind::kAmbiguous);
  EXPECT_EQ(lookup_approval_id("zz", ids).kind, IdLookup::Kind::kNone);
  EXPECT_EQ(lookup_approval_id("   ", ids).kind, IdLookup::Kind::kNone);
}

TEST(OperatorChannelLines, SplitsLinesAndRejectsOversizedOnes) {
  LineBuffer buffer;
  std::vector<std::string> lines;
  ASSERT_TRUE(buffer.feed("{\"a\":1}\r\n{\"b\"", lines));
  ASSERT_TRUE(buffer.feed(":2}\n\n", lines));
  EXPECT_EQ(lines, (std::vector<std::string>{"{\"a\":1}", "{\"b\":2}"}));
  LineBuffer big;
  std::string chunk(kOperatorMaxLineBytes / 2 + 1, 'x');
  EXPECT_TRUE(big.feed(chunk, lines));
  EXPECT_FALSE(big.feed(chunk, lines));
}

}  // namespace
}  // namespace clawexec::approvals
