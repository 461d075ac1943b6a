// Real sandboxes (bubblewrap, namespaces, Landlock): commands joined through the shim share
// the sandbox's /tmp and process list, see none of the host's, and die with the sandbox.

#include "sandbox/sandbox_host.h"

#include <gtest/gtest.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <sys/resource.h>
#include <signal.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>

#include "proc/process.h"
#include "proc/spawner.h"
#include "sys/file_system.h"
#include "sys/sys.h"

namespace clawexec::sandbox {
namespace {

namespace asio = boost::asio;

const std::string kShim = std::string(CLAWEXEC_BINARY_DIR) + "/bin/clawexec-shim";

proc::Spawner& spawner() {
  static proc::Spawner instance(kShim);
  return instance;
}

std::string allow_all_program() {
  struct sock_filter allow = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
  return std::string(reinterpret_cast<const char*>(&allow), sizeof allow);
}

std::string temp_dir() {
  char pattern[] = "/tmp/clawexec-sandbox-test-XXXXXX";
  const char* made = ::mkdtemp(pattern);
  return made ? made : "";
}

SandboxSpec spec_for(const std::string& scope, const std::string& root) {
  SandboxSpec spec;
  spec.scope = scope;
  spec.bwrap_path = "/usr/bin/bwrap";
  spec.state_dir = root + "/" + scope_directory_name(scope);
  spec.seccomp_program = allow_all_program();
  return spec;
}

struct Ran {
  std::string output;
  int code = -1;
  bool started = false;
  std::string error;
};

Ran run_in(const Sandbox& box, const std::string& script) {
  proc::SpawnSpec spec{.program = "/bin/sh",
                       .argv = {"sh", "-c", script},
                       .env = {"PATH=/usr/bin:/bin", "HOME=/workspace"},
                       .cwd = "/workspace"};
  spec.sandbox = box.join();
  asio::io_context io;
  Ran r;
  proc::Process::Events events;
  bool done = false;
  events.started = [&](Result<pid_t> pid) {
    r.started = pid.ok();
    if (!pid.ok()) {
      r.error = pid.error().message;
      done = true;
    }
  };
  events.output = [&](std::string_view bytes) { r.output.append(bytes); };
  events.exited = [&](proc::ExitStatus s) {
    r.code = s.code.value_or(128 + s.signal.value_or(0));
    done = true;
  };
  Result<std::shared_ptr<proc::Process>> p = proc::Process::start(io, spec, spawner(), events);
  if (!p.ok()) {
    r.error = p.error().message;
    return r;
  }
  asio::steady_timer guard(io, std::chrono::seconds(20));
  guard.async_wait([&](const boost::system::error_code& ec) {
    if (!ec) io.stop();
  });
  while (!io.stopped() && !done) io.run_one();
  p.value().reset();
  return r;
}

TEST(SandboxHost, CommandsOfOneScopeShareTheSandbox) {
  std::string root = temp_dir();
  Result<std::shared_ptr<Sandbox>> box = Sandbox::create(spec_for("agent:one", root));
  ASSERT_TRUE(box.ok()) << box.error().message;
  Ran first = run_in(**box, "echo kept > /tmp/note; echo data > /workspace/file; (sleep 60 &) ; echo ok");
  ASSERT_TRUE(first.started) << first.error;
  EXPECT_EQ(first.output, "ok\n");
  Ran second = run_in(**box, "cat /tmp/note /workspace/file; hostname");
  EXPECT_EQ(second.output, "kept\ndata\nclawexec-sandbox\n");
  // The workspace is a host directory of this scope.
  std::ifstream host_copy((*box)->spec().state_dir + "/workspace/file");
  std::string line;
  std::getline(host_copy, line);
  EXPECT_EQ(line, "data");
}

TEST(SandboxHost, TheHostIsNotVisible) {
  std::string root = temp_dir();
  Result<std::shared_ptr<Sandbox>> box = Sandbox::create(spec_for("agent:two", root));
  ASSERT_TRUE(box.ok()) << box.error().message;
  Ran r = run_in(**box,
                 "ls /home /root 2>/dev/null | wc -l; test -s /etc/shadow && echo shadow-readable; "
                 "ls /proc | grep -c '^[0-9]'; cat /proc/net/dev | grep -c ':'");
  ASSERT_TRUE(r.started) << r.error;
  // No /home, no /root, /etc/shadow masked, only the sandbox's few processes, only loopback.
  std::string expected_prefix = "0\n";
  EXPECT_EQ(r.output.substr(0, 2), expected_prefix) << r.output;
  EXPECT_EQ(r.output.find("shadow-readable"), std::string::npos) << r.output;
  int processes = std::atoi(r.output.substr(2).c_str());
  EXPECT_GT(processes, 0);
  EXPECT_LT(processes, 8) << r.output;
  EXPECT_EQ(r.output.substr(r.output.rfind('\n', r.output.size() - 2) + 1), "1\n") << r.output;
}

TEST(SandboxHost, WritesAreLimitedAndCapabilitiesGone) {
  std::string root = temp_dir();
  Result<std::shared_ptr<Sandbox>> box = Sandbox::create(spec_for("agent:three", root));
  ASSERT_TRUE(box.ok()) << box.error().message;
  Ran r = run_in(**box,
                 "touch /usr/x 2>/dev/null && echo usr-writable; touch /etc/x 2>/dev/null && echo etc-writable; "
                 "grep CapEff /proc/self/status; grep NoNewPrivs /proc/self/status; grep Seccomp: /proc/self/status");
  ASSERT_TRUE(r.started) << r.error;
  EXPECT_EQ(r.output.find("writable"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("CapEff:\t0000000000000000"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("NoNewPrivs:\t1"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("Seccomp:\t2"), std::string::npos) << r.output;
}

TEST(SandboxHost, ScopesAreSeparateAndTearDownKillsEverything) {
  std::string root = temp_dir();
  SandboxRegistry registry;
  Result<std::shared_ptr<Sandbox>> a = registry.get_or_create(spec_for("agent:a", root), 1);
  Result<std::shared_ptr<Sandbox>> b = registry.get_or_create(spec_for("agent:b", root), 1);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_NE(a->get(), b->get());
  run_in(**a, "echo a > /tmp/mine");
  EXPECT_EQ(run_in(**b, "cat /tmp/mine 2>/dev/null || echo none").output, "none\n");
  Result<std::shared_ptr<Sandbox>> again = registry.get_or_create(spec_for("agent:a", root), 2);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->get(), a->get());
  // The sandbox's pid 1 may linger as a zombie of the machine's init: its pidfd says it exited.
  Result<sys::UniqueFd> holder = sys::pidfd_open((*a)->holder_pid());
  ASSERT_TRUE(holder.ok());
  a->reset();
  again->reset();
  ASSERT_TRUE(registry.remove("agent:a"));
  struct pollfd p = {holder->get(), POLLIN, 0};
  EXPECT_EQ(::poll(&p, 1, 2000), 1) << "the sandbox's pid 1 outlived its removal";
}

TEST(SandboxHost, ABadBubblewrapIsAnErrorNamingTheSandbox) {
  std::string root = temp_dir();
  SandboxSpec spec = spec_for("agent:bad", root);
  spec.layout.binds.push_back({.host = root + "/does-not-exist", .container = "/data"});
  Result<std::shared_ptr<Sandbox>> box = Sandbox::create(spec);
  ASSERT_FALSE(box.ok());
  EXPECT_NE(box.error().message.find("sandbox agent:bad: bubblewrap could not create the sandbox: bwrap:"),
            std::string::npos)
      << box.error().message;
}

}  // namespace
}  // namespace clawexec::sandbox

namespace clawexec::sandbox {
namespace {

TEST(SandboxHost, PidsLimitBoundsTheWholeSandbox) {
  std::string root = temp_dir();
  SandboxSpec spec = spec_for("agent:pids", root);
  spec.cgroup_limits.pids = 20;
  Result<std::shared_ptr<Sandbox>> box = Sandbox::create(spec);
  ASSERT_TRUE(box.ok()) << box.error().message;
  // 40 forks cannot all succeed: the sandbox's cgroup stops them at 20 processes in all.
  Ran r = run_in(**box,
                 "python3 -c 'import os,time\nn=0\nfor i in range(40):\n  try:\n    pid=os.fork()\n  except OSError:\n    break\n"
                 "  if pid==0:\n    time.sleep(3); os._exit(0)\n  n+=1\nprint(n)'");
  ASSERT_TRUE(r.started) << r.error;
  int processes = std::atoi(r.output.c_str());
  EXPECT_GT(processes, 3) << r.output << r.error << r.code;
  EXPECT_LT(processes, 20) << r.output;
}

// ---- records (clawexec sandbox list/recreate/prune) ----

TEST(SandboxRecords, ASandboxIsListedRunningAndItsRecordGoesWithIt) {
  std::string root = temp_dir();
  std::string state;
  {
    Result<std::shared_ptr<Sandbox>> box = Sandbox::create(spec_for("agent:rec", root));
    ASSERT_TRUE(box.ok()) << box.error().message;
    state = (*box)->spec().state_dir;
    std::vector<SandboxRecord> records = read_records(root);
    ASSERT_EQ(records.size(), 1u);
    EXPECT_EQ(records[0].scope, "agent:rec");
    EXPECT_TRUE(records[0].running);
    EXPECT_EQ(records[0].holder_pid, (*box)->holder_pid());
    EXPECT_EQ(records[0].server_pid, sys::current_pid());
    // recreate: the holder dies, and the registry would replace the sandbox.
    EXPECT_TRUE(stop_sandbox(records[0]));
    for (int i = 0; i < 200 && (*box)->alive(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    EXPECT_FALSE((*box)->alive());
  }
  EXPECT_FALSE(sys::path_exists(record_path(state, sys::current_pid())));
  EXPECT_TRUE(read_records(root).empty());
}

TEST(SandboxRecords, AForgedRecordNeverKillsAProcessOutsideASandbox) {
  std::string root = temp_dir();
  ASSERT_TRUE(sys::make_directories(root + "/forged").ok());
  // A child in our own pid namespace, named by a record that has its namespace right.
  pid_t child = ::fork();
  if (child == 0) {
    ::pause();
    ::_exit(0);
  }
  ASSERT_GT(child, 0);
  SandboxRecord forged;
  forged.scope = "agent:forged";
  forged.state_dir = root + "/forged";
  forged.holder_pid = child;
  forged.holder_pid_namespace = pid_namespace_of(child);
  ASSERT_FALSE(forged.holder_pid_namespace.empty());
  ASSERT_TRUE(write_record(forged).ok());
  std::vector<SandboxRecord> records = read_records(root);
  ASSERT_EQ(records.size(), 1u);
  EXPECT_FALSE(records[0].running);
  EXPECT_FALSE(stop_sandbox(records[0]));
  EXPECT_TRUE(sys::process_alive(child));
  ::kill(child, SIGKILL);
  ignore_error(sys::reap(child));
}

}  // namespace
}  // namespace clawexec::sandbox
