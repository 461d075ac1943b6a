// run_script_preflight against real temp directories (reference §3.8, §8.2 cases 34-37).

#include "exec/script_preflight.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace clawexec::exec {
namespace {

namespace fs = std::filesystem;

const std::string kComplex =
    "exec preflight: complex interpreter invocation detected; refusing to run without script preflight "
    "validation. Use a direct `python <file>.py` or `node <file>.js` command.";

std::string python_finding(const std::string& token, const std::string& where) {
  return "exec preflight: detected likely shell variable injection (" + token + ") in python script: " + where +
         ".\nIn Python, use os.environ.get(\"" + token.substr(1) + "\") instead of raw " + token +
         ".\n(If this is inside a string literal on purpose, escape it or restructure the code.)";
}

std::string node_finding(const std::string& token, const std::string& where) {
  return "exec preflight: detected likely shell variable injection (" + token + ") in node script: " + where +
         ".\nIn Node.js, use process.env[\"" + token.substr(1) + "\"] instead of raw " + token +
         ".\n(If this is inside a string literal on purpose, escape it or restructure the code.)";
}

class Preflight : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/clawexec-preflight-XXXXXX";
    base_ = ::mkdtemp(tmpl);
    work_ = base_ + "/work";
    fs::create_directories(work_ + "/sub");
    fs::create_directories(base_ + "/outside");
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(base_, ec);
  }
  static void write(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }
  // "" when the command may run, else the rejection message.
  std::string check(const std::string& command) {
    Result<void> r = run_script_preflight(command, work_);
    if (r.ok()) return "";
    EXPECT_EQ(r.error().code, ErrorCode::kRejected) << r.error().message;
    return r.error().message;
  }
  std::string base_, work_;
};

TEST_F(Preflight, PythonScriptWithAShellVariableIsRejected) {  // §8.2 case 34
  write(work_ + "/bad.py", "payload = $DM_JSON\n");
  EXPECT_EQ(check("python bad.py"), python_finding("$DM_JSON", "bad.py:1"));
  EXPECT_EQ(check("python3 ./sub/../bad.py"), python_finding("$DM_JSON", "bad.py:1"));
  EXPECT_EQ(check("env FOO=1 python3 bad.py"), python_finding("$DM_JSON", "bad.py:1"));
  EXPECT_EQ(check("python " + work_ + "/bad.py"), python_finding("$DM_JSON", "bad.py:1"));
}

TEST_F(Preflight, NodeScriptWithAShellVariableIsRejected) {  // §8.2 case 35
  write(work_ + "/bad.js", "const value = $DM_JSON;\n");
  EXPECT_EQ(check("node \"bad.js\""), node_finding("$DM_JSON", "bad.js:1"));
}

TEST_F(Preflight, NodePreloadIsCheckedBeforeTheEntryScript) {
  write(work_ + "/pre.js", "\n\nrequire($PRELOAD_PATH)\n");
  write(work_ + "/main.js", "const v = $MAIN_VAR;\n");
  EXPECT_EQ(check("node -r ./pre.js main.js"), node_finding("$PRELOAD_PATH", "pre.js:3"));
}

TEST_F(Preflight, NodeFileStartingWithAShellCommandIsRejected) {
  write(work_ + "/run.js", "\nNODE=production node server.js\n");
  EXPECT_EQ(check("node run.js"),
            "exec preflight: JS file starts with shell syntax (NODE=production node server.js). This looks like a "
            "shell command, not JavaScript.");
}

TEST_F(Preflight, ShellVariableInsideAPythonStringIsAllowed) {  // §8.2 case 37
  write(work_ + "/ok.py", "print(\"$HOME\")\n# $ALSO_FINE\n");
  EXPECT_EQ(check("python ok.py"), "");
}

TEST_F(Preflight, ComplexInterpreterInvocationsFailClosed) {  // §8.2 case 36
  write(work_ + "/bad.py", "payload = $DM_JSON\n");
  EXPECT_EQ(check("cat bad.py | python"), kComplex);
  EXPECT_EQ(check("if true; then python bad.py; fi"), kComplex);
  EXPECT_EQ(check("bash -c \"python 'bad.py'\""), kComplex);
  EXPECT_EQ(check("node -e \"console.log(123)\""), "");
  EXPECT_EQ(check("echo 'python bad.py | python'"), "");
  EXPECT_EQ(check("echo bad.py; python --version"), "");
}

TEST_F(Preflight, ScriptsOutsideTheWorkdirAreNotChecked) {
  write(base_ + "/outside/x.py", "x = $OUTSIDE\n");
  EXPECT_EQ(check("python ../outside/x.py"), "");
  EXPECT_EQ(check("python " + base_ + "/outside/x.py"), "");
}

TEST_F(Preflight, SymlinkLeavingTheWorkdirIsNotFollowed) {
  write(base_ + "/outside/x.py", "x = $OUTSIDE\n");
  fs::create_symlink(base_ + "/outside/x.py", work_ + "/link.py");
  EXPECT_EQ(check("python link.py"), "");
}

TEST_F(Preflight, SymlinkWithinTheWorkdirIsFollowedAndNamedAsWritten) {
  write(work_ + "/sub/real.py", "ok = 1\nx = $INSIDE\n");
  fs::create_symlink("sub/real.py", work_ + "/link.py");
  EXPECT_EQ(check("python link.py"), python_finding("$INSIDE", "link.py:2"));
}

TEST_F(Preflight, FifoIsSkippedWithoutBlocking) {
  ASSERT_EQ(::mkfifo((work_ + "/pipe.py").c_str(), 0600), 0);
  EXPECT_EQ(check("python pipe.py"), "");
}

TEST_F(Preflight, ScriptLargerThan512KiBIsNotChecked) {
  std::string big = "x = $BIG\n" + std::string(512 * 1024, '#');
  write(work_ + "/big.py", big);
  EXPECT_EQ(check("python big.py"), "");
  write(work_ + "/edge.py", "x = $EDGE\n" + std::string(512 * 1024 - 10, ' '));  // exactly 512 KiB
  EXPECT_EQ(check("python edge.py"), python_finding("$EDGE", "edge.py:1"));
}

TEST_F(Preflight, MissingScriptsAndDirectoriesAreSkipped) {
  EXPECT_EQ(check("python missing.py"), "");
  fs::create_directories(work_ + "/pkg.py");
  EXPECT_EQ(check("python pkg.py"), "");
}

TEST_F(Preflight, CommandsWithoutInterpretersPass) {
  write(work_ + "/bad.py", "payload = $DM_JSON\n");
  EXPECT_EQ(check("cat bad.py"), "");
  EXPECT_EQ(check("ls -la"), "");
}

}  // namespace
}  // namespace clawexec::exec
