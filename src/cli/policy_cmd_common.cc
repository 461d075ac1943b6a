// Plumbing for the operator commands. The config file is OpenClaw's JSON5 document; commands
// that change it rewrite the whole file as plain JSON through a temp file and rename, so a
// crash leaves either the old or the new file. Comments and JSON5 syntax are not preserved
// (documented in docs/approvals.md).

#include "cli/policy_cmd_common.h"

#include <sys/stat.h>

#include <cstdio>
#include <iostream>

#include "approvals/peer_check.h"
#include "approvals/random.h"
#include "config/exec_settings.h"
#include "config/json5.h"
#include "json/json.h"
#include "sys/file_system.h"
#include "sys/sys.h"
#include "term/display_escape.h"

namespace clawexec::cli {

namespace bj = boost::json;

OperatorEnv operator_env() {
  OperatorEnv env;
  env.paths = config::process_path_context();
  env.config_path = config::resolve_config_path(env.paths);
  env.approvals = approvals::resolve_approvals_paths(env.paths);
  return env;
}

Result<ConfigDocument> read_config_document(const std::string& path) {
  std::optional<std::string> text = TRY(config::read_config_file(path));
  ConfigDocument out;
  if (!text) {
    out.document = bj::object();
    return out;
  }
  out.exists = true;
  auto parsed = config::parse_json5(*text);
  if (!parsed.ok()) return Error::invalid("read config " + path + ": " + parsed.error().message);
  out.document = std::move(*parsed);
  if (!out.document.is_object()) return Error::invalid("read config " + path + ": the top level is not an object");
  return out;
}

Result<void> write_config_document(const std::string& path, const bj::value& document) {
  const std::string text = json::stringify(document, 2) + "\n";
  const size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
  const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  if (!sys::is_directory(dir)) {
    auto made = sys::make_directory(dir, 0700);
    if (!made.ok()) return Error::invalid("write config " + path + ": " + made.error().message);
  }
  uint32_t mode = 0600;
  auto existing = sys::lstat_path(path);
  if (existing.ok() && *existing) {
    if ((*existing)->type == sys::FileType::kSymlink) {
      return Error::rejected("write config " + path + ": refusing to replace a symlink");
    }
    mode = (*existing)->mode & 0777;
  }
  const std::string temp = dir + "/." + base + "." + std::to_string(sys::current_pid()) + "." +
                           approvals::random_uuid() + ".tmp";
  auto fd = sys::create_exclusive(temp, mode);
  if (!fd.ok()) return Error::invalid("write config " + path + ": " + fd.error().message);
  auto written = sys::write_all(fd->get(), text);
  if (written.ok()) written = sys::change_mode_fd(fd->get(), mode);
  if (written.ok()) written = sys::sync_fd(fd->get(), temp);
  if (written.ok()) written = sys::rename_path(temp, path);
  if (!written.ok()) {
    (void)sys::remove_file(temp);
    return Error::invalid("write config " + path + ": " + written.error().message);
  }
  (void)sys::sync_directory(dir);
  return {};
}

std::optional<unsigned> directory_mode(const std::string& path) {
  auto real = sys::real_path(path);
  if (!real.ok()) return std::nullopt;
  auto info = sys::lstat_path(*real);
  if (!info.ok() || !*info) return std::nullopt;
  return (*info)->mode & 0777;
}

void print_json(const bj::value& value) { std::cout << json::stringify(value, 2) << "\n" << std::flush; }

int fail(std::string_view command, std::string_view message) {
  std::cerr << "clawexec " << command << ": " << term::escape_for_display(message, term::DisplayStyle::kLines) << "\n"
            << std::flush;
  return 1;
}

std::optional<int> refuse_under_clawexec(std::string_view command) {
  std::optional<std::string> supervisor = approvals::supervision_of_this_process();
  if (!supervisor) return std::nullopt;
  return fail(command, "refusing to run: " + *supervisor +
                           "; approvals and policy changes must come from a human. Show this command to the user so "
                           "they can run it in their own terminal.");
}

approvals::ApprovalsStore open_store(const OperatorEnv& env) { return approvals::ApprovalsStore(env.approvals); }

bj::object redacted_snapshot(const approvals::ApprovalsSnapshot& snapshot) {
  bj::object file = snapshot.file;
  if (auto it = file.find("socket"); it != file.end() && it->value().is_object()) {
    auto path = it->value().as_object().find("path");
    if (path != it->value().as_object().end() && path->value().is_string()) {
      it->value() = bj::object{{"path", path->value()}};
    } else {
      file.erase(it);
    }
  }
  return {{"path", snapshot.path}, {"exists", snapshot.exists}, {"hash", snapshot.hash}, {"file", std::move(file)}};
}

}  // namespace clawexec::cli
