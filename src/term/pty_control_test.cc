#include "term/pty_control.h"

#include <gtest/gtest.h>

namespace clawexec::term {
namespace {

// Conformance §8.2 #53.
TEST(PtyControl, StripDsrRequestsRemovesBothFormsAndCountsThem) {
  const DsrStripResult result = strip_dsr_requests("hi\x1b[6nthere\x1b[?6n");
  EXPECT_EQ(result.cleaned, "hithere");
  EXPECT_EQ(result.requests, 2u);
}

// Conformance §8.2 #53.
TEST(PtyControl, CursorPositionResponseDefaultsToTopLeft) {
  EXPECT_EQ(cursor_position_response(), "\x1b[1;1R");
  EXPECT_EQ(cursor_position_response(12, 34), "\x1b[12;34R");
}

TEST(PtyControl, StripDsrRequestsLeavesOtherSequencesAlone) {
  const DsrStripResult result = strip_dsr_requests("\x1b[31mred\x1b[5n\x1b[16n\x1b[6\x1b");
  EXPECT_EQ(result.cleaned, "\x1b[31mred\x1b[5n\x1b[16n\x1b[6\x1b");
  EXPECT_EQ(result.requests, 0u);
}

TEST(PtyControl, StripDsrRequestsHandlesAdjacentAndRepeatedRequests) {
  const DsrStripResult result = strip_dsr_requests("\x1b[6n\x1b[6n\x1b\x1b[?6nend\x1b[6n");
  EXPECT_EQ(result.cleaned,
            "\x1b"
            "end");
  EXPECT_EQ(result.requests, 4u);
  EXPECT_EQ(strip_dsr_requests("").cleaned, "");
}

// Conformance §8.2 #54.
TEST(PtyControl, DetectCursorKeyModeLastToggleWins) {
  EXPECT_EQ(detect_cursor_key_mode("x\x1b[?1hy\x1b[?1l"), CursorKeyMode::kNormal);
  EXPECT_EQ(detect_cursor_key_mode("\x1b[?1h"), CursorKeyMode::kApplication);
  EXPECT_EQ(detect_cursor_key_mode("no toggle here"), std::nullopt);
}

TEST(PtyControl, DetectCursorKeyModeOtherOrders) {
  EXPECT_EQ(detect_cursor_key_mode("\x1b[?1l...\x1b[?1h"), CursorKeyMode::kApplication);
  EXPECT_EQ(detect_cursor_key_mode("\x1b[?1l"), CursorKeyMode::kNormal);
  EXPECT_EQ(detect_cursor_key_mode("\x1b[?12h\x1b[?1"), std::nullopt);
}

}  // namespace
}  // namespace clawexec::term
