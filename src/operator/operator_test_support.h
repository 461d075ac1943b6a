#pragma once
// Test support for the operator operations: a scratch home and state directory (removed
// afterwards) and the OperatorEnv that points at them, plus small file helpers. The
// operations then run against real files, as they do in production.

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "config/env_lookup.h"
#include "operator/operator_env.h"

namespace clawexec::operator_ops::testing {

class ScratchStateTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/clawexec-operator-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    root_ = tmpl;
    std::filesystem::create_directories(root_ + "/home");
    config::PathContext paths;
    paths.env = config::env_from_map(
        {{"HOME", root_ + "/home"}, {"OPENCLAW_STATE_DIR", root_ + "/state"}, {"PATH", "/usr/bin:/bin"}});
    paths.cwd = root_;
    env_ = operator_env_for(std::move(paths));
  }
  void TearDown() override { std::filesystem::remove_all(root_); }

  static std::string read(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  static void write(const std::string& path, const std::string& text) {
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    std::ofstream(path, std::ios::binary) << text;
  }
  static bool exists(const std::string& path) { return std::filesystem::exists(path); }

  const std::string& approvals_file() const { return env_.approvals.file; }
  const std::string& config_file() const { return env_.config_path; }

  std::string root_;
  OperatorEnv env_;
};

}  // namespace clawexec::operator_ops::testing
