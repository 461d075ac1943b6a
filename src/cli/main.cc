// clawexec command line: thin dispatch to the daemon's entry points.
//   clawexec serve [--agent ID] [--host H] [--node N] [--security S] [--ask A]   MCP server on stdio
//   clawexec gateway [--port P] [--bind B] [--tls-cert F --tls-key F] | gateway status [--json]
//   clawexec exec [--json] [--workdir D] [--timeout S] [--pty] [--agent ID] -- <command...>
//   clawexec apply-patch [--workdir D] [--json] < patch
//   clawexec policy explain [--json] [--agent ID] [--cwd D] -- <command...>
//   clawexec node run --host H --port P [--tls [--tls-insecure]] [--display-name N] [--token T]
//   clawexec node identity [--json]
// Exit codes: 0 ok, 1 failure of the thing asked, 2 usage error; `exec` returns the command's.

#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>
#include <vector>

#include "cli/policy_commands.h"
#include "shell/word.h"
#include "daemon/apply_patch_cli.h"
#include "daemon/exec_once.h"
#include "daemon/gateway_server.h"
#include "daemon/node_host.h"
#include "daemon/policy_explain.h"
#include "daemon/stdio_server.h"

#ifndef CLAWEXEC_VERSION
#define CLAWEXEC_VERSION "0.0.0"
#endif

namespace {

// Joins argv words into one shell command; words with shell metacharacters are single-quoted,
// so `clawexec exec -- printf '%s\n' "a b"` runs exactly those words.
std::string shell_join(const std::vector<std::string>& words) {
  if (words.size() == 1) return words[0];
  std::string out;
  for (const std::string& w : words) {
    if (!out.empty()) out.push_back(' ');
    out += clawexec::shell::quote_if_needed(w);
  }
  return out;
}

// The words after the first "--" of `exec` and `policy explain` are the command, verbatim: they
// are kept away from CLI11, which would read "[ -n x ]" as a list and drop its brackets.
size_t command_words_start(int argc, char** argv) {
  bool takes_command = (argc > 1 && std::string_view(argv[1]) == "exec") ||
                       (argc > 2 && std::string_view(argv[1]) == "policy" && std::string_view(argv[2]) == "explain");
  if (!takes_command) return 0;
  for (int i = 1; i < argc; ++i) {
    if (std::string_view(argv[i]) == "--") return static_cast<size_t>(i);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"clawexec: the OpenClaw exec tool system (exec, process) as a native MCP server"};
  app.set_version_flag("--version", CLAWEXEC_VERSION);
  app.require_subcommand(1);

  clawexec::daemon::ServeOptions serve;
  serve.version = CLAWEXEC_VERSION;
  CLI::App* serve_cmd = app.add_subcommand("serve", "Run the MCP server on stdin/stdout");
  serve_cmd->add_option("--agent", serve.agent_id, "Agent id whose agents.entries.<id>.tools.exec applies");
  serve_cmd->add_option("--session-key", serve.session_key,
                        "OpenClaw session key of this client (default agent:<id>:main; sandbox mode non-main "
                        "sandboxes any other key)");
  std::string serve_host, serve_node, serve_security, serve_ask;
  CLI::Option* serve_host_opt = serve_cmd->add_option("--host", serve_host, "Default exec host for this client (auto|sandbox|gateway|node)");
  CLI::Option* serve_node_opt = serve_cmd->add_option("--node", serve_node, "Default node for host=node");
  CLI::Option* serve_security_opt =
      serve_cmd->add_option("--security", serve_security, "Tighten exec security for this client (deny|allowlist|full)");
  CLI::Option* serve_ask_opt = serve_cmd->add_option("--ask", serve_ask, "Tighten exec ask for this client (off|on-miss|always)");
  serve_cmd->add_option("--model", serve.model,
                        "The client's model id, for tools.exec.applyPatch.allowModels (when initialize does not say)");

  clawexec::daemon::GatewayOptions gw;
  gw.version = CLAWEXEC_VERSION;
  int gw_port = 0;
  std::string gw_bind, gw_cert, gw_key;
  bool gw_status_json = false;
  CLI::App* gateway_cmd = app.add_subcommand("gateway", "Run the gateway: MCP over streamable HTTP at /mcp on one port");
  gateway_cmd->add_option("--agent", gw.agent_id, "Agent of MCP sessions that name none (X-OpenClaw-Agent-Id)");
  CLI::Option* gw_port_opt = gateway_cmd->add_option("--port", gw_port, "Port (default gateway.port, 18789; 0 = any free port)");
  CLI::Option* gw_bind_opt = gateway_cmd->add_option("--bind", gw_bind, "loopback (default), lan, auto, or an IP address");
  CLI::Option* gw_cert_opt = gateway_cmd->add_option("--tls-cert", gw_cert, "TLS certificate chain (PEM)");
  CLI::Option* gw_key_opt = gateway_cmd->add_option("--tls-key", gw_key, "TLS private key (PEM)");
  CLI::App* gateway_status_cmd = gateway_cmd->add_subcommand("status", "Where the running gateway listens and how to authenticate");
  gateway_status_cmd->add_flag("--json", gw_status_json, "Print the status as JSON");
  bool dashboard_json = false;
  CLI::App* dashboard_cmd = app.add_subcommand("dashboard", "Print the running gateway's control UI URL and how to log in");
  dashboard_cmd->add_flag("--json", dashboard_json, "Print JSON {running, url, authMode, tokenFile, configPath, login}");

  clawexec::daemon::ExecOnceOptions once;
  std::vector<std::string> words;
  std::string workdir;
  double timeout = 0;
  CLI::App* exec_cmd = app.add_subcommand("exec", "Run one command through the exec pipeline and print its result");
  exec_cmd->add_flag("--json", once.json, "Print the result details as JSON");
  CLI::Option* workdir_opt = exec_cmd->add_option("--workdir", workdir, "Working directory");
  CLI::Option* timeout_opt = exec_cmd->add_option("--timeout", timeout, "Timeout in seconds (0 disables)");
  exec_cmd->add_flag("--pty", once.pty, "Run in a pseudo-terminal");
  exec_cmd->add_option("--agent", once.agent_id, "Agent id whose agents.entries.<id>.tools.exec applies");
  exec_cmd->add_option("command", words, "The command (after --)");

  clawexec::daemon::ApplyPatchCliOptions patch_opts;
  std::string patch_workdir;
  CLI::App* patch_cmd = app.add_subcommand("apply-patch", "Apply a *** Begin Patch/End Patch patch read from stdin");
  CLI::Option* patch_workdir_opt = patch_cmd->add_option("--workdir", patch_workdir, "Workspace directory (default: the current one)");
  patch_cmd->add_flag("--json", patch_opts.json, "Print the summary as JSON");
  patch_cmd->add_option("--agent", patch_opts.agent_id, "Agent id whose tools.exec.applyPatch applies");

  clawexec::daemon::NodeHostOptions node_opts;
  node_opts.version = CLAWEXEC_VERSION;
  std::string node_display_name, node_token;
  bool node_identity_json = false;
  CLI::App* node_cmd = app.add_subcommand("node", "Run a node host: serve exec host=node for a gateway on this machine");
  node_cmd->require_subcommand(1);
  CLI::App* node_run_cmd = node_cmd->add_subcommand("run", "Connect to a gateway and run its host=node commands here (foreground)");
  node_run_cmd->add_option("--host", node_opts.host, "Gateway host (default 127.0.0.1)");
  node_run_cmd->add_option("--port", node_opts.port, "Gateway port (default 18789)");
  CLI::Option* node_tls_opt = node_run_cmd->add_flag("--tls", node_opts.tls, "Connect with TLS (wss://), verifying the certificate");
  node_run_cmd->add_flag("--tls-insecure", node_opts.tls_insecure, "With --tls: do not verify the gateway's certificate")->needs(node_tls_opt);
  CLI::Option* node_name_opt = node_run_cmd->add_option("--display-name", node_display_name, "Name shown to operators (default: host name)");
  CLI::Option* node_token_opt = node_run_cmd->add_option("--token", node_token, "Gateway token (after $OPENCLAW_GATEWAY_TOKEN and a saved device token)");
  CLI::App* node_identity_cmd = node_cmd->add_subcommand("identity", "Print the node host's device id and public key");
  node_identity_cmd->add_flag("--json", node_identity_json, "Print JSON {deviceId, publicKey}");

  int operator_exit = -1;
  clawexec::cli::add_operator_commands(app, operator_exit);

  clawexec::daemon::PolicyExplainOptions explain;
  std::vector<std::string> explain_words;
  std::string explain_cwd;
  CLI::App* policy_cmd = app.add_subcommand("policy", "Inspect the exec policy");
  policy_cmd->require_subcommand(1);
  CLI::App* explain_cmd = policy_cmd->add_subcommand("explain", "Show how the policy engine decides a command (nothing runs)");
  explain_cmd->add_flag("--json", explain.json, "Print the analysis as JSON");
  explain_cmd->add_option("--agent", explain.agent_id, "Agent id whose policy applies");
  CLI::Option* explain_cwd_opt = explain_cmd->add_option("--cwd", explain_cwd, "Working directory to resolve in");
  explain_cmd->add_option("command", explain_words, "The command (after --)");

  size_t split = command_words_start(argc, argv);
  try {
    app.parse(split > 0 ? static_cast<int>(split) : argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  if (split > 0) {
    std::vector<std::string>& target = *explain_cmd ? explain_words : words;
    target.assign(argv + split + 1, argv + argc);
  }
  if ((*exec_cmd && words.empty()) || (*explain_cmd && explain_words.empty())) {
    std::fprintf(stderr, "clawexec: a command is required (after --)\n");
    return 2;
  }
  if (operator_exit >= 0) return operator_exit;
  if (*serve_cmd) {
    if (*serve_host_opt) serve.host = serve_host;
    if (*serve_node_opt) serve.node = serve_node;
    if (*serve_security_opt) serve.security = serve_security;
    if (*serve_ask_opt) serve.ask = serve_ask;
    return clawexec::daemon::run_stdio_server(serve);
  }
  if (*gateway_status_cmd) return clawexec::daemon::gateway_status(gw_status_json);
  if (*dashboard_cmd) return clawexec::daemon::gateway_dashboard(dashboard_json);
  if (*gateway_cmd) {
    if (*gw_port_opt) gw.port = gw_port;
    if (*gw_bind_opt) gw.bind = gw_bind;
    if (*gw_cert_opt) gw.tls_cert = gw_cert;
    if (*gw_key_opt) gw.tls_key = gw_key;
    return clawexec::daemon::run_gateway(gw);
  }
  if (*node_identity_cmd) return clawexec::daemon::node_identity(node_identity_json);
  if (*node_run_cmd) {
    if (*node_name_opt) node_opts.display_name = node_display_name;
    if (*node_token_opt) node_opts.token = node_token;
    return clawexec::daemon::run_node_host(node_opts);
  }
  if (*patch_cmd) {
    if (*patch_workdir_opt) patch_opts.workdir = patch_workdir;
    return clawexec::daemon::run_apply_patch(patch_opts);
  }
  if (*explain_cmd) {
    explain.command = shell_join(explain_words);
    if (*explain_cwd_opt) explain.cwd = explain_cwd;
    return clawexec::daemon::run_policy_explain(explain);
  }
  once.command = shell_join(words);
  if (*workdir_opt) once.workdir = workdir;
  if (*timeout_opt) once.timeout_seconds = timeout;
  return clawexec::daemon::run_exec_once(once);
}
