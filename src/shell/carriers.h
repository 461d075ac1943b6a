#pragma once
// Command carriers: programs whose arguments are another command line that they run
// (env, command, builtin, sudo, doas, exec), and the argv they carry.

#include <optional>
#include <string>
#include <vector>

#include "shell/split_args.h"

namespace clawexec::shell {

/// What the option and assignment prelude of an `env` invocation looks like.
struct EnvPrelude {
  size_t command_index = 0;        // where the carried command starts in argv
  std::optional<Argv> split_argv;  // the carried argv rebuilt from env -S / --split-string
  bool uses_modifiers = false;     // assignments or options present
  std::vector<std::string> assignment_keys;
};

/// Parses `env [NAME=value | option]... command...`. nullopt when argv[0] is not env, an
/// option is unknown, nothing is carried, or -S payloads nest deeper than 32 levels.
std::optional<EnvPrelude> parse_env_prelude(const Argv& argv, int depth = 0);

/// The argv carried by env (including the command rebuilt from env -S).
std::optional<Argv> resolve_env_carried_argv(const Argv& argv, int depth = 0);

enum class ExecCarrier { kExclude, kInclude };

/// The argv that env, command/builtin (only with -p or no options), sudo/doas (known options
/// only; sudo's leading NAME=value dropped) or, with kInclude, exec [-a name|-c|-l] would run.
/// nullopt when argv[0] is not a carrier or its options make it not run a command
/// (command -v, sudo -l, an unknown option). May be an empty argv (`command --`).
std::optional<Argv> resolve_carrier_argv(const Argv& argv,
                                         ExecCarrier exec = ExecCarrier::kExclude);

}  // namespace clawexec::shell
