// The approvals store on a real temporary directory: atomic CAS updates, locking across
// processes, refusal of symlinks and corrupt files, and the unchanged-file rule.

#include "approvals/store.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "approvals/bookkeeping.h"
#include "json/json.h"

namespace clawexec::approvals {
namespace {

namespace bj = boost::json;
namespace fs = std::filesystem;

class StoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/clawexec-approvals-store-XXXXXX";
    home_ = ::mkdtemp(tmpl);
    config::PathContext ctx;
    ctx.env = config::env_from_map({{"HOME", home_}});
    ctx.cwd = "/";
    paths_ = resolve_approvals_paths(ctx);
  }
  void TearDown() override { fs::remove_all(home_); }

  std::string read(const std::string& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  void write(const std::string& path, const std::string& text) {
    fs::create_directories(fs::path(path).parent_path());
    std::ofstream(path) << text;
  }
  static DocumentMutation add(std::string pattern) {
    return [pattern](Document& doc) -> Result<bool> {
      return add_allowlist_entry(doc, "main", {pattern, std::nullopt, std::nullopt}, 1000, random_uuid_for_test);
    };
  }
  static std::string random_uuid_for_test() {
    static int n = 0;
    return "uuid-" + std::to_string(::getpid()) + "-" + std::to_string(++n);
  }

  std::string home_;
  ApprovalsPaths paths_;
};

TEST_F(StoreTest, UpdateCreatesAPrivateDirectoryAndFileWithPrettyJson) {
  ApprovalsStore store(paths_);
  auto r = store.update(add("/bin/ls"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->outcome, UpdateOutcome::kWritten);
  struct stat st {};
  ASSERT_EQ(::stat(paths_.state_dir.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  ASSERT_EQ(::stat(paths_.file.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  const std::string text = read(paths_.file);
  EXPECT_EQ(text, serialize_document(r->snapshot.file));
  EXPECT_EQ(text.substr(0, 20), "{\n  \"version\": 1,\n  ");
  EXPECT_EQ(text.back(), '\n');
  EXPECT_EQ(r->snapshot.hash, document_hash(text));
  EXPECT_FALSE(fs::exists(paths_.lock));  // released
  for (const auto& entry : fs::directory_iterator(paths_.state_dir)) {
    EXPECT_EQ(entry.path().filename().string().find(".tmp"), std::string::npos) << entry.path();
  }
}

TEST_F(StoreTest, UnchangedDocumentIsNotRewritten) {
  ApprovalsStore store(paths_);
  ASSERT_TRUE(store.update(add("/bin/ls")).ok());
  struct stat before {};
  ::stat(paths_.file.c_str(), &before);
  auto again = store.update(add("/bin/ls"));  // same entry: no change
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->outcome, UpdateOutcome::kUnchanged);
  auto touched = store.update([](Document&) -> Result<bool> { return true; });  // claims change, same bytes
  ASSERT_TRUE(touched.ok());
  EXPECT_EQ(touched->outcome, UpdateOutcome::kUnchanged);
  struct stat after {};
  ::stat(paths_.file.c_str(), &after);
  EXPECT_EQ(before.st_ino, after.st_ino);  // a rewrite would have renamed a new inode in
}

TEST_F(StoreTest, BaseHashMismatchRefusesTheUpdate) {
  ApprovalsStore store(paths_);
  const std::string missing = document_hash(std::nullopt);
  ASSERT_EQ(missing.rfind("missing:", 0), 0u);
  auto first = store.update(add("/bin/ls"), missing);
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(first->outcome, UpdateOutcome::kWritten);
  auto stale = store.update(add("/bin/cat"), missing);
  ASSERT_TRUE(stale.ok());
  EXPECT_EQ(stale->outcome, UpdateOutcome::kBaseHashMismatch);
  EXPECT_EQ(read(paths_.file).find("/bin/cat"), std::string::npos);
  auto fresh = store.update(add("/bin/cat"), first->snapshot.hash);
  EXPECT_EQ(fresh->outcome, UpdateOutcome::kWritten);
}

TEST_F(StoreTest, CorruptFileIsReportedAndNeverOverwrittenByAnUpdate) {
  const std::string corrupt = R"({"version":1,"agents":{"main":{"allowlist":[{"pattern":"x","argPattern":null}]}}})";
  write(paths_.file, corrupt);
  ApprovalsStore store(paths_);
  auto snap = store.read_snapshot();
  ASSERT_FALSE(snap.ok());
  EXPECT_NE(snap.error().message.find(paths_.file), std::string::npos);
  EXPECT_NE(snap.error().message.find("argPattern"), std::string::npos);
  EXPECT_EQ(store.load().at("defaults").at("security"), "deny");
  auto r = store.update(add("/bin/ls"));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find(paths_.file), std::string::npos);
  EXPECT_EQ(read(paths_.file), corrupt);
  EXPECT_FALSE(store.ensure().ok());
  EXPECT_EQ(read(paths_.file), corrupt);
  // An explicit replace that names the corrupt file's hash may repair it.
  auto replaced = store.replace(bj::parse(R"({"version":1})"), document_hash(corrupt));
  ASSERT_TRUE(replaced.ok()) << replaced.error().message;
  EXPECT_EQ(replaced->outcome, UpdateOutcome::kWritten);
}

TEST_F(StoreTest, SymlinkedFileIsRefusedForReadsAndWritesAndLoadsFailClosed) {
  const std::string target = home_ + "/elsewhere.json";
  write(target, R"({"version":1,"defaults":{"security":"full"}})");
  fs::create_directories(paths_.state_dir);
  fs::create_symlink(target, paths_.file);
  ApprovalsStore store(paths_);
  auto snap = store.read_snapshot();
  ASSERT_FALSE(snap.ok());
  EXPECT_NE(snap.error().message.find("symlink"), std::string::npos);
  EXPECT_EQ(store.load().at("defaults").at("security"), "deny");
  auto r = store.update(add("/bin/ls"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "Refusing to write exec approvals via symlink: " + paths_.file);
}

TEST_F(StoreTest, DirectoryAtTheFilePathIsANonFileError) {
  fs::create_directories(paths_.file);
  ApprovalsStore store(paths_);
  auto snap = store.read_snapshot();
  ASSERT_FALSE(snap.ok());
  EXPECT_NE(snap.error().message.find("non-file"), std::string::npos);
}

TEST_F(StoreTest, SymlinkedStateDirectoryUnderHomeIsRefused) {
  fs::create_directories(home_ + "/real-state");
  fs::create_directory_symlink(home_ + "/real-state", paths_.state_dir);
  ApprovalsStore store(paths_);
  auto r = store.update(add("/bin/ls"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "Refusing to traverse symlink in exec approvals path");
}

TEST_F(StoreTest, LockHeldByALiveProcessTimesOutAndADeadOwnersLockIsRecovered) {
  fs::create_directories(paths_.state_dir);
  const std::string lock = fs::canonical(paths_.state_dir).string() + "/exec-approvals.json.lock";
  const pid_t child = ::fork();
  if (child == 0) {
    ::pause();
    ::_exit(0);
  }
  write(lock, "{\n  \"pid\": " + std::to_string(child) + "\n}\n");
  StoreOptions options;
  options.lock.retries = 2;
  options.lock.retry_delay_ms = 1;
  ApprovalsStore store(paths_, options);
  auto busy = store.update(add("/bin/ls"));
  ASSERT_FALSE(busy.ok());
  EXPECT_EQ(busy.error().message, "Exec approvals are locked: " + lock);
  ::kill(child, SIGKILL);
  ::waitpid(child, nullptr, 0);
  auto recovered = store.update(add("/bin/ls"));
  ASSERT_TRUE(recovered.ok()) << recovered.error().message;
  EXPECT_EQ(recovered->outcome, UpdateOutcome::kWritten);
  EXPECT_FALSE(fs::exists(lock)) << "the crashed owner's lock is gone, and ours released";
}

// What a server does after running an allowlisted command: records the use of /bin/ls.
DocumentMutation record_ls_use(int64_t now) {
  return [now](Document& doc) -> Result<bool> {
    policy::AllowlistEntry match;
    match.pattern = "/bin/ls";
    return record_allowlist_use(doc, "main", {match}, {"ls -la " + std::to_string(now), "/bin/ls", now},
                                [] { return std::string("bookkeeping-id"); });
  };
}

TEST_F(StoreTest, AnEditIsReappliedWhenOnlyBookkeepingMovedSinceItWasDecided) {
  ApprovalsStore store(paths_);
  ASSERT_TRUE(store.update(add("/bin/ls")).ok());
  auto seen = store.read_snapshot();
  ASSERT_TRUE(seen.ok());
  ASSERT_TRUE(store.update(record_ls_use(5000)).ok());
  ASSERT_TRUE(store.ensure().ok());  // a server adding the socket token is bookkeeping too
  auto r = store.update_from(*seen, add("/bin/cat"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->outcome, UpdateOutcome::kWritten);
  const auto entries = allowlist_entries(r->snapshot.file, "main");
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].last_used_at, 5000) << "the concurrent bookkeeping is kept";
  EXPECT_EQ(entries[1].pattern, "/bin/cat");
}

TEST_F(StoreTest, AConcurrentPolicyChangeIsARealConflict) {
  ApprovalsStore store(paths_);
  ASSERT_TRUE(store.update(add("/bin/ls")).ok());
  auto seen = store.read_snapshot();
  ASSERT_TRUE(seen.ok());
  ASSERT_TRUE(store.update(add("/bin/rm")).ok());  // another operator's edit
  auto r = store.update_from(*seen, add("/bin/cat"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->outcome, UpdateOutcome::kBaseHashMismatch);
  for (const auto& e : allowlist_entries(ApprovalsStore(paths_).load(), "main")) EXPECT_NE(e.pattern, "/bin/cat");
}

TEST_F(StoreTest, BookkeepingIsEverythingServersWriteOnTheirOwn) {
  Document a = normalize_document(
      bj::parse(R"({"version":1,"socket":{"path":"/s","token":"t"},"agents":{"main":{"allowlist":[{"id":"1","pattern":"/bin/ls"}]}}})"),
      random_uuid_for_test);
  Document b = normalize_document(
      bj::parse(R"({"version":1,"agents":{"main":{"allowlist":[{"id":"2","pattern":"/bin/ls","lastUsedAt":9,
                 "lastUsedCommand":"ls","lastResolvedPath":"/bin/ls"}]}}})"),
      random_uuid_for_test);
  EXPECT_TRUE(differs_only_by_bookkeeping(a, b));
  Document c = b;
  c["agents"].as_object()["main"].as_object()["allowlist"].as_array()[0].as_object()["argPattern"] = "^-l$";
  EXPECT_FALSE(differs_only_by_bookkeeping(a, c));
  Document d = b;
  d["defaults"] = bj::object{{"security", "full"}};
  EXPECT_FALSE(differs_only_by_bookkeeping(a, d));
}

TEST_F(StoreTest, AllowlistEditsSucceedWhileAnotherProcessRecordsUseInALoop) {
  ASSERT_TRUE(ApprovalsStore(paths_).update(add("/bin/ls")).ok());
  const pid_t writer = ::fork();
  if (writer == 0) {
    StoreOptions options;
    options.lock.retries = 100000;
    options.lock.retry_delay_ms = 1;
    ApprovalsStore store(paths_, options);
    for (int64_t now = 1000000;; ++now) {
      if (!store.update(record_ls_use(now)).ok()) ::_exit(1);
      ::usleep(200);  // a busy server, not a spinning one (the lock is not fair)
    }
  }
  auto writer_count = [&] {
    auto entries = allowlist_entries(ApprovalsStore(paths_).load(), "main");
    return entries.empty() ? 0 : entries[0].last_used_at.value_or(0);
  };
  for (int i = 0; i < 2000 && writer_count() <= 1000; ++i) ::usleep(1000);  // 1000: add()'s own stamp
  ASSERT_GT(writer_count(), 1000) << "the writer has started";
  const int64_t writes_before = writer_count();
  StoreOptions options;
  options.lock.retries = 1000;
  options.lock.retry_delay_ms = 1;
  ApprovalsStore store(paths_, options);
  constexpr int kEdits = 30;
  int written = 0;
  for (int i = 0; i < kEdits; ++i) {
    auto seen = store.read_snapshot();
    ASSERT_TRUE(seen.ok()) << seen.error().message;
    auto r = store.update_from(*seen, add("/bin/tool-" + std::to_string(i)));
    ASSERT_TRUE(r.ok()) << r.error().message;
    if (r->outcome == UpdateOutcome::kWritten) ++written;
    ::usleep(500);  // one operator command after another
  }
  ::kill(writer, SIGKILL);
  int status = 0;
  ::waitpid(writer, &status, 0);
  EXPECT_TRUE(WIFSIGNALED(status)) << "the writer kept writing until killed";
  EXPECT_EQ(written, kEdits);
  auto entries = allowlist_entries(ApprovalsStore(paths_).load(), "main");
  EXPECT_EQ(entries.size(), static_cast<size_t>(kEdits + 1));
  ASSERT_FALSE(entries.empty());
  EXPECT_GE(entries[0].last_used_at.value_or(0), writes_before) << "the writer's bookkeeping is kept";
}

TEST_F(StoreTest, ReleaseLeavesALockThatIsNoLongerOurs) {
  fs::create_directories(paths_.state_dir);
  const std::string lock = paths_.state_dir + "/test.lock";
  auto held = ApprovalsLock::acquire(lock, {});
  ASSERT_TRUE(held.ok());
  fs::remove(lock);
  write(lock, "{\"pid\": 1, \"nonce\": \"someone-else\"}");
  held->release();
  EXPECT_TRUE(fs::exists(lock));
}

TEST_F(StoreTest, ConcurrentWritersInSeveralProcessesLoseNoEntries) {
  constexpr int kWriters = 4;
  constexpr int kEntriesEach = 15;
  std::vector<pid_t> children;
  for (int w = 0; w < kWriters; ++w) {
    const pid_t pid = ::fork();
    if (pid == 0) {
      StoreOptions options;
      options.lock.retries = 1000;  // contention is the point here; waiting is fine
      options.lock.retry_delay_ms = 1;
      ApprovalsStore store(paths_, options);
      for (int i = 0; i < kEntriesEach; ++i) {
        auto r = store.update(add("/bin/w" + std::to_string(w) + "-" + std::to_string(i)));
        if (!r.ok() || r->outcome != UpdateOutcome::kWritten) ::_exit(1);
      }
      ::_exit(0);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    ::waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  auto snap = ApprovalsStore(paths_).read_snapshot();
  ASSERT_TRUE(snap.ok()) << snap.error().message;
  std::set<std::string> patterns;
  for (const auto& e : allowlist_entries(snap->file, "main")) patterns.insert(e.pattern);
  EXPECT_EQ(patterns.size(), static_cast<size_t>(kWriters * kEntriesEach));
  for (int w = 0; w < kWriters; ++w) {
    for (int i = 0; i < kEntriesEach; ++i) {
      EXPECT_TRUE(patterns.count("/bin/w" + std::to_string(w) + "-" + std::to_string(i)));
    }
  }
}

TEST_F(StoreTest, EnsureKeepsAnExistingSocketPathAndToken) {
  write(paths_.file, R"({"version":1,"socket":{"path":"~/custom.sock","token":"tok"},"agents":{}})");
  ApprovalsStore store(paths_);
  auto snap = store.ensure();
  ASSERT_TRUE(snap.ok());
  EXPECT_EQ(snap->file.at("socket").at("path"), "~/custom.sock");
  EXPECT_EQ(snap->file.at("socket").at("token"), "tok");
  auto resolved = store.resolve("main", {}, SocketRequirement::kRequired);
  ASSERT_TRUE(resolved.ok());
  EXPECT_EQ(resolved->socket_path, home_ + "/custom.sock");
  EXPECT_EQ(resolved->token, "tok");
}

TEST_F(StoreTest, NoPromptPolicyResolvesWithoutCreatingTheFile) {
  ApprovalsStore store(paths_);
  auto resolved = store.resolve("main", {});
  ASSERT_TRUE(resolved.ok());
  EXPECT_EQ(resolved->token, "");
  EXPECT_EQ(resolved->socket_path, paths_.socket);
  EXPECT_FALSE(fs::exists(paths_.file));
  policy::ApprovalsOverrides asking;
  asking.security = policy::ExecSecurity::kAllowlist;
  asking.ask = policy::ExecAsk::kOnMiss;
  resolved = store.resolve("main", asking);
  ASSERT_TRUE(resolved.ok());
  EXPECT_EQ(resolved->token.size(), 32u);
  EXPECT_TRUE(fs::exists(paths_.file));
}

TEST_F(StoreTest, UnmigratedLegacyFileDeniesReadsAndRefusesUpdates) {
  write(home_ + "/.openclaw/exec-approvals.json", R"({"version":1})");
  config::PathContext ctx;
  ctx.env = config::env_from_map({{"HOME", home_}, {"OPENCLAW_STATE_DIR", home_ + "/state"}});
  ctx.cwd = "/";
  const ApprovalsPaths paths = resolve_approvals_paths(ctx);
  EXPECT_EQ(paths.display, home_ + "/state/exec-approvals.json");
  EXPECT_EQ(paths.transcript, "$OPENCLAW_STATE_DIR/exec-approvals.json");
  ApprovalsStore store(paths);
  const Document doc = store.load();
  EXPECT_EQ(doc.at("defaults").at("security"), "deny");
  EXPECT_EQ(doc.at("defaults").at("ask"), "always");
  auto r = store.update(add("/bin/ls"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "Exec approvals must be migrated before they can be updated");
}

}  // namespace
}  // namespace clawexec::approvals
