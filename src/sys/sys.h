#pragma once
// One thin wrapper per system call the project uses. This is the only module that reads errno;
// every wrapper returns a Result whose error message names the call and its subject.

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"
#include "sys/fd.h"

namespace clawexec::sys {

struct Pipe {
  UniqueFd read_end;
  UniqueFd write_end;
};

/// pipe2(O_CLOEXEC | extra_flags).
Result<Pipe> make_pipe(int extra_flags = 0);
/// A close-on-exec duplicate of `fd`; `what` names it in the error ("dup PTY master: ...").
Result<UniqueFd> duplicate_fd(int fd, std::string_view what);

/// memfd_create(name, MFD_CLOEXEC): an anonymous in-memory file.
Result<UniqueFd> create_memfd(const std::string& name);
/// lseek(fd, 0, SEEK_SET); `what` names the file in the error.
Result<void> seek_to_start(int fd, std::string_view what);

/// A connected AF_UNIX SOCK_SEQPACKET pair, both ends close-on-exec.
Result<std::pair<UniqueFd, UniqueFd>> make_seqpacket_pair();

/// A connected AF_UNIX SOCK_STREAM pair, both ends close-on-exec.
Result<std::pair<UniqueFd, UniqueFd>> make_stream_pair();

/// Sends `data` on a blocking stream socket, attaching `fds` (SCM_RIGHTS) to its first byte.
/// A peer that is gone is an error with sys_errno EPIPE.
Result<void> send_with_fds(int socket, std::string_view data, const int* fds, int fd_count);

/// Opens a terminal device without making it our controlling terminal (close-on-exec).
Result<UniqueFd> open_terminal(const std::string& path);

/// /dev/null, read-write, close-on-exec.
Result<UniqueFd> open_null();

/// pidfd_open(pid): a descriptor that becomes readable when the process exits.
Result<UniqueFd> pidfd_open(pid_t pid);

/// pidfd_send_signal(pidfd, signo): signals exactly the process the pidfd names (no pid
/// reuse race); a process that has exited is not an error.
Result<void> pidfd_signal(int pidfd, int signo);

Result<void> set_nonblocking(int fd, bool on = true);
Result<void> set_cloexec(int fd, bool on = true);

/// Grows the pipe buffer (best effort; returns the new size).
Result<int> set_pipe_size(int fd, int bytes);

/// Reaps `pid` if it has exited (WNOHANG). Returns the raw wait status, or nullopt if it is
/// still running.
Result<std::optional<int>> try_reap(pid_t pid);

/// Blocking waitpid.
Result<int> reap(pid_t pid);

/// kill(pid, signo); a process that is already gone is not an error.
Result<void> send_signal(pid_t pid, int signo);

/// True when a process with this pid exists (kill(pid, 0) succeeds or fails with EPERM).
bool process_alive(pid_t pid);

/// getpid(2).
pid_t current_pid();

/// getuid(2) / getgid(2).
uid_t current_uid();
gid_t current_gid();

/// Fills `out` with bytes from the kernel CSPRNG (getrandom).
Result<void> random_bytes(void* out, size_t size);

/// A uniformly distributed integer in [0, bound) from the kernel CSPRNG.
uint32_t random_below(uint32_t bound);

/// realpath(3).
Result<std::string> real_path(const std::string& path);

/// realpath of the longest existing ancestor of `path` with the rest appended (a path that
/// does not exist yet is still canonicalized as far as it goes). `path` must be absolute.
std::string canonicalize_existing_prefix(const std::string& path);

bool is_directory(const std::string& path);
bool is_executable_file(const std::string& path);
/// access(path, W_OK): this process may write the file.
bool is_writable(const std::string& path);
bool path_exists(const std::string& path);

/// The current working directory.
Result<std::string> current_directory();

/// Raises the soft RLIMIT_NOFILE to the hard limit (many sessions hold several fds each).
Result<void> raise_open_file_limit();

/// Path of the running executable (/proc/self/exe).
Result<std::string> self_executable();

/// A new pseudo-terminal pair: the master (non-blocking, close-on-exec) and the slave device's
/// path. `ptmx` is the multiplexer device (normally /dev/ptmx).
struct Pty {
  UniqueFd master;
  std::string slave_path;
};
Result<Pty> open_pty(const std::string& ptmx, uint16_t cols, uint16_t rows);

/// Reads a whole regular file. A missing file (ENOENT, or ENOTDIR for a path through a file)
/// is nullopt, not an error; other failures (including a directory, EISDIR) are errors whose
/// message starts with `operation` ("read config file /x: Permission denied").
Result<std::optional<std::string>> read_file_if_exists(const std::string& path, std::string_view operation);

/// Writes all of `data` to a blocking descriptor (retries on EINTR and short writes).
Result<void> write_all(int fd, std::string_view data);

/// One read(2) from a blocking descriptor into `buffer` (retries on EINTR): the bytes read,
/// 0 at end of input.
Result<size_t> read_some(int fd, char* buffer, size_t size);

/// The process's own resident set size in bytes (from /proc/self/statm).
std::optional<size_t> resident_set_bytes();

}  // namespace clawexec::sys
