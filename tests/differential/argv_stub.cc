// The program the differential test's shells run: it appends one record with its argv to the
// file named by $ARGV_LOG, so the test sees exactly which arguments a shell passed. A record is
// "R" then, per argument, its length as 8 hex digits and its bytes, then "\n"; the program's own
// name is recorded by its basename (a pinned rendering runs it by absolute path). One write(2)
// with O_APPEND per record keeps the records of a pipeline's members whole.
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

int main(int argc, char** argv) {
  const char* log = std::getenv("ARGV_LOG");
  if (!log) return 127;
  std::string record = "R";
  for (int i = 0; i < argc; ++i) {
    const char* arg = argv[i];
    if (i == 0) {
      const char* slash = std::strrchr(arg, '/');
      if (slash) arg = slash + 1;
    }
    char length[24];
    std::snprintf(length, sizeof length, "%08zx", std::strlen(arg));
    record += length;
    record += arg;
  }
  record += '\n';
  int fd = ::open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) return 126;
  ssize_t written = ::write(fd, record.data(), record.size());
  ::close(fd);
  return written == static_cast<ssize_t>(record.size()) ? 0 : 125;
}
