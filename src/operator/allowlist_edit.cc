// Allowlist add/remove as one operation: validate, read the snapshot, apply the edit through
// ApprovalsStore::update_from (which re-applies it when only bookkeeping moved), and describe
// the outcome in the sentence an operator is shown.

#include "operator/allowlist_edit.h"

#include <chrono>

#include "approvals/bookkeeping.h"
#include "approvals/random.h"
#include "base/utf.h"
#include "operator/approvals_edit.h"
#include "policy/arg_pattern.h"

namespace clawexec::operator_ops {

namespace bj = boost::json;

namespace {

int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string describe(const AllowlistEditResult& r) {
  std::string what = "agents." + r.agent + ".allowlist: " + r.pattern +
                     (r.arg_pattern ? " (argPattern " + *r.arg_pattern + ")" : "");
  if (r.action == AllowlistAction::kAdd) return (r.changed ? "Added " : "Already allowlisted: ") + what;
  return (r.changed ? "Removed " : "Pattern not found: ") + what;
}

std::string_view action_name(const AllowlistEditResult& r) {
  if (r.action == AllowlistAction::kAdd) return r.changed ? "added" : "unchanged";
  return r.changed ? "removed" : "not-found";
}

}  // namespace

bj::object to_json(const AllowlistEditResult& result) {
  bj::object out{{"action", action_name(result)},
                 {"changed", result.changed},
                 {"agent", result.agent},
                 {"pattern", result.pattern},
                 {"argPattern", result.arg_pattern ? bj::value(*result.arg_pattern) : bj::value(nullptr)},
                 {"message", result.message}};
  if (result.action == AllowlistAction::kRemove) out["removed"] = result.removed;
  for (const auto& m : result.snapshot) out[m.key()] = m.value();
  return out;
}

Result<AllowlistEdit> validate_allowlist_edit(AllowlistEdit edit) {
  edit.agent = std::string(js_trim(edit.agent));
  edit.pattern = std::string(js_trim(edit.pattern));
  if (edit.agent.empty()) return Error::invalid("allowlist edit: the agent id must not be blank");
  if (edit.pattern.empty()) return Error::invalid("allowlist edit: the pattern must not be blank");
  if (edit.arg_pattern && edit.arg_pattern->empty()) edit.arg_pattern.reset();
  if (edit.action == AllowlistAction::kAdd && edit.arg_pattern) {
    if (std::optional<std::string> invalid = policy::arg_pattern_error(*edit.arg_pattern)) {
      return Error::invalid("invalid argPattern " + *edit.arg_pattern + ": " + *invalid);
    }
  }
  return edit;
}

Result<AllowlistEditResult> edit_allowlist(const OperatorEnv& env, AllowlistEdit edit) {
  edit = TRY(validate_allowlist_edit(std::move(edit)));
  approvals::ApprovalsStore store = open_store(env);
  approvals::ApprovalsSnapshot before = TRY(store.read_snapshot());
  AllowlistEditResult out;
  out.action = edit.action;
  out.agent = edit.agent;
  out.pattern = edit.pattern;
  out.arg_pattern = edit.arg_pattern;
  const bool add = edit.action == AllowlistAction::kAdd;
  approvals::UpdateResult result = TRY(store.update_from(before, [&](approvals::Document& doc) -> Result<bool> {
    if (add) {
      return approvals::add_allowlist_entry(doc, edit.agent, {edit.pattern, edit.arg_pattern, std::nullopt}, now_ms(),
                                            &approvals::random_uuid);
    }
    out.removed = approvals::remove_allowlist_entries(doc, edit.agent, {std::nullopt, edit.pattern, edit.arg_pattern});
    return out.removed > 0;
  }));
  if (result.outcome == approvals::UpdateOutcome::kBaseHashMismatch) {
    return Error::rejected(std::string(kApprovalsChangedMessage));
  }
  out.changed = result.outcome == approvals::UpdateOutcome::kWritten;
  out.message = describe(out);
  out.snapshot = redacted_snapshot(result.snapshot);
  return out;
}

}  // namespace clawexec::operator_ops
