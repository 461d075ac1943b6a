// Reference conformance cases for "handleApproveCommand": each case's text is handled with two
// fake resolvers standing in for the reference's exec and plugin approval methods, and the
// reply, the resolve call and the number of resolver calls are checked against the case.

#include <gtest/gtest.h>

#include "policy/approve_command.h"
#include "policy/conformance_cases.h"

namespace clawexec::policy {
namespace {

struct Call {
  std::string method;
  ApproveRequest request;
};

TEST(ApproveCommandConformance, HandleApproveCommandCases) {
  std::vector<boost::json::object> cases = testing::load_cases({"handleApproveCommand"});
  ASSERT_EQ(cases.size(), 2u);
  for (const boost::json::object& c : cases) {
    SCOPED_TRACE(testing::case_id(c));
    std::vector<Call> calls;
    std::optional<std::string> resolver_error;
    if (const boost::json::value* e = c.if_contains("resolverError")) resolver_error = std::string(e->as_string());
    auto resolver = [&](std::string method) -> ApprovalResolver {
      return [&calls, &resolver_error, method](const ApproveRequest& r) -> Result<void> {
        calls.push_back({method, r});
        if (resolver_error) return Error::invalid(*resolver_error);
        return {};
      };
    };
    std::optional<std::string> reply = handle_approve_command(
        std::string(c.at("text").as_string()), {resolver("exec.approval.resolve"), resolver("plugin.approval.resolve")});

    const boost::json::object& expect = c.at("expect").as_object();
    // Every case is an /approve command, which always ends the turn (shouldContinue false).
    ASSERT_TRUE(reply.has_value());
    if (const boost::json::value* contains = expect.if_contains("replyContains")) {
      EXPECT_NE(reply->find(std::string(contains->as_string())), std::string::npos) << *reply;
    }
    if (const boost::json::value* resolve = expect.if_contains("resolve")) {
      const boost::json::object& want = resolve->as_object();
      ASSERT_FALSE(calls.empty());
      EXPECT_EQ(calls[0].method, want.at("method").as_string());
      EXPECT_EQ(calls[0].request.id, want.at("id").as_string());
      EXPECT_EQ(to_string(calls[0].request.decision), want.at("decision").as_string());
    }
    if (const boost::json::value* count = expect.if_contains("resolverCalls")) {
      EXPECT_EQ(calls.size(), static_cast<size_t>(count->as_int64()));
    }
  }
}

}  // namespace
}  // namespace clawexec::policy
