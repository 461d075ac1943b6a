// Pending approvals through a real operator channel hub on an io_context thread, found the
// way a CLI finds it: through the scratch state dir's approvals document.

#include "operator/pending_approvals.h"

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <future>
#include <mutex>
#include <thread>

#include "approvals/operator_channel.h"
#include "operator/approvals_edit.h"
#include "operator/operator_test_support.h"

namespace clawexec::operator_ops {
namespace {

namespace bj = boost::json;

class PendingApprovalsTest : public testing::ScratchStateTest {
 protected:
  void TearDown() override {
    on_io([this] { hub_.reset(); });
    work_.reset();
    if (thread_.joinable()) thread_.join();
    ScratchStateTest::TearDown();
  }

  void on_io(const std::function<void()>& fn) {
    if (!thread_.joinable()) return fn();
    std::promise<void> done;
    boost::asio::post(io_, [&] {
      fn();
      done.set_value();
    });
    done.get_future().wait();
  }

  // A hub serving the socket and token of the document (written here), with one approval.
  void start_hub() {
    ASSERT_TRUE(set_approvals(env_, R"({"socket":{"token":"tok"}})").ok());
    approvals::OperatorChannel::Provider provider;
    provider.list = [this] {
      std::lock_guard lock(mutex_);
      return pending_;
    };
    provider.resolve = [this](std::string id, std::string decision, std::string, std::function<void(Result<void>)> done) {
      {
        std::lock_guard lock(mutex_);
        resolved_.push_back(id + " " + decision);
        pending_.clear();
      }
      done({});
    };
    approvals::OperatorChannel::Options options{5, 40};
    options.refuse_peer = [](int) { return std::optional<std::string>(); };
    options.refuse_self = [] { return std::optional<std::string>(); };
    hub_ = std::make_unique<approvals::OperatorChannel>(io_, env_.approvals.socket, "tok", std::move(provider), options);
    hub_->start();
    thread_ = std::thread([this] { io_.run(); });
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(4);
    bool hub = false;
    while (!hub && std::chrono::steady_clock::now() < deadline) {
      on_io([&] { hub = hub_->is_hub(); });
      if (!hub) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    ASSERT_TRUE(hub);
  }

  boost::asio::io_context io_;
  std::optional<boost::asio::executor_work_guard<boost::asio::io_context::executor_type>> work_{io_.get_executor()};
  std::thread thread_;
  std::unique_ptr<approvals::OperatorChannel> hub_;
  std::mutex mutex_;
  std::vector<bj::object> pending_{{{"id", "aaaa1111-0000-4000-8000-000000000001"}, {"slug", "aaaa1111"},
                                    {"command", "rm -rf build"}, {"createdAtMs", 1}}};
  std::vector<std::string> resolved_;
};

TEST_F(PendingApprovalsTest, WithoutAHubTheErrorIsTheSentenceNamingTheSocket) {
  auto list = list_pending_approvals(env_);
  ASSERT_FALSE(list.ok());
  EXPECT_EQ(list.error().code, ErrorCode::kNotFound);
  EXPECT_EQ(list.error().message,
            "No clawexec server is serving approvals (socket " + env_.approvals.socket + " not found).");
  auto resolved = resolve_pending_approval(env_, "aaaa1111", "deny");
  ASSERT_FALSE(resolved.ok());
  EXPECT_EQ(resolved.error().code, ErrorCode::kNotFound);
}

TEST_F(PendingApprovalsTest, ASocketPathInTheDocumentIsUsedWithTildeExpanded) {
  ASSERT_TRUE(set_approvals(env_, R"({"socket":{"path":"~/elsewhere.sock","token":"tok"}})").ok());
  auto list = list_pending_approvals(env_);
  ASSERT_FALSE(list.ok());
  EXPECT_EQ(list.error().message,
            "No clawexec server is serving approvals (socket " + root_ + "/home/elsewhere.sock not found).");
}

TEST_F(PendingApprovalsTest, ACorruptDocumentIsAnErrorNamingIt) {
  write(approvals_file(), "{ not json");
  auto list = list_pending_approvals(env_);
  ASSERT_FALSE(list.ok());
  EXPECT_NE(list.error().message.find(approvals_file()), std::string::npos) << list.error().message;
}

TEST_F(PendingApprovalsTest, ListsAndResolvesThroughTheHub) {
  start_hub();
  auto list = list_pending_approvals(env_);
  ASSERT_TRUE(list.ok()) << list.error().message;
  ASSERT_EQ(list->size(), 1u);
  EXPECT_EQ(list->at(0).at("slug"), bj::value("aaaa1111"));
  EXPECT_EQ(list->at(0).at("command"), bj::value("rm -rf build"));

  auto reply = resolve_pending_approval(env_, "aaaa1111", "allow-once");
  ASSERT_TRUE(reply.ok()) << reply.error().message;
  EXPECT_EQ(reply->at("ok"), bj::value(true));
  EXPECT_FALSE(reply->contains("requestId"));
  {
    std::lock_guard lock(mutex_);
    EXPECT_EQ(resolved_, (std::vector<std::string>{"aaaa1111-0000-4000-8000-000000000001 allow-once"}));
  }
  auto gone = resolve_pending_approval(env_, "aaaa1111", "deny");
  ASSERT_TRUE(gone.ok()) << gone.error().message;
  EXPECT_EQ(gone->at("ok"), bj::value(false));
  EXPECT_EQ(gone->at("error"), bj::value("unknown or expired approval id"));
}

TEST_F(PendingApprovalsTest, AnUnknownDecisionIsRefusedBeforeConnecting) {
  auto reply = resolve_pending_approval(env_, "aaaa1111", "maybe");
  ASSERT_FALSE(reply.ok());
  EXPECT_EQ(reply.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(reply.error().message,
            "resolve approval aaaa1111: unknown decision \"maybe\" (expected allow-once, allow-always or deny)");
}

TEST_F(PendingApprovalsTest, OperatorTextGetsTheHubsReply) {
  start_hub();
  auto reply = send_operator_text(env_, "/approve aaaa1111 deny");
  ASSERT_TRUE(reply.ok()) << reply.error().message;
  EXPECT_EQ(*reply, "\u2705 Approval deny submitted for aaaa1111.");
}

}  // namespace
}  // namespace clawexec::operator_ops
