#include "exec/target.h"

#include <gtest/gtest.h>

namespace clawexec::exec {
namespace {

Target ok(TargetInput in) {
  Result<Target> r = resolve_exec_target(in);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return r.ok() ? r.value() : Target{ExecHost::kAuto, ExecHost::kAuto};
}

std::string err(TargetInput in) {
  Result<Target> r = resolve_exec_target(in);
  EXPECT_FALSE(r.ok());
  return r.ok() ? "" : r.error().message;
}

TEST(ResolveExecTarget, FollowsTheReferenceTable) {
  EXPECT_EQ(ok({}).effective, ExecHost::kGateway);
  EXPECT_EQ(ok({.sandbox_available = true}).effective, ExecHost::kSandbox);
  EXPECT_EQ(ok({.requested = ExecHost::kGateway}).effective, ExecHost::kGateway);
  EXPECT_EQ(ok({.requested = ExecHost::kNode}).effective, ExecHost::kNode);
  EXPECT_EQ(ok({.requested = ExecHost::kSandbox}).effective, ExecHost::kSandbox);
  EXPECT_EQ(ok({.configured = ExecHost::kNode}).effective, ExecHost::kNode);
  EXPECT_EQ(ok({.requested = ExecHost::kAuto}).effective, ExecHost::kGateway);
}

TEST(ResolveExecTarget, RejectsOverridesOfAConcreteHost) {
  // Conformance §8.2 #14 and #15.
  EXPECT_EQ(err({.configured = ExecHost::kGateway, .requested = ExecHost::kNode}),
            "exec host not allowed (requested node; configured host is gateway; set tools.exec.host=node or "
            "auto to allow this override).");
  EXPECT_EQ(err({.requested = ExecHost::kGateway, .sandbox_available = true}),
            "exec host not allowed (requested gateway; configured host is auto; set tools.exec.host=gateway to "
            "allow this override).");
  EXPECT_EQ(err({.configured = ExecHost::kNode, .requested = ExecHost::kGateway}),
            "exec host not allowed (requested gateway; configured host is node; set tools.exec.host=gateway or "
            "auto to allow this override).");
}

TEST(ResolveExecTarget, ElevatedRoutesToTheHost) {
  // Conformance §8.2 #16.
  EXPECT_EQ(ok({.elevated_requested = true, .sandbox_available = true}).effective, ExecHost::kGateway);
  EXPECT_EQ(ok({.requested = ExecHost::kNode, .elevated_requested = true}).effective, ExecHost::kNode);
}

TEST(ResolveExecTarget, SandboxRequiredSessions) {
  EXPECT_EQ(err({.sandbox_required = true}),
            "This session requires a sandbox, but its sandbox runtime is unavailable.");
  EXPECT_EQ(err({.elevated_requested = true, .sandbox_available = true, .sandbox_required = true}),
            "Elevated execution is unavailable because this session requires a sandbox.");
  EXPECT_EQ(err({.requested = ExecHost::kGateway, .sandbox_available = true, .sandbox_required = true}),
            "exec host not allowed (requested gateway; this session requires a sandbox).");
}

TEST(ParseRequestedHost, AcceptsKnownNamesAndRejectsEverythingElse) {
  EXPECT_EQ(parse_requested_host(std::string(" GateWay ")).value(), ExecHost::kGateway);
  EXPECT_FALSE(parse_requested_host(std::string("  ")).value().has_value());
  EXPECT_FALSE(parse_requested_host(std::nullopt).value().has_value());
  EXPECT_EQ(parse_requested_host(std::string("example.com")).error().message,
            "Invalid exec host \"example.com\". Allowed values: auto, sandbox, gateway, node.");
}

}  // namespace
}  // namespace clawexec::exec
