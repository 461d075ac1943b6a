#pragma once
// The config file as a document an operator edits: OpenClaw's JSON5 file read whole, and
// rewritten whole as plain JSON through a temp file and rename, so a crash leaves either the
// old or the new file. Comments and JSON5 syntax are not preserved (docs/approvals.md).

#include <boost/json/value.hpp>
#include <string>

#include "base/result.h"

namespace clawexec::operator_ops {

struct ConfigDocument {
  bool exists = false;
  boost::json::value document;  // an empty object when the file is missing
};

/// Reads and parses (JSON5) the config file. Errors name the path ("read config <path>: ...");
/// a top level that is not an object is an error.
Result<ConfigDocument> read_config_document(const std::string& path);

/// Writes `document` as JSON (2-space indent, trailing newline) through a temp file in the same
/// directory (created 0700 when missing), fsync and rename; keeps the old file's permission bits
/// (0600 for a new file) and refuses to replace a symlink. Errors name the path.
Result<void> write_config_document(const std::string& path, const boost::json::value& document);

}  // namespace clawexec::operator_ops
