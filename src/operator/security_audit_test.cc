// security_audit and run_doctor on a scratch state dir (the doctor's executable lookups go to
// a fake file system): findings counted by severity, the fix written only when asked, and an
// unreadable config reported by name.

#include "operator/security_audit.h"

#include "json/json.h"
#include "operator/operator_test_support.h"

namespace clawexec::operator_ops {
namespace {

namespace bj = boost::json;

class SecurityAuditTest : public testing::ScratchStateTest {
 protected:
  // Executables exist only under /opt/tools; PATH points there.
  void SetUp() override {
    ScratchStateTest::SetUp();
    config::PathContext paths = env_.paths;
    paths.env = config::env_from_map({{"HOME", root_ + "/home"}, {"OPENCLAW_STATE_DIR", root_ + "/state"}, {"PATH", "/opt/tools"}});
    env_ = operator_env_for(std::move(paths));
    fs_.is_executable_file = [](const std::string& path) { return path.rfind("/opt/tools/", 0) == 0; };
    fs_.realpath = [](const std::string& path) -> std::optional<std::string> { return path; };
  }
  policy::FsView fs_;
};

TEST_F(SecurityAuditTest, AnEmptyConfigHasNoFindings) {
  auto audit = security_audit(env_);
  ASSERT_TRUE(audit.ok()) << audit.error().message;
  EXPECT_TRUE(audit->findings.empty());
  bj::object out = to_json(*audit);
  EXPECT_EQ(out.at("configPath"), bj::value(config_file()));
  EXPECT_EQ(out.at("approvalsPath"), bj::value(approvals_file()));
  EXPECT_EQ(out.at("summary"), bj::value(bj::object{{"critical", 0}, {"warn", 0}, {"info", 0}}));
}

TEST_F(SecurityAuditTest, FindingsAreCountedBySeverity) {
  write(config_file(), R"({"tools":{"exec":{"security":"full"}}})");
  auto audit = security_audit(env_);
  ASSERT_TRUE(audit.ok()) << audit.error().message;
  ASSERT_FALSE(audit->findings.empty());
  int64_t warn = 0;
  for (const policy::AuditFinding& f : audit->findings) warn += f.severity == policy::AuditSeverity::kWarn;
  EXPECT_EQ(audit->warn, warn);
  EXPECT_EQ(audit->critical + audit->warn + audit->info, static_cast<int64_t>(audit->findings.size()));
  EXPECT_EQ(to_json(*audit).at("findings").as_array().size(), audit->findings.size());
}

TEST_F(SecurityAuditTest, AnUnreadableConfigIsAnErrorNamingIt) {
  write(config_file(), "{ broken");
  auto audit = security_audit(env_);
  ASSERT_FALSE(audit.ok());
  EXPECT_EQ(audit.error().message.rfind("read config " + config_file(), 0), 0u) << audit.error().message;
  auto doctor = run_doctor(env_, DoctorMode::kCheck, fs_);
  ASSERT_FALSE(doctor.ok());
  EXPECT_EQ(doctor.error().message.rfind("read config " + config_file(), 0), 0u) << doctor.error().message;
}

TEST_F(SecurityAuditTest, DoctorReportsAndOnlyTheFixWritesTheConfig) {
  const std::string config = R"({"tools":{"exec":{"safeBins":["mytool"]}}})";
  write(config_file(), config);
  auto check = run_doctor(env_, DoctorMode::kCheck, fs_);
  ASSERT_TRUE(check.ok()) << check.error().message;
  ASSERT_EQ(check->coverage.size(), 1u);
  EXPECT_EQ(check->coverage[0].bin, "mytool");
  ASSERT_EQ(check->trusted_dir_hints.size(), 1u);
  EXPECT_EQ(check->trusted_dir_hints[0].resolved_path, "/opt/tools/mytool");
  EXPECT_FALSE(to_json(*check).contains("fix"));
  EXPECT_EQ(read(config_file()), config);

  auto fix = run_doctor(env_, DoctorMode::kFix, fs_);
  ASSERT_TRUE(fix.ok()) << fix.error().message;
  EXPECT_TRUE(fix->config_written);
  EXPECT_FALSE(fix->repair.changes.empty());
  EXPECT_EQ(to_json(*fix).at("fix").at("configWritten"), bj::value(true));
  auto written = json::parse(read(config_file()));
  ASSERT_TRUE(written.has_value());
  EXPECT_TRUE(written->at("tools").at("exec").at("safeBinProfiles").as_object().contains("mytool"));
}

}  // namespace
}  // namespace clawexec::operator_ops
