// Script preflight, pure parts (reference §3.8): target extraction, content scan, ambiguity.

#include "shell/script_inspection.h"

#include <gtest/gtest.h>

namespace clawexec::shell {
namespace {

using Targets = std::vector<ScriptTarget>;

ScriptTarget py(std::string path) { return {ScriptLanguage::kPython, std::move(path)}; }
ScriptTarget js(std::string path) { return {ScriptLanguage::kNode, std::move(path)}; }

std::string python_message(const std::string& token, const std::string& where) {
  return "exec preflight: detected likely shell variable injection (" + token + ") in python script: " + where +
         ".\nIn Python, use os.environ.get(\"" + token.substr(1) + "\") instead of raw " + token +
         ".\n(If this is inside a string literal on purpose, escape it or restructure the code.)";
}

std::string node_message(const std::string& token, const std::string& where) {
  return "exec preflight: detected likely shell variable injection (" + token + ") in node script: " + where +
         ".\nIn Node.js, use process.env[\"" + token.substr(1) + "\"] instead of raw " + token +
         ".\n(If this is inside a string literal on purpose, escape it or restructure the code.)";
}

std::optional<std::string> scan_py(std::string_view content) {
  return scan_script_content(ScriptLanguage::kPython, content, "bad.py");
}

// The "$NAME:line" a Python scan reports, or "" when it passes.
std::string py_hit(std::string_view content) {
  std::optional<std::string> message = scan_py(content);
  if (!message) return "";
  size_t open = message->find('(');
  size_t close = message->find(')');
  size_t where = message->find("bad.py:");
  size_t dot = message->find(".\n");
  return message->substr(open + 1, close - open - 1) + ":" + message->substr(where + 7, dot - where - 7);
}

// ---- A: targets ----------------------------------------------------------------------------

TEST(ExtractScriptTargets, DirectPythonAndNodeScripts) {  // §8.2 cases 34, 35
  EXPECT_EQ(extract_script_targets("python bad.py"), Targets{py("bad.py")});
  EXPECT_EQ(extract_script_targets("node \"bad.js\""), Targets{js("bad.js")});
  EXPECT_EQ(extract_script_targets("  python3 'dir with space/x.py' arg"), Targets{py("dir with space/x.py")});
}

TEST(ExtractScriptTargets, InterpreterNameMustBeBareAndExact) {
  EXPECT_EQ(extract_script_targets("python3.12 x.py"), Targets{py("x.py")});
  EXPECT_EQ(extract_script_targets("PYTHON3 x.py"), Targets{py("x.py")});
  EXPECT_EQ(extract_script_targets("NODE x.js"), Targets{js("x.js")});
  EXPECT_TRUE(extract_script_targets("python2 x.py").empty());
  EXPECT_TRUE(extract_script_targets("python3. x.py").empty());
  EXPECT_TRUE(extract_script_targets("python3.x x.py").empty());
  EXPECT_TRUE(extract_script_targets("/usr/bin/python3 x.py").empty());
  EXPECT_TRUE(extract_script_targets("nodejs x.js").empty());
  EXPECT_TRUE(extract_script_targets("python x.js").empty());
  EXPECT_TRUE(extract_script_targets("node x.py").empty());
}

TEST(ExtractScriptTargets, ExtensionIsCaseInsensitiveAndPathKeptAsWritten) {
  EXPECT_EQ(extract_script_targets("python X.PY"), Targets{py("X.PY")});
  EXPECT_EQ(extract_script_targets("node ../lib/Main.JS"), Targets{js("../lib/Main.JS")});
}

TEST(ExtractScriptTargets, PythonOptionsBeforeTheScript) {
  EXPECT_EQ(extract_script_targets("python -u -B x.py"), Targets{py("x.py")});
  EXPECT_EQ(extract_script_targets("python -W ignore x.py"), Targets{py("x.py")});
  EXPECT_EQ(extract_script_targets("python -X dev x.py"), Targets{py("x.py")});
  EXPECT_EQ(extract_script_targets("python -Q new x.py"), Targets{py("x.py")});
  EXPECT_EQ(extract_script_targets("python --check-hash-based-pycs always x.py"), Targets{py("x.py")});
  EXPECT_EQ(extract_script_targets("python -Wignore x.py"), Targets{py("x.py")});
  // -W consumes the next word even when it looks like a script.
  EXPECT_TRUE(extract_script_targets("python -W a.py").empty());
  EXPECT_EQ(extract_script_targets("python -W a.py b.py"), Targets{py("b.py")});
}

TEST(ExtractScriptTargets, PythonCodeModuleStdinAndDoubleDash) {
  EXPECT_TRUE(extract_script_targets("python -c 'print(1)' x.py").empty());
  EXPECT_TRUE(extract_script_targets("python -cprint(1) x.py").empty());
  EXPECT_TRUE(extract_script_targets("python -m http.server x.py").empty());
  EXPECT_TRUE(extract_script_targets("python -mpip x.py").empty());
  EXPECT_TRUE(extract_script_targets("python - x.py").empty());
  EXPECT_EQ(extract_script_targets("python -- x.py"), Targets{py("x.py")});
  EXPECT_TRUE(extract_script_targets("python -- x.txt").empty());
  EXPECT_TRUE(extract_script_targets("python --").empty());
  // The first operand decides: a non-.py operand means no target.
  EXPECT_TRUE(extract_script_targets("python script x.py").empty());
  EXPECT_TRUE(extract_script_targets("python").empty());
}

TEST(ExtractScriptTargets, NodePreloadsThenEntry) {
  EXPECT_EQ(extract_script_targets("node -r ./pre.js main.js"), (Targets{js("./pre.js"), js("main.js")}));
  EXPECT_EQ(extract_script_targets("node --require pre.js main.js"), (Targets{js("pre.js"), js("main.js")}));
  EXPECT_EQ(extract_script_targets("node --import pre.js main.js"), (Targets{js("pre.js"), js("main.js")}));
  EXPECT_EQ(extract_script_targets("node -rpre.js --require=a.js --import=b.js main.js"),
            (Targets{js("pre.js"), js("a.js"), js("b.js"), js("main.js")}));
  // A preload that is not .js is skipped but still consumes its value.
  EXPECT_EQ(extract_script_targets("node -r dotenv/config main.js"), Targets{js("main.js")});
  EXPECT_EQ(extract_script_targets("node --trace-warnings -- main.js"), Targets{js("main.js")});
  EXPECT_TRUE(extract_script_targets("node app.mjs").empty());
  EXPECT_TRUE(extract_script_targets("node app x.js").empty());
}

TEST(ExtractScriptTargets, NodeInlineCodeHasNoEntryButKeepsPreloads) {
  EXPECT_TRUE(extract_script_targets("node -e \"console.log(123)\"").empty());  // §8.2 case 36
  EXPECT_TRUE(extract_script_targets("node -e x.js main.js").empty());
  EXPECT_TRUE(extract_script_targets("node -p 1 main.js").empty());
  EXPECT_TRUE(extract_script_targets("node --eval code main.js").empty());
  EXPECT_TRUE(extract_script_targets("node --print=1 main.js").empty());
  EXPECT_TRUE(extract_script_targets("node -pe 1 main.js").empty());
  EXPECT_TRUE(extract_script_targets("node -e 1 -- main.js").empty());
  EXPECT_EQ(extract_script_targets("node -r pre.js -e 1 main.js"), Targets{js("pre.js")});
}

TEST(ExtractScriptTargets, AssignmentsAndEnvPrefixesAreSkipped) {
  EXPECT_EQ(extract_script_targets("FOO=1 BAR= python x.py"), Targets{py("x.py")});
  EXPECT_EQ(extract_script_targets("env FOO=1 python3 bad.py"), Targets{py("bad.py")});
  EXPECT_EQ(extract_script_targets("A=1 /usr/bin/env -i B=2 node x.js"), Targets{js("x.js")});
  EXPECT_EQ(extract_script_targets("env -u HOME python x.py"), Targets{py("x.py")});
  EXPECT_EQ(extract_script_targets("env --unset HOME -C /tmp python x.py"), Targets{py("x.py")});
  EXPECT_EQ(extract_script_targets("env --unset=HOME python x.py"), Targets{py("x.py")});
  EXPECT_EQ(extract_script_targets("env -- python x.py"), Targets{py("x.py")});
  EXPECT_EQ(extract_script_targets("ENV.EXE python x.py"), Targets{py("x.py")});
  // -u takes the next word as its value, so "python" is consumed there.
  EXPECT_TRUE(extract_script_targets("env -u python x.py").empty());
  // "-" ends env's options (it is the executable position).
  EXPECT_TRUE(extract_script_targets("env - python x.py").empty());
  // An "assignment" whose value spans lines is not one.
  EXPECT_TRUE(extract_script_targets("'A=1\n2' python x.py").empty());
  EXPECT_TRUE(extract_script_targets("1A=1 python x.py").empty());
}

TEST(ExtractScriptTargets, WholeCommandIsOneArgv) {
  // Operators are ordinary words to the splitter, so the first command still counts.
  EXPECT_EQ(extract_script_targets("python bad.py && echo done"), Targets{py("bad.py")});
  EXPECT_TRUE(extract_script_targets("echo hi; python bad.py").empty());
  EXPECT_TRUE(extract_script_targets("python 'unterminated.py").empty());
  EXPECT_TRUE(extract_script_targets("# python x.py").empty());
}

// ---- B: content ----------------------------------------------------------------------------

TEST(ScanScriptContent, PythonVariableInCodeIsReportedWithItsLine) {  // §8.2 case 34
  EXPECT_EQ(scan_py("payload = $DM_JSON\n"), python_message("$DM_JSON", "bad.py:1"));
  EXPECT_EQ(py_hit("import os\n\nx = 1\ny = $X\n"), "$X:4");
  EXPECT_EQ(py_hit("a = 1\r\nb = 2\rc = $TOKEN_2"), "$TOKEN_2:3");
  EXPECT_EQ(py_hit("x = $_A1 + $B"), "$_A1:1");
}

TEST(ScanScriptContent, PythonLowercaseOrDigitVariablesAreNotShellLike) {
  EXPECT_EQ(py_hit("x = $foo\ny = $1\nz = $"), "");
  EXPECT_EQ(py_hit("x = $Foo"), "$F:1");  // the uppercase run is what counts
}

TEST(ScanScriptContent, PythonStringsAndCommentsAreIgnored) {  // §8.2 case 37
  EXPECT_EQ(py_hit("print(\"$HOME\")\n"), "");
  EXPECT_EQ(py_hit("print('$HOME')\n"), "");
  EXPECT_EQ(py_hit("x = 1  # uses $HOME\ny = 2\n"), "");
  EXPECT_EQ(py_hit("# $A\r\nz = $B\n"), "$B:2");
  EXPECT_EQ(py_hit("s = b'$A' + rb\"$B\" + r'$C' + u'$D'\n"), "");
}

TEST(ScanScriptContent, PythonTripleQuotedStringsSpanLines) {
  EXPECT_EQ(py_hit("doc = \"\"\"\n$A\n'still inside'\n\"\"\"\nx = $B\n"), "$B:5");
  EXPECT_EQ(py_hit("doc = '''it's $A\n''' ; y = $C"), "$C:2");
}

TEST(ScanScriptContent, PythonEscapedQuotesStayInsideTheString) {
  EXPECT_EQ(py_hit("s = \"a \\\" $A \\\" b\"\nx = $B"), "$B:2");
  EXPECT_EQ(py_hit("s = 'it\\'s $A'"), "");
  // A backslash-newline continues a one-line string onto the next line.
  EXPECT_EQ(py_hit("s = 'a\\\n$A'\nt = $B"), "$B:3");
  EXPECT_EQ(py_hit("s = 'a\\\r\n$A'\nt = $B"), "$B:3");
}

TEST(ScanScriptContent, PythonUnterminatedOneLineStringEndsAtTheLineBreak) {
  EXPECT_EQ(py_hit("s = 'oops\nx = $A"), "$A:2");
}

TEST(ScanScriptContent, PythonFStringReplacementFieldsAreCode) {
  EXPECT_EQ(py_hit("print(f\"{$X}\")"), "$X:1");
  EXPECT_EQ(py_hit("print(F'{$X}')"), "$X:1");
  EXPECT_EQ(py_hit("print(rf\"{$X}\")"), "$X:1");
  EXPECT_EQ(py_hit("print(Fr'{$X}')"), "$X:1");
  EXPECT_EQ(py_hit("print(f\"$HOME {name}\")"), "");
  EXPECT_EQ(py_hit("print(f\"{{$X}}\")"), "");      // doubled braces are literal
  EXPECT_EQ(py_hit("print(f\"\\{$X}\")"), "$X:1");  // \{ does not escape the brace
  EXPECT_EQ(py_hit("print(f\"\"\"\n{$X}\"\"\")"), "$X:2");
}

TEST(ScanScriptContent, PythonOnlyAStandaloneFPrefixFormats) {
  EXPECT_EQ(py_hit("print(xf\"{$X}\")"), "");
  EXPECT_EQ(py_hit("print(_f\"{$X}\")"), "");
  EXPECT_EQ(py_hit("print(bf\"{$X}\")"), "");
  EXPECT_EQ(py_hit("print(xrf\"{$X}\")"), "");
  EXPECT_EQ(py_hit("print(b\"{$X}\")"), "");
  EXPECT_EQ(py_hit("f'{$X}'"), "$X:1");  // at the very start of the file
}

TEST(ScanScriptContent, PythonFormatSpecsAndNestedFields) {
  EXPECT_EQ(py_hit("f'{x:$X}'"), "");                   // after ':' comes a format spec
  EXPECT_EQ(py_hit("f'{x:{$X}}'"), "$X:1");             // a nested field in the spec is code
  EXPECT_EQ(py_hit("f'{d[\"k\"]:>{w}} $A'"), "");       // back in the string after the field
  EXPECT_EQ(py_hit("f'{d[1:2]} {$X}'"), "$X:1");        // ':' inside brackets is not a spec
  EXPECT_EQ(py_hit("f'{(lambda a: $X)(1)}'"), "$X:1");  // nested bracket: ':' not at depth 1
  EXPECT_EQ(py_hit("f'{lambda a: $X}'"), "$X:1");       // lambda's ':' is not a spec
  EXPECT_EQ(py_hit("f'{xlambda: $X}'"), "");            // not the keyword: spec
  EXPECT_EQ(py_hit("f'{x!r:$X}'"), "");
  EXPECT_EQ(py_hit("f'{x}' + $Y"), "$Y:1");
  EXPECT_EQ(py_hit("f'{\"$A\"} {$B}'"), "$B:1");  // strings inside fields are strings
}

TEST(ScanScriptContent, PythonInvalidUtf8IsTolerated) { EXPECT_EQ(py_hit("s = '\xff\xfe'\nx = $A"), "$A:2"); }

TEST(ScanScriptContent, NodeVariableAnywhereWithTwoCharacterMinimum) {  // §8.2 case 35
  EXPECT_EQ(scan_script_content(ScriptLanguage::kNode, "const value = $DM_JSON;\n", "bad.js"),
            node_message("$DM_JSON", "bad.js:1"));
  // Node has no string awareness: a template literal counts too.
  EXPECT_EQ(scan_script_content(ScriptLanguage::kNode, "// hi\nconsole.log(`${a}` + '$HOME')", "x.js"),
            node_message("$HOME", "x.js:2"));
  EXPECT_EQ(scan_script_content(ScriptLanguage::kNode, "const $ = 1; $X; $a;", "x.js"), std::nullopt);
  EXPECT_EQ(scan_script_content(ScriptLanguage::kNode, "$X + $AB", "x.js"), node_message("$AB", "x.js:1"));
}

TEST(ScanScriptContent, NodeFileThatStartsWithAShellCommand) {
  EXPECT_EQ(scan_script_content(ScriptLanguage::kNode, "\n  \r\n  NODE=1 node app.js  \nconsole.log(1)", "x.js"),
            "exec preflight: JS file starts with shell syntax (NODE=1 node app.js). This looks like a shell command, "
            "not JavaScript.");
  EXPECT_EQ(
      scan_script_content(ScriptLanguage::kNode, "NODE", "x.js"),
      "exec preflight: JS file starts with shell syntax (NODE). This looks like a shell command, not JavaScript.");
  // NODE_ENV continues the word, so it is not the NODE word; only the first line counts.
  EXPECT_EQ(scan_script_content(ScriptLanguage::kNode, "NODE_ENV=production node app.js", "x.js"), std::nullopt);
  EXPECT_EQ(scan_script_content(ScriptLanguage::kNode, "console.log(1)\nNODE=1 x", "x.js"), std::nullopt);
  EXPECT_EQ(scan_script_content(ScriptLanguage::kNode, "node app.js", "x.js"), std::nullopt);
  // A Python file is never checked for this.
  EXPECT_EQ(scan_script_content(ScriptLanguage::kPython, "NODE=1 x", "x.py"), std::nullopt);
}

TEST(ScanScriptContent, VariableHitWinsOverTheShellSyntaxCheck) {
  EXPECT_EQ(scan_script_content(ScriptLanguage::kNode, "NODE=1 node $APP_JS", "x.js"),
            node_message("$APP_JS", "x.js:1"));
}

// ---- C: ambiguity --------------------------------------------------------------------------

TEST(ComplexInterpreterInvocation, MessageIsExact) {
  EXPECT_EQ(kComplexInterpreterMessage,
            "exec preflight: complex interpreter invocation detected; refusing to run without script preflight "
            "validation. Use a direct `python <file>.py` or `node <file>.js` command.");
}

TEST(ComplexInterpreterInvocation, ReferenceExamplesAreRefused) {  // §3.8 C, §8.2 case 36
  EXPECT_TRUE(is_complex_interpreter_invocation("cat bad.py | python"));
  EXPECT_TRUE(is_complex_interpreter_invocation("if true; then python bad.py; fi"));
  EXPECT_TRUE(is_complex_interpreter_invocation("bash -c \"python 'bad.py'\""));
}

TEST(ComplexInterpreterInvocation, ReferenceExamplesAreAllowed) {  // §3.8 C, §8.2 case 36
  EXPECT_FALSE(is_complex_interpreter_invocation("echo 'python bad.py | python'"));
  EXPECT_FALSE(is_complex_interpreter_invocation("echo bad.py; python --version"));
  EXPECT_FALSE(is_complex_interpreter_invocation("node -e \"console.log(123)\""));
}

TEST(ComplexInterpreterInvocation, InterpreterAndScriptInOneSegmentOfAList) {
  EXPECT_TRUE(is_complex_interpreter_invocation("cd /tmp && python3 bad.py"));
  EXPECT_TRUE(is_complex_interpreter_invocation("echo start\nnode tool.js"));
  EXPECT_TRUE(is_complex_interpreter_invocation("true || FOO=1 env -u X python bad.py"));
  EXPECT_TRUE(is_complex_interpreter_invocation("while true; do python3.11 loop.py; done"));
  // Segments that run code inline or only print a version carry no script.
  EXPECT_FALSE(is_complex_interpreter_invocation("cd /tmp && python -c 'import x' x.py"));
  EXPECT_FALSE(is_complex_interpreter_invocation("cd /tmp && python -m pytest tests.py"));
  EXPECT_FALSE(is_complex_interpreter_invocation("cd /tmp && node --check x.js"));
  EXPECT_FALSE(is_complex_interpreter_invocation("cd /tmp && node -p 1 x.js"));
  // No interpreter at all.
  EXPECT_FALSE(is_complex_interpreter_invocation("cat a.py | grep x && wc -l b.js"));
}

TEST(ComplexInterpreterInvocation, PipelineIntoAnInterpreter) {
  EXPECT_TRUE(is_complex_interpreter_invocation("cat x.js | node"));
  EXPECT_TRUE(is_complex_interpreter_invocation("echo ok; cat bad.py | grep -v '#' | python3"));
  // The interpreter must be downstream; upstream it does not read the hinted file.
  EXPECT_FALSE(is_complex_interpreter_invocation("python | cat bad.py"));
  // The hint must be in the same pipeline.
  EXPECT_FALSE(is_complex_interpreter_invocation("cat bad.py; echo x | python"));
  EXPECT_FALSE(is_complex_interpreter_invocation("cat bad.txt | python"));
}

TEST(ComplexInterpreterInvocation, QuotedAndEscapedOperatorsDoNotCount) {
  EXPECT_FALSE(is_complex_interpreter_invocation("python 'a;b' x"));
  EXPECT_FALSE(is_complex_interpreter_invocation("echo python bad.py \\| python"));
  EXPECT_FALSE(is_complex_interpreter_invocation("echo \"cat bad.py | python\""));
}

TEST(ComplexInterpreterInvocation, ProcessSubstitutionWithADirectInterpreter) {
  EXPECT_TRUE(is_complex_interpreter_invocation("python <(cat bad.py)"));
  EXPECT_TRUE(is_complex_interpreter_invocation("node <(curl -s https://example.invalid/x)"));
  EXPECT_FALSE(is_complex_interpreter_invocation("diff <(python --version) out.txt"));
}

TEST(ComplexInterpreterInvocation, CommandSubstitutionCountsAsComplex) {
  EXPECT_TRUE(is_complex_interpreter_invocation("python $(echo bad.py)"));
  EXPECT_TRUE(is_complex_interpreter_invocation("python `echo x` run.py"));
}

TEST(ComplexInterpreterInvocation, ShellWrapperPayloads) {
  EXPECT_TRUE(is_complex_interpreter_invocation("sh -c 'python3 bad.py'"));
  EXPECT_TRUE(is_complex_interpreter_invocation("/bin/bash -lc 'cd x && node a.js'"));
  EXPECT_TRUE(is_complex_interpreter_invocation("bash --norc -c 'python bad.py'"));
  EXPECT_TRUE(is_complex_interpreter_invocation("zsh -o errexit -c 'python bad.py'"));
  EXPECT_TRUE(is_complex_interpreter_invocation("env FOO=1 dash -c 'cat x.py | python'"));
  EXPECT_FALSE(is_complex_interpreter_invocation("sh -c 'python3 --version'"));
  EXPECT_FALSE(is_complex_interpreter_invocation("sh -c 'echo python bad.py'"));
  EXPECT_FALSE(is_complex_interpreter_invocation("sh script.sh -c 'python bad.py'"));
  EXPECT_FALSE(is_complex_interpreter_invocation("sh -- -c 'python bad.py'"));
  EXPECT_FALSE(is_complex_interpreter_invocation("fish"));
}

TEST(ComplexInterpreterInvocation, DirectInterpreterWithOperatorsNeedsAHint) {
  // `python x.py && y` has a direct target and never gets here; without any hint it passes.
  EXPECT_FALSE(is_complex_interpreter_invocation("python && echo done"));
  EXPECT_TRUE(is_complex_interpreter_invocation("python -u; cat bad.py | python"));
}

}  // namespace
}  // namespace clawexec::shell
