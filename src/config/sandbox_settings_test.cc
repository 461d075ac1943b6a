#include "config/sandbox_settings.h"

#include <gtest/gtest.h>

#include <boost/json/parse.hpp>
#include <map>

namespace clawexec::config {
namespace {

Result<SandboxSettings> read(const std::string& text, std::string_view agent = "main",
                             std::map<std::string, std::string> links = {}) {
  boost::json::value doc = boost::json::parse(text);
  return read_sandbox_settings(doc.get_object(), agent, "/home/u", [links](const std::string& p) {
    for (const auto& [from, to] : links) {
      if (p.rfind(from, 0) == 0) return to + p.substr(from.size());
    }
    return p;
  });
}

std::string error_of(const std::string& text) {
  Result<SandboxSettings> r = read(text);
  return r.ok() ? std::string("(no error)") : r.error().message;
}

TEST(SandboxSettings, DefaultsAreOpenClawsAndOffMeansNoSandbox) {
  Result<SandboxSettings> r = read("{}");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->mode, SandboxMode::kOff);
  EXPECT_EQ(r->scope, SandboxScope::kAgent);
  EXPECT_EQ(r->workspace_access, WorkspaceAccess::kNone);
  EXPECT_EQ(r->workdir, "/workspace");
  EXPECT_EQ(r->tmpfs, (std::vector<std::string>{"/tmp", "/var/tmp", "/run"}));
  EXPECT_EQ(r->prune_idle_ms, 24 * 3600000);
  EXPECT_EQ(r->prune_max_age_ms, 7 * 86400000LL);
  EXPECT_FALSE(sandbox_active(*r, "agent:main:main", "main"));
}

TEST(SandboxSettings, AgentEntriesOverrideAndBindsMerge) {
  Result<SandboxSettings> r = read(R"({"agents":{
      "defaults":{"sandbox":{"mode":"all","scope":"shared","docker":{"binds":["/data/a:/a:ro"],"pidsLimit":64}}},
      "entries":{"Work":{"sandbox":{"mode":"non-main","workspaceAccess":"rw",
                                    "docker":{"binds":["/data/b:/b"],"memory":"512m","cpus":1.5,
                                              "ulimits":{"nofile":{"soft":100,"hard":200},"nproc":50},
                                              "env":{"A":"1"},"user":"1000:1000"}}}}}})",
                                   "work");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->mode, SandboxMode::kNonMain);
  EXPECT_EQ(r->scope, SandboxScope::kShared);
  EXPECT_EQ(r->workspace_access, WorkspaceAccess::kRw);
  ASSERT_EQ(r->binds.size(), 2u);
  EXPECT_TRUE(r->binds[0].read_only);
  EXPECT_FALSE(r->binds[1].read_only);
  EXPECT_EQ(r->pids_limit, 64);
  EXPECT_EQ(r->memory_bytes, 512LL * 1024 * 1024);
  EXPECT_EQ(r->cpus, 1.5);
  ASSERT_EQ(r->ulimits.size(), 2u);
  EXPECT_EQ(r->ulimits[0].soft, 100);
  EXPECT_EQ(r->ulimits[0].hard, 200);
  EXPECT_EQ(r->user, "1000:1000");
  EXPECT_TRUE(sandbox_active(*r, "agent:work:telegram:1", "work"));
  EXPECT_FALSE(sandbox_active(*r, "agent:work:main", "work"));
}

TEST(SandboxSettings, InvalidValuesAreErrorsNamingTheKey) {
  EXPECT_EQ(error_of(R"({"agents":{"defaults":{"sandbox":{"mode":"sometimes"}}}})"),
            "agents.defaults.sandbox.mode: expected one of off, non-main, all, got \"sometimes\"");
  EXPECT_EQ(error_of(R"({"agents":{"defaults":{"sandbox":{"scope":1}}}})"),
            "agents.defaults.sandbox.scope: expected one of agent, session, shared, got 1");
  EXPECT_EQ(error_of(R"({"agents":{"defaults":{"sandbox":{"docker":{"network":"host"}}}}})"),
            "agents.defaults.sandbox.docker.network: \"host\" is refused: a sandbox must not share the host's network "
            "namespace");
  EXPECT_NE(error_of(R"({"agents":{"defaults":{"sandbox":{"docker":{"memory":"lots"}}}}})")
                .find("agents.defaults.sandbox.docker.memory: expected a size"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"agents":{"defaults":{"sandbox":{"docker":{"pidsLimit":0}}}}})")
                .find("agents.defaults.sandbox.docker.pidsLimit: expected a positive integer"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"agents":{"defaults":{"sandbox":{"docker":{"user":"node"}}}}})")
                .find("agents.defaults.sandbox.docker.user: expected \"uid\" or \"uid:gid\""),
            std::string::npos);
  EXPECT_NE(error_of(R"({"agents":{"defaults":{"sandbox":{"docker":{"seccompProfile":"unconfined"}}}}})")
                .find("docker.seccompProfile: \"unconfined\" is refused"),
            std::string::npos);
}

TEST(SandboxSettings, PruneTakesFractionsAndZeroTurnsALimitOff) {
  Result<SandboxSettings> r = read(R"({"agents":{"defaults":{"sandbox":{"prune":{"idleHours":0.5,"maxAgeDays":0}}}}})");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->prune_idle_ms, 1800000);
  EXPECT_EQ(r->prune_max_age_ms, 0);
  EXPECT_EQ(error_of(R"({"agents":{"defaults":{"sandbox":{"prune":{"idleHours":-1}}}}})"),
            "agents.defaults.sandbox.prune.idleHours: expected a number of 0 or more, got -1");
  EXPECT_EQ(error_of(R"({"agents":{"defaults":{"sandbox":{"prune":{"maxAgeDays":"7"}}}}})"),
            "agents.defaults.sandbox.prune.maxAgeDays: expected a number, got \"7\"");
}

TEST(SandboxSettings, NetworkDnsAndExtraHosts) {
  Result<SandboxSettings> r = read(R"({"agents":{"defaults":{"sandbox":{"docker":{"network":"bridge",
      "dns":["10.0.0.1","::1","fe80::1:2","::ffff:10.0.0.1"],"extraHosts":["db:10.1.2.3","v6.host:2001:db8::1"]}}}}})");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->network, SandboxNetwork::kBridge);
  EXPECT_EQ(r->dns, (std::vector<std::string>{"10.0.0.1", "::1", "fe80::1:2", "::ffff:10.0.0.1"}));
  EXPECT_EQ(r->extra_hosts, (std::vector<std::string>{"db:10.1.2.3", "v6.host:2001:db8::1"}));
  for (const char* bad : {"256.1.1.1", "1.2.3", "1.2.3.4.5", "a::b::c", "1:2:3:4:5:6:7:8:9", "x", "", ":1:2:3:4:5:6:7:8",
                          "1::2:", "010.0.0.1", " 10.0.0.1"}) {
    EXPECT_NE(error_of(std::string(R"({"agents":{"defaults":{"sandbox":{"docker":{"dns":[")") + bad + "\"]}}}}}"),
              "(no error)")
        << bad;
  }
  for (const char* bad : {"db", "db:", ":10.0.0.1", "-db:10.0.0.1", "d b:10.0.0.1", "db:nothost"}) {
    EXPECT_NE(error_of(std::string(R"({"agents":{"defaults":{"sandbox":{"docker":{"extraHosts":[")") + bad + "\"]}}}}}"),
              "(no error)")
        << bad;
  }
  EXPECT_EQ(error_of(R"({"agents":{"defaults":{"sandbox":{"docker":{"network":"host"}}}}})"),
            "agents.defaults.sandbox.docker.network: \"host\" is refused: a sandbox must not share the host's network "
            "namespace");
}

TEST(SandboxSettings, EngineOnlyKeysWarnOnceEach) {
  Result<SandboxSettings> r =
      read(R"({"agents":{"defaults":{"sandbox":{"mode":"all","browser":{},"docker":{"image":"x","gpus":"all"}}}}})");
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->warnings.size(), 3u);
  EXPECT_NE(r->warnings[0].find("agents.defaults.sandbox.browser"), std::string::npos);
  EXPECT_NE(r->warnings[1].find("agents.defaults.sandbox.docker.image is ignored"), std::string::npos);
  EXPECT_NE(r->warnings[2].find("agents.defaults.sandbox.docker.gpus is ignored"), std::string::npos);
}

TEST(SandboxSettings, BlockedBindSourcesAndReservedTargets) {
  auto bind = [](const std::string& spec) {
    return error_of(R"({"agents":{"defaults":{"sandbox":{"docker":{"binds":[")" + spec + R"("]}}}}})");
  };
  EXPECT_NE(bind("/etc:/host-etc").find("binds[0]: the host path /etc exposes /etc"), std::string::npos);
  EXPECT_NE(bind("/:/host").find("exposes"), std::string::npos);
  EXPECT_NE(bind("/home/u:/h").find("exposes /home/u/.aws"), std::string::npos);
  EXPECT_NE(bind("/home/u/.ssh/id:/k:ro").find("exposes /home/u/.ssh"), std::string::npos);
  EXPECT_NE(bind("/var/run/docker.sock:/d").find("container engine's socket"), std::string::npos);
  EXPECT_NE(bind("/data:/workspace/x").find("reserved"), std::string::npos);
  EXPECT_NE(bind("/data:/agent").find("reserved"), std::string::npos);
  EXPECT_NE(bind("data:/x").find("both paths must be absolute"), std::string::npos);
  EXPECT_NE(bind("/data:/x:rx").find("expected \"host:container[:ro|rw]\""), std::string::npos);
  EXPECT_EQ(bind("/data:/x:ro"), "(no error)");
  // A symlink that leads into a blocked place is refused by where it leads.
  Result<SandboxSettings> r = read(R"({"agents":{"defaults":{"sandbox":{"docker":{"binds":["/data/link:/x"]}}}}})",
                                   "main", {{"/data/link", "/home/u/.ssh"}});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("(/home/u/.ssh after resolving symlinks)"), std::string::npos) << r.error().message;
}

TEST(SandboxSettings, MemorySizesAndMainSessions) {
  EXPECT_EQ(parse_memory_size("2g"), 2LL << 30);
  EXPECT_EQ(parse_memory_size("100k"), 102400);
  EXPECT_EQ(parse_memory_size("64MB"), 64LL << 20);
  EXPECT_EQ(parse_memory_size("1234"), 1234);
  EXPECT_FALSE(parse_memory_size("-1"));
  EXPECT_FALSE(parse_memory_size("1.5g"));
  EXPECT_FALSE(parse_memory_size("g"));
  EXPECT_TRUE(is_main_session("agent:main:main", "main"));
  EXPECT_TRUE(is_main_session("AGENT:Main:MAIN", "main"));
  EXPECT_FALSE(is_main_session("agent:main:discord:7", "main"));
  EXPECT_FALSE(is_main_session("agent:other:main", "main"));
}

}  // namespace
}  // namespace clawexec::config
