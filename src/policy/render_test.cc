// Canonical rendering (render.h, pinned_argv.h): what an auto-approved command runs.

#include "policy/render.h"

#include <gtest/gtest.h>

#include "policy/decide.h"

namespace clawexec::policy {
namespace {

// /usr/bin holds every program (its own real path); /opt/link/tool is a symlink to /opt/real/tool.
struct World {
  FsView fs;
  std::vector<AllowlistEntry> allowlist;
  World() {
    fs.is_executable_file = [](const std::string& p) {
      return (p.rfind("/usr/bin/", 0) == 0 && p.find('/', 9) == std::string::npos) || p == "/opt/link/tool" ||
             p == "/opt/real/tool";  // /opt/link holds only `tool`
    };
    fs.realpath = [](const std::string& p) -> std::optional<std::string> {
      if (p == "/opt/link/tool") return std::string("/opt/real/tool");
      if (p.rfind("/usr/bin/", 0) == 0 || p == "/work" || p == "/opt/real/tool") return p;
      return std::nullopt;
    };
    for (const char* pattern : {"git", "ls", "sleep", "cat", "/opt/real/tool", "sh"}) {
      AllowlistEntry e;
      e.pattern = pattern;
      allowlist.push_back(e);
    }
  }
  Decision decide(const std::string& command, shell::ShellDialect dialect = shell::ShellDialect::kBash) const {
    DecisionInputs in;
    in.command = command;
    in.security = ExecSecurity::kAllowlist;
    in.ask = ExecAsk::kOff;
    in.evaluation.allowlist = &allowlist;
    in.evaluation.resolve = ResolveContext{"/work", std::string("/opt/link:/usr/bin"), "/home/u", &fs};
    in.evaluation.dialect = dialect;
    return decide_gateway(in);
  }
  std::optional<std::string> rendering(const std::string& command,
                                       shell::ShellDialect dialect = shell::ShellDialect::kBash) const {
    return decide(command, dialect).enforced_command;
  }
  std::string refusal(const std::string& command) const { return decide(command).enforced_unavailable_reason; }
};

TEST(CanonicalRendering, EveryWordIsSingleQuotedAndEveryProgramPinned) {
  World w;
  EXPECT_EQ(w.rendering("git status"), "'/usr/bin/git' 'status'");
  EXPECT_EQ(w.rendering("\"git\" log --format='%h %s'"), "'/usr/bin/git' 'log' '--format=%h %s'");
  EXPECT_EQ(w.rendering("tool x"), "'/opt/real/tool' 'x'");  // the real path, through the symlink
  EXPECT_EQ(w.rendering("cat \"it's\" $'a\\x{62}'"), "'/usr/bin/cat' 'it'\\''s' 'ab'");
  EXPECT_EQ(w.rendering("cat ''"), "'/usr/bin/cat' ''");
}

TEST(CanonicalRendering, OperatorsAreTheParsersAndStderrPipesArePortable) {
  World w;
  EXPECT_EQ(w.rendering("ls | cat && git status; ls\nls || ls"),
            "'/usr/bin/ls' | '/usr/bin/cat' && '/usr/bin/git' 'status'; '/usr/bin/ls'; '/usr/bin/ls' || '/usr/bin/ls'");
  EXPECT_EQ(w.rendering("ls |& cat"), "'/usr/bin/ls' 2>&1 | '/usr/bin/cat'");
  EXPECT_EQ(w.rendering("! ls"), "! '/usr/bin/ls'");
  EXPECT_EQ(w.rendering("ls;"), "'/usr/bin/ls'");
  // An operator written in a comment is not one.
  EXPECT_EQ(w.rendering("ls # && cat\nls"), "'/usr/bin/ls'; '/usr/bin/ls'");
}

TEST(CanonicalRendering, WrappersAreKeptAndPinned) {
  World w;
  EXPECT_EQ(w.rendering("timeout -s KILL 1 sleep 3"), "'/usr/bin/timeout' '-s' 'KILL' '1' '/usr/bin/sleep' '3'");
  EXPECT_EQ(w.rendering("nice -n 5 nohup ls"), "'/usr/bin/nice' '-n' '5' '/usr/bin/nohup' '/usr/bin/ls'");
  EXPECT_EQ(w.rendering("env ls"), "'/usr/bin/env' '/usr/bin/ls'");
  EXPECT_EQ(w.rendering("command ls"), "'/usr/bin/ls'");
  EXPECT_EQ(w.rendering("exec -a name ls"), "'exec' '-a' 'name' '/usr/bin/ls'");
  EXPECT_EQ(w.rendering("exec ls", shell::ShellDialect::kDash), "'exec' '/usr/bin/ls'");
  EXPECT_FALSE(w.rendering("exec -a name ls", shell::ShellDialect::kDash));
}

TEST(CanonicalRendering, SafeBuiltinsRunAsTheBuiltinTheyWereApprovedAs) {
  World w;
  EXPECT_EQ(w.rendering("[ -n x ]"), "'[' '-n' 'x' ']'");
  EXPECT_EQ(w.rendering("cd sub && ls"), "'cd' 'sub' && '/usr/bin/ls'");
  EXPECT_EQ(w.rendering("TRUE"), "'true'");
}

TEST(CanonicalRendering, WhatCannotBeReproducedWordForWordIsNotRendered) {
  World w;
  EXPECT_EQ(w.refusal("ls *.txt"), "shell expansion in enforced arguments");
  EXPECT_EQ(w.refusal("ls {a,b}"), "shell expansion in enforced arguments");
  EXPECT_EQ(w.refusal("cat ~/x"), "shell expansion in enforced arguments");
  EXPECT_EQ(w.refusal("cat a=~/x"), "shell expansion in enforced arguments");
  EXPECT_EQ(w.refusal("cat $'\\u00e9'"), "shell expansion in enforced arguments");
  EXPECT_EQ(w.refusal("LIMIT=1 ls"), "env assignment before the command");
  EXPECT_EQ(w.refusal("sh -c 'ls'"), "shell quoting required in wrapper payload");
  EXPECT_EQ(w.refusal("builtin ls"), "builtin carrier cannot run a program");
  EXPECT_FALSE(w.rendering("ls | ! cat"));
  EXPECT_FALSE(w.rendering("ls &"));
}

TEST(CanonicalRendering, AllowedCommandsRunTheirRenderingUnderAllowlistSecurity) {
  World w;
  Decision d = w.decide("git status | cat");
  ASSERT_EQ(d.verdict, Verdict::kAllow);
  EXPECT_EQ(d.command_to_run, "'/usr/bin/git' 'status' | '/usr/bin/cat'");
  // Satisfied, but not renderable: a human decides.
  Decision glob = w.decide("ls *.txt");
  EXPECT_EQ(glob.verdict, Verdict::kAsk);
}

}  // namespace
}  // namespace clawexec::policy
