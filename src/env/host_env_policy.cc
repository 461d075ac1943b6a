// Host environment policy data and the name predicates built on it.
//
// Problem: a host command must not be steerable through its environment (loader hooks such as
// LD_PRELOAD, interpreter start-up options such as NODE_OPTIONS, editors/pagers git would
// launch, credentials, proxies...). The reference keeps three name lists and two prefix lists;
// some names are dangerous in both directions, some only when a caller sets them per call, and
// some of those are still fine to pass on when the server itself has them.
//
// Approach: the lists are compile-time sorted arrays (checked by static_assert) searched by
// binary search; each predicate trims the name, takes its upper-case match form and combines
// list membership with the prefix rules. The names are the reference's (OpenClaw 2026.9.6
// host-env-security policy), keep them in sync with it, plus the additions below (issue 10,
// checked against git 2.39, perl 5.36, python 3.11, bash 5.2, dash 0.5.12, less 590 and
// glibc 2.36), each with the reason it is refused:
//
// Blocked everywhere (also removed from the inherited environment):
//   PERLLIB           perl's older PERL5LIB: puts directories in front of @INC (module code runs).
//   PYTHONPLATLIBDIR  python builds its stdlib path from it ("../../x" works): loads any code.
//   CDPATH            `cd dir` in a command may land elsewhere than the policy resolved it.
// Blocked per call (GIT_TRACE, DOTNET_, COMPLUS_ and CORECLR_ as prefixes):
//   GIT_TRACE*        GIT_TRACE, GIT_TRACE2*, GIT_TRACE_*: git writes to any path they name.
//   GIT_CONFIG        `git config` reads and writes the file it names.
//   GIT_SSH_VARIANT   changes the options git hands to the ssh program.
//   SSH_ASKPASS_REQUIRE  forces ssh to run its askpass program.
//   PYTHONINSPECT     python reads code from stdin after the script (process write feeds it).
//   PYTHONWARNINGS    a warning category "mod.Class" makes python import the module `mod`.
//   PYTHONPYCACHEPREFIX  python loads cached bytecode from there instead of the source.
//   LOCPATH           glibc loads locale data from it (locale parsers have had memory bugs).
//   RESOLV_HOST_CONF  older glibc resolvers read a configuration file from it.
//   OPENSSL_MODULES   OpenSSL 3 loads provider shared objects from it.
//   LESS, LESSKEY, LESSKEYIN, LESSKEY_SYSTEM, LESSKEYIN_SYSTEM, LESSEDIT, LESSHISTFILE
//                     less options and key bindings can run shell commands (`!`, `|`, `v`),
//                     and its history goes to any path (a PTY command such as `git log` pages).
//   BASH_XTRACEFD     sends bash's trace to another open descriptor.
//   GLOBIGNORE        changes what a glob expands to (and turns dotglob on).
//   DOTNET_*, COMPLUS_*, CORECLR_*  .NET host/runtime knobs: several load code (DOTNET_ROOT,
//                     profilers) or write files (EventPipe output, dumps).
// Of these, the server's own LESS, LESSHISTFILE, PYTHONWARNINGS, PYTHONPYCACHEPREFIX, LOCPATH,
// GIT_CONFIG, GIT_SSH_VARIANT and OPENSSL_MODULES are still passed on (an operator's choice).
// Reviewed and left alone: TMPDIR (programs only create their own uniquely named files there),
// SSL_CERT_FILE/SSL_CERT_DIR and HOME (already refused per call, kept when inherited, as in the
// reference), PYTHONSTARTUP and PROMPT_COMMAND (already refused; interactive shells only).

#include "env/host_env_policy.h"

#include <algorithm>
#include <array>

#include "base/utf.h"

namespace clawexec::env {
namespace {

using std::string_view_literals::operator""sv;

// Dangerous whether inherited or set per call.
constexpr std::array kBlockedEverywhereKeys = {
    "ANT_OPTS"sv, "BASHOPTS"sv, "BASH_ENV"sv, "BROWSER"sv, "BZR_EDITOR"sv, "BZR_PLUGIN_PATH"sv,
    "BZR_SSH"sv, "CARGO_BUILD_RUSTC"sv, "CARGO_BUILD_RUSTC_WORKSPACE_WRAPPER"sv,
    "CARGO_BUILD_RUSTC_WRAPPER"sv, "CARGO_BUILD_RUSTDOC"sv, "CATALINA_OPTS"sv, "CC"sv, "CDPATH"sv,
    "CMAKE_CXX_COMPILER"sv, "CMAKE_C_COMPILER"sv, "CMAKE_TOOLCHAIN_FILE"sv, "CONFIG_SHELL"sv,
    "CONFIG_SITE"sv, "CORECLR_PROFILER"sv, "CPP"sv, "CXX"sv, "CXXCPP"sv, "DOTNET_ADDITIONAL_DEPS"sv,
    "DOTNET_STARTUP_HOOKS"sv, "ELIXIR_ERL_OPTIONS"sv, "EMACSLOADPATH"sv, "ENV"sv, "ERL_AFLAGS"sv,
    "ERL_FLAGS"sv, "ERL_ZFLAGS"sv, "EXINIT"sv, "FPATH"sv, "GCONV_PATH"sv, "GIT_ALLOW_PROTOCOL"sv,
    "GIT_ALTERNATE_OBJECT_DIRECTORIES"sv, "GIT_COMMON_DIR"sv, "GIT_DIR"sv, "GIT_EDITOR"sv,
    "GIT_EXEC_PATH"sv, "GIT_EXTERNAL_DIFF"sv, "GIT_HOOK_PATH"sv, "GIT_INDEX_FILE"sv,
    "GIT_NAMESPACE"sv, "GIT_OBJECT_DIRECTORY"sv, "GIT_PROTOCOL_FROM_USER"sv,
    "GIT_SEQUENCE_EDITOR"sv, "GIT_SSL_CAINFO"sv, "GIT_SSL_CAPATH"sv, "GIT_SSL_NO_VERIFY"sv,
    "GIT_TEMPLATE_DIR"sv, "GIT_WORK_TREE"sv, "GLIBC_TUNABLES"sv, "GRADLE_OPTS"sv, "GVIMINIT"sv,
    "HELM_PLUGINS"sv, "HGEDITOR"sv, "HGMERGE"sv, "HGRCPATH"sv, "HOSTALIASES"sv, "IFS"sv,
    "JAVA_OPTS"sv, "JAVA_TOOL_OPTIONS"sv, "JDK_JAVA_OPTIONS"sv, "JULIA_EDITOR"sv, "KSH_ENV"sv,
    "LUA_INIT"sv, "LUA_INIT_5_1"sv, "LUA_INIT_5_2"sv, "LUA_INIT_5_3"sv, "LUA_INIT_5_4"sv, "MAKE"sv,
    "MAKEFLAGS"sv, "MAVEN_OPTS"sv, "MFLAGS"sv, "MYVIMRC"sv, "NODE_OPTIONS"sv, "NODE_PATH"sv,
    "NODE_REDIRECT_WARNINGS"sv, "NODE_REPL_EXTERNAL_MODULE"sv, "NODE_REPL_HISTORY"sv,
    "NODE_V8_COVERAGE"sv, "PACKER_PLUGIN_PATH"sv, "PERL5LIB"sv, "PERL5OPT"sv, "PERLLIB"sv, "PS4"sv,
    "PYTHONBREAKPOINT"sv, "PYTHONHOME"sv, "PYTHONPATH"sv, "PYTHONPLATLIBDIR"sv, "RUBYLIB"sv,
    "RUBYOPT"sv, "RUBYSHELL"sv, "RUSTC"sv, "RUSTC_WORKSPACE_WRAPPER"sv, "RUSTC_WRAPPER"sv,
    "RUSTDOC"sv, "R_ENVIRON"sv, "R_ENVIRON_USER"sv, "R_PROFILE"sv, "R_PROFILE_USER"sv, "SBT_OPTS"sv,
    "SHELL"sv, "SHELLOPTS"sv, "SSLKEYLOGFILE"sv, "SUDO_ASKPASS"sv, "SVN_EDITOR"sv, "SVN_SSH"sv,
    "TCLLIBPATH"sv, "VAGRANT_VAGRANTFILE"sv, "VIMINIT"sv, "_JAVA_OPTIONS"sv,
};

// Dangerous when set per call (some overlap with the list above, as in the reference).
constexpr std::array kBlockedOverrideOnlyKeys = {
    "ALL_PROXY"sv, "AMQP_URL"sv, "ANSIBLE_CALLBACK_PLUGINS"sv, "ANSIBLE_COLLECTIONS_PATH"sv,
    "ANSIBLE_CONFIG"sv, "ANSIBLE_CONNECTION_PLUGINS"sv, "ANSIBLE_FILTER_PLUGINS"sv,
    "ANSIBLE_INVENTORY_PLUGINS"sv, "ANSIBLE_LIBRARY"sv, "ANSIBLE_LOOKUP_PLUGINS"sv,
    "ANSIBLE_MODULE_UTILS"sv, "ANSIBLE_REMOTE_TEMP"sv, "ANSIBLE_ROLES_PATH"sv,
    "ANSIBLE_STRATEGY_PLUGINS"sv, "AWS_ACCESS_KEY_ID"sv, "AWS_CONFIG_FILE"sv,
    "AWS_CONTAINER_CREDENTIALS_FULL_URI"sv, "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI"sv,
    "AWS_SECRET_ACCESS_KEY"sv, "AWS_SECURITY_TOKEN"sv, "AWS_SESSION_TOKEN"sv,
    "AWS_SHARED_CREDENTIALS_FILE"sv, "AWS_WEB_IDENTITY_TOKEN_FILE"sv, "AZURE_AUTH_LOCATION"sv,
    "AZURE_CLIENT_ID"sv, "AZURE_CLIENT_SECRET"sv, "BASH_XTRACEFD"sv, "BUNDLE_GEMFILE"sv,
    "BUN_CONFIG_REGISTRY"sv, "CARGO_BUILD_RUSTC_WRAPPER"sv, "CARGO_HOME"sv, "CFLAGS"sv,
    "CGO_CFLAGS"sv, "CGO_LDFLAGS"sv, "CLASSPATH"sv, "COMPOSER_HOME"sv, "CONDA_DEFAULT_ENV"sv,
    "CONDA_PREFIX"sv, "CORECLR_PROFILER_PATH"sv, "CPATH"sv, "CPLUS_INCLUDE_PATH"sv,
    "CURL_CA_BUNDLE"sv, "CURL_HOME"sv, "C_INCLUDE_PATH"sv, "DATABASE_URL"sv, "DENO_DIR"sv,
    "DOCKER_CERT_PATH"sv, "DOCKER_CONTEXT"sv, "DOCKER_HOST"sv, "DOCKER_TLS_VERIFY"sv, "EDITOR"sv,
    "FCEDIT"sv, "GEM_HOME"sv, "GEM_PATH"sv, "GH_TOKEN"sv, "GITHUB_TOKEN"sv, "GITLAB_TOKEN"sv,
    "GIT_ALTERNATE_OBJECT_DIRECTORIES"sv, "GIT_ASKPASS"sv, "GIT_COMMON_DIR"sv, "GIT_CONFIG"sv,
    "GIT_DIR"sv, "GIT_INDEX_FILE"sv, "GIT_NAMESPACE"sv, "GIT_OBJECT_DIRECTORY"sv, "GIT_PAGER"sv,
    "GIT_PROXY_COMMAND"sv, "GIT_SSH"sv, "GIT_SSH_COMMAND"sv, "GIT_SSH_VARIANT"sv,
    "GIT_SSL_CAINFO"sv, "GIT_SSL_CAPATH"sv, "GIT_SSL_NO_VERIFY"sv, "GIT_WORK_TREE"sv,
    "GLOBIGNORE"sv, "GOENV"sv, "GOFLAGS"sv, "GONOPROXY"sv, "GONOSUMCHECK"sv, "GONOSUMDB"sv,
    "GOOGLE_APPLICATION_CREDENTIALS"sv, "GOPATH"sv, "GOPRIVATE"sv, "GOPROXY"sv,
    "GRADLE_USER_HOME"sv, "HELM_HOME"sv, "HGRCPATH"sv, "HISTFILE"sv, "HOME"sv, "HTTPS_PROXY"sv,
    "HTTP_PROXY"sv, "KUBECONFIG"sv, "LDFLAGS"sv, "LESS"sv, "LESSCLOSE"sv, "LESSEDIT"sv,
    "LESSHISTFILE"sv, "LESSKEY"sv, "LESSKEYIN"sv, "LESSKEYIN_SYSTEM"sv, "LESSKEY_SYSTEM"sv,
    "LESSOPEN"sv, "LIBRARY_PATH"sv, "LOCPATH"sv, "LUA_CPATH"sv, "LUA_PATH"sv, "MAKEFLAGS"sv,
    "MANPAGER"sv, "MFLAGS"sv, "MONGODB_URI"sv, "NODE_AUTH_TOKEN"sv, "NODE_EXTRA_CA_CERTS"sv,
    "NODE_TLS_REJECT_UNAUTHORIZED"sv, "NO_PROXY"sv, "NPM_TOKEN"sv, "OBJC_INCLUDE_PATH"sv,
    "OPENSSL_CONF"sv, "OPENSSL_ENGINES"sv, "OPENSSL_MODULES"sv, "PAGER"sv, "PERL5DB"sv,
    "PERL5DBCMD"sv, "PHPRC"sv, "PHP_INI_SCAN_DIR"sv, "PIP_CONFIG_FILE"sv, "PIP_EXTRA_INDEX_URL"sv,
    "PIP_FIND_LINKS"sv, "PIP_INDEX_URL"sv, "PIP_PYPI_URL"sv, "PIP_TRUSTED_HOST"sv,
    "PROMPT_COMMAND"sv, "PYTHONINSPECT"sv, "PYTHONPYCACHEPREFIX"sv, "PYTHONSTARTUP"sv,
    "PYTHONUSERBASE"sv, "PYTHONWARNINGS"sv, "REDIS_URL"sv, "REQUESTS_CA_BUNDLE"sv,
    "RESOLV_HOST_CONF"sv, "RUSTC_WRAPPER"sv, "RUSTFLAGS"sv, "RUSTUP_DIST_ROOT"sv,
    "RUSTUP_DIST_SERVER"sv, "RUSTUP_HOME"sv, "RUSTUP_TOOLCHAIN"sv, "RUSTUP_UPDATE_ROOT"sv,
    "R_LIBS_USER"sv, "SSH_ASKPASS"sv, "SSH_ASKPASS_REQUIRE"sv, "SSH_AUTH_SOCK"sv, "SSL_CERT_DIR"sv,
    "SSL_CERT_FILE"sv, "SUDO_EDITOR"sv, "SYSTEMROOT"sv, "TF_CLI_CONFIG_FILE"sv,
    "TF_PLUGIN_CACHE_DIR"sv, "UV_DEFAULT_INDEX"sv, "UV_EXTRA_INDEX_URL"sv, "UV_INDEX"sv,
    "UV_INDEX_URL"sv, "UV_PYTHON"sv, "VIRTUAL_ENV"sv, "VISUAL"sv, "WGETRC"sv, "WINDIR"sv,
    "XDG_CACHE_HOME"sv, "XDG_CONFIG_DIRS"sv, "XDG_CONFIG_HOME"sv, "XDG_DATA_DIRS"sv,
    "XDG_DATA_HOME"sv, "XDG_RUNTIME_DIR"sv, "XDG_STATE_HOME"sv, "YARN_RC_FILENAME"sv, "ZDOTDIR"sv,
};

// Override-only names that are still passed on when the server's own environment has them.
constexpr std::array kAllowedInheritedOverrideOnlyKeys = {
    "ALL_PROXY"sv, "AWS_CONFIG_FILE"sv, "AWS_SHARED_CREDENTIALS_FILE"sv,
    "AWS_WEB_IDENTITY_TOKEN_FILE"sv, "AZURE_AUTH_LOCATION"sv, "CURL_CA_BUNDLE"sv,
    "DOCKER_CERT_PATH"sv, "DOCKER_CONTEXT"sv, "DOCKER_HOST"sv, "DOCKER_TLS_VERIFY"sv,
    "GIT_CONFIG"sv, "GIT_PAGER"sv, "GIT_SSH_VARIANT"sv, "GOOGLE_APPLICATION_CREDENTIALS"sv,
    "GRADLE_USER_HOME"sv, "HISTFILE"sv, "HOME"sv, "HTTPS_PROXY"sv, "HTTP_PROXY"sv, "KUBECONFIG"sv,
    "LESS"sv, "LESSHISTFILE"sv, "LOCPATH"sv, "MANPAGER"sv, "NODE_EXTRA_CA_CERTS"sv,
    "NODE_TLS_REJECT_UNAUTHORIZED"sv, "NO_PROXY"sv, "OPENSSL_MODULES"sv, "PAGER"sv,
    "PYTHONPYCACHEPREFIX"sv, "PYTHONWARNINGS"sv, "REQUESTS_CA_BUNDLE"sv, "RUSTUP_DIST_ROOT"sv,
    "RUSTUP_DIST_SERVER"sv, "RUSTUP_HOME"sv, "RUSTUP_TOOLCHAIN"sv, "RUSTUP_UPDATE_ROOT"sv,
    "SSH_AUTH_SOCK"sv, "SSL_CERT_DIR"sv, "SSL_CERT_FILE"sv, "SYSTEMROOT"sv, "WINDIR"sv,
    "XDG_CACHE_HOME"sv, "XDG_CONFIG_DIRS"sv, "XDG_CONFIG_HOME"sv, "XDG_DATA_DIRS"sv,
    "XDG_DATA_HOME"sv, "XDG_RUNTIME_DIR"sv, "XDG_STATE_HOME"sv, "ZDOTDIR"sv,
};

// Prefixes dangerous in both directions (dynamic loader hooks, exported bash functions).
constexpr std::array kBlockedEverywherePrefixes = {"BASH_FUNC_"sv, "DYLD_"sv, "LD_"sv};

// Prefixes dangerous when set per call (config injection for git, npm, cargo, terraform).
constexpr std::array kBlockedOverridePrefixes = {"CARGO_REGISTRIES_"sv, "COMPLUS_"sv,  "CORECLR_"sv,
                                                  "DOTNET_"sv,          "GIT_CONFIG_"sv, "GIT_TRACE"sv,
                                                  "NPM_CONFIG_"sv,      "TF_VAR_"sv};

constexpr std::array kShellWrapperAllowedKeys = {
    "COLORTERM"sv, "FORCE_COLOR"sv,  "LANG"sv, "LC_ALL"sv,
    "LC_CTYPE"sv,  "LC_MESSAGES"sv, "NO_COLOR"sv, "OPENCLAW_SUBAGENT_EXEC"sv, "TERM"sv,
};

static_assert(std::is_sorted(kBlockedEverywhereKeys.begin(), kBlockedEverywhereKeys.end()));
static_assert(std::is_sorted(kBlockedOverrideOnlyKeys.begin(), kBlockedOverrideOnlyKeys.end()));
static_assert(std::is_sorted(kAllowedInheritedOverrideOnlyKeys.begin(),
                             kAllowedInheritedOverrideOnlyKeys.end()));
static_assert(std::is_sorted(kShellWrapperAllowedKeys.begin(), kShellWrapperAllowedKeys.end()));

template <size_t N>
bool contains(const std::array<std::string_view, N>& sorted, std::string_view name) {
  return std::binary_search(sorted.begin(), sorted.end(), name);
}

template <size_t N>
bool has_any_prefix(const std::array<std::string_view, N>& prefixes, std::string_view name) {
  return std::any_of(prefixes.begin(), prefixes.end(),
                     [&](std::string_view prefix) { return name.starts_with(prefix); });
}

bool is_upper_alnum_or_underscore(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// ^CARGO_TARGET_[A-Z0-9_]+_(?:LINKER|RUNNER)$ on the match form.
bool is_cargo_target_executable_key(std::string_view upper) {
  constexpr std::string_view kPrefix = "CARGO_TARGET_";
  if (!upper.starts_with(kPrefix)) return false;
  std::string_view rest = upper.substr(kPrefix.size());
  constexpr size_t kSuffixLength = 7;  // "_LINKER" / "_RUNNER"
  if (rest.size() <= kSuffixLength) return false;
  if (!rest.ends_with("_LINKER") && !rest.ends_with("_RUNNER")) return false;
  return std::all_of(rest.begin(), rest.end(), is_upper_alnum_or_underscore);
}

bool is_key_start_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

bool is_key_char(char c) { return is_key_start_char(c) || (c >= '0' && c <= '9'); }

// The portable pattern, optionally also allowing '(' and ')' after the first character.
bool matches_key_pattern(std::string_view key, bool allow_parentheses) {
  if (key.empty() || !is_key_start_char(key[0])) return false;
  return std::all_of(key.begin() + 1, key.end(), [&](char c) {
    return is_key_char(c) || (allow_parentheses && (c == '(' || c == ')'));
  });
}

// Non-ASCII letters (as UTF-8) whose JavaScript upper case is pure ASCII.
struct SpecialUpper {
  std::string_view utf8;
  std::string_view upper;
};
constexpr std::array kSpecialUppers = {
    SpecialUpper{"\xC3\x9F", "SS"},      // U+00DF sharp s
    SpecialUpper{"\xC4\xB1", "I"},       // U+0131 dotless i
    SpecialUpper{"\xC5\xBF", "S"},       // U+017F long s
    SpecialUpper{"\xEF\xAC\x80", "FF"},  // U+FB00..U+FB06 Latin ligatures
    SpecialUpper{"\xEF\xAC\x81", "FI"},  SpecialUpper{"\xEF\xAC\x82", "FL"},
    SpecialUpper{"\xEF\xAC\x83", "FFI"}, SpecialUpper{"\xEF\xAC\x84", "FFL"},
    SpecialUpper{"\xEF\xAC\x85", "ST"},  SpecialUpper{"\xEF\xAC\x86", "ST"},
};

}  // namespace

std::string match_form(std::string_view name) {
  std::string out;
  out.reserve(name.size());
  size_t i = 0;
  while (i < name.size()) {
    char c = name[i];
    if (static_cast<unsigned char>(c) < 0x80) {
      out += (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c;
      ++i;
      continue;
    }
    std::string_view rest = name.substr(i);
    auto special = std::find_if(kSpecialUppers.begin(), kSpecialUppers.end(),
                                [&](const SpecialUpper& s) { return rest.starts_with(s.utf8); });
    if (special != kSpecialUppers.end()) {
      out += special->upper;
      i += special->utf8.size();
    } else {
      out += c;
      ++i;
    }
  }
  return out;
}

bool is_portable_env_key(std::string_view key) {
  return matches_key_pattern(key, /*allow_parentheses=*/false);
}

std::optional<std::string_view> normalize_override_key(std::string_view raw_key) {
  std::string_view key = js_trim(raw_key);
  // Portable names only: the reference's Windows form with parentheses (`ProgramFiles(x86)`)
  // means nothing to a POSIX shell, and `ls()`-style names recall exported functions.
  if (!matches_key_pattern(key, /*allow_parentheses=*/false)) return std::nullopt;
  return key;
}

std::string visible_key(std::string_view key) {
  bool plain = !key.empty() && std::all_of(key.begin(), key.end(), [](char c) { return c > ' ' && c < 0x7f; });
  if (plain) return std::string(key);
  constexpr char kHex[] = "0123456789ABCDEF";
  std::string out = "\"";
  for (char c : key) {
    auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (byte >= 0x20 && byte < 0x7f) {
      out += c;
    } else {
      out += "\\x";
      out += kHex[byte >> 4];
      out += kHex[byte & 0xf];
    }
  }
  return out + '"';
}

bool is_dangerous_host_env_key(std::string_view raw_key) {
  std::string_view key = js_trim(raw_key);
  if (key.empty()) return false;
  std::string upper = match_form(key);
  return contains(kBlockedEverywhereKeys, upper) || has_any_prefix(kBlockedEverywherePrefixes, upper);
}

bool is_dangerous_override_only_key(std::string_view raw_key) {
  std::string_view key = js_trim(raw_key);
  if (key.empty()) return false;
  std::string upper = match_form(key);
  return contains(kBlockedOverrideOnlyKeys, upper) || is_cargo_target_executable_key(upper) ||
         has_any_prefix(kBlockedOverridePrefixes, upper);
}

bool is_dangerous_override_key(std::string_view raw_key) {
  return is_dangerous_host_env_key(raw_key) || is_dangerous_override_only_key(raw_key);
}

bool is_dangerous_inherited_key(std::string_view raw_key) {
  std::string_view key = js_trim(raw_key);
  if (key.empty()) return false;
  std::string upper = match_form(key);
  if (contains(kBlockedEverywhereKeys, upper)) return true;
  if (contains(kBlockedOverrideOnlyKeys, upper) && !contains(kAllowedInheritedOverrideOnlyKeys, upper)) {
    return true;
  }
  return has_any_prefix(kBlockedEverywherePrefixes, upper);
}

bool is_shell_wrapper_allowed_key(std::string_view raw_key) {
  std::string_view key = js_trim(raw_key);
  if (!is_portable_env_key(key)) return false;
  std::string upper = match_form(key);
  return contains(kShellWrapperAllowedKeys, upper) || upper.starts_with("LC_");
}

}  // namespace clawexec::env
