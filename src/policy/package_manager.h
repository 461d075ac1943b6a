#pragma once
// Package-manager exec forms (reference §4.4): `npm exec|x`, `npx`, `bunx`, `pnpm exec|dlx|node`,
// `yarn exec|dlx` run another program; allowlist matching judges that inner program instead.

#include <optional>

#include "policy/types.h"

namespace clawexec::policy {

enum class PackageManagerExecKind {
  kNotPackageManager,
  kNotExec,     // a package manager doing something else (pnpm install, npm run test -- x)
  kUnsafeExec,  // exec-like but not safely parseable (unknown options, pnpm/yarn shorthands)
  kUnwrapped,   // `inner_argv` is what runs
};

struct PackageManagerExec {
  PackageManagerExecKind kind = PackageManagerExecKind::kNotPackageManager;
  Argv inner_argv;
};

/// resolveKnownPackageManagerExecInvocation, with each tool's global and exec options.
PackageManagerExec resolve_known_package_manager_exec_invocation(const Argv& argv);

/// hasKnownPackageManagerExecContextOptions (2026.9): options that change where or what the
/// exec runs (`pnpm -C dir`, `npm --prefix`, `--workspace`, `yarn --cwd`, `-p pkg`, ...). The
/// 2026.9 reference refuses to allowlist-match such an unwrapped exec; the 2026.7 spec does not.
bool has_known_package_manager_exec_context_options(const Argv& argv);

constexpr int kMaxPackageManagerExecDepth = 6;

enum class PackageManagerTargetKind {
  kNotPackageManager,  // argv is not a package-manager exec: match it as usual
  kPackageManager,     // `argv` is the inner target after one or more exec layers
  kBlocked,            // cannot be allowlist-matched at all
};

struct PackageManagerTarget {
  PackageManagerTargetKind kind = PackageManagerTargetKind::kNotPackageManager;
  Argv argv;  // after dispatch wrappers (and, for kPackageManager, the exec layers)
};

enum class ContextOptions { kAllow, kBlock };

/// resolvePackageManagerTrustTargetArgv: up to six exec layers with dispatch wrappers resolved
/// between them; a blocked dispatch or an unsafe exec blocks. With ContextOptions::kBlock an
/// unwrapped exec carrying context options blocks too (2026.9 behaviour).
PackageManagerTarget resolve_package_manager_trust_target(const Argv& argv,
                                                          ContextOptions context = ContextOptions::kAllow);

/// resolvePackageManagerAllowlistTargetArgv: nullopt = the segment cannot be allowlist-matched
/// (blocked, or the inner argv is a shell wrapper with an inline command / policy-blocked);
/// an empty Argv = not a package-manager exec; otherwise the inner argv after its wrappers.
std::optional<Argv> resolve_package_manager_allowlist_target(const Argv& argv,
                                                             ContextOptions context = ContextOptions::kAllow);

}  // namespace clawexec::policy
