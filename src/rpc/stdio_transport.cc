// See stdio_transport.h. The reader delivers through a Sink that is detached from the loop at
// stop(), so a reader still blocked in read() after shutdown never touches a dead io_context.

#include "rpc/stdio_transport.h"

#include <boost/asio/post.hpp>
#include <algorithm>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <string_view>
#include <thread>

#include "rpc/line_splitter.h"
#include "sys/sys.h"

namespace clawexec::rpc {
namespace asio = boost::asio;
namespace {

// Small answers are written together, up to this much per write(2).
constexpr size_t kWriteChunkBytes = 64 * 1024;

}  // namespace

// Flow control between the threads: bytes of answers not yet written, and lines posted to the
// loop but not yet handled. The reader waits for room before it posts the next line.
class StdioTransport::Flow {
 public:
  void output_queued(size_t bytes) {
    std::lock_guard<std::mutex> lock(mutex_);
    queued_bytes_ += bytes;
  }
  void output_written(size_t bytes) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      queued_bytes_ -= std::min(bytes, queued_bytes_);
    }
    cv_.notify_all();
  }
  void line_posted() {
    std::lock_guard<std::mutex> lock(mutex_);
    ++lines_in_flight_;
  }
  void line_handled() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      --lines_in_flight_;
    }
    cv_.notify_all();
  }
  /// Blocks (the reader thread) while the peer has too much unread or unhandled.
  void wait_for_room() {
    std::unique_lock<std::mutex> lock(mutex_);
    cv_.wait(lock, [this] {
      return closed_ || (queued_bytes_ <= kOutputBudgetBytes && lines_in_flight_ < kMaxLinesInFlight);
    });
  }
  /// Shutdown: the reader never waits again.
  void close() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      closed_ = true;
    }
    cv_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  size_t queued_bytes_ = 0;
  size_t lines_in_flight_ = 0;
  bool closed_ = false;
};

// Where the reader thread delivers events; detached from the loop at stop().
struct StdioTransport::Sink {
  std::mutex mutex;
  asio::io_context* io = nullptr;
  Handlers handlers;

  void post(std::function<void()> fn) {
    std::lock_guard<std::mutex> lock(mutex);
    if (io) asio::post(*io, std::move(fn));
  }
  void detach() {
    std::lock_guard<std::mutex> lock(mutex);
    io = nullptr;
  }
};

// Serialises outgoing lines onto the output descriptor from its own thread.
class StdioTransport::Writer {
 public:
  Writer(int fd, std::shared_ptr<Flow> flow, std::function<void()> on_broken)
      : fd_(fd), flow_(std::move(flow)), on_broken_(std::move(on_broken)) {
    thread_ = std::thread([this] { loop(); });
  }
  ~Writer() { stop(); }

  void push(std::string line) {
    line.push_back('\n');
    flow_->output_queued(line.size());
    {
      std::lock_guard<std::mutex> lock(mutex_);
      queue_.push_back(std::move(line));
    }
    cv_.notify_one();
  }

  /// Writes what is queued, then ends the thread.
  void stop() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (stopping_) return;
      stopping_ = true;
    }
    cv_.notify_one();
    if (thread_.joinable()) thread_.join();
  }

 private:
  void loop() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (true) {
      cv_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (queue_.empty() && stopping_) return;
      std::deque<std::string> batch = std::move(queue_);
      queue_.clear();
      lock.unlock();
      write_batch(batch);
      lock.lock();
    }
  }

  // Small lines are joined (one write for a burst of short answers); a large one is written as
  // it is, so the batch is never copied whole.
  void write_batch(std::deque<std::string>& batch) {
    std::string chunk;
    auto flush = [this](std::string_view data) {
      if (!broken_ && !sys::write_all(fd_, data).ok()) {
        broken_ = true;
        on_broken_();
      }
      flow_->output_written(data.size());
    };
    for (std::string& line : batch) {
      if (!chunk.empty() && chunk.size() + line.size() > kWriteChunkBytes) {
        flush(chunk);
        chunk.clear();
      }
      if (line.size() >= kWriteChunkBytes) {
        flush(line);
      } else {
        chunk += line;
      }
      std::string().swap(line);  // written: release it now
    }
    if (!chunk.empty()) flush(chunk);
  }

  int fd_;
  std::shared_ptr<Flow> flow_;
  std::function<void()> on_broken_;
  std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<std::string> queue_;
  bool stopping_ = false;
  bool broken_ = false;
  std::thread thread_;
};

StdioTransport::StdioTransport(asio::io_context& io, Handlers handlers, int in_fd, int out_fd)
    : flow_(std::make_shared<Flow>()), sink_(std::make_shared<Sink>()), in_fd_(in_fd) {
  sink_->io = &io;
  sink_->handlers = std::move(handlers);
  std::weak_ptr<Sink> sink = sink_;
  writer_ = std::make_unique<Writer>(out_fd, flow_, [sink] {
    if (auto s = sink.lock()) s->post([s] { s->handlers.broken(); });
  });
}

StdioTransport::~StdioTransport() { stop(); }

void StdioTransport::start() {
  std::shared_ptr<Sink> sink = sink_;
  std::shared_ptr<Flow> flow = flow_;
  int fd = in_fd_;
  std::thread([sink, flow, fd] {
    LineSplitter splitter(
        kMaxLineBytes,
        [&](std::string line) {
          flow->wait_for_room();
          flow->line_posted();
          sink->post([sink, flow, l = std::move(line)]() mutable {
            sink->handlers.line(std::move(l));
            flow->line_handled();
          });
        },
        [&](size_t n) { sink->post([sink, n] { sink->handlers.oversized(n); }); });
    std::string buffer(256 * 1024, '\0');
    while (true) {
      Result<size_t> n = sys::read_some(fd, buffer.data(), buffer.size());
      if (!n.ok() || *n == 0) break;  // a read error ends the input like EOF does
      splitter.feed(std::string_view(buffer.data(), *n));
    }
    splitter.finish();
    sink->post([sink] { sink->handlers.eof(); });
  }).detach();
}

void StdioTransport::send(std::string line) { writer_->push(std::move(line)); }

void StdioTransport::stop() {
  sink_->detach();  // first: a reader woken by close() below posts nothing any more
  flow_->close();
  writer_->stop();
}

}  // namespace clawexec::rpc
