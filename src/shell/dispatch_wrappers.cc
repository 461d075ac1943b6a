// Dispatch wrappers: finding the command behind nice/nohup/timeout/stdbuf/time/flock/...
//
// Problem: "timeout 5 bash -c '...'" runs a shell with a payload; to inspect that payload the
// wrapper's options must be skipped exactly (timeout's duration, flock's lock file, nice -n 5),
// and any option we do not understand must stop the search rather than be guessed.
//
// Approach: a generic scanner walks the wrapper's options with a per-wrapper classifier
// (continue / takes a value / stop at the command / invalid) and an optional final adjustment
// (timeout and flock take one positional operand before the command). Wrappers the reference
// lists without an unwrapper are "blocked". The option tables are the reference's.

#include "shell/dispatch_wrappers.h"

#include <algorithm>
#include <functional>
#include <initializer_list>
#include <string_view>

#include "base/utf.h"
#include "shell/carriers.h"
#include "shell/executable.h"

namespace clawexec::shell {
namespace {

using Names = std::initializer_list<std::string_view>;

bool contains(Names names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

const Names kBlockedWrappers = {
    "arch",      "bwrap",    "catchsegv", "chrt",        "chroot",       "cpulimit",    "doas",
    "eatmydata", "firejail", "gosu",      "ionice",      "linux32",      "linux64",     "nsenter",
    "numactl",   "pkexec",   "proot",     "proxychains", "proxychains4", "runuser",     "script",
    "setarch",   "setsid",   "setpriv",   "su",          "sudo",         "systemd-run", "taskset",
    "torify",    "torsocks", "unbuffer",  "unshare",     "watch",        "xcrun",       "xvfb-run"};

enum class Directive { kContinue, kConsumeNext, kStop, kInvalid };

// The option name of "--name=value" or "-x": the text before '='.
std::string_view option_name(std::string_view token) { return token.substr(0, token.find('=')); }

bool has_equals(std::string_view s) { return s.find('=') != std::string_view::npos; }

struct ScanSpec {
  bool double_dash_separator = true;
  // token (trimmed) and its lower-case form -> directive
  std::function<Directive(std::string_view, std::string_view)> on_token;
  // adjusts the index where the command starts; nullopt rejects
  std::function<std::optional<size_t>(size_t, const Argv&)> adjust;
};

std::optional<Argv> scan_wrapper(const Argv& argv, const ScanSpec& spec) {
  size_t i = 1;
  bool expects_value = false;
  while (i < argv.size()) {
    std::string_view token = js_trim(argv[i]);
    if (token.empty()) {
      ++i;
      continue;
    }
    if (expects_value) {
      expects_value = false;
      ++i;
      continue;
    }
    if (spec.double_dash_separator && token == "--") {
      ++i;
      break;
    }
    Directive d = spec.on_token(token, trim_lower(token));
    if (d == Directive::kStop) break;
    if (d == Directive::kInvalid) return std::nullopt;
    if (d == Directive::kConsumeNext) expects_value = true;
    ++i;
  }
  if (expects_value) return std::nullopt;
  std::optional<size_t> start = spec.adjust ? spec.adjust(i, argv) : std::optional<size_t>(i);
  if (!start || *start >= argv.size()) return std::nullopt;
  return Argv(argv.begin() + static_cast<std::ptrdiff_t>(*start), argv.end());
}

// Wrappers whose options all start with '-': a non-option token is the command.
ScanSpec dash_options(
    std::function<Directive(std::string_view flag, std::string_view lower)> on_flag) {
  ScanSpec spec;
  spec.on_token = [on_flag](std::string_view token, std::string_view lower) {
    if (token[0] != '-' || token == "-") return Directive::kStop;
    return on_flag(option_name(lower), lower);
  };
  return spec;
}

Directive value_option(std::string_view flag, std::string_view lower) {
  return lower != flag || has_equals(lower) ? Directive::kContinue : Directive::kConsumeNext;
}

std::optional<Argv> unwrap_nice(const Argv& argv) {
  return scan_wrapper(
      argv, dash_options([](std::string_view flag, std::string_view lower) {
        if (lower.size() > 1 && std::all_of(lower.begin() + 1, lower.end(),
                                            [](char c) { return c >= '0' && c <= '9'; })) {
          return Directive::kContinue;
        }
        if (contains({"-n", "--adjustment", "--priority"}, flag)) return value_option(flag, lower);
        if (lower.substr(0, 2) == "-n" && lower.size() > 2) return Directive::kContinue;
        return Directive::kInvalid;
      }));
}

std::optional<Argv> unwrap_caffeinate(const Argv& argv) {
  return scan_wrapper(argv, dash_options([](std::string_view flag, std::string_view lower) {
                        if (contains({"-d", "-i", "-m", "-s", "-u"}, flag))
                          return Directive::kContinue;
                        if (contains({"-t", "-w"}, flag)) return value_option(flag, lower);
                        return Directive::kInvalid;
                      }));
}

std::optional<Argv> unwrap_nohup(const Argv& argv) {
  ScanSpec spec;
  spec.on_token = [](std::string_view token, std::string_view lower) {
    if (token[0] != '-' || token == "-") return Directive::kStop;
    return lower == "--help" || lower == "--version" ? Directive::kContinue : Directive::kInvalid;
  };
  return scan_wrapper(argv, spec);
}

std::optional<Argv> unwrap_sandbox_exec(const Argv& argv) {
  return scan_wrapper(
      argv, dash_options([](std::string_view flag, std::string_view lower) {
        return contains({"-f", "-p", "-d"}, flag) ? value_option(flag, lower) : Directive::kInvalid;
      }));
}

std::optional<Argv> unwrap_stdbuf(const Argv& argv) {
  return scan_wrapper(argv, dash_options([](std::string_view flag, std::string_view lower) {
                        if (!contains({"-i", "--input", "-o", "--output", "-e", "--error"}, flag))
                          return Directive::kInvalid;
                        return has_equals(lower) ? Directive::kContinue : Directive::kConsumeNext;
                      }));
}

std::optional<Argv> unwrap_time(const Argv& argv) {
  return scan_wrapper(argv, dash_options([](std::string_view flag, std::string_view lower) {
                        if (contains({"-a", "--append", "-h", "--help", "-l", "-p", "-q", "--quiet",
                                      "-v", "--verbose", "-V", "--version"},
                                     flag)) {
                          return Directive::kContinue;
                        }
                        if (contains({"-f", "--format", "-o", "--output"}, flag)) {
                          return has_equals(lower) ? Directive::kContinue : Directive::kConsumeNext;
                        }
                        return Directive::kInvalid;
                      }));
}

std::optional<Argv> unwrap_timeout(const Argv& argv) {
  ScanSpec spec = dash_options([](std::string_view flag, std::string_view lower) {
    if (contains({"--foreground", "--preserve-status", "-v", "--verbose"}, flag))
      return Directive::kContinue;
    if (contains({"-k", "--kill-after", "-s", "--signal"}, flag)) {
      return has_equals(lower) ? Directive::kContinue : Directive::kConsumeNext;
    }
    return Directive::kInvalid;
  });
  spec.adjust = [](size_t index, const Argv& args) -> std::optional<size_t> {
    return index + 1 < args.size() ? std::optional<size_t>(index + 1)
                                   : std::nullopt;  // skip the duration
  };
  return scan_wrapper(argv, spec);
}

bool is_flock_short_cluster(std::string_view token) {
  if (token.size() < 2 || token[0] != '-') return false;
  return std::all_of(token.begin() + 1, token.end(), [](char c) {
    return std::string_view("eFnsxo").find(c) != std::string_view::npos;
  });
}

std::optional<Argv> unwrap_flock(const Argv& argv) {
  ScanSpec spec;
  spec.on_token = [](std::string_view token, std::string_view lower) {
    if (token[0] != '-' || token == "-") return Directive::kStop;
    std::string_view name = option_name(token);
    std::string_view lower_name = option_name(lower);
    if (contains(
            {"--close", "--exclusive", "--nb", "--no-fork", "--nonblock", "--shared", "--verbose"},
            lower_name)) {
      return Directive::kContinue;
    }
    if (contains({"--conflict-exit-code", "--timeout", "--wait"}, lower_name)) {
      return has_equals(token) ? Directive::kContinue : Directive::kConsumeNext;
    }
    if (is_flock_short_cluster(token) || contains({"-e", "-F", "-n", "-o", "-s", "-x"}, name)) {
      return Directive::kContinue;
    }
    if (contains({"-E", "-w"}, name)) {
      return has_equals(token) || token != name ? Directive::kContinue : Directive::kConsumeNext;
    }
    return Directive::kInvalid;
  };
  spec.adjust = [](size_t index, const Argv& args) -> std::optional<size_t> {
    size_t wrapped = index + 1;  // skip the lock file
    if (wrapped >= args.size()) return std::nullopt;
    std::string_view command = js_trim(args[wrapped]);
    if (command.empty() || (command[0] == '-' && command != "-")) return std::nullopt;
    return wrapped;
  };
  return scan_wrapper(argv, spec);
}

DispatchUnwrap from(std::optional<Argv> unwrapped) {
  if (!unwrapped) return {DispatchKind::kBlocked, {}};
  return {DispatchKind::kUnwrapped, std::move(*unwrapped)};
}

}  // namespace

DispatchUnwrap unwrap_dispatch_wrapper(const Argv& argv) {
  if (argv.empty() || js_trim(argv[0]).empty()) return {};
  std::string name = normalize_executable_token(js_trim(argv[0]));
  if (name == "env") return from(resolve_env_carried_argv(argv, 0));
  if (name == "nice") return from(unwrap_nice(argv));
  if (name == "caffeinate") return from(unwrap_caffeinate(argv));
  if (name == "nohup") return from(unwrap_nohup(argv));
  if (name == "sandbox-exec") return from(unwrap_sandbox_exec(argv));
  if (name == "stdbuf") return from(unwrap_stdbuf(argv));
  if (name == "time") return from(unwrap_time(argv));
  if (name == "timeout") return from(unwrap_timeout(argv));
  if (name == "flock") return from(unwrap_flock(argv));
  if (contains(kBlockedWrappers, name)) return {DispatchKind::kBlocked, {}};
  return {};
}

}  // namespace clawexec::shell
