#pragma once
// Shared plumbing of the operator commands: where the config and approvals files are, reading
// and atomically rewriting the JSON5 config, the real file system behind policy::FsView, and
// printing (JSON on stdout, errors on stderr).

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "approvals/paths.h"
#include "approvals/store.h"
#include "base/result.h"
#include "config/paths.h"
#include "policy/types.h"

namespace clawexec::cli {

struct OperatorEnv {
  config::PathContext paths;
  std::string config_path;
  approvals::ApprovalsPaths approvals;
};

/// The real process: environment, cwd, home; config and approvals paths.
OperatorEnv operator_env();

struct ConfigDocument {
  bool exists = false;
  boost::json::value document;  // an empty object when the file is missing
};

/// Reads and parses (JSON5) the config file; errors name the path.
Result<ConfigDocument> read_config_document(const std::string& path);

/// Writes `document` as JSON (2-space indent, trailing newline) through a temp file in the same
/// directory, fsync and rename; keeps the old file's permission bits (0600 for a new file).
/// JSON5 comments and formatting of the old file are not preserved.
Result<void> write_config_document(const std::string& path, const boost::json::value& document);


/// Permission bits (st_mode & 0777) of `path` (symlinks followed); nullopt if it cannot be read.
std::optional<unsigned> directory_mode(const std::string& path);

/// Prints JSON.stringify(value, null, 2) and a newline on stdout.
void print_json(const boost::json::value& value);

/// Prints "clawexec <command>: <message>" on stderr (escaped for display); returns 1.
int fail(std::string_view command, std::string_view message);

/// Commands that answer approvals or change policy are for humans only: when this process runs
/// under a clawexec command (an agent's command), prints why and returns 1; nullopt when the
/// command may run (docs/approvals.md, "Who may decide").
std::optional<int> refuse_under_clawexec(std::string_view command);

/// The store for `env`.
approvals::ApprovalsStore open_store(const OperatorEnv& env);

/// The approvals snapshot with socket.token removed (the file keeps it): {path, exists, hash, file}.
boost::json::object redacted_snapshot(const approvals::ApprovalsSnapshot& snapshot);

}  // namespace clawexec::cli
