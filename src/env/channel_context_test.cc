#include "env/channel_context.h"

#include <gtest/gtest.h>

namespace clawexec::env {
namespace {

TEST(ChannelContext, HoldsOnlyTheIdsThatAreSet) {
  EXPECT_EQ(channel_context_json("u-1", "c-9"), R"({"sender":{"id":"u-1"},"chat":{"id":"c-9"}})");
  EXPECT_EQ(channel_context_json(" u-1 ", "  "), R"({"sender":{"id":"u-1"}})");
  EXPECT_EQ(channel_context_json("", "c-9"), R"({"chat":{"id":"c-9"}})");
  EXPECT_EQ(channel_context_json(" ", "\t"), std::nullopt);
}

TEST(ChannelContext, EscapesIdsAsJsonStrings) {
  EXPECT_EQ(channel_context_json("a\"b\\c\nd\x01", ""), "{\"sender\":{\"id\":\"a\\\"b\\\\c\\nd\\u0001\"}}");
}

}  // namespace
}  // namespace clawexec::env
