// The blocking CLI client against a real hub and member running on an io_context thread:
// handshake errors, list, resolve, command replies, and events queued behind a reply.

#include "approvals/operator_client.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/post.hpp>
#include <chrono>
#include <filesystem>
#include <future>
#include <mutex>
#include <thread>

#include "approvals/operator_channel.h"

namespace clawexec::approvals {
namespace {

namespace bj = boost::json;

// Provider state touched from the io thread; the test reads it after synchronising.
struct SharedProcess {
  std::mutex mutex;
  std::vector<bj::object> pending;
  std::vector<std::string> resolved;

  OperatorChannel::Provider provider() {
    OperatorChannel::Provider p;
    p.list = [this] {
      std::lock_guard lock(mutex);
      return pending;
    };
    p.resolve = [this](std::string id, std::string decision, std::string, std::function<void(Result<void>)> done) {
      {
        std::lock_guard lock(mutex);
        resolved.push_back(id + " " + decision);
        std::erase_if(pending, [&](const bj::object& a) { return a.at("id").as_string() == id; });
      }
      done({});
    };
    return p;
  }
};

class OperatorClientTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/clawexec-opclient-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    path_ = dir_ + "/exec-approvals.sock";
  }
  void TearDown() override {
    on_io([this] {
      hub_.reset();
      member_.reset();
    });
    work_.reset();
    if (thread_.joinable()) thread_.join();
    std::filesystem::remove_all(dir_);
  }

  // Runs `fn` on the io thread and waits for it.
  void on_io(std::function<void()> fn) {
    if (!thread_.joinable()) return fn();
    std::promise<void> done;
    boost::asio::post(io_, [&] {
      fn();
      done.set_value();
    });
    done.get_future().wait();
  }

  void start_hub_and_member() {
    a_.pending = {{{"id", "aaaa1111-0000-4000-8000-000000000001"}, {"slug", "aaaa1111"}, {"createdAtMs", 1}}};
    b_.pending = {{{"id", "bbbb2222-0000-4000-8000-000000000002"}, {"slug", "bbbb2222"}, {"createdAtMs", 2}}};
    OperatorChannel::Options options{5, 40};
    hub_ = std::make_unique<OperatorChannel>(io_, path_, "tok", a_.provider(), options);
    member_ = std::make_unique<OperatorChannel>(io_, path_, "tok", b_.provider(), options);
    hub_->start();
    thread_ = std::thread([this] { io_.run(); });
    wait_for([&] {
      bool hub = false;
      on_io([&] { hub = hub_->is_hub(); });
      return hub;
    });
    on_io([&] { member_->start(); });
    wait_for([&] {
      bool member = false;
      on_io([&] { member = member_->is_member(); });
      return member;
    });
  }

  static void wait_for(const std::function<bool()>& pred) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(4);
    while (!pred() && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    ASSERT_TRUE(pred());
  }

  boost::asio::io_context io_;
  std::optional<boost::asio::executor_work_guard<boost::asio::io_context::executor_type>> work_{io_.get_executor()};
  std::thread thread_;
  std::string dir_;
  std::string path_;
  SharedProcess a_, b_;
  std::unique_ptr<OperatorChannel> hub_, member_;
};

TEST_F(OperatorClientTest, NoHubIsNotFoundNamingTheSocket) {
  auto client = OperatorClient::connect(path_, "tok");
  ASSERT_FALSE(client.ok());
  EXPECT_EQ(client.error().code, ErrorCode::kNotFound);
  EXPECT_EQ(client.error().message, "socket " + path_ + " not found");
}

TEST_F(OperatorClientTest, WrongTokenIsPermissionDenied) {
  start_hub_and_member();
  auto client = OperatorClient::connect(path_, "nope");
  ASSERT_FALSE(client.ok());
  EXPECT_EQ(client.error().code, ErrorCode::kPermissionDenied);
  EXPECT_EQ(client.error().message, "invalid token");
}

TEST_F(OperatorClientTest, ListsAndResolvesAcrossProcesses) {
  start_hub_and_member();
  auto client = OperatorClient::connect(path_, "tok");
  ASSERT_TRUE(client.ok()) << client.error().message;
  std::vector<bj::object> list;
  wait_for([&] {
    auto l = (*client)->list();
    if (l.ok()) list = *l;
    return list.size() == 2;
  });
  EXPECT_EQ(list[0].at("slug"), bj::value("aaaa1111"));
  EXPECT_EQ(list[1].at("slug"), bj::value("bbbb2222"));

  auto ok = (*client)->resolve("bbbb2222", "allow-once");
  ASSERT_TRUE(ok.ok()) << ok.error().message;
  EXPECT_EQ(ok->at("ok"), bj::value(true));
  EXPECT_EQ(ok->at("id"), bj::value("bbbb2222-0000-4000-8000-000000000002"));
  {
    std::lock_guard lock(b_.mutex);
    EXPECT_EQ(b_.resolved, (std::vector<std::string>{"bbbb2222-0000-4000-8000-000000000002 allow-once"}));
  }
  auto missing = (*client)->resolve("bbbb2222", "deny");
  ASSERT_TRUE(missing.ok());
  EXPECT_EQ(missing->at("ok"), bj::value(false));
  EXPECT_EQ(missing->at("error"), bj::value("unknown or expired approval id"));

  auto text = (*client)->command("/approve aaaa1111 deny");
  ASSERT_TRUE(text.ok()) << text.error().message;
  EXPECT_EQ(*text, "✅ Approval deny submitted for aaaa1111.");
}

TEST_F(OperatorClientTest, EventsArrivingBeforeAReplyAreKeptForNextMessage) {
  start_hub_and_member();
  auto client = OperatorClient::connect(path_, "tok");
  ASSERT_TRUE(client.ok()) << client.error().message;
  ASSERT_TRUE((*client)->subscribe().ok());
  on_io([&] {
    member_->publish_requested({{"id", "cccc3333-0000-4000-8000-000000000003"}, {"slug", "cccc3333"}});
  });
  // The list reply comes after the requested event on the same connection.
  wait_for([&] {
    auto l = (*client)->list();
    return l.ok() && l->size() == 3;
  });
  auto event = (*client)->next_message(1000);
  ASSERT_TRUE(event.ok());
  ASSERT_TRUE(event->has_value());
  EXPECT_EQ((**event).at("event"), bj::value("requested"));
  EXPECT_EQ((**event).at("approval").at("slug"), bj::value("cccc3333"));
  auto nothing = (*client)->next_message(50);
  ASSERT_TRUE(nothing.ok());
  EXPECT_FALSE(nothing->has_value());
}

}  // namespace
}  // namespace clawexec::approvals
