// The live-state sqlite3 matcher: does this argv open a database under the state directory?
//
// Problem: `sqlite3` takes its database as the first operand (after options, some of which
// take one or two values), after `--`, or through `.open` dot-commands given with -cmd or as
// trailing arguments; the operand may be written with $OPENCLAW_STATE_DIR, $HOME, ~ or as a
// file: URI, or be relative to the working directory.
//
// Approach: walk sqlite3's options with the reference's table of options that take values,
// collect every database operand (including those of `.open` commands, split with
// split_shell_args), expand the forms above, resolve against the workdir, canonicalise (the
// caller's seam, else lexical) and test containment in the canonical state directory.

#include <initializer_list>
#include <utility>

#include "base/strings.h"
#include "base/utf.h"
#include "shell/control_matchers.h"
#include "shell/executable.h"
#include "shell/lexical_path.h"

namespace clawexec::shell {
namespace {

struct ValueCount {
  std::string_view name;
  size_t values;
};

constexpr ValueCount kSqliteOptionsWithValues[] = {
    {"cmd", 1},       {"escape", 1},    {"heap", 1},    {"init", 1},  {"lookaside", 2},
    {"maxsize", 1},   {"mmap", 1},      {"newline", 1}, {"nonce", 1}, {"nullvalue", 1},
    {"pagecache", 2}, {"separator", 1}, {"vfs", 1}};
constexpr ValueCount kOpenOptionsWithValues[] = {
    {"hexkey", 1}, {"key", 1}, {"maxsize", 1}, {"textkey", 1}};

template <size_t N>
size_t values_of(const ValueCount (&table)[N], std::string_view name) {
  for (const ValueCount& entry : table) {
    if (entry.name == name) return entry.values;
  }
  return 0;
}

// "--Name=x" / "-name" -> "name" (leading dashes dropped, text before '=', lower-cased).
std::string option_name(std::string_view token) {
  size_t start = token.find_first_not_of('-');
  if (start == std::string_view::npos) return "";
  std::string_view name = token.substr(start);
  return lower_for_match(name.substr(0, name.find('=')));
}

bool is_open_command(std::string_view word) {
  return word == ".op" || word == ".ope" || word == ".open";
}

// The database operand of a ".open [options] FILE" command, if any.
std::optional<std::string> open_command_database(std::string_view command) {
  std::optional<Argv> argv = split_shell_args(command);
  if (!argv || argv->empty() || !is_open_command((*argv)[0])) return std::nullopt;
  for (size_t i = 1; i < argv->size(); ++i) {
    const std::string& token = (*argv)[i];
    if (token == "--")
      return i + 1 < argv->size() ? std::optional<std::string>((*argv)[i + 1]) : std::nullopt;
    if (token == "-" || token.empty() || token[0] != '-') return token;
    if (token.find('=') == std::string::npos)
      i += values_of(kOpenOptionsWithValues, option_name(token));
  }
  return std::nullopt;
}

std::vector<std::string> database_operands(const Argv& argv) {
  std::vector<std::string> databases;
  if (argv.empty() || command_base_name(argv[0]) != "sqlite3") return databases;
  std::vector<std::string> commands;
  for (size_t i = 1; i < argv.size(); ++i) {
    const std::string& token = argv[i];
    if (token == "--") {
      if (i + 1 < argv.size() && !argv[i + 1].empty()) databases.push_back(argv[i + 1]);
      commands.insert(commands.end(),
                      argv.begin() + static_cast<std::ptrdiff_t>(std::min(i + 2, argv.size())),
                      argv.end());
      break;
    }
    if (token == "-" || token.empty() || token[0] != '-') {
      databases.push_back(token);
      commands.insert(commands.end(), argv.begin() + static_cast<std::ptrdiff_t>(i + 1),
                      argv.end());
      break;
    }
    std::string name = option_name(token);
    size_t eq = token.find('=');
    if (name == "cmd") {
      std::string command =
          eq != std::string::npos ? token.substr(eq + 1) : (i + 1 < argv.size() ? argv[i + 1] : "");
      if (!command.empty()) commands.push_back(std::move(command));
    }
    if (eq == std::string::npos) i += values_of(kSqliteOptionsWithValues, name);
  }
  for (const std::string& command : commands) {
    std::optional<std::string> database = open_command_database(command);
    if (database && !database->empty()) databases.push_back(std::move(*database));
  }
  return databases;
}

// "$NAME" or "${NAME}" at the start of text followed by the end or a separator: its length.
size_t variable_prefix(std::string_view text, std::string_view name) {
  for (const std::string& form : {"$" + std::string(name), "${" + std::string(name) + "}"}) {
    if (text.substr(0, form.size()) == form &&
        (text.size() == form.size() || text[form.size()] == '/' || text[form.size()] == '\\')) {
      return form.size();
    }
  }
  return 0;
}

// The path an operand names (before resolution), or nullopt when it names no file.
std::optional<std::string> expand_operand(std::string_view token, const StateDbContext& context,
                                          std::string_view state_dir) {
  std::string expanded(js_trim(token));
  if (expanded.empty() || expanded == ":memory:") return std::nullopt;
  if (size_t n = variable_prefix(expanded, "OPENCLAW_STATE_DIR")) {
    expanded = std::string(state_dir) + expanded.substr(n);
  }
  if (size_t n = variable_prefix(expanded, "HOME"))
    expanded = context.home_dir + expanded.substr(n);
  if (expanded == "~" || expanded.rfind("~/", 0) == 0 || expanded.rfind("~\\", 0) == 0) {
    expanded = join_lexically(context.home_dir, expanded.size() > 2 ? expanded.substr(2) : "");
  }
  if (ascii_lower(expanded.substr(0, 5)) == "file:") {
    if (std::optional<std::string> path = file_url_to_path(expanded)) return path;
    std::string filename = expanded.substr(5);
    filename = filename.substr(0, filename.find_first_of("?#"));
    if (filename.empty()) return std::nullopt;
    std::optional<std::string> decoded = decode_uri_component(filename);
    return decoded ? *decoded : filename;
  }
  return expanded;
}

std::string canonical(const StateDbContext& context, std::string path) {
  return context.canonicalize ? context.canonicalize(path) : path;
}

}  // namespace

bool opens_state_database(const Argv& argv, const StateDbContext& context) {
  std::string_view state_dir = js_trim(context.state_dir);
  if (state_dir.empty()) return false;
  std::string root = canonical(context, resolve_lexically(context.workdir, state_dir));
  for (const std::string& operand : database_operands(argv)) {
    std::optional<std::string> expanded = expand_operand(operand, context, state_dir);
    if (!expanded) continue;
    std::string target = canonical(context, resolve_lexically(context.workdir, *expanded));
    if (is_path_inside(root, target)) return true;
  }
  return false;
}

}  // namespace clawexec::shell
