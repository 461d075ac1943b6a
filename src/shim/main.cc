// clawexec-shim: entry point of the command supervisor binary.
//   clawexec-shim spawner                                  fd 3: spawn-request stream socket
//   clawexec-shim <pipes|pty> <program> <argv0> [args...]  one command; fd 3: control socket
// Statically linked and small, so that starting and forking it is cheap.

#include <signal.h>
#include <sys/prctl.h>

#include <cstdio>
#include <cstring>

#include "shim/protocol.h"
#include "shim/supervisor.h"

extern char** environ;

int main(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "spawner") == 0) return clawexec::shim::run_spawner();
  if (argc < 4) {
    std::fprintf(stderr,
                 "usage: clawexec-shim spawner\n"
                 "       clawexec-shim <pipes|pty> <program> <argv0> [args...]\n");
    return 2;
  }
  // Started directly by the server: die with it even before the control socket is watched.
  ::prctl(PR_SET_PDEATHSIG, SIGHUP);
  bool pty = std::strcmp(argv[1], clawexec::shim::kModePty) == 0;
  return clawexec::shim::supervise(argv[2], argv + 3, environ, pty);
}
