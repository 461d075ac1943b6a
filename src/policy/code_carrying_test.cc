// Strict inline eval beyond -c/-e: each family of ways to hand an interpreter code, and each
// tool row whose options run commands, with the nearest command that must stay allowed. The
// expectations follow what the real programs do (python 3.11, perl 5.36, node 20, GNU sed,
// mawk, bash, dash, git 2.39, GNU tar, zip, OpenSSH, vim on the development machine).

#include "policy/code_carrying.h"

#include <gtest/gtest.h>

#include "policy/inline_eval.h"

namespace clawexec::policy {
namespace {

// The strict detector's description, or "" when the command carries no code.
std::string strict(const Argv& argv) {
  std::optional<InlineEvalHit> hit = detect_strict_inline_eval_argv(argv);
  return hit ? describe_interpreter_inline_eval(*hit) : "";
}

// The code-carrying rows alone (the reference's rules may report the same argv first).
std::string rows(const Argv& argv) {
  std::optional<InlineEvalHit> hit = detect_code_carrying_argv(argv);
  return hit ? describe_interpreter_inline_eval(*hit) : "";
}

TEST(StrictInlineEvalPython, ModuleRunnersAreCodeExceptAFewThatOnlyRunFiles) {
  EXPECT_EQ(strict({"python3", "-m", "timeit", "x=1"}), "python3 -m timeit");
  EXPECT_EQ(strict({"python3", "-mtimeit", "x=1"}), "python3 -m timeit");
  EXPECT_EQ(strict({"python3", "-Im", "code"}), "python3 -m code");
  EXPECT_EQ(strict({"python3", "-E", "-m", "pdb", "s.py"}), "python3 -m pdb");
  EXPECT_EQ(strict({"python3", "-m", "unittest", "pdb.set_trace"}), "python3 -m unittest");
  EXPECT_EQ(strict({"python3", "-m", "pytest", "--pdb"}), "python3 -m pytest");
  EXPECT_EQ(strict({"python3", "-m", "pytest", "--trace"}), "python3 -m pytest");
  EXPECT_EQ(strict({"python3", "-m", "pytest", "-q", "tests/"}), "");
  EXPECT_EQ(strict({"python3", "-m", "pytest", "--tb=short"}), "");
  EXPECT_EQ(strict({"python3", "-m", "venv", ".venv"}), "");
  EXPECT_EQ(strict({"python3", "-m", "json.tool", "f.json"}), "");
  EXPECT_EQ(strict({"python3", "s.py", "-m", "timeit"}), "");  // the script's own arguments
  EXPECT_EQ(strict({"python3", "-W", "-m", "s.py"}), "");       // -W took "-m" as its value
}

TEST(StrictInlineEvalPython, ProgramsFromStdinOrADeviceAndPrompts) {
  EXPECT_EQ(strict({"python3"}), "python3 program from stdin");
  EXPECT_EQ(strict({"python3", "-B", "-u"}), "python3 program from stdin");
  EXPECT_EQ(strict({"python3", "-"}), "python3 program from stdin");
  EXPECT_EQ(strict({"python3", "/dev/stdin"}), "python3 /dev/stdin");
  EXPECT_EQ(strict({"python3", "--", "/dev/fd/3"}), "python3 /dev/fd/3");
  EXPECT_EQ(strict({"python3", "/proc/self/fd/0"}), "python3 /proc/self/fd/0");
  EXPECT_EQ(strict({"python3", "//dev/./stdin"}), "python3 //dev/./stdin");
  EXPECT_EQ(strict({"python3", "-i", "s.py"}), "python3 -i");
  EXPECT_EQ(strict({"python3", "-Ei", "s.py"}), "python3 -i");
  EXPECT_EQ(strict({"python3.11", "-X", "dev", "-W", "error", "-c", "x"}), "python3.11 -c");
  EXPECT_EQ(strict({"python3", "s.py"}), "");
  EXPECT_EQ(strict({"python3", "-W", "ignore", "-X", "dev", "s.py"}), "");
  EXPECT_EQ(strict({"python3", "/dev/null"}), "");
  EXPECT_EQ(strict({"python3", "dev/stdin.py"}), "");  // relative: inside the working directory
  EXPECT_EQ(strict({"python3", "--version"}), "");
  EXPECT_EQ(strict({"python3", "-V"}), "");
  EXPECT_EQ(strict({"python3", "-h"}), "");
}

TEST(StrictInlineEvalNode, PreloadsPromptsAndStdin) {
  EXPECT_EQ(strict({"node", "--import", "data:text/javascript,1", "s.js"}), "node --import");
  EXPECT_EQ(strict({"node", "--import=data:text/javascript,1", "s.js"}), "node --import");
  EXPECT_EQ(strict({"node", "--loader", "x", "s.js"}), "node --loader");
  EXPECT_EQ(strict({"node", "--experimental_loader", "x", "s.js"}), "node --experimental-loader");
  EXPECT_EQ(strict({"node", "-r", "ts-node/register", "s.ts"}), "node -r ts-node/register");
  EXPECT_EQ(strict({"node", "--require=./hook.js", "s.js"}), "node --require ./hook.js");
  EXPECT_EQ(strict({"node", "-i"}), "node -i");
  EXPECT_EQ(strict({"node"}), "node program from stdin");
  EXPECT_EQ(strict({"node", "--no-warnings"}), "node program from stdin");
  EXPECT_EQ(strict({"node", "--title", "x"}), "node program from stdin");  // x is --title's value
  EXPECT_EQ(strict({"node", "--unknown-flag", "x"}), "node program from stdin");
  EXPECT_EQ(strict({"node", "--unknown-switch", "--import", "data:,1", "s.js"}), "node --import");
  EXPECT_EQ(strict({"node", "-"}), "node program from stdin");
  EXPECT_EQ(strict({"node", "inspect", "s.js"}), "node inspect");
  EXPECT_EQ(strict({"node", "s.js"}), "");
  EXPECT_EQ(strict({"node", "--no-warnings", "--enable-source-maps", "s.js"}), "");
  EXPECT_EQ(strict({"node", "--test"}), "");
  EXPECT_EQ(strict({"node", "--version"}), "");
  EXPECT_EQ(strict({"node", "s.js", "--import", "x"}), "");  // the script's own arguments
}

TEST(StrictInlineEvalNode, DenoAndBunSubcommands) {
  EXPECT_EQ(strict({"deno", "eval", "1"}), "deno eval");
  EXPECT_EQ(strict({"deno", "repl"}), "deno repl");
  EXPECT_EQ(strict({"deno"}), "deno program from stdin");
  EXPECT_EQ(strict({"deno", "run", "-"}), "deno run program from stdin");
  EXPECT_EQ(strict({"deno", "run", "https://example.invalid/x.ts"}), "deno run program from a URL");
  EXPECT_EQ(strict({"deno", "run", "--allow-read", "main.ts"}), "");
  EXPECT_EQ(strict({"deno", "fmt"}), "");
  EXPECT_EQ(strict({"bun", "repl"}), "bun repl");
  EXPECT_EQ(strict({"bun", "--preload", "./x.ts", "run", "s.ts"}), "bun --preload ./x.ts");
  EXPECT_EQ(strict({"bun", "run", "build"}), "");
}

TEST(StrictInlineEvalPerl, ModuleSwitchesWithCodeAndSwitchesSharingAnArgument) {
  EXPECT_EQ(strict({"perl", "-Mstrict;print 1", "/dev/null"}), "perl -M");
  EXPECT_EQ(strict({"perl", "-mPOSIX ();print 1", "x.pl"}), "perl -m");
  EXPECT_EQ(strict({"perl", "-wMstrict;1", "x.pl"}), "perl -M");
  EXPECT_EQ(strict({"perl", "-w -e print 1"}), "perl -e");
  EXPECT_EQ(strict({"perl", "-l -e print 1"}), "perl -e");
  EXPECT_EQ(strict({"perl", "-i.bak -e s/a/b/", "f"}), "perl -e");
  EXPECT_EQ(strict({"perl", "-d", "x.pl"}), "perl -d");
  EXPECT_EQ(strict({"perl", "-d:NYTProf", "x.pl"}), "perl -d");
  EXPECT_EQ(strict({"perl"}), "perl program from stdin");
  EXPECT_EQ(strict({"perl", "-n"}), "perl program from stdin");
  EXPECT_EQ(strict({"perl", "-w", "-"}), "perl program from stdin");
  EXPECT_EQ(strict({"perl", "-MPOSIX", "x.pl"}), "");
  EXPECT_EQ(strict({"perl", "-MData::Dumper", "-M-warnings", "x.pl"}), "");
  EXPECT_EQ(strict({"perl", "-MList::Util=sum,max", "x.pl"}), "");  // import list: data
  EXPECT_EQ(strict({"perl", "-CSD", "-i.bak", "-pl0", "x.pl", "f"}), "");
  EXPECT_EQ(strict({"perl", "-0777", "x.pl"}), "");
  EXPECT_EQ(strict({"perl", "-0xFFpe", "x.pl"}), "");  // 0x takes the rest of the argument
  EXPECT_EQ(strict({"perl", "-Cie", "x.pl"}), "");    // -C takes "ie" (perl refuses the e)
  EXPECT_EQ(strict({"perl", "-v"}), "");
  EXPECT_EQ(strict({"perl", "-V:osname"}), "");
}

TEST(StrictInlineEvalOthers, RubyPhpLuaTclRJuliaAndRepls) {
  EXPECT_EQ(strict({"ruby"}), "ruby program from stdin");
  EXPECT_EQ(strict({"ruby", "-rjson", "-"}), "ruby program from stdin");
  EXPECT_EQ(strict({"ruby", "-w", "-I", "lib", "s.rb"}), "");
  EXPECT_EQ(strict({"php", "-a"}), "php -a");
  EXPECT_EQ(strict({"php", "-d", "auto_prepend_file=/tmp/x", "s.php"}), "php -d auto_prepend_file");
  EXPECT_EQ(strict({"php"}), "php program from stdin");
  EXPECT_EQ(strict({"php", "-f", "/dev/stdin"}), "php -f /dev/stdin");
  EXPECT_EQ(strict({"php", "s.php"}), "");
  EXPECT_EQ(strict({"php", "-v"}), "");
  EXPECT_EQ(strict({"lua", "-i", "s.lua"}), "lua -i");
  EXPECT_EQ(strict({"lua5.4"}), "lua5.4 program from stdin");
  EXPECT_EQ(strict({"lua", "-l", "socket", "s.lua"}), "");
  EXPECT_EQ(strict({"tclsh"}), "tclsh program from stdin");
  EXPECT_EQ(strict({"tclsh8.6", "-encoding", "utf-8", "s.tcl"}), "");
  EXPECT_EQ(strict({"R", "--vanilla"}), "r interactive session");
  EXPECT_EQ(strict({"R", "--vanilla", "s.R"}), "r interactive session");  // R ignores operands
  EXPECT_EQ(strict({"R", "-f", "s.R"}), "");
  EXPECT_EQ(strict({"R", "CMD", "build", "pkg"}), "");
  EXPECT_EQ(strict({"Rscript", "-"}), "rscript program from stdin");
  EXPECT_EQ(strict({"Rscript", "s.R"}), "");
  EXPECT_EQ(strict({"julia", "-i", "s.jl"}), "julia -i");
  EXPECT_EQ(strict({"julia", "--project=.", "s.jl"}), "");
  EXPECT_EQ(strict({"irb"}), "irb interactive session");
  EXPECT_EQ(strict({"ghci", "M.hs"}), "ghci interactive session");
  EXPECT_EQ(strict({"irb", "--version"}), "");
  EXPECT_EQ(strict({"gdb", "./a.out"}), "gdb interactive session");
  EXPECT_EQ(strict({"gdb", "-x", "/dev/stdin", "-batch"}), "gdb -x");
  EXPECT_EQ(strict({"gdb", "-batch", "-x", "cmds.gdb", "./a.out"}), "");
  EXPECT_EQ(strict({"erl"}), "erl interactive session");
  EXPECT_EQ(strict({"erl", "-noshell", "-sname", "x"}), "");
  EXPECT_EQ(strict({"expect"}), "expect program from stdin");
  EXPECT_EQ(strict({"expect", "s.exp"}), "");
  EXPECT_EQ(strict({"raku", "-MTest;run <id>", "t.raku"}), "raku -M");
  EXPECT_EQ(strict({"raku", "-MTest", "t.raku"}), "");
  EXPECT_EQ(strict({"guile"}), "guile program from stdin");
  EXPECT_EQ(strict({"guile", "-s", "x.scm"}), "");
  EXPECT_EQ(strict({"ghc", "--interactive"}), "ghc --interactive");
  EXPECT_EQ(strict({"ghc", "-O2", "Main.hs"}), "");
  EXPECT_EQ(strict({"osascript"}), "osascript program from stdin");
  EXPECT_EQ(strict({"osascript", "x.scpt"}), "");
  EXPECT_EQ(strict({"scala"}), "scala program from stdin");
  EXPECT_EQ(strict({"clojure", "-M:dev"}), "clojure program from stdin");
  EXPECT_EQ(strict({"scala", "Main.scala"}), "");
}

TEST(StrictInlineEvalAwkSed, ProgramFilesThatAreStdinAndLongForms) {
  EXPECT_EQ(strict({"awk", "-f", "-"}), "awk -f -");
  EXPECT_EQ(strict({"mawk", "-f/dev/stdin"}), "mawk -f /dev/stdin");
  EXPECT_EQ(strict({"gawk", "--file=/dev/fd/0", "in"}), "gawk --file /dev/fd/0");
  EXPECT_EQ(strict({"gawk", "-f", "p.awk", "-f", "/dev/stdin"}), "gawk -f /dev/stdin");
  EXPECT_EQ(strict({"gawk", "-D", "-f", "p.awk"}), "gawk -D");
  EXPECT_EQ(strict({"gawk", "--debug", "-f", "p.awk"}), "gawk --debug");
  EXPECT_EQ(strict({"gawk", "-l", "ordchr", "-f", "p.awk"}), "gawk -l ordchr");
  EXPECT_EQ(strict({"gawk", "-W", "source=BEGIN{}", "-f", "p.awk"}), "gawk -W");
  EXPECT_EQ(strict({"gawk", "-i", "/dev/stdin", "-f", "p.awk"}), "gawk -i");
  EXPECT_EQ(strict({"mawk", "-f", "p.awk", "in"}), "");
  EXPECT_EQ(strict({"mawk", "-W", "version"}), "");
  EXPECT_EQ(strict({"sed", "-f", "/dev/stdin", "in"}), "sed -f /dev/stdin");
  EXPECT_EQ(strict({"sed", "-nf", "/dev/stdin", "in"}), "sed inline program");  // the reference's reading
  EXPECT_EQ(strict({"sed", "--file=-", "in"}), "sed --file -");
  EXPECT_EQ(rows({"sed", "--fi", "/proc/self/fd/0", "in"}), "sed --file /proc/self/fd/0");
  EXPECT_EQ(strict({"sed", "--expression=1e id"}), "sed --expression");
  EXPECT_EQ(strict({"sed", "--expr=1e id"}), "sed --expression");
  EXPECT_EQ(strict({"sed", "-ne1e id"}), "sed -e");
  EXPECT_EQ(strict({"sed", "in", "-f", "/dev/stdin"}), "sed inline program");  // the reference reads "in" as program
  EXPECT_EQ(strict({"sed", "-f", "s.sed", "in"}), "");
  EXPECT_EQ(strict({"sed", "-i.bak", "-f", "s.sed", "in"}), "");
  EXPECT_EQ(strict({"sed", "-f", "/dev/null", "in"}), "");
}

TEST(StrictInlineEvalShells, StdinProgramsAndInteractiveShells) {
  EXPECT_EQ(strict({"sh"}), "sh program from stdin");
  EXPECT_EQ(strict({"bash", "-s", "arg"}), "bash -s");
  EXPECT_EQ(strict({"bash", "-i"}), "bash program from stdin");
  EXPECT_EQ(strict({"bash", "-ic", "ls"}), "");
  EXPECT_EQ(strict({"dash", "-e", "-"}), "dash program from stdin");
  EXPECT_EQ(strict({"bash", "-o", "posix", "/dev/stdin"}), "bash /dev/stdin");
  EXPECT_EQ(strict({"zsh", "+o", "nomatch"}), "zsh program from stdin");
  EXPECT_EQ(strict({"fish", "-C", "id", "s.fish"}), "fish -C");
  EXPECT_EQ(strict({"sh", "s.sh"}), "");
  EXPECT_EQ(strict({"bash", "-e", "-o", "pipefail", "s.sh", "-i"}), "");
  EXPECT_EQ(strict({"bash", "-lc", "ls"}), "");  // the payload is analysed as a shell wrapper
  EXPECT_EQ(strict({"bash", "--version"}), "");
}

TEST(StrictInlineEvalRecursion, ThroughWrappersCarriersAndPackageManagers) {
  EXPECT_EQ(strict({"timeout", "5", "python3"}), "python3 program from stdin");
  EXPECT_EQ(strict({"env", "PYTHONPATH=x", "python3", "-m", "timeit", "1"}), "python3 -m timeit");
  EXPECT_EQ(strict({"sudo", "-u", "app", "git", "-c", "alias.x=!id", "x"}), "git -c alias.x");
  EXPECT_EQ(strict({"sh", "-c", "$0 \"$@\"", "perl", "-MPOSIX;1", "x.pl"}), "perl -M");
  EXPECT_EQ(strict({"npm", "exec", "--", "node", "-i"}), "node -i");
  EXPECT_EQ(strict({"nice", "python3", "s.py"}), "");
  // The reference detector is unchanged: these are strict-only.
  EXPECT_FALSE(detect_inline_eval_argv({"python3", "-m", "timeit", "1"}).has_value());
  EXPECT_FALSE(detect_inline_eval_argv({"git", "-c", "alias.x=!id", "x"}).has_value());
}

TEST(StrictInlineEvalGit, ConfigurationInjectionUnlessTheKeyIsInert) {
  EXPECT_EQ(strict({"git", "-c", "alias.x=!id", "x"}), "git -c alias.x");
  EXPECT_EQ(strict({"git", "-c", "ALIAS.x=!id", "x"}), "git -c ALIAS.x");
  EXPECT_EQ(strict({"git", "-c", "core.fsmonitor=id", "status"}), "git -c core.fsmonitor");
  EXPECT_EQ(strict({"git", "-c", "core.pager=id", "log"}), "git -c core.pager");
  EXPECT_EQ(strict({"git", "-c", "diff.x.textconv=id", "diff"}), "git -c diff.x.textconv");
  EXPECT_EQ(strict({"git", "-c", "include.path=/tmp/c", "log"}), "git -c include.path");
  EXPECT_EQ(strict({"git", "-c", "color.ui", "log"}), "");
  EXPECT_EQ(strict({"git", "--config-env=alias.x=CMD", "x"}), "git --config-env alias.x");
  EXPECT_EQ(strict({"git", "--config-env", "core.editor=E", "commit"}), "git --config-env core.editor");
  EXPECT_EQ(strict({"git", "-C", "repo", "-c", "color.ui=auto", "-c", "user.name=x", "status"}), "");
  EXPECT_EQ(strict({"git", "-c", "Color.Diff.Meta=blue", "log"}), "");
}

TEST(StrictInlineEvalGit, CodeCarryingOptionsAndSubcommands) {
  EXPECT_EQ(strict({"git", "--exec-path=/tmp/x", "version"}), "git --exec-path");
  EXPECT_EQ(strict({"git", "--exec-path"}), "");  // prints the path
  EXPECT_EQ(strict({"git", "ls-remote", "--upload-pack=id", "."}), "git ls-remote --upload-pack");
  EXPECT_EQ(strict({"git", "ls-remote", "--upl=id", "."}), "git ls-remote --upload-pack");
  EXPECT_EQ(strict({"git", "ls-remote", ".", "--exec", "id"}), "git ls-remote --exec");
  EXPECT_EQ(strict({"git", "clone", "-u", "id", "src", "dst"}), "git clone -u");
  EXPECT_EQ(strict({"git", "clone", "--config", "core.fsmonitor=id", "src"}), "git clone --config core.fsmonitor");
  EXPECT_EQ(strict({"git", "clone", "--template=t", "src"}), "git clone --template");
  EXPECT_EQ(strict({"git", "fetch", "--upload-pack", "id"}), "git fetch --upload-pack");
  EXPECT_EQ(strict({"git", "push", "--receive-pack=id", "r"}), "git push --receive-pack");
  EXPECT_EQ(strict({"git", "rebase", "-x", "id", "main"}), "git rebase -x");
  EXPECT_EQ(strict({"git", "rebase", "-ix", "id", "main"}), "git rebase -x");
  EXPECT_EQ(strict({"git", "rebase", "--exec=id", "main"}), "git rebase --exec");
  EXPECT_EQ(strict({"git", "submodule", "foreach", "id"}), "git submodule foreach");
  EXPECT_EQ(strict({"git", "bisect", "run", "id"}), "git bisect run");
  EXPECT_EQ(strict({"git", "filter-branch", "--tree-filter", "id"}), "git filter-branch");
  EXPECT_EQ(strict({"git", "difftool", "--extcmd=id"}), "git difftool --extcmd");
  EXPECT_EQ(strict({"git", "grep", "-Oid", "x"}), "git grep -O");
  EXPECT_EQ(strict({"git", "archive", "--remote=r", "--exec=id", "HEAD"}), "git archive --exec");
  EXPECT_EQ(strict({"git", "log"}), "");
  EXPECT_EQ(strict({"git", "log", "--exec=x"}), "");  // not an option of log
  EXPECT_EQ(strict({"git", "clone", "src", "dst"}), "");
  EXPECT_EQ(strict({"git", "rebase", "-i", "main"}), "");
  EXPECT_EQ(strict({"git", "submodule", "update", "--init"}), "");
  EXPECT_EQ(strict({"git", "bisect", "start"}), "");
  EXPECT_EQ(strict({"git", "fetch", "--update-head-ok"}), "");
}

TEST(StrictInlineEvalGit, ConfigWritesOfCodeCarryingKeys) {
  EXPECT_EQ(strict({"git", "config", "core.pager", "id"}), "git config core.pager");
  EXPECT_EQ(strict({"git", "config", "--global", "alias.x", "!id"}), "git config alias.x");
  EXPECT_EQ(strict({"git", "config", "--add", "core.fsmonitor", "id"}), "git config core.fsmonitor");
  EXPECT_EQ(strict({"git", "config", "--replace-all", "credential.helper", "!id"}), "git config credential.helper");
  EXPECT_EQ(strict({"git", "config", "-f", ".git/config", "filter.x.clean", "id"}), "git config filter.x.clean");
  EXPECT_EQ(strict({"git", "config", "set", "core.sshCommand", "id"}), "git config core.sshCommand");
  EXPECT_EQ(strict({"git", "config", "--edit"}), "git config --edit");
  EXPECT_EQ(strict({"git", "config", "edit"}), "git config edit");
  EXPECT_EQ(strict({"git", "config", "--rename-section", "user", "alias"}), "git config --rename-section");
  EXPECT_EQ(strict({"git", "config", "--get", "core.pager"}), "");
  EXPECT_EQ(strict({"git", "config", "core.pager"}), "");  // one operand: a read
  EXPECT_EQ(strict({"git", "config", "--unset", "core.pager"}), "");
  EXPECT_EQ(strict({"git", "config", "--list"}), "");
  EXPECT_EQ(strict({"git", "config", "get", "alias.x"}), "");
  EXPECT_EQ(strict({"git", "config", "user.email", "a@b"}), "");
  EXPECT_EQ(strict({"git", "config", "--global", "init.defaultBranch", "main"}), "");
  EXPECT_EQ(strict({"git", "config", "--rename-section", "x", "color"}), "");
}

TEST(StrictInlineEvalTools, ArchiversRemoteCopiesAndSsh) {
  EXPECT_EQ(strict({"tar", "-xf", "a.tar", "--to-command=id"}), "tar --to-command");
  EXPECT_EQ(strict({"tar", "-xf", "a.tar", "--to-c", "id"}), "tar --to-command");
  EXPECT_EQ(strict({"tar", "-cI", "id", "-f", "a.tar", "d"}), "tar -I");
  EXPECT_EQ(strict({"tar", "cIf", "id", "a.tar", "d"}), "tar -I");  // old-style letters
  EXPECT_EQ(strict({"tar", "--use=id", "-cf", "a.tar", "d"}), "tar --use-compress-program");
  EXPECT_EQ(strict({"tar", "--checkpoint-action=exec=id", "-cf", "a.tar", "d"}), "tar --checkpoint-action");
  EXPECT_EQ(strict({"tar", "-cf", "a.tar", "-F", "id", "d"}), "tar -F");
  EXPECT_EQ(strict({"tar", "--checkpoint=10", "--checkpoint-action=dot", "-cf", "a.tar", "d"}), "");
  EXPECT_EQ(strict({"tar", "-czf", "a.tar.gz", "d"}), "");
  EXPECT_EQ(strict({"tar", "xzf", "a.tar.gz"}), "");
  EXPECT_EQ(strict({"rsync", "-e", "sh -c id", "a", "h:b"}), "rsync -e");
  EXPECT_EQ(strict({"rsync", "-avze", "ssh -o ProxyCommand=id", "a", "h:b"}), "rsync -e");
  EXPECT_EQ(strict({"rsync", "--rsync-path=id", "a", "h:b"}), "rsync --rsync-path");
  EXPECT_EQ(strict({"rsync", "-avz", "-e", "ssh -p 2222", "a", "h:b"}), "");
  EXPECT_EQ(strict({"rsync", "-a", "a", "b"}), "");
  EXPECT_EQ(strict({"ssh", "-o", "ProxyCommand=id", "h"}), "ssh -o");
  EXPECT_EQ(strict({"ssh", "-oproxycommand id", "h"}), "ssh -o");
  EXPECT_EQ(strict({"ssh", "-vo", "LocalCommand=id", "h"}), "ssh -o");
  EXPECT_EQ(strict({"ssh", "h", "-o", "KnownHostsCommand=id"}), "ssh -o");
  EXPECT_EQ(strict({"ssh", "-I", "/tmp/lib.so", "h"}), "ssh -I");
  EXPECT_EQ(strict({"ssh", "-o", "Port=22", "-p", "22", "h", "ls"}), "");
  EXPECT_EQ(strict({"ssh", "-F", "cfg", "h"}), "");
  EXPECT_EQ(strict({"scp", "-S", "id", "a", "h:b"}), "scp -S");
  EXPECT_EQ(strict({"scp", "-o", "ProxyCommand=id", "a", "h:b"}), "scp -o");
  EXPECT_EQ(strict({"scp", "-P", "22", "a", "h:b"}), "");
  EXPECT_EQ(strict({"sftp", "h"}), "sftp interactive session");
  EXPECT_EQ(strict({"sftp", "-b", "-", "h"}), "sftp -b -");
  EXPECT_EQ(strict({"sftp", "-b", "batch.txt", "h"}), "");
  EXPECT_EQ(strict({"zip", "-q", "z.zip", "f", "-T", "-TT", "id"}), "zip -TT");
  EXPECT_EQ(strict({"zip", "z.zip", "f", "-T", "-TTid"}), "zip -TT");
  EXPECT_EQ(strict({"zip", "z.zip", "f", "-T", "--unzip-c", "id"}), "zip --unzip-command");
  EXPECT_EQ(strict({"zip", "-r", "-T", "z.zip", "d"}), "");
}

TEST(StrictInlineEvalTools, PagersEditorsManPackageManagersAndMake) {
  EXPECT_EQ(strict({"man", "-P", "id", "ls"}), "man -P");
  EXPECT_EQ(strict({"man", "--pager=id", "ls"}), "man --pager");
  EXPECT_EQ(strict({"man", "-Hfirefox", "ls"}), "man -H");
  EXPECT_EQ(strict({"man", "ls"}), "");
  EXPECT_EQ(strict({"man", "--path"}), "");
  EXPECT_EQ(strict({"less", "f"}), "less interactive session");
  EXPECT_EQ(strict({"less", "--help"}), "less interactive session");  // the help is a pager too
  EXPECT_EQ(strict({"less", "--version"}), "");
  EXPECT_EQ(strict({"vim", "-es", "-c", "!id"}), "vim interactive session");
  EXPECT_EQ(strict({"vi", "+!id", "f"}), "vi interactive session");
  EXPECT_EQ(strict({"vim", "-V", "f"}), "vim interactive session");  // -V is verbose
  EXPECT_EQ(strict({"vim", "--version"}), "");
  EXPECT_EQ(strict({"ed", "f"}), "ed interactive session");
  EXPECT_EQ(strict({"npx", "-c", "id"}), "npx -c");
  EXPECT_EQ(strict({"npm", "exec", "--call=id"}), "npm --call");
  EXPECT_EQ(strict({"npm", "--prefix", "dir", "exec", "-c", "id"}), "npm -c");
  EXPECT_EQ(strict({"npm", "--prefix", "dir", "config", "set", "script-shell", "x"}), "npm config set script-shell");
  EXPECT_EQ(strict({"npm", "--userconfig=/tmp/rc", "test"}), "npm --userconfig");
  EXPECT_EQ(strict({"npm", "run", "build", "--script-shell=/tmp/x"}), "npm --script-shell");
  EXPECT_EQ(strict({"npm", "config", "set", "script-shell", "/tmp/x"}), "npm config set script-shell");
  EXPECT_EQ(strict({"npm", "set", "node-options=--require=/tmp/x"}), "npm set node-options");
  EXPECT_EQ(strict({"pnpm", "exec", "--shell-mode", "id"}), "pnpm --shell-mode");
  EXPECT_EQ(strict({"npx", "-y", "cowsay", "-c", "x"}), "");  // cowsay's own -c
  EXPECT_EQ(strict({"npm", "run", "build"}), "");
  EXPECT_EQ(strict({"npm", "config", "set", "registry", "https://r.example"}), "");
  EXPECT_EQ(strict({"npx", "tsc", "--noEmit"}), "");
  EXPECT_EQ(strict({"make", "SHELL=/tmp/x"}), "make SHELL=");
  EXPECT_EQ(strict({"make", "CC=cc;id"}), "make CC=");
  EXPECT_EQ(strict({"make", "X=$(shell id)"}), "make X=");
  EXPECT_EQ(strict({"make", "X!=id"}), "make X!=");
  EXPECT_EQ(strict({"make", "-j4", "CFLAGS=-O2 -g", "all"}), "");
  EXPECT_EQ(strict({"make", "-C", "sub", "test"}), "");
}

TEST(StdinLikeProgramPath, DevicesAndProcessFilesButNotWorkspaceFiles) {
  for (const char* path : {"-", "/dev/stdin", "/dev/fd/0", "/dev/tty", "/dev/pts/3", "/proc/self/fd/0",
                           "/proc/123/fd/4", "//dev//stdin", "/tmp/../dev/stdin", "../../../../dev/stdin",
                           "./../proc/self/fd/0"}) {
    EXPECT_TRUE(is_stdin_like_program_path(path)) << path;
  }
  for (const char* path : {"", "s.py", "dev/stdin", "./dev/stdin", "/dev/null", "/dev", "/devices/x", "/tmp/proc/x",
                           "a/../dev/stdin"}) {
    EXPECT_FALSE(is_stdin_like_program_path(path)) << path;
  }
}

TEST(InertGitConfigKey, ShortListAndWholeColorAndAdviceSections) {
  for (const char* key : {"user.name", "USER.EMAIL", "color.ui", "color.diff.meta", "advice.detachedHead",
                          "init.defaultBranch", "core.quotePath"}) {
    EXPECT_TRUE(is_inert_git_config_key(key)) << key;
  }
  for (const char* key : {"alias.x", "core.pager", "core.editor", "core.fsmonitor", "core.hooksPath", "core.sshCommand",
                          "pager.log", "diff.external", "diff.x.textconv", "filter.x.smudge", "merge.x.driver",
                          "credential.helper", "gpg.program", "sequence.editor", "include.path",
                          "includeIf.gitdir:~/.path", "url.ext::sh.insteadOf", "uploadpack.packObjectsHook",
                          "user.name.x", "user", "", ".name", "user."}) {
    EXPECT_FALSE(is_inert_git_config_key(key)) << key;
  }
}

}  // namespace
}  // namespace clawexec::policy
