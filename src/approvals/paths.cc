// Approvals paths derived from the state directory, reusing the config module's home and
// state-dir rules (OPENCLAW_HOME, HOME, ...; OPENCLAW_STATE_DIR trimmed, "~"-expanded and
// resolved). A default location is displayed home-relative; an override is shown absolute.

#include "approvals/paths.h"

#include "base/strings.h"
#include "base/utf.h"

namespace clawexec::approvals {
namespace {

constexpr const char* kFileName = "exec-approvals.json";
constexpr const char* kSocketName = "exec-approvals.sock";
constexpr const char* kDefaultDisplay = "~/.openclaw/exec-approvals.json";

std::optional<std::string> nonblank_env(const config::PathContext& context, std::string_view name) {
  if (!context.env) return std::nullopt;
  auto value = context.env(name);
  if (!value || js_trim(*value).empty()) return std::nullopt;
  return std::string(js_trim(*value));
}

}  // namespace

ApprovalsPaths resolve_approvals_paths(const config::PathContext& context) {
  ApprovalsPaths p;
  p.home = config::resolve_home_dir(context);
  p.state_dir = config::resolve_state_dir(context);
  p.file = config::resolve_path(p.state_dir, kFileName);
  p.socket = config::resolve_path(p.state_dir, kSocketName);
  p.lock = p.file + ".lock";
  const bool overridden = nonblank_env(context, "OPENCLAW_STATE_DIR").has_value();
  p.display = overridden ? p.file : kDefaultDisplay;
  p.transcript = overridden ? std::string("$OPENCLAW_STATE_DIR/") + kFileName : kDefaultDisplay;
  if (overridden) {
    const auto profile = nonblank_env(context, "OPENCLAW_PROFILE");
    const bool named_profile = profile && ascii_lower(*profile) != "default";
    if (!named_profile) p.legacy_file = config::resolve_path(p.home, std::string(".openclaw/") + kFileName);
  }
  return p;
}

}  // namespace clawexec::approvals
