#pragma once
// Test support: loads the reference's policy conformance cases
// (tests/conformance/policy-cases-public.jsonl) so each conformance test can select the cases
// of the functions it implements. Header-only; used by *_test.cc files only.

#include <boost/json.hpp>
#include <fstream>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace clawexec::policy::testing {

inline std::string conformance_cases_path() {
  return std::string(CLAWEXEC_SOURCE_DIR) + "/tests/conformance/policy-cases-public.jsonl";
}

/// Every case, in file order.
inline std::vector<boost::json::object> load_all_cases() {
  std::ifstream in(conformance_cases_path());
  if (!in) throw std::runtime_error("cannot open " + conformance_cases_path());
  std::vector<boost::json::object> cases;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    cases.push_back(boost::json::parse(line).as_object());
  }
  return cases;
}

/// The cases whose "fn" is one of `fns`.
inline std::vector<boost::json::object> load_cases(const std::set<std::string>& fns) {
  std::vector<boost::json::object> out;
  for (auto& c : load_all_cases()) {
    if (fns.count(std::string(c.at("fn").as_string()))) out.push_back(std::move(c));
  }
  return out;
}

inline std::string case_id(const boost::json::object& c) { return std::string(c.at("id").as_string()); }

}  // namespace clawexec::policy::testing
