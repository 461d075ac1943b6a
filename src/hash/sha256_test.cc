#include "hash/sha256.h"

#include <gtest/gtest.h>

namespace clawexec::hash {
namespace {

TEST(Sha256, MatchesTheStandardTestVectors) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex(std::string_view("a\0b", 3)), sha256_hex(std::string("a\0b", 3)));
  EXPECT_NE(sha256_hex(std::string_view("a\0b", 3)), sha256_hex("a"));
}

TEST(LowerHex, AppendsTwoLowercaseDigitsPerByte) {
  const unsigned char bytes[] = {0x00, 0x0f, 0xa0, 0xff};
  std::string out = "x:";
  append_lower_hex(out, bytes, sizeof bytes);
  EXPECT_EQ(out, "x:000fa0ff");
}

}  // namespace
}  // namespace clawexec::hash
