// Command carriers: env, command/builtin, sudo/doas and exec.
//
// Problem: "env -i /approve x deny" or "sudo -u bob sqlite3 db" run the command after the
// carrier's own options, so checks on the command must look through the carrier; but only
// when the carrier really runs it (command -v only prints, sudo -l only lists), and only as
// far as the options are understood (an unknown option could take a value, so we stop).
//
// Approach: per carrier, a table of options that take a value, options that stand alone, and
// options that mean "runs nothing"; a shared parser for option tokens (long --name[=value]
// and short clusters such as -iu0, where an option with a value ends the cluster and takes the
// rest as its value). env -S/--split-string payloads are split into words and parsed again as
// an env invocation, up to 32 levels deep. The option tables are the reference's.

#include "shell/carriers.h"

#include <algorithm>
#include <initializer_list>
#include <string_view>

#include "shell/executable.h"

namespace clawexec::shell {
namespace {

using Names = std::initializer_list<std::string_view>;

bool contains(Names names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

constexpr int kMaxEnvSplitDepth = 32;

const Names kEnvWithValue = {"-C",
                             "-P",
                             "-S",
                             "-s",
                             "-u",
                             "--argv0",
                             "--block-signal",
                             "--chdir",
                             "--default-signal",
                             "--ignore-signal",
                             "--split-string",
                             "--unset"};
const Names kEnvSplitString = {"-S", "-s", "--split-string"};
const Names kEnvStandalone = {"-0", "-i", "--ignore-environment", "--null"};
const Names kSudoWithValue = {"-C",
                              "-D",
                              "-g",
                              "-h",
                              "-p",
                              "-R",
                              "-T",
                              "-U",
                              "-u",
                              "--chdir",
                              "--chroot",
                              "--close-from",
                              "--command-timeout",
                              "--group",
                              "--host",
                              "--other-user",
                              "--prompt",
                              "--role",
                              "--type",
                              "--user"};
const Names kSudoStandalone = {"-A",
                               "-B",
                               "-b",
                               "-E",
                               "-H",
                               "-i",
                               "-k",
                               "-N",
                               "-n",
                               "-P",
                               "-S",
                               "-s",
                               "--askpass",
                               "--background",
                               "--bell",
                               "--login",
                               "--no-update",
                               "--non-interactive",
                               "--preserve-env",
                               "--preserve-groups",
                               "--reset-home",
                               "--reset-timestamp",
                               "--set-home",
                               "--shell",
                               "--stdin"};
const Names kSudoNonExec = {
    "-K",         "-l",       "-V", "-v", "-e", "--edit", "--help", "--list", "--remove-timestamp",
    "--validate", "--version"};
const Names kDoasWithValue = {"-a", "-C", "-u"};
const Names kDoasStandalone = {"-L", "-n", "-s"};
const Names kExecWithValue = {"-a"};
const Names kExecStandalone = {"-c", "-l"};
const Names kNone = {};

struct ParsedOption {
  std::string name;
  bool has_inline_value = false;
  std::string inline_value;
};

// One option token: "--name[=value]" or a short cluster "-abc". nullopt when unknown.
std::optional<std::vector<ParsedOption>> parse_option_token(std::string_view token,
                                                            Names standalone, Names with_value,
                                                            Names non_exec) {
  auto known = [&](std::string_view n) {
    return contains(standalone, n) || contains(with_value, n) || contains(non_exec, n);
  };
  if (token.substr(0, 2) == "--") {
    size_t eq = token.find('=');
    std::string_view name = token.substr(0, eq);
    if (!known(name)) return std::nullopt;
    ParsedOption option{std::string(name), eq != std::string_view::npos, {}};
    if (option.has_inline_value) option.inline_value = std::string(token.substr(eq + 1));
    return std::vector<ParsedOption>{option};
  }
  auto alnum = [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
  };
  if (token.size() < 2 || token[0] != '-' || !alnum(token[1])) return std::nullopt;
  std::vector<ParsedOption> options;
  for (size_t i = 1; i < token.size(); ++i) {
    std::string name = std::string("-") + token[i];
    if (contains(with_value, name)) {
      bool has_value = i + 1 < token.size();
      options.push_back({name, has_value, has_value ? std::string(token.substr(i + 1)) : ""});
      return options;
    }
    if (!contains(standalone, name) && !contains(non_exec, name)) return std::nullopt;
    options.push_back({name, false, {}});
  }
  if (options.empty()) return std::nullopt;
  return options;
}

// Whether the option run consumes the next argv entry as its value; nullopt when an option
// means the carrier runs nothing.
std::optional<bool> consumes_next_value(const std::vector<ParsedOption>& options, Names with_value,
                                        Names non_exec) {
  bool consumes = false;
  for (const ParsedOption& option : options) {
    if (contains(non_exec, option.name)) return std::nullopt;
    if (contains(with_value, option.name)) consumes = !option.has_inline_value;
  }
  return consumes;
}

Argv tail(const Argv& argv, size_t from) {
  return from < argv.size() ? Argv(argv.begin() + static_cast<std::ptrdiff_t>(from), argv.end())
                            : Argv{};
}

std::optional<Argv> resolve_env_split_payload(std::string_view payload, const Argv& trailing,
                                              int depth) {
  std::optional<Argv> inner = split_shell_args(payload);
  if (!inner || inner->empty()) return std::nullopt;
  Argv carried = *inner;
  carried.insert(carried.end(), trailing.begin(), trailing.end());
  Argv as_env{"env"};
  as_env.insert(as_env.end(), carried.begin(), carried.end());
  std::optional<Argv> nested = resolve_env_carried_argv(as_env, depth + 1);
  return nested ? nested : carried;
}

std::optional<Argv> resolve_command_builtin(const Argv& argv) {
  for (size_t i = 1; i < argv.size(); ++i) {
    const std::string& token = argv[i];
    if (token == "--") return tail(argv, i + 1);
    if (token.empty() || token[0] != '-') return tail(argv, i);
    if (token.substr(0, token.find('=')) != "-p") return std::nullopt;  // -v/-V or unknown
  }
  return std::nullopt;
}

std::optional<Argv> strip_sudo_assignments(bool sudo, Argv argv) {
  if (!sudo) return argv.empty() ? std::nullopt : std::optional<Argv>(std::move(argv));
  size_t i = 0;
  while (i < argv.size() && is_env_assignment_token(argv[i])) ++i;
  if (i >= argv.size()) return std::nullopt;
  return tail(argv, i);
}

std::optional<Argv> resolve_sudo_like(const Argv& argv, bool sudo) {
  Names standalone = sudo ? kSudoStandalone : kDoasStandalone;
  Names with_value = sudo ? kSudoWithValue : kDoasWithValue;
  Names non_exec = sudo ? kSudoNonExec : kNone;
  for (size_t i = 1; i < argv.size(); ++i) {
    const std::string& token = argv[i];
    if (token == "--") return strip_sudo_assignments(sudo, tail(argv, i + 1));
    if (token.empty() || token[0] != '-') return strip_sudo_assignments(sudo, tail(argv, i));
    auto options = parse_option_token(token, standalone, with_value, non_exec);
    if (!options) return std::nullopt;
    std::optional<bool> consumes = consumes_next_value(*options, with_value, non_exec);
    if (!consumes) return std::nullopt;
    if (*consumes) ++i;
  }
  return std::nullopt;
}

std::optional<Argv> resolve_exec(const Argv& argv) {
  for (size_t i = 1; i < argv.size(); ++i) {
    const std::string& token = argv[i];
    if (token == "--") return tail(argv, i + 1);
    if (token.empty() || token[0] != '-') return tail(argv, i);
    auto options = parse_option_token(token, kExecStandalone, kExecWithValue, kNone);
    if (!options) return std::nullopt;
    if (consumes_next_value(*options, kExecWithValue, kNone).value_or(false)) ++i;
  }
  return std::nullopt;
}

}  // namespace

std::optional<EnvPrelude> parse_env_prelude(const Argv& argv, int depth) {
  if (depth > kMaxEnvSplitDepth || argv.empty() || normalize_executable_token(argv[0]) != "env") {
    return std::nullopt;
  }
  EnvPrelude prelude;
  for (size_t i = 1; i < argv.size(); ++i) {
    const std::string& token = argv[i];
    if (token.empty()) return std::nullopt;
    if (is_env_assignment_token(token)) {
      prelude.uses_modifiers = true;
      prelude.assignment_keys.push_back(token.substr(0, token.find('=')));
      continue;
    }
    if (token == "--" || token == "-") {
      if (i + 1 >= argv.size()) return std::nullopt;
      prelude.command_index = i + 1;
      return prelude;
    }
    if (token[0] != '-') {
      prelude.command_index = i;
      return prelude;
    }
    auto options = parse_option_token(token, kEnvStandalone, kEnvWithValue, kNone);
    if (!options) return std::nullopt;
    prelude.uses_modifiers = true;
    auto split = std::find_if(options->begin(), options->end(), [](const ParsedOption& o) {
      return contains(kEnvSplitString, o.name);
    });
    if (split != options->end()) {
      size_t payload_index = split->has_inline_value ? i : i + 1;
      if (!split->has_inline_value && payload_index >= argv.size()) return std::nullopt;
      std::string_view payload = split->has_inline_value ? std::string_view(split->inline_value)
                                                         : std::string_view(argv[payload_index]);
      std::optional<Argv> carried =
          resolve_env_split_payload(payload, tail(argv, payload_index + 1), depth);
      if (!carried) return std::nullopt;
      prelude.command_index = payload_index + 1;
      prelude.split_argv = std::move(carried);
      return prelude;
    }
    if (consumes_next_value(*options, kEnvWithValue, kNone).value_or(false)) ++i;
  }
  return std::nullopt;
}

std::optional<Argv> resolve_env_carried_argv(const Argv& argv, int depth) {
  std::optional<EnvPrelude> prelude = parse_env_prelude(argv, depth);
  if (!prelude) return std::nullopt;
  if (prelude->split_argv) return prelude->split_argv;
  return tail(argv, prelude->command_index);
}

std::optional<Argv> resolve_carrier_argv(const Argv& argv, ExecCarrier exec) {
  if (argv.empty()) return std::nullopt;
  std::string name = normalize_executable_token(argv[0]);
  if (name == "env") return resolve_env_carried_argv(argv, 0);
  if (name == "command" || name == "builtin") return resolve_command_builtin(argv);
  if (name == "sudo" || name == "doas") return resolve_sudo_like(argv, name == "sudo");
  if (name == "exec" && exec == ExecCarrier::kInclude) return resolve_exec(argv);
  return std::nullopt;
}

}  // namespace clawexec::shell
