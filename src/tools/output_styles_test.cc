// Colour marks on the wire: only SGR parameters ever leave, in ascending offsets.

#include "tools/output_styles.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace clawexec::tools {
namespace {

TEST(StylesJson, ShiftsOffsetsAndKeepsOnlySgrParameters) {
  std::vector<session::TextStyle> styles{{0, "31"},
                                         {2, "\x1b]8;;http://evil/\x1b\\"},
                                         {3, "1;4"},
                                         {3, "31m\x1b[2J"},
                                         {4, std::string(49, '1')},
                                         {1, "32"},  // backwards
                                         {5, ""}};
  EXPECT_EQ(json::serialize(styles_json(styles, 10)), R"([[10,"31"],[13,"1;4"],[15,""]])");
  EXPECT_TRUE(styles_json({}).empty());
}

}  // namespace
}  // namespace clawexec::tools
