#include <gtest/gtest.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/steady_timer.hpp>
#include <csignal>
#include <string>
#include <thread>
#include <vector>

#include "rpc/stdio_transport.h"
#include "sys/sys.h"

namespace clawexec::rpc {
namespace {
namespace asio = boost::asio;

struct Pipe {
  int r = -1, w = -1;
  Pipe() {
    int fds[2];
    EXPECT_EQ(::pipe(fds), 0);
    r = fds[0];
    w = fds[1];
  }
  ~Pipe() {
    if (r >= 0) ::close(r);
    if (w >= 0) ::close(w);
  }
  void close_write() {
    ::close(w);
    w = -1;
  }
};

std::string read_until_eof(int fd) {
  std::string out;
  char buf[4096];
  while (true) {
    Result<size_t> n = sys::read_some(fd, buf, sizeof buf);
    if (!n.ok() || *n == 0) return out;
    out.append(buf, *n);
  }
}

TEST(StdioTransport, DeliversLinesOnTheLoopInOrderThenEof) {
  Pipe in, out;
  asio::io_context io;
  std::vector<std::string> lines;
  std::vector<size_t> oversized;
  bool eof = false;
  std::thread::id loop_thread;
  StdioTransport::Handlers h;
  h.line = [&](std::string l) {
    EXPECT_EQ(std::this_thread::get_id(), loop_thread);
    lines.push_back(std::move(l));
  };
  h.oversized = [&](size_t n) { oversized.push_back(n); };
  h.eof = [&] {
    eof = true;
    io.stop();
  };
  h.broken = [] { ADD_FAILURE() << "output broken"; };
  StdioTransport transport(io, h, in.r, out.w);
  transport.start();
  std::string big(kMaxLineBytes + 10, 'x');
  std::thread feeder([&] {
    EXPECT_TRUE(sys::write_all(in.w, "one\ntwo\n").ok());
    EXPECT_TRUE(sys::write_all(in.w, big + "\nthree").ok());
    in.close_write();
  });
  loop_thread = std::this_thread::get_id();
  auto work = asio::make_work_guard(io);  // the events come from other threads
  io.run();
  feeder.join();
  EXPECT_TRUE(eof);
  EXPECT_EQ(lines, (std::vector<std::string>{"one", "two", "three"}));
  EXPECT_EQ(oversized, (std::vector<size_t>{big.size()}));
  transport.stop();
}

TEST(StdioTransport, WritesEveryQueuedLineBeforeStopReturns) {
  Pipe in, out;
  asio::io_context io;
  StdioTransport::Handlers h{[](std::string) {}, [](size_t) {}, [] {}, [] {}};
  std::string received;
  std::thread reader;
  {
    StdioTransport transport(io, h, in.r, out.w);
    reader = std::thread([&] { received = read_until_eof(out.r); });
    for (int i = 0; i < 1000; ++i) transport.send("line " + std::to_string(i));
    transport.send(std::string(200 * 1024, 'y'));  // larger than one write chunk
    transport.stop();
  }
  ::close(out.w);
  out.w = -1;
  reader.join();
  std::string expected;
  for (int i = 0; i < 1000; ++i) expected += "line " + std::to_string(i) + "\n";
  expected += std::string(200 * 1024, 'y') + "\n";
  EXPECT_EQ(received, expected);
}

TEST(StdioTransport, ReportsABrokenOutputOnTheLoop) {
  Pipe in, out;
  asio::io_context io;
  bool broken = false;
  StdioTransport::Handlers h{[](std::string) {}, [](size_t) {}, [] {}, [&] {
                               broken = true;
                               io.stop();
                             }};
  ::close(out.r);
  out.r = -1;
  std::signal(SIGPIPE, SIG_IGN);
  StdioTransport transport(io, h, in.r, out.w);
  transport.send("nobody reads this");
  asio::steady_timer guard(io, std::chrono::seconds(10));
  guard.async_wait([&](const boost::system::error_code&) { io.stop(); });
  io.run();
  EXPECT_TRUE(broken);
  transport.stop();
}

TEST(StdioTransport, StopsReadingWhileTheLoopHasNotHandledEarlierLines) {
  Pipe in, out;
  asio::io_context io;  // never run until the end: lines pile up unhandled
  size_t handled = 0;
  StdioTransport::Handlers h{[&](std::string) { ++handled; }, [](size_t) {}, [] {}, [] {}};
  StdioTransport transport(io, h, in.r, out.w);
  transport.start();
  std::string many;
  for (int i = 0; i < 100; ++i) many += "{}\n";
  ASSERT_TRUE(sys::write_all(in.w, many).ok());
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  // Only kMaxLinesInFlight were posted; the reader waits with the rest. After stop() nothing
  // more reaches the loop, so what it runs now is exactly what was let through.
  transport.stop();
  EXPECT_EQ(io.poll(), kMaxLinesInFlight);
  EXPECT_EQ(handled, kMaxLinesInFlight);
  // Let the detached reader reach the end of its input before the descriptors are closed (and
  // their numbers reused by another test).
  in.close_write();
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
}

}  // namespace
}  // namespace clawexec::rpc
