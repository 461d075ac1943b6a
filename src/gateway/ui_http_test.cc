// The control UI's HTTP answers (ui_http.h).

#include "gateway/ui_http.h"

#include <gtest/gtest.h>

#include "gateway/ui_assets.h"

namespace clawexec::gateway {
namespace {

net::HttpRequest get(std::string path, net::Headers headers = {{"host", "127.0.0.1:18789"}}) {
  net::HttpRequest r;
  r.method = "GET";
  r.target = path;
  r.path = std::move(path);
  r.headers = std::move(headers);
  return r;
}

std::string header(const UiResponse& r, std::string_view name) {
  for (const auto& [k, v] : r.headers) {
    if (k == name) return v;
  }
  return "";
}

TEST(UiHttp, RootServesThePageWithStrictSecurityHeaders) {
  std::optional<UiResponse> r = ui_response(get("/"), false);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(header(*r, "Content-Type"), "text/html; charset=utf-8");
  EXPECT_NE(r->body.find("<html"), std::string::npos);
  std::string csp = header(*r, "Content-Security-Policy");
  EXPECT_NE(csp.find("default-src 'self'"), std::string::npos);
  EXPECT_NE(csp.find("script-src 'self';"), std::string::npos);
  EXPECT_NE(csp.find("connect-src 'self' ws://127.0.0.1:18789;"), std::string::npos);
  EXPECT_NE(csp.find("frame-ancestors 'none'"), std::string::npos);
  EXPECT_NE(csp.find("img-src 'self';"), std::string::npos);
  EXPECT_EQ(csp.find("data:"), std::string::npos);
  EXPECT_EQ(csp.find("unsafe"), std::string::npos);
  EXPECT_EQ(header(*r, "X-Frame-Options"), "DENY");
  EXPECT_EQ(header(*r, "Referrer-Policy"), "no-referrer");
  EXPECT_EQ(header(*r, "X-Content-Type-Options"), "nosniff");
  EXPECT_EQ(header(*r, "Set-Cookie"), "");
}

TEST(UiHttp, FaviconIsTheEmbeddedIconNotA404) {
  std::optional<UiResponse> r = ui_response(get("/favicon.ico"), false);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(header(*r, "Content-Type"), "image/svg+xml");
  EXPECT_NE(r->body.find("<svg"), std::string::npos);
  std::optional<UiResponse> page = ui_response(get("/"), false);
  ASSERT_TRUE(page);
  EXPECT_NE(page->body.find("rel=\"icon\" href=\"/ui/icon.svg\""), std::string::npos);
}

TEST(UiHttp, TlsGatewayNamesTheWssSchemeInTheCsp) {
  std::optional<UiResponse> r = ui_response(get("/"), true);
  ASSERT_TRUE(r);
  EXPECT_NE(header(*r, "Content-Security-Policy").find("connect-src 'self' wss://127.0.0.1:18789;"), std::string::npos);
}

TEST(UiHttp, AHostThatCouldAddADirectiveIsLeftOutOfTheCsp) {
  std::optional<UiResponse> r = ui_response(get("/", {{"host", "a; script-src *"}}), false);
  ASSERT_TRUE(r);
  std::string csp = header(*r, "Content-Security-Policy");
  EXPECT_EQ(csp.find("script-src *"), std::string::npos);
  EXPECT_NE(csp.find("connect-src 'self';"), std::string::npos);
}

TEST(UiHttp, EveryEmbeddedFileIsServedWithItsTypeAndEtag) {
  ASSERT_FALSE(ui_assets().empty());
  for (const UiAsset& a : ui_assets()) {
    std::optional<UiResponse> r = ui_response(get(std::string(a.path)), false);
    ASSERT_TRUE(r) << a.path;
    EXPECT_EQ(r->status, 200) << a.path;
    EXPECT_EQ(header(*r, "Content-Type"), a.content_type);
    EXPECT_EQ(header(*r, "ETag"), a.etag);
    EXPECT_EQ(r->body, a.body);
  }
}

TEST(UiHttp, MatchingIfNoneMatchIsNotModifiedWithoutABody) {
  std::optional<UiResponse> first = ui_response(get("/ui/app.js"), false);
  ASSERT_TRUE(first);
  std::string etag = header(*first, "ETag");
  ASSERT_FALSE(etag.empty());
  std::optional<UiResponse> again = ui_response(get("/ui/app.js", {{"if-none-match", "\"other\", " + etag}}), false);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->status, 304);
  EXPECT_TRUE(again->body.empty());
  std::optional<UiResponse> stale = ui_response(get("/ui/app.js", {{"if-none-match", "\"other\""}}), false);
  EXPECT_EQ(stale->status, 200);
}

TEST(UiHttp, UnknownFilesAndOtherMethodsAreRefused) {
  EXPECT_EQ(ui_response(get("/ui/nope.js"), false)->status, 404);
  EXPECT_EQ(ui_response(get("/ui/../CMakeLists.txt"), false)->status, 404);
  net::HttpRequest post = get("/");
  post.method = "POST";
  std::optional<UiResponse> r = ui_response(post, false);
  EXPECT_EQ(r->status, 405);
  EXPECT_EQ(header(*r, "Allow"), "GET");
  EXPECT_FALSE(ui_response(get("/mcp"), false));
  EXPECT_FALSE(ui_response(get("/healthz"), false));
}

}  // namespace
}  // namespace clawexec::gateway
