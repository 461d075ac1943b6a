#include <gtest/gtest.h>

#include <vector>

#include "rpc/correlator.h"
#include "rpc/peer.h"

namespace clawexec::rpc {
namespace {

TEST(Correlator, DeliversEachAnswerOnceToItsOwnWaiter) {
  Correlator c("x-");
  std::vector<std::string> got;
  std::string a = c.expect([&](Result<json::Value> r) { got.push_back("a:" + json::serialize(*r)); });
  std::string b = c.expect([&](Result<json::Value> r) { got.push_back("b:" + json::serialize(*r)); });
  EXPECT_NE(a, b);
  EXPECT_EQ(a.rfind("x-", 0), 0u);
  EXPECT_TRUE(c.settle(b, json::Value(2)));
  EXPECT_TRUE(c.settle(a, json::Value(1)));
  EXPECT_FALSE(c.settle(a, json::Value(3)));  // already answered
  EXPECT_FALSE(c.settle("x-99", json::Value(4)));
  EXPECT_EQ(got, (std::vector<std::string>{"b:2", "a:1"}));
  EXPECT_EQ(c.waiting(), 0u);
}

TEST(Correlator, FailsWhatStillWaitsWhenDestroyed) {
  std::vector<std::string> errors;
  {
    Correlator c("x-");
    c.set_closed_reason("peer gone");
    c.expect([&](Result<json::Value> r) { errors.push_back(r.ok() ? "ok" : r.error().message); });
  }
  EXPECT_EQ(errors, (std::vector<std::string>{"peer gone"}));
}

TEST(Correlator, AWaiterMayAskAgainFromItsCallback) {
  Correlator c("x-");
  std::string second;
  std::string first = c.expect([&](Result<json::Value>) { second = c.expect([](Result<json::Value>) {}); });
  c.fail_all(Error{ErrorCode::kCancelled, 0, "closed"});
  EXPECT_FALSE(second.empty());
  EXPECT_EQ(c.waiting(), 1u);  // the new request waits normally
  EXPECT_TRUE(c.settle(second, json::Value(nullptr)));
}

struct Recorder {
  std::vector<std::string> lines;
  Channel channel() {
    return [this](std::string line) { lines.push_back(std::move(line)); };
  }
};

TEST(Peer, AnswersAResponseOnTheChannelTheRequestWasSentOn) {
  Recorder stream_a, stream_b;
  Peer peer("the client", "clawexec-", {});
  Result<json::Value> answer = Error::internal("unset");
  peer.request(stream_b.channel(), "elicitation/create", json::Object{{"message", "m"}},
               [&](Result<json::Value> r) { answer = std::move(r); });
  ASSERT_TRUE(stream_a.lines.empty());
  ASSERT_EQ(stream_b.lines.size(), 1u);
  json::Value sent = *json::parse(stream_b.lines[0]);
  const json::Value* id = json::find(sent.get_object(), "id");
  ASSERT_TRUE(id && id->is_string());
  EXPECT_EQ(json::find(sent.get_object(), "method")->get_string(), "elicitation/create");
  // The response may arrive on any stream (a new POST, say).
  peer.receive(R"({"jsonrpc":"2.0","id":)" + json::serialize(*id) + R"(,"result":{"action":"accept"}})",
               stream_a.channel());
  ASSERT_TRUE(answer.ok());
  EXPECT_EQ(json::serialize(*answer), R"({"action":"accept"})");
  EXPECT_TRUE(stream_a.lines.empty());  // a response is never answered
  EXPECT_EQ(peer.waiting(), 0u);
}

TEST(Peer, AnErrorResponseNamesTheMethodAndWhatThePeerSaid) {
  Recorder out;
  Peer peer("the client", "clawexec-", {});
  Result<json::Value> answer = json::Value(nullptr);
  peer.request(out.channel(), "elicitation/create", {}, [&](Result<json::Value> r) { answer = std::move(r); });
  peer.receive(R"({"jsonrpc":"2.0","id":"clawexec-1","error":{"code":-1,"message":"no UI"}})", out.channel());
  ASSERT_FALSE(answer.ok());
  EXPECT_EQ(answer.error().code, ErrorCode::kRejected);
  EXPECT_EQ(answer.error().message, "elicitation/create: the client answered with an error: no UI");
}

TEST(Peer, IgnoresResponsesThatAreNotOurs) {
  Recorder out;
  int calls = 0;
  Peer peer("the client", "clawexec-", {});
  peer.request(out.channel(), "m", {}, [&](Result<json::Value>) { ++calls; });
  peer.receive(R"({"jsonrpc":"2.0","id":1,"result":{}})", out.channel());            // numeric: never ours
  peer.receive(R"({"jsonrpc":"2.0","id":"clawexec-7","result":{}})", out.channel());  // never sent
  EXPECT_EQ(calls, 0);
  peer.receive(R"({"jsonrpc":"2.0","id":"clawexec-1","result":{}})", out.channel());
  peer.receive(R"({"jsonrpc":"2.0","id":"clawexec-1","result":{}})", out.channel());  // twice
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(out.lines.size(), 1u);  // only our request
}

TEST(Peer, HandsRequestsAndNotificationsUpAndAnswersGarbageOnItsChannel) {
  Recorder a, b;
  std::vector<std::string> seen;
  Peer::Handlers handlers;
  handlers.request = [&](const json::Value& id, const std::string& method, const json::Value&, const Channel& reply) {
    seen.push_back("req " + method + " " + json::serialize(id));
    reply("answer");
  };
  handlers.notification = [&](const std::string& method, const json::Value&) { seen.push_back("note " + method); };
  Peer peer("the client", "clawexec-", handlers);
  peer.receive(R"({"jsonrpc":"2.0","id":5,"method":"ping"})", b.channel());
  peer.receive(R"({"jsonrpc":"2.0","method":"notifications/initialized"})", a.channel());
  peer.receive("   ", a.channel());
  peer.receive("{not json", a.channel());
  EXPECT_EQ(seen, (std::vector<std::string>{"req ping 5", "note notifications/initialized"}));
  EXPECT_EQ(b.lines, (std::vector<std::string>{"answer"}));
  ASSERT_EQ(a.lines.size(), 1u);
  EXPECT_NE(a.lines[0].find("-32700"), std::string::npos);
}

TEST(Peer, CloseFailsWaitingRequestsWithTheReason) {
  Recorder out;
  Peer peer("the client", "clawexec-", {});
  Result<json::Value> answer = json::Value(nullptr);
  peer.request(out.channel(), "m", {}, [&](Result<json::Value> r) { answer = std::move(r); });
  peer.close("the MCP connection closed");
  ASSERT_FALSE(answer.ok());
  EXPECT_EQ(answer.error().code, ErrorCode::kCancelled);
  EXPECT_EQ(answer.error().message, "the MCP connection closed");
}

}  // namespace
}  // namespace clawexec::rpc
