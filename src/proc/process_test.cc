#include "proc/process.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <string>
#include <thread>

#include "shim/protocol.h"
#include "sys/sys.h"

namespace clawexec::proc {
namespace {

namespace asio = boost::asio;

const std::string kShim = std::string(CLAWEXEC_BINARY_DIR) + "/bin/clawexec-shim";

// One spawner for the whole test binary, like one per server.
Spawner& spawner() {
  static Spawner instance(kShim);
  return instance;
}

struct Outcome {
  std::string output;
  std::optional<Result<pid_t>> started;
  std::optional<ExitStatus> exit;
  std::shared_ptr<Process> process;
};

SpawnSpec shell(std::string script, Terminal terminal = Terminal::kPipes) {
  return SpawnSpec{.program = "/bin/sh",
                   .argv = {"sh", "-c", std::move(script)},
                   .env = {"PATH=/usr/local/bin:/usr/bin:/bin"},
                   .cwd = "/",
                   .terminal = terminal};
}

// Starts `spec`, lets `during` act once the pid is known, and runs the loop until exit.
Outcome run(SpawnSpec spec, std::function<void(Outcome&)> during = nullptr,
        std::chrono::seconds limit = std::chrono::seconds(20)) {
  asio::io_context io;
  Outcome r;
  Process::Events events;
  events.started = [&](Result<pid_t> pid) {
    r.started = pid;
    if (pid.ok() && during) during(r);
  };
  events.output = [&](std::string_view bytes) { r.output.append(bytes); };
  events.exited = [&](ExitStatus s) { r.exit = s; };
  Result<std::shared_ptr<Process>> p = Process::start(io, spec, spawner(), events);
  EXPECT_TRUE(p.ok()) << (p.ok() ? "" : p.error().message);
  if (!p.ok()) return r;
  r.process = *p;
  asio::steady_timer guard(io, limit);
  guard.async_wait([&](const boost::system::error_code& ec) {
    if (!ec) io.stop();
  });
  while (!io.stopped() && !r.exit && !(r.started && !r.started->ok())) io.run_one();
  r.process.reset();  // a Process must not outlive its io_context
  return r;
}

bool alive(pid_t pid) { return ::kill(pid, 0) == 0; }

TEST(Process, ReportsOutputAndExitCode) {
  Outcome r = run(shell("echo hello; exit 3"));
  ASSERT_TRUE(r.started && r.started->ok());
  EXPECT_GT(r.started->value(), 0);
  EXPECT_EQ(r.output, "hello\n");
  ASSERT_TRUE(r.exit);
  EXPECT_EQ(r.exit->code, 3);
  EXPECT_FALSE(r.exit->signal);
}

TEST(Process, MergesStdoutAndStderrInWriteOrder) {
  Outcome r = run(shell("echo a; echo b >&2; echo c; echo d >&2"));
  EXPECT_EQ(r.output, "a\nb\nc\nd\n");
}

TEST(Process, ReportsTheKillingSignal) {
  Outcome r = run(shell("kill -TERM $$"));
  ASSERT_TRUE(r.exit);
  EXPECT_EQ(r.exit->signal, SIGTERM);
  EXPECT_FALSE(r.exit->code);
}

TEST(Process, ExecFailureNamesTheProgram) {
  SpawnSpec spec = shell("true");
  spec.program = "/nonexistent/shell";
  Outcome r = run(spec);
  ASSERT_TRUE(r.started);
  ASSERT_FALSE(r.started->ok());
  EXPECT_EQ(r.started->error().message, "spawn /nonexistent/shell: No such file or directory");
  EXPECT_FALSE(r.exit);
}

TEST(Process, StopsWhatAFinishedCommandLeftBehind) {
  Outcome r = run(shell("sleep 30 & echo $!"));
  ASSERT_TRUE(r.exit);
  EXPECT_EQ(r.exit->code, 0);
  pid_t leftover = std::stoi(r.output);
  EXPECT_FALSE(alive(leftover)) << "background child " << leftover << " survived";
}

TEST(Process, SignalReachesDescendantsThatLeftTheProcessGroup) {
  pid_t escaped = 0;
  Outcome r = run(shell("setsid sleep 30 & echo $!; wait"), [&](Outcome& run) {
    // Give the shell a moment to start the escaped child, then signal the tree.
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    run.process->signal_tree(SIGTERM);
  });
  ASSERT_TRUE(r.exit);
  escaped = std::stoi(r.output);
  EXPECT_FALSE(alive(escaped)) << "setsid child " << escaped << " survived";
}

TEST(Process, SignalSentBeforeThePidIsKnownStillStopsTheCommand) {
  // A cancel can come in the same loop turn as the spawn, before the shim reports the pid.
  for (int attempt = 0; attempt < 20; ++attempt) {
    asio::io_context io;
    std::optional<ExitStatus> exit;
    std::optional<pid_t> pid;
    Process::Events events;
    events.started = [&](Result<pid_t> r) {
      if (r.ok()) pid = r.value();
    };
    events.exited = [&](ExitStatus s) { exit = s; };
    Result<std::shared_ptr<Process>> p = Process::start(
        io, shell("exec sleep 30", attempt % 2 ? Terminal::kPty : Terminal::kPipes), spawner(), events);
    ASSERT_TRUE(p.ok()) << p.error().message;
    (*p)->signal_tree(SIGTERM);
    asio::steady_timer guard(io, std::chrono::seconds(5));
    guard.async_wait([&](const boost::system::error_code& ec) {
      if (!ec) io.stop();
    });
    while (!io.stopped() && !exit) io.run_one();
    ASSERT_TRUE(exit) << "attempt " << attempt << ": the command outlived an early SIGTERM";
    EXPECT_EQ(exit->signal, SIGTERM) << "attempt " << attempt;
    if (pid) {
      EXPECT_FALSE(alive(*pid));
    }
  }
}

TEST(Process, PtyGivesATerminalOf120x30) {
  Outcome r = run(shell("test -t 0 && echo tty; stty size", Terminal::kPty));
  ASSERT_TRUE(r.exit);
  EXPECT_EQ(r.exit->code, 0);
  EXPECT_EQ(r.output, "tty\r\n30 120\r\n");
}

TEST(Process, WritesAndClosesAPipedStdin) {
  SpawnSpec spec = shell("tr a-z A-Z");
  spec.stdin_mode = StdinMode::kPipe;
  std::optional<Result<void>> write_result;
  Outcome r = run(spec, [&](Outcome& run) {
    EXPECT_TRUE(run.process->input_writable());
    run.process->write_input("hello", [&](Result<void> res) { write_result = res; });
    run.process->close_input();
    EXPECT_FALSE(run.process->input_writable());
  });
  ASSERT_TRUE(write_result);
  EXPECT_TRUE(write_result->ok());
  EXPECT_EQ(r.output, "HELLO");
}

TEST(Process, ClosedStdinIsNotWritable) {
  std::optional<Result<void>> write_result;
  Outcome r = run(shell("cat; echo done"), [&](Outcome& run) {
    EXPECT_FALSE(run.process->input_writable());
    run.process->write_input("x", [&](Result<void> res) { write_result = res; });
  });
  EXPECT_EQ(r.output, "done\n");
  ASSERT_TRUE(write_result);
  EXPECT_FALSE(write_result->ok());
}

TEST(Process, PtyEofEndsInput) {
  Outcome r = run(shell("cat >/dev/null; echo got-eof", Terminal::kPty), [&](Outcome& run) {
    run.process->close_input();
  });
  ASSERT_TRUE(r.exit);
  EXPECT_NE(r.output.find("got-eof"), std::string::npos) << r.output;
}

TEST(Process, DeliversLargeOutputCompletely) {
  Outcome r = run(shell("head -c 20000000 /dev/zero"));
  ASSERT_TRUE(r.exit);
  EXPECT_EQ(r.output.size(), 20000000u);
}

TEST(Process, SpawnerHelperIsRestartedAfterItDies) {
  ASSERT_EQ(run(shell("echo one")).output, "one\n");
  pid_t helper = spawner().helper_pid();
  ASSERT_GT(helper, 0);
  ASSERT_EQ(::kill(helper, SIGKILL), 0);
  for (int i = 0; i < 100 && ::kill(helper, 0) == 0; ++i) {
    ::waitpid(helper, nullptr, WNOHANG);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_EQ(run(shell("echo two")).output, "two\n");
  EXPECT_NE(spawner().helper_pid(), helper);
}

TEST(Process, DirectShimPathRunsCommandsToo) {
  asio::io_context io;
  Result<SpawnedShim> shim = spawn_with_shim(shell("echo direct; exit 4"), kShim);
  ASSERT_TRUE(shim.ok()) << shim.error().message;
  EXPECT_GT(shim->shim_pid, 0);
  EXPECT_TRUE(shim->pidfd.valid());
  // The control socket reports the command's pid, then its exit code.
  ::fcntl(shim->control.get(), F_SETFL, 0);
  shim::Message m{};
  ASSERT_EQ(::recv(shim->control.get(), &m, sizeof m, 0), static_cast<ssize_t>(sizeof m));
  EXPECT_EQ(m.kind, shim::MessageKind::kStarted);
  ASSERT_EQ(::recv(shim->control.get(), &m, sizeof m, 0), static_cast<ssize_t>(sizeof m));
  EXPECT_EQ(m.kind, shim::MessageKind::kExitedCode);
  EXPECT_EQ(m.value, 4);
  EXPECT_TRUE(sys::reap(shim->shim_pid).ok());
}

TEST(Process, MissingPtyDeviceFailsToStart) {
  SpawnSpec spec = shell("true", Terminal::kPty);
  spec.ptmx = "/nonexistent/ptmx";
  asio::io_context io;
  Result<std::shared_ptr<Process>> p = Process::start(io, spec, spawner(), {});
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.error().message, "open /nonexistent/ptmx: No such file or directory");
}

}  // namespace
}  // namespace clawexec::proc
