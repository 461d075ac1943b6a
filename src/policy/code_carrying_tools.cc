// The tool rows of the code-carrying detector: commonly allowlisted tools whose options or
// configuration run a command of the caller's choosing.
//
// Problem: allowlisting git (or tar, rsync, ssh, ...) is meant to allow git, yet
// `git -c alias.x='!cmd' x`, `git -c core.fsmonitor=cmd status`, `git --exec-path=DIR`,
// `git ls-remote --upload-pack=cmd`, `git config core.pager cmd` (then any git command),
// `tar --to-command=cmd`, `rsync -e cmd`, `ssh -o ProxyCommand=cmd`, `zip -TT cmd`,
// `man -P cmd` and `vim -c '!cmd'` run anything. OpenClaw lets all of these through.
//
// Approach: the same rows as the interpreters (code_carrying_rows.h): each tool's grammar with
// its code-carrying options marked, subcommand rows for git and npm, and a few checks on
// values: a git configuration key is code-carrying unless it is on a short list of inert keys
// (every code-running key git adds later is then covered from the start), ssh -o keys by name,
// rsync -e only when its command is ssh with code-free options, tar --checkpoint-action only
// for exec=, make VAR=value overrides when the value could reach a recipe as shell code.
// Interactive pagers and editors (less, vim, ...) are hits: in a PTY the agent types `!cmd`.

#include <algorithm>
#include <array>

#include "policy/code_carrying.h"
#include "policy/code_carrying_rows.h"
#include "shell/executable.h"

namespace clawexec::policy {

bool is_inert_git_config_key(std::string_view key) {
  size_t first = key.find('.');
  size_t last = key.rfind('.');
  if (first == std::string_view::npos || first == 0 || last + 1 >= key.size()) return false;
  std::string section = shell::lower_for_match(key.substr(0, first));
  std::string variable = shell::lower_for_match(key.substr(last + 1));
  if (section == "color" || section == "advice") return true;
  if (first != last) return false;  // a subsection: diff.<driver>.command, filter.<x>.clean, ...
  static constexpr std::array<std::string_view, 45> kInert = {
      "user.name",         "user.email",        "author.name",     "author.email",
      "committer.name",    "committer.email",   "core.quotepath",  "core.autocrlf",
      "core.safecrlf",     "core.eol",          "core.filemode",   "core.ignorecase",
      "core.abbrev",       "core.whitespace",   "core.precomposeunicode", "init.defaultbranch",
      "pull.rebase",       "pull.ff",           "merge.ff",        "merge.conflictstyle",
      "push.default",      "push.autosetupremote", "fetch.prune",  "log.date",
      "log.decorate",      "log.abbrevcommit",  "log.follow",      "status.short",
      "status.branch",     "status.showuntrackedfiles", "diff.noprefix", "diff.renames",
      "diff.algorithm",    "diff.context",      "diff.relative",   "diff.mnemonicprefix",
      "diff.colormoved",   "column.ui",         "grep.linenumber", "grep.patterntype",
      "rebase.autosquash", "rerere.enabled",    "i18n.commitencoding", "i18n.logoutputencoding",
      "blame.date"};
  std::string lowered = section + "." + variable;
  return std::find(kInert.begin(), kInert.end(), lowered) != kInert.end();
}

namespace code_rows {
namespace {

// --- git ----------------------------------------------------------------------------------------

bool git_assignment_has_code(std::string_view value, std::span<const std::string>) {
  return !is_inert_git_config_key(value.substr(0, value.find('=')));
}

// The label after the "config" prefix: the key, when it is printable as a name.
std::string git_key_label(std::string_view key) {
  std::string text = label_text(key);
  return text.empty() ? "<key>" : text;
}

bool is_git_config_read_option(std::string_view name) {
  for (std::string_view read : {"--get", "--get-all", "--get-regexp", "--get-urlmatch", "--get-color",
                                "--get-colorbool", "-l", "--list", "--unset", "--unset-all", "--remove-section"}) {
    if (name == read) return true;
  }
  return false;
}

// git config writes: `git config [opts] key value`, --add, --replace-all, `git config set key
// value` (git 2.46+), --rename-section old new. A write of a code-carrying key is a hit (git
// runs it later, from any git command); --edit is handled as an interactive option.
std::optional<std::string> git_config_extra(const Argv& argv, const OptionScan& scan) {
  bool read = false;
  bool write_flag = false;
  bool rename = false;
  for (const ScannedOption& option : scan.options) {
    std::string_view name = option.rule->name;
    if (is_git_config_read_option(name)) read = true;
    if (name == "--add" || name == "--replace-all") write_flag = true;
    if (name == "--rename-section") rename = true;
  }
  std::vector<std::string_view> operands;
  for (size_t index : scan.operands) operands.emplace_back(argv[index]);
  size_t k = 0;
  if (!operands.empty()) {
    std::string_view verb = operands[0];
    if (verb == "set") {
      write_flag = true;
      k = 1;
    } else if (verb == "rename-section") {
      rename = true;
      k = 1;
    } else if (verb == "edit") {
      return std::string("edit");
    } else if (verb == "get" || verb == "list" || verb == "unset" || verb == "remove-section") {
      return std::nullopt;
    }
  }
  if (rename) {
    if (operands.size() < k + 2) return std::nullopt;
    std::string_view target = operands[k + 1];
    if (is_inert_git_config_key(std::string(target.substr(0, target.find('.'))) + ".name")) return std::nullopt;
    return std::string("--rename-section");
  }
  if (read || operands.size() <= k) return std::nullopt;
  std::string_view key = operands[k];
  bool write = write_flag || operands.size() >= k + 2 || key.find('=') != std::string_view::npos;
  if (!write || is_inert_git_config_key(key.substr(0, key.find('=')))) return std::nullopt;
  return git_key_label(key.substr(0, key.find('=')));
}

// Subcommand rows use git's parse-options: clusters, unique-prefix abbreviations, options
// after operands.
ToolRow git_subcommand(std::vector<OptionRule> options) {
  ToolRow row;
  row.grammar.options = std::move(options);
  row.grammar.long_match = LongMatch::kPrefix;
  row.grammar.permute = true;
  return row;
}

const ToolRow& git_config_row() {
  static const ToolRow row = [] {
    ToolRow r = git_subcommand({val("-f"), val("--file"), val("--blob"), val("--type"), val("--default"),
                                val("--comment"), val("--value"), interactive("-e"), interactive("--edit")});
    add_all(r.grammar.options, {"--get", "--get-all", "--get-regexp", "--get-urlmatch", "--get-color",
                                "--get-colorbool", "-l", "--list", "--unset", "--unset-all", "--remove-section",
                                "--add", "--replace-all", "--rename-section", "--global", "--system", "--local",
                                "--worktree", "--bool", "--int", "--bool-or-int", "--path", "--expiry-date",
                                "--fixed-value", "-z", "--null", "--name-only", "--show-origin", "--show-scope",
                                "--includes", "--no-includes", "--all", "--append"},
            sw);
    r.extra = git_config_extra;
    return r;
  }();
  return row;
}

const ToolRow& git_row_for(std::string_view name) {
  using Rows = std::vector<std::pair<std::string_view, ToolRow>>;
  static const Rows rows = [] {
    Rows r;
    r.emplace_back("clone", git_subcommand({labelled(code_if("-c", git_assignment_has_code)),
                                            labelled(code_if("--config", git_assignment_has_code)), code("-u"),
                                            code("--upload-pack"), code("--template"), val("-b"), val("--branch"),
                                            val("-o"), val("--origin"), val("--depth"), val("-j"), val("--jobs")}));
    r.emplace_back("fetch", git_subcommand({code("--upload-pack")}));
    r.emplace_back("pull", git_subcommand({code("--upload-pack")}));
    r.emplace_back("push", git_subcommand({code("--receive-pack"), code("--exec")}));
    r.emplace_back("ls-remote", git_subcommand({code("--upload-pack"), code("--exec")}));
    r.emplace_back("archive", git_subcommand({code("--exec")}));
    r.emplace_back("fetch-pack", git_subcommand({code("--upload-pack"), code("--exec")}));
    r.emplace_back("send-pack", git_subcommand({code("--receive-pack"), code("--exec")}));
    r.emplace_back("rebase", git_subcommand({code("-x"), code("--exec"), sw("--empty"), sw("--exec-all")}));
    r.emplace_back("difftool", git_subcommand({code("-x"), code("--extcmd"), val("-t"), val("--tool")}));
    r.emplace_back("grep", git_subcommand({code("-O", Takes::kAttached), code("--open-files-in-pager", Takes::kAttached)}));
    r.emplace_back("send-email", git_subcommand({code("--sendmail-cmd"), code("--smtp-server"), code("--to-cmd"),
                                                 code("--cc-cmd"), code("--header-cmd")}));
    r.emplace_back("daemon", git_subcommand({code("--access-hook")}));
    ToolRow submodule;
    submodule.subcommands = {{.name = "foreach", .hit = "foreach"}};
    r.emplace_back("submodule", std::move(submodule));
    ToolRow bisect;
    bisect.subcommands = {{.name = "run", .hit = "run"}};
    r.emplace_back("bisect", std::move(bisect));
    return r;
  }();
  static const ToolRow plain;
  if (name == "config") return git_config_row();
  for (const auto& [sub, row] : rows) {
    if (sub == name) return row;
  }
  return plain;
}

ToolRow git_row() {
  ToolRow row{.names = {"git"}};
  row.grammar.clusters = false;
  std::vector<OptionRule>& o = row.grammar.options;
  o = {labelled(code_if("-c", git_assignment_has_code)), labelled(code_if("--config-env", git_assignment_has_code)),
       code_if("--exec-path", nonempty_value, Takes::kAttached), val("-C"), val("--git-dir"), val("--work-tree"),
       val("--namespace"), val("--super-prefix"), val("--attr-source"), attached("--list-cmds")};
  add_all(o, {"-v", "--version", "-h", "--help", "--html-path", "--man-path", "--info-path"}, info);
  add_all(o, {"-p", "--paginate", "-P", "--no-pager", "--bare", "--no-replace-objects", "--literal-pathspecs",
              "--glob-pathspecs", "--noglob-pathspecs", "--icase-pathspecs", "--no-optional-locks", "--no-advice"},
          sw);
  for (std::string_view sub : {"clone", "fetch", "pull", "push", "ls-remote", "archive", "fetch-pack", "send-pack",
                               "rebase", "difftool", "grep", "send-email", "daemon", "submodule", "bisect", "config"}) {
    row.subcommands.push_back({.name = sub, .row = &git_row_for(sub)});
  }
  row.subcommands.push_back({.name = "filter-branch", .hit = "filter-branch"});
  return row;
}

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

std::vector<OptionRule> package_manager_global_options() {
  return {code("--script-shell"), code("--node-options"), code("--shell"), code("--editor"), code("--browser"),
          code("--git"), code("--shell-emulator")};
}

const ToolRow& package_exec_row() {
  static const ToolRow row = [] {
    ToolRow r;
    r.grammar.options = {code("-c"), code("--call"), code("--shell-mode"), val("-p"), val("--package")};
    return r;
  }();
  return row;
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
  row.subcommands = {{.name = "exec", .row = &package_exec_row()}, {.name = "x", .row = &package_exec_row()},
                     {.name = "config", .row = &config}, {.name = "c", .row = &config}, {.name = "set", .row = &set}};
  return row;
}

ToolRow npx_row() {
  ToolRow row{.names = {"npx"}};
  row.grammar.options = package_exec_row().grammar.options;
  for (OptionRule& rule : package_manager_global_options()) row.grammar.options.push_back(rule);
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

}  // namespace code_rows
}  // namespace clawexec::policy
