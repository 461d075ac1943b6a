// `approvals get` and `approvals set` as operations. `set` parses and validates the whole
// input before it reads the current file, then replaces the document under the store's lock
// with compare-and-swap on the snapshot it read (update_from: a change that is only the
// servers' bookkeeping is no conflict), keeping the socket section the way the reference's
// mergeExecApprovalsSocketDefaults does.

#include "operator/approvals_edit.h"

#include "approvals/random.h"
#include "base/utf.h"
#include "config/json5.h"
#include "json/json.h"
#include "operator/config_document.h"
#include "operator/effective_policy_report.h"

namespace clawexec::operator_ops {

namespace bj = boost::json;

namespace {

// The file as read (fields' presence is judged on it), or an empty object.
bj::value raw_json(const approvals::ApprovalsSnapshot& snap) {
  if (!snap.raw) return bj::object();
  return json::parse(*snap.raw).value_or(bj::object());
}

// Parses and strictly validates a document for `set` (missing "version" means 1).
Result<bj::value> parse_for_set(std::string_view text) {
  if (text.size() > kMaxApprovalsDocumentBytes) {
    return Error::invalid("Exec approvals input exceeds " + std::to_string(kMaxApprovalsDocumentBytes) + " bytes.");
  }
  auto parsed = config::parse_json5(text);
  if (!parsed.ok()) return Error::invalid("Failed to parse approvals JSON: " + parsed.error().message);
  if (!parsed->is_object()) return Error::invalid("Exec approvals JSON must be an object.");
  if (!parsed->as_object().contains("version")) parsed->as_object()["version"] = 1;
  auto valid = approvals::validate_document(*parsed);
  if (!valid.ok()) return Error::invalid("invalid approvals document: " + valid.error().message);
  return std::move(*parsed);
}

std::optional<std::string> socket_field(const approvals::Document& doc, std::string_view key) {
  auto s = doc.find("socket");
  if (s == doc.end() || !s->value().is_object()) return std::nullopt;
  auto v = s->value().as_object().find(key);
  if (v == s->value().as_object().end() || !v->value().is_string()) return std::nullopt;
  return std::string(v->value().as_string());
}

// The normalised document with the socket path and token kept from the current file (or the
// default path and a fresh token).
Result<approvals::Document> with_socket_defaults(approvals::Document next, const approvals::Document& current,
                                                 const std::string& default_socket) {
  std::string path = socket_field(next, "path").value_or(socket_field(current, "path").value_or(default_socket));
  std::optional<std::string> token = socket_field(next, "token");
  if (!token) token = socket_field(current, "token");
  if (!token) token = TRY(approvals::generate_socket_token());
  next["socket"] = bj::object{{"path", path}, {"token", *token}};
  return next;
}

}  // namespace

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

Result<bj::object> get_approvals(const OperatorEnv& env, std::string_view agent) {
  if (js_trim(agent).empty()) return Error::invalid("approvals get: the agent id must not be blank");
  approvals::ApprovalsSnapshot snap = TRY(open_store(env).read_snapshot());
  bj::object out = redacted_snapshot(snap);
  bj::value raw = raw_json(snap);
  auto config = read_config_document(env.config_path);
  if (config.ok()) {
    out["effectivePolicy"] =
        effective_policy_report(config->document, raw, snap.file, snap.path, ReportStyle::kApprovalsGet);
    out["agent"] = agent;
    out["agentPolicy"] = agent_policy_snapshot(config->document, raw, snap.file, snap.path, std::string(agent));
  } else {
    out["effectivePolicy"] = bj::object{{"scopes", bj::array()}, {"note", "Config unavailable: " + config.error().message}};
  }
  return out;
}

bj::object to_json(const SetApprovalsResult& result) {
  bj::object out = result.snapshot;
  out["changed"] = result.changed;
  return out;
}

Result<SetApprovalsResult> set_approvals(const OperatorEnv& env, std::string_view text,
                                         const std::optional<std::string>& base_hash) {
  bj::value input = TRY(parse_for_set(text));
  approvals::ApprovalsStore store = open_store(env);
  approvals::ApprovalsSnapshot before = TRY(store.read_snapshot());
  if (base_hash && *base_hash != before.hash) return Error::rejected(std::string(kApprovalsChangedMessage));
  approvals::Document normalized = approvals::normalize_document(input, &approvals::random_uuid);
  const approvals::DocumentMutation replace = [&](approvals::Document& doc) -> Result<bool> {
    doc = TRY(with_socket_defaults(normalized, doc, env.approvals.socket));
    return true;
  };
  approvals::UpdateResult result = TRY(store.update_from(before, replace));
  if (result.outcome == approvals::UpdateOutcome::kBaseHashMismatch) {
    return Error::rejected(std::string(kApprovalsChangedMessage));
  }
  return SetApprovalsResult{result.outcome == approvals::UpdateOutcome::kWritten, redacted_snapshot(result.snapshot)};
}

}  // namespace clawexec::operator_ops
