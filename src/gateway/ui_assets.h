#pragma once
// The control UI's static files, embedded in the binary at build time (cmake/EmbedUi.cmake
// generates the table from src/gateway/ui/), so the gateway needs no files on disk and nothing
// from the network to serve its UI.

#include <span>
#include <string_view>

namespace clawexec::gateway {

struct UiAsset {
  std::string_view path;          // "/ui/app.js"
  std::string_view content_type;  // "text/javascript; charset=utf-8"
  std::string_view etag;          // strong ETag, quoted
  std::string_view body;
};

/// Every embedded file (generated).
std::span<const UiAsset> ui_assets();

}  // namespace clawexec::gateway
