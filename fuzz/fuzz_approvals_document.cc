// libFuzzer target: arbitrary bytes as the approvals file (approvals::parse_document).
//
// Problem: exec-approvals.json is read on every gateway exec and may be hand-edited or
// corrupt. Parsing must never crash, and what we write back must be stable: a parsed
// document, serialised and parsed again, must give the same document (normalisation is
// idempotent and the serialisation is faithful).
//
// Approach: parse with a deterministic id generator; on success serialise, re-parse (which
// must succeed and must not need new ids) and compare the two documents as JSON: same keys in
// the same order, same strings, and numbers equal as numbers (1.5e12 is a double before and an
// integer after; JSON has one number type). Known issue, tolerated here and reported: Boost
// 1.81's parser can be one ulp off ("4.5e24" reads as 4.4999999999999997e24), so doubles may
// differ by one ulp.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "approvals/document.h"

namespace {

[[noreturn]] void violation(const char* what, const std::string& first, const std::string& second) {
  std::fprintf(stderr, "\n*** approvals document: %s\n--- first serialisation:\n%s\n--- second:\n%s\n", what,
               first.c_str(), second.c_str());
  __builtin_trap();
}

double number(const boost::json::value& v) {
  if (v.is_int64()) return static_cast<double>(v.get_int64());
  if (v.is_uint64()) return static_cast<double>(v.get_uint64());
  return v.get_double();
}

bool same_json(const boost::json::value& a, const boost::json::value& b) {
  if (a.is_number() && b.is_number()) {
    double x = number(a), y = number(b);
    return x == y || std::nextafter(x, y) == y;
  }
  if (a.kind() != b.kind()) return false;
  if (a.is_array()) {
    const boost::json::array &p = a.get_array(), &q = b.get_array();
    if (p.size() != q.size()) return false;
    for (size_t i = 0; i < p.size(); ++i) {
      if (!same_json(p[i], q[i])) return false;
    }
    return true;
  }
  if (a.is_object()) {
    const boost::json::object &p = a.get_object(), &q = b.get_object();
    if (p.size() != q.size()) return false;
    for (auto i = p.begin(), j = q.begin(); i != p.end(); ++i, ++j) {
      if (i->key() != j->key() || !same_json(i->value(), j->value())) return false;
    }
    return true;
  }
  return a == b;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view raw(reinterpret_cast<const char*>(data), size);
  unsigned generated = 0;
  auto new_id = [&generated] {
    char buf[40];
    std::snprintf(buf, sizeof buf, "00000000-0000-4000-8000-%012u", ++generated);
    return std::string(buf);
  };
  clawexec::Result<clawexec::approvals::Document> doc = clawexec::approvals::parse_document(raw, new_id);
  if (!doc.ok()) {
    if (doc.error().message.empty()) violation("rejected without a message", "", "");
    return 0;
  }
  std::string first = clawexec::approvals::serialize_document(doc.value());
  unsigned ids_before = generated;
  clawexec::Result<clawexec::approvals::Document> again = clawexec::approvals::parse_document(first, new_id);
  if (!again.ok()) violation(("the serialisation does not parse: " + again.error().message).c_str(), first, "");
  std::string second = clawexec::approvals::serialize_document(again.value());
  if (generated != ids_before) violation("re-parsing generated new ids", first, second);
  // The first serialisation may legitimately differ from the input document: like
  // JSON.stringify, it writes a number that overflowed to infinity (1e999 in an unknown key)
  // as null. From then on the document must be a fixed point.
  clawexec::Result<clawexec::approvals::Document> third = clawexec::approvals::parse_document(second, new_id);
  if (!third.ok()) violation(("the second serialisation does not parse: " + third.error().message).c_str(), first, second);
  if (!same_json(boost::json::value(again.value()), boost::json::value(third.value()))) {
    violation("re-parse changed the document", first, second);
  }
  // The typed view must be derivable for every agent key without trouble.
  if (const auto* agents = doc.value().if_contains("agents"); agents && agents->is_object()) {
    for (const auto& kv : agents->get_object()) (void)clawexec::approvals::allowlist_entries(doc.value(), kv.key());
  }
  return 0;
}
