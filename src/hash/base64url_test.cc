#include "hash/base64url.h"

#include <gtest/gtest.h>

namespace clawexec::hash {
namespace {

TEST(Base64Url, EncodesWithTheUrlAlphabetAndNoPadding) {
  const unsigned char bytes[] = {0xfb, 0xff, 0xbf};
  EXPECT_EQ(base64url_encode(bytes, 3), "-_-_");
  EXPECT_EQ(base64url_encode(bytes, 2), "-_8");
  EXPECT_EQ(base64url_encode(bytes, 1), "-w");
  EXPECT_EQ(base64url_encode(bytes, 0), "");
  EXPECT_EQ(base64url_encode("foobar"), "Zm9vYmFy");
}

TEST(Base64Url, DecodesBothAlphabetsAndOptionalPadding) {
  EXPECT_EQ(base64url_decode("-_-_"), std::string("\xfb\xff\xbf"));
  EXPECT_EQ(base64url_decode("+/+/"), std::string("\xfb\xff\xbf"));
  EXPECT_EQ(base64url_decode("-_8"), std::string("\xfb\xff"));
  EXPECT_EQ(base64url_decode("-_8="), std::string("\xfb\xff"));
  EXPECT_EQ(base64url_decode("-w=="), std::string("\xfb"));
  EXPECT_EQ(base64url_decode(""), std::string());
  for (std::string_view s : {std::string_view("foobar"), std::string_view("a\0b", 3), std::string_view("\xff\xfe\xfd\xfc", 4)}) {
    EXPECT_EQ(base64url_decode(base64url_encode(s)), std::string(s));
  }
}

TEST(Base64Url, RefusesWhatIsNotBase64) {
  EXPECT_FALSE(base64url_decode("a"));          // one sextet is no byte
  EXPECT_FALSE(base64url_decode("ab!d"));       // outside both alphabets
  EXPECT_FALSE(base64url_decode("ab=d"));       // padding in the middle
  EXPECT_FALSE(base64url_decode("-_8=="));      // padded but not a whole quad
  EXPECT_FALSE(base64url_decode("-x"));         // spare bits set: not what any encoder writes
  EXPECT_FALSE(base64url_decode("ab cd"));
}

}  // namespace
}  // namespace clawexec::hash
