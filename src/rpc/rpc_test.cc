#include <gtest/gtest.h>

#include "rpc/jsonrpc.h"
#include "rpc/line_splitter.h"

namespace clawexec::rpc {
namespace {

TEST(LineSplitter, SplitsOnNewlinesAcrossFeeds) {
  std::vector<std::string> lines;
  LineSplitter s(100, [&](std::string l) { lines.push_back(l); }, [](size_t) { FAIL(); });
  s.feed("ab");
  s.feed("c\nde\r\n");
  s.feed("f");
  s.finish();
  EXPECT_EQ(lines, (std::vector<std::string>{"abc", "de", "f"}));
}

TEST(LineSplitter, SkipsAnOversizedLineWithoutBufferingIt) {
  std::vector<std::string> lines;
  std::vector<size_t> oversized;
  LineSplitter s(10, [&](std::string l) { lines.push_back(l); }, [&](size_t n) { oversized.push_back(n); });
  s.feed("ok\n0123456");
  for (int i = 0; i < 1000; ++i) s.feed(std::string(1000, 'x'));
  s.feed("tail\nnext\n");
  EXPECT_EQ(lines, (std::vector<std::string>{"ok", "next"}));
  ASSERT_EQ(oversized.size(), 1u);
  EXPECT_EQ(oversized[0], 7u + 1000u * 1000u + 4u);
}

TEST(ParseMessage, ClassifiesRequestsNotificationsAndResponses) {
  Incoming r = parse_message(R"({"jsonrpc":"2.0","id":7,"method":"ping"})");
  EXPECT_EQ(r.kind, Incoming::Kind::kRequest);
  EXPECT_EQ(r.id.as_int64(), 7);
  EXPECT_EQ(r.method, "ping");
  Incoming n = parse_message(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
  EXPECT_EQ(n.kind, Incoming::Kind::kNotification);
  Incoming resp = parse_message(R"({"jsonrpc":"2.0","id":"a","result":{}})");
  EXPECT_EQ(resp.kind, Incoming::Kind::kResponse);
}

TEST(ParseMessage, ReportsMalformedInputWithTheRightCode) {
  EXPECT_EQ(parse_message("{nope").error_code, kParseError);
  EXPECT_EQ(parse_message("[1,2]").error_code, kInvalidRequest);
  Incoming no_version = parse_message(R"({"id":3,"method":"ping"})");
  EXPECT_EQ(no_version.error_code, kInvalidRequest);
  EXPECT_EQ(no_version.id.as_int64(), 3);
  EXPECT_EQ(parse_message(R"({"jsonrpc":"2.0","id":1,"method":5})").error_code, kInvalidRequest);
  EXPECT_EQ(parse_message(R"({"jsonrpc":"2.0","id":1,"method":"x","params":3})").error_code, kInvalidRequest);
  EXPECT_EQ(parse_message(R"({"jsonrpc":"2.0","id":{"a":1},"method":"x"})").error_code, kInvalidRequest);
}

TEST(MakeMessages, SerializeCompactly) {
  EXPECT_EQ(make_result(1, json::Object{}), R"({"jsonrpc":"2.0","id":1,"result":{}})");
  EXPECT_EQ(make_error("x", kMethodNotFound, "Method not found: foo"),
            R"({"jsonrpc":"2.0","id":"x","error":{"code":-32601,"message":"Method not found: foo"}})");
}

}  // namespace
}  // namespace clawexec::rpc
