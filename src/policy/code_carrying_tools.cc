// The tool rows of the code-carrying detector: commonly allowlisted tools whose options or
// configuration run a command of the caller's choosing.
//
// Problem: allowlisting tar, rsync, ssh, zip, man, vim or npm is meant to allow that tool, yet
// `tar --to-command=cmd`, `tar -I cmd`, `rsync -e cmd`, `ssh -o ProxyCommand=cmd`, `scp -S
// cmd`, `zip -TT cmd`, `man -P cmd`, `vim -c '!cmd'`, `npx -c cmd` and `make SHELL=...` run
// anything. OpenClaw lets all of these through.
//
// Approach: the same rows as the interpreters (code_carrying_rows.h): each tool's grammar with
// its code-carrying options marked, subcommand rows for npm (git's are in code_carrying_git.cc),
// and a few checks on values: ssh -o keys by name, rsync -e only when its command is ssh with
// code-free options, tar --checkpoint-action only for exec=, make VAR=value overrides when the
// value could reach a recipe as shell code. Interactive pagers and editors (less, vim, ...) are
// hits: in a PTY the agent types `!cmd`.

#include <algorithm>

#include "policy/code_carrying.h"
#include "policy/code_carrying_rows.h"
#include "shell/executable.h"

namespace clawexec::policy::code_rows {
namespace {

// --- archivers and remote copies ------------------------------------------------------------------

bool starts_with_exec(std::string_view value, std::span<const std::string>) { return value.starts_with("exec"); }

// Old-style `tar cIf PROG archive`: the first argument is a bundle of option letters.
std::optional<std::string> tar_extra(const Argv& argv, const OptionScan&) {
  if (argv.size() < 2 || argv[1].empty() || argv[1][0] == '-') return std::nullopt;
  std::string_view bundle = argv[1];
  bool letters = std::all_of(bundle.begin(), bundle.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  });
  if (!letters) return std::nullopt;
  if (bundle.find('I') != std::string_view::npos) return std::string("-I");
  if (bundle.find('F') != std::string_view::npos) return std::string("-F");
  return std::nullopt;
}

ToolRow tar_row() {
  ToolRow row{.names = {"tar", "gtar", "bsdtar"}, .extra = tar_extra};
  row.grammar.long_match = LongMatch::kPrefix;
  row.grammar.permute = true;
  std::vector<OptionRule>& o = row.grammar.options;
  o = {code("-I"), code("--use-compress-program"), code("--to-command"),
       code_if("--checkpoint-action", starts_with_exec), code("-F"), code("--info-script"),
       code("--new-volume-script"), code("--rsh-command"), code("--rmt-command"),
       // Exact options that are prefixes of the ones above.
       attached("--checkpoint"), sw("--to-stdout"), attached("--totals")};
  add_all(o, {"-f", "-C", "-T", "-X", "-b", "-g", "-K", "-L", "-N", "-V", "-H", "--file", "--directory"}, val);
  return row;
}

bool ssh_option_has_code(std::string_view value, std::span<const std::string>) {
  size_t end = value.find_first_of("= \t");
  std::string key = shell::lower_for_match(value.substr(0, end));
  for (std::string_view code_key : {"proxycommand", "localcommand", "permitlocalcommand", "knownhostscommand",
                                    "pkcs11provider", "securitykeyprovider", "xauthlocation", "include", "match"}) {
    if (key == code_key) return true;
  }
  return false;
}

ToolRow ssh_family_row(std::vector<std::string_view> names, std::string_view value_letters,
                       std::string_view switch_letters) {
  ToolRow row{.names = std::move(names)};
  row.grammar.permute = true;
  std::vector<OptionRule>& o = row.grammar.options;
  o = {code_if("-o", ssh_option_has_code), code_if("-F", stdin_like_value)};
  add_value_letters(o, value_letters);
  add_switch_letters(o, switch_letters);
  return row;
}

ToolRow ssh_row() {
  ToolRow row = ssh_family_row({"ssh"}, "BbcDEeiJLlmOpQRSWw", "46AaCfGgKkMNnqsTtVvXxYy");
  row.grammar.options.insert(row.grammar.options.begin(), code("-I"));  // a PKCS#11 library
  return row;
}

ToolRow scp_row() {
  ToolRow row = ssh_family_row({"scp"}, "cDiJlPX", "346ABCOpqRrTv");
  row.grammar.options.insert(row.grammar.options.begin(), code("-S"));  // the program to use instead of ssh
  return row;
}

ToolRow sftp_row() {
  // sftp's prompt has `!command`; a batch file (-b) replaces it.
  ToolRow row = ssh_family_row({"sftp"}, "BciJlPRX", "246AaCfNpqrv");
  row.program = ProgramSource::kInteractive;
  std::vector<OptionRule>& o = row.grammar.options;
  o.insert(o.begin(), {code("-S"), code("-D"), program_file("-b")});
  return row;
}

// rsync -e: fine when the remote shell is ssh with options that run no code of their own.
bool rsync_shell_has_code(std::string_view value, std::span<const std::string>) {
  if (value.find_first_of("'\"\\`$;|&<>()\n") != std::string_view::npos) return true;
  Argv words;
  size_t start = 0;
  while (start < value.size()) {
    size_t end = std::min(value.find_first_of(" \t", start), value.size());
    if (end > start) words.emplace_back(value.substr(start, end - start));
    start = end + 1;
  }
  if (words.empty()) return false;
  if (shell::normalize_executable_token(words[0]) != "ssh") return true;
  return detect_code_carrying_argv(words).has_value();
}

ToolRow rsync_row() {
  ToolRow row{.names = {"rsync"}};
  row.grammar.long_match = LongMatch::kPrefix;
  row.grammar.permute = true;
  row.grammar.options = {code_if("-e", rsync_shell_has_code), code_if("--rsh", rsync_shell_has_code),
                         code("--rsync-path"), val("-f"), val("--filter"), val("-B"), val("-T"), val("-M")};
  return row;
}

// zip -TT CMD / --unzip-command CMD (also -TTCMD).
std::optional<std::string> zip_extra(const Argv& argv, const OptionScan&) {
  for (size_t i = 1; i < argv.size(); ++i) {
    if (argv[i] == "--") break;
    if (std::string_view(argv[i]).starts_with("-TT")) return std::string("-TT");
  }
  return std::nullopt;
}

ToolRow zip_row() {
  ToolRow row{.names = {"zip"}, .extra = zip_extra};
  row.grammar.long_match = LongMatch::kPrefix;
  row.grammar.permute = true;
  row.grammar.options = {code("--unzip-command")};
  return row;
}

// --- pagers, editors, man -----------------------------------------------------------------------

ToolRow man_row() {
  ToolRow row{.names = {"man"}};
  row.grammar.long_match = LongMatch::kPrefix;
  row.grammar.permute = true;
  std::vector<OptionRule>& o = row.grammar.options;
  o = {code("-P"), code("--pager"), code("-H", Takes::kAttached), code("--html", Takes::kAttached),
       sw("--path")};  // --path is an exact option and a prefix of --pager's abbreviations
  add_all(o, {"-C", "-M", "-S", "-s", "-e", "-L", "-m", "-p", "-r", "-E", "-R"}, val);
  return row;
}

// Only options that print and exit count as information: less --help and vim -V are
// interactive too.
ToolRow interactive_row(std::vector<std::string_view> names, std::initializer_list<std::string_view> info_options) {
  ToolRow row{.names = std::move(names), .program = ProgramSource::kInteractive};
  add_all(row.grammar.options, info_options, info);
  return row;
}

// --- package managers -----------------------------------------------------------------------------

bool npm_config_key_has_code(std::string_view key) {
  std::string lowered = shell::lower_for_match(key.substr(0, key.find('=')));
  while (lowered.starts_with("-")) lowered.erase(0, 1);
  for (std::string_view code_key : {"script-shell", "node-options", "shell", "editor", "browser", "git",
                                    "init-module", "onload-script", "viewer", "shell-emulator", "userconfig",
                                    "globalconfig"}) {
    if (lowered == code_key) return true;
  }
  return false;
}

// `npm config set key value`, `npm config set key=value`, `npm set ...`.
std::optional<std::string> npm_config_extra(const Argv& argv, const OptionScan& scan) {
  std::vector<std::string_view> operands;
  for (size_t index : scan.operands) operands.emplace_back(argv[index]);
  if (operands.empty() || operands[0] != "set") return std::nullopt;
  for (size_t k = 1; k < operands.size(); ++k) {
    if (npm_config_key_has_code(operands[k])) return "set " + label_text(operands[k].substr(0, operands[k].find('=')));
  }
  return std::nullopt;
}

std::optional<std::string> npm_set_extra(const Argv& argv, const OptionScan& scan) {
  for (size_t index : scan.operands) {
    std::string_view key = argv[index];
    if (npm_config_key_has_code(key)) return label_text(key.substr(0, key.find('=')));
  }
  return std::nullopt;
}

// Options npm and pnpm read anywhere on the line. npm's -c is --call everywhere, pnpm's is
// exec's --shell-mode; --userconfig/--globalconfig load an npmrc that can set the others.
std::vector<OptionRule> package_manager_global_options() {
  std::vector<OptionRule> options = {code("-c"), code("--call"), code("--shell-mode"), code("--script-shell"),
                                     code("--node-options"), code("--shell"), code("--editor"), code("--browser"),
                                     code("--git"), code("--shell-emulator"), code("--userconfig"),
                                     code("--globalconfig")};
  add_all(options, {"--prefix", "-C", "--dir", "-w", "--workspace", "--filter", "--loglevel", "--registry",
                    "--cache", "-p", "--package"},
          val);
  return options;
}

ToolRow package_manager_row(std::vector<std::string_view> names) {
  ToolRow row{.names = std::move(names)};
  row.grammar.long_match = LongMatch::kPrefix;
  row.grammar.permute = true;
  row.grammar.options = package_manager_global_options();
  static const ToolRow config = [] {
    ToolRow r{.extra = npm_config_extra};
    r.grammar.permute = true;
    return r;
  }();
  static const ToolRow set = [] {
    ToolRow r{.extra = npm_set_extra};
    r.grammar.permute = true;
    return r;
  }();
  row.subcommands = {{.name = "config", .row = &config}, {.name = "c", .row = &config}, {.name = "set", .row = &set}};
  return row;
}

ToolRow npx_row() {
  // npx stops at the command it runs: later arguments are that command's.
  ToolRow row{.names = {"npx"}};
  row.grammar.options = package_manager_global_options();
  row.grammar.long_match = LongMatch::kPrefix;
  return row;
}

// --- make -----------------------------------------------------------------------------------------

// make VAR=value: the value reaches recipes, which the shell runs. Variables that change how
// make runs commands, "!=" (make runs the value at once) and values with shell syntax or
// make functions ($(shell ...)) are hits; plain words (CFLAGS=-O2) are not.
std::optional<std::string> make_extra(const Argv& argv, const OptionScan& scan) {
  for (size_t index : scan.operands) {
    std::string_view operand = argv[index];
    size_t equals = operand.find('=');
    if (equals == std::string_view::npos || equals == 0) continue;
    std::string_view name = operand.substr(0, equals);
    std::string_view value = operand.substr(equals + 1);
    if (name.ends_with("!")) return std::string(name) + "=";
    while (!name.empty() && (name.back() == ':' || name.back() == '+' || name.back() == '?')) name.remove_suffix(1);
    bool special = false;
    for (std::string_view variable : {"SHELL", ".SHELLFLAGS", "MAKEFLAGS", "MFLAGS", "GNUMAKEFLAGS", "MAKEFILES",
                                      "MAKESHELL", "MAKE", ".RECIPEPREFIX", "MAKEOVERRIDES"}) {
      special = special || name == variable;
    }
    if (special || name.find('$') != std::string_view::npos ||
        value.find_first_of(";|&$`()<>'\"\\\n") != std::string_view::npos) {
      std::string text = label_text(name);
      return (text.empty() ? std::string("VAR") : text) + "=";
    }
  }
  return std::nullopt;
}

ToolRow make_row() {
  ToolRow row{.names = {"make", "gmake"}, .extra = make_extra};
  row.grammar.long_match = LongMatch::kPrefix;
  row.grammar.permute = true;
  add_all(row.grammar.options, {"-C", "--directory", "-I", "--include-dir", "-o", "--old-file", "--assume-old", "-W",
                                "--what-if", "--new-file", "--assume-new", "-f", "--file", "--makefile"},
          val);
  add_all(row.grammar.options, {"-j", "--jobs", "-l", "--load-average", "-O", "--output-sync", "--debug"}, attached);
  return row;
}

}  // namespace

const std::vector<ToolRow>& tool_rows() {
  static const std::vector<ToolRow> rows = [] {
    std::vector<ToolRow> r;
    for (ToolRow (*make)() : {git_row, tar_row, ssh_row, scp_row, sftp_row, rsync_row, zip_row, man_row, npx_row,
                              make_row}) {
      r.push_back(make());
    }
    r.push_back(package_manager_row({"npm", "pnpm"}));
    r.push_back(interactive_row({"less", "more", "most", "pg"}, {"--version"}));
    r.push_back(interactive_row({"vi", "vim", "nvim", "view", "vimdiff", "gvim", "evim", "ex", "vim.basic", "vim.tiny",
                                 "vim.nox", "vim.gtk3", "emacs", "emacsclient", "nano", "pico", "ed", "red"},
                                {"--version", "--help"}));
    return r;
  }();
  return rows;
}

}  // namespace clawexec::policy::code_rows
