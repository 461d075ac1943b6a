// The git rows of the code-carrying detector: configuration injection (-c, --config-env),
// --exec-path, the subcommand options that name a command, and configuration writes.
//
// Problem: allowlisting git is meant to allow git, yet `git -c alias.x='!cmd' x`,
// `git -c core.fsmonitor=cmd status`, `git --exec-path=DIR cmd`, `git ls-remote
// --upload-pack=cmd`, `git rebase -x cmd` and `git config core.pager cmd` (then any git command
// pages through cmd) run anything. OpenClaw lets all of these through.
//
// Approach: the top-level grammar (exact options, no clusters, the first operand is the
// subcommand), one parse-options row per subcommand with code-carrying options (clusters,
// unique-prefix abbreviations, options after operands), and a configuration key check used by
// -c, --config-env, clone --config and config writes: a key is code-carrying unless it is on a
// short list of inert keys, so every code-running key git adds later is covered from the start.

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

}  // namespace

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

}  // namespace code_rows
}  // namespace clawexec::policy
