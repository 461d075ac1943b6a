#pragma once
// Landlock's kernel interface, spelled out here because Debian 12's kernel headers stop at ABI
// 2 while the kernels we run on offer up to 7. Only what clawexec uses: the three system calls,
// the file-system access rights up to ABI 3 (TRUNCATE) and the path-beneath rule. Header-only
// and free of libc++ so the static shim and the server share one definition.

#include <cstdint>

namespace clawexec::shim {

// The same numbers on every architecture (generic syscall table).
inline constexpr long kLandlockCreateRuleset = 444;
inline constexpr long kLandlockAddRule = 445;
inline constexpr long kLandlockRestrictSelf = 446;
inline constexpr uint32_t kLandlockCreateRulesetVersion = 1u << 0;
inline constexpr int kLandlockRulePathBeneath = 1;

inline constexpr uint64_t kLandlockExecute = 1ull << 0;
inline constexpr uint64_t kLandlockWriteFile = 1ull << 1;
inline constexpr uint64_t kLandlockReadFile = 1ull << 2;
inline constexpr uint64_t kLandlockReadDir = 1ull << 3;
inline constexpr uint64_t kLandlockRemoveDir = 1ull << 4;
inline constexpr uint64_t kLandlockRemoveFile = 1ull << 5;
inline constexpr uint64_t kLandlockMakeChar = 1ull << 6;
inline constexpr uint64_t kLandlockMakeDir = 1ull << 7;
inline constexpr uint64_t kLandlockMakeReg = 1ull << 8;
inline constexpr uint64_t kLandlockMakeSock = 1ull << 9;
inline constexpr uint64_t kLandlockMakeFifo = 1ull << 10;
inline constexpr uint64_t kLandlockMakeBlock = 1ull << 11;
inline constexpr uint64_t kLandlockMakeSym = 1ull << 12;
inline constexpr uint64_t kLandlockRefer = 1ull << 13;     // ABI 2
inline constexpr uint64_t kLandlockTruncate = 1ull << 14;  // ABI 3

/// Rights that apply to a file (not a directory) in a path-beneath rule.
inline constexpr uint64_t kLandlockFileAccess = kLandlockWriteFile | kLandlockTruncate;

/// Every right that modifies the file system, as far as ABI `abi` knows it. Reading and
/// executing are not handled: what a sandbox can see is decided by its mounts.
inline constexpr uint64_t landlock_write_access(int abi) {
  uint64_t rights = kLandlockWriteFile | kLandlockRemoveDir | kLandlockRemoveFile | kLandlockMakeChar |
                    kLandlockMakeDir | kLandlockMakeReg | kLandlockMakeSock | kLandlockMakeFifo |
                    kLandlockMakeBlock | kLandlockMakeSym;
  if (abi >= 2) rights |= kLandlockRefer;
  if (abi >= 3) rights |= kLandlockTruncate;
  return rights;
}

/// struct landlock_ruleset_attr up to its first field (the kernel accepts the short form).
struct LandlockRulesetAttrFs {
  uint64_t handled_access_fs;
};

/// struct landlock_path_beneath_attr (packed in the kernel's definition).
struct __attribute__((packed)) LandlockPathBeneathAttr {
  uint64_t allowed_access;
  int32_t parent_fd;
};

}  // namespace clawexec::shim
