// The model client against a real server: tests/mcp/lib/stub_model.mjs, run once for the suite
// under Node (skipped when the build found no node). The stub's behaviour is chosen by the
// request's model id; its record of received requests is read over its stdin/stdout.

#include "net/model_client.h"

#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/asio/steady_timer.hpp>
#include <boost/json.hpp>

#include "sys/spawn_process.h"

namespace clawexec::net {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using config::ModelApi;
namespace json = boost::json;

constexpr ModelApi kApis[] = {ModelApi::kOpenAiCompletions, ModelApi::kOpenAiResponses, ModelApi::kAnthropicMessages};
constexpr const char* kKey = "sk-test-secret-123";

class Stub {
 public:
  bool start() {
#ifdef CLAWEXEC_NODE
    int in[2];
    int out[2];
    if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0) return false;
    int fds[] = {in[0], out[1], 2};
    auto pid = sys::spawn_process(CLAWEXEC_NODE, {"node", CLAWEXEC_SOURCE_DIR "/tests/mcp/lib/stub_model.mjs", "--tls"},
                                  {"PATH=/usr/local/bin:/usr/bin:/bin"}, fds);
    close(in[0]);
    close(out[1]);
    to_ = in[1];
    from_ = out[0];
    if (!pid.ok()) return false;
    pid_ = *pid;
    auto hello = json::parse(line(20000));
    port_ = static_cast<int>(hello.at("port").as_int64());
    tls_port_ = static_cast<int>(hello.at("tlsPort").as_int64());
    ca_file_ = std::string(hello.at("caFile").as_string());
    return true;
#else
    return false;
#endif
  }
  void stop() {
    if (to_ >= 0) close(to_);
    if (from_ >= 0) close(from_);
    if (pid_ > 0) waitpid(pid_, nullptr, 0);
  }
  json::array requests() {
    command("requests");
    return json::parse(line(10000)).as_array();
  }
  void reset() { command("reset"); }
  int port() const { return port_; }
  int tls_port() const { return tls_port_; }
  const std::string& ca_file() const { return ca_file_; }

 private:
  void command(std::string_view text) {
    std::string l = std::string(text) + "\n";
    EXPECT_EQ(write(to_, l.data(), l.size()), static_cast<ssize_t>(l.size()));
  }
  std::string line(int timeout_ms) { return sys::read_with_deadline(from_, timeout_ms, 64 << 20, '\n').data; }

  pid_t pid_ = -1;
  int to_ = -1;
  int from_ = -1;
  int port_ = 0;
  int tls_port_ = 0;
  std::string ca_file_;
};

Stub* stub = nullptr;

class ModelClient : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    stub = new Stub();
    if (!stub->start()) {
      delete stub;
      stub = nullptr;
    }
  }
  static void TearDownTestSuite() {
    if (stub) stub->stop();
    delete stub;
    stub = nullptr;
  }
  void SetUp() override {
    // The test suite installs Node (scripts/install-deps.sh --test); without it this fails, never skips.
    ASSERT_NE(stub, nullptr) << "could not start node tests/mcp/lib/stub_model.mjs (is Node installed?)";
    stub->reset();
  }

  static config::ModelEndpoint endpoint(ModelApi api, std::string model, std::string base = {}) {
    config::ModelEndpoint e;
    e.provider = "stub";
    e.model = std::move(model);
    e.api = api;
    e.api_key = kKey;
    e.base_url = base.empty() ? "http://127.0.0.1:" + std::to_string(stub->port()) +
                                    (api == ModelApi::kAnthropicMessages ? "" : "/v1")
                              : base;
    return e;
  }

  static Result<Completion> run(const config::ModelEndpoint& e, bool stream = false, int timeout_ms = 5000,
                                ModelClientOptions options = {}) {
    boost::asio::io_context io;
    CompletionRequest r{.system = "You review commands.", .user = "ls -la", .timeout = std::chrono::milliseconds(timeout_ms),
                        .stream = stream};
    std::optional<Result<Completion>> got;
    int calls = 0;
    complete(io, e, r, [&](Result<Completion> c) {
      ++calls;
      got = std::move(c);
    }, options);
    io.run();
    EXPECT_EQ(calls, 1);
    if (!got) return Error::internal("no callback");
    return std::move(*got);
  }
};

std::string api_name(ModelApi api) { return std::string(config::to_string(api)); }

TEST_F(ModelClient, EachApiReturnsTheTextAndStopWithAndWithoutStreaming) {
  for (ModelApi api : kApis) {
    for (bool stream : {false, true}) {
      auto c = run(endpoint(api, "ok"), stream);
      ASSERT_TRUE(c.ok()) << api_name(api) << ": " << c.error().message;
      EXPECT_EQ(c->text, "stub " + api_name(api) + (stream ? " stream" : " json"));
      EXPECT_EQ(c->stop_reason, "stop") << api_name(api) << " " << c->error_message;
      EXPECT_EQ(c->http_status, 200);
    }
  }
}

TEST_F(ModelClient, RequestsCarryEachApisPathCredentialAndBody) {
  for (ModelApi api : kApis) ASSERT_TRUE(run(endpoint(api, "ok")).ok());
  json::array got = stub->requests();
  ASSERT_EQ(got.size(), 3u);
  const json::object& chat = got[0].as_object();
  EXPECT_EQ(chat.at("url").as_string(), "/v1/chat/completions");
  EXPECT_EQ(chat.at("headers").at("authorization").as_string(), std::string("Bearer ") + kKey);
  EXPECT_EQ(chat.at("body").at("max_completion_tokens").as_int64(), 360);
  EXPECT_EQ(chat.at("body").at("temperature").to_number<double>(), 0);
  EXPECT_EQ(chat.at("body").at("messages").at(0).at("role").as_string(), "system");
  EXPECT_EQ(chat.at("body").at("messages").at(1).at("content").as_string(), "ls -la");
  const json::object& responses = got[1].as_object();
  EXPECT_EQ(responses.at("url").as_string(), "/v1/responses");
  EXPECT_EQ(responses.at("body").at("max_output_tokens").as_int64(), 360);
  EXPECT_EQ(responses.at("body").at("store").as_bool(), false);
  EXPECT_EQ(responses.at("body").at("input").at(1).at("content").at(0).at("text").as_string(), "ls -la");
  const json::object& messages = got[2].as_object();
  EXPECT_EQ(messages.at("url").as_string(), "/v1/messages");
  EXPECT_EQ(messages.at("headers").at("x-api-key").as_string(), kKey);
  EXPECT_EQ(messages.at("headers").at("anthropic-version").as_string(), "2023-06-01");
  EXPECT_FALSE(messages.at("headers").as_object().contains("authorization"));
  EXPECT_EQ(messages.at("body").at("system").at(0).at("text").as_string(), "You review commands.");
  EXPECT_EQ(messages.at("body").at("max_tokens").as_int64(), 360);
}

TEST_F(ModelClient, TheTokenLimitStopsWithLength) {
  for (ModelApi api : kApis) {
    for (bool stream : {false, true}) {
      auto c = run(endpoint(api, "length"), stream);
      ASSERT_TRUE(c.ok()) << c.error().message;
      EXPECT_EQ(c->stop_reason, "length") << api_name(api) << (stream ? " stream" : " json");
    }
  }
}

TEST_F(ModelClient, AnHttpErrorIsStopReasonErrorWithStatusAndNeverTheKey) {
  for (ModelApi api : kApis) {
    for (bool stream : {false, true}) {
      auto c = run(endpoint(api, "http500"), stream);
      ASSERT_TRUE(c.ok()) << c.error().message;
      EXPECT_EQ(c->stop_reason, "error");
      EXPECT_EQ(c->http_status, 500);
      EXPECT_THAT(c->error_message, HasSubstr("HTTP 500: stub failure"));
      EXPECT_THAT(c->error_message, HasSubstr("for credential"));
      EXPECT_THAT(c->error_message, Not(HasSubstr(kKey)));
      EXPECT_THAT(c->error_message, Not(HasSubstr("\x1b")));
      EXPECT_THAT(c->error_message, Not(HasSubstr("\n")));
    }
  }
}

TEST_F(ModelClient, AServerThatNeverAnswersTimesOut) {
  auto c = run(endpoint(ModelApi::kOpenAiCompletions, "hang"), true, 300);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.error().code, ErrorCode::kTimedOut);
  EXPECT_THAT(c.error().message, HasSubstr("timed out after 300 ms"));
  EXPECT_THAT(c.error().message, HasSubstr("/v1/chat/completions"));
}

TEST_F(ModelClient, AnAnswerInsideTheTimeoutArrives) {
  auto c = run(endpoint(ModelApi::kAnthropicMessages, "delay:200"), true, 5000);
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ(c->stop_reason, "stop");
}

TEST_F(ModelClient, AConnectionClosedMidResponseIsAnError) {
  for (ModelApi api : kApis) {
    for (bool stream : {false, true}) {
      auto c = run(endpoint(api, "close"), stream);
      ASSERT_FALSE(c.ok()) << api_name(api) << " gave " << c->stop_reason;
      EXPECT_EQ(c.error().code, ErrorCode::kIo);
      EXPECT_THAT(c.error().message, HasSubstr("closed before the response was complete"));
    }
  }
}

TEST_F(ModelClient, ARefusedConnectionNamesHostAndPort) {
  auto c = run(endpoint(ModelApi::kOpenAiResponses, "ok", "http://127.0.0.1:1/v1"));
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.error().code, ErrorCode::kIo);
  EXPECT_THAT(c.error().message, HasSubstr("connect 127.0.0.1:1: Connection refused"));
  EXPECT_THAT(c.error().message, Not(HasSubstr(kKey)));
}

TEST_F(ModelClient, ASelfSignedCertificateIsRefusedAndNoRequestIsSent) {
  std::string base = "https://127.0.0.1:" + std::to_string(stub->tls_port()) + "/v1";
  auto c = run(endpoint(ModelApi::kOpenAiCompletions, "ok", base));
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.error().code, ErrorCode::kIo);
  EXPECT_THAT(c.error().message, HasSubstr("TLS handshake with 127.0.0.1:"));
  EXPECT_THAT(c.error().message, HasSubstr("certificate verify failed"));
  EXPECT_TRUE(stub->requests().empty());
}

TEST_F(ModelClient, TheStubsCertificateIsTrustedWhenItsCaFileIsGiven) {
  ModelClientOptions options{.ca_file = stub->ca_file()};
  for (std::string host : {"127.0.0.1", "localhost"}) {
    std::string base = "https://" + host + ":" + std::to_string(stub->tls_port()) + "/v1";
    auto c = run(endpoint(ModelApi::kOpenAiCompletions, "ok", base), true, 5000, options);
    ASSERT_TRUE(c.ok()) << c.error().message;
    EXPECT_EQ(c->text, "stub openai-completions stream");
  }
}

TEST_F(ModelClient, ACertificateForAnotherNameIsRefused) {
  ModelClientOptions options{.ca_file = stub->ca_file()};
  std::string base = "https://127.0.0.2:" + std::to_string(stub->tls_port()) + "/v1";  // not in the SAN
  auto c = run(endpoint(ModelApi::kOpenAiCompletions, "ok", base), false, 3000, options);
  ASSERT_FALSE(c.ok());
  EXPECT_THAT(c.error().message, Not(HasSubstr("timed out")));
}

TEST_F(ModelClient, AResponseOverTheCapIsRefused) {
  for (bool stream : {false, true}) {
    auto c = run(endpoint(ModelApi::kOpenAiCompletions, "big"), stream);
    ASSERT_FALSE(c.ok());
    EXPECT_THAT(c.error().message, HasSubstr("the response is larger than 1048576 bytes"));
  }
}

TEST_F(ModelClient, CancelEndsTheCallAtOnce) {
  boost::asio::io_context io;
  std::optional<Result<Completion>> got;
  CompletionRequest r{.user = "x", .timeout = std::chrono::milliseconds(10000)};
  auto call = complete(io, endpoint(ModelApi::kOpenAiCompletions, "hang"), r, [&](Result<Completion> c) { got = std::move(c); });
  boost::asio::steady_timer t(io, std::chrono::milliseconds(100));
  t.async_wait([&](auto) { call->cancel(); });
  auto started = std::chrono::steady_clock::now();
  io.run();
  ASSERT_TRUE(got && !got->ok());
  EXPECT_EQ(got->error().code, ErrorCode::kCancelled);
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(5));
}

TEST_F(ModelClient, ABaseUrlThatIsNotHttpIsAnError) {
  auto c = run(endpoint(ModelApi::kOpenAiCompletions, "ok", "ftp://127.0.0.1/v1"));
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.error().code, ErrorCode::kInvalidArgument);
  EXPECT_THAT(c.error().message, HasSubstr("expected http:// or https://"));
}

}  // namespace
}  // namespace clawexec::net
