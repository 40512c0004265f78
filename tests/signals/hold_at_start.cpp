// Preloaded (LD_PRELOAD) into a program under test, it holds the program in
// its libraries' initialisers: those run after the executable's
// .preinit_array and before main, where a program is longest without a word
// of its own code having run (FFmpeg's, Qt's and the OpenCL loader's
// libraries start there). The program named by $LIVECONV_HOLD_PROGRAM writes
// its process id to $LIVECONV_HOLD_FIFO.pid, then reads the FIFO
// $LIVECONV_HOLD_FIFO until its writer closes it; any other program (the X
// server, the shell of xvfb_run.sh) goes on at once, and so does the launcher
// that the program's name in bin/ (and in the build tree) is: the program is
// held once it runs from its own folder, libexec/liveconv/ (app/launcher.cpp).
// Plain libc: nothing of the C++ runtime has started.
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern "C" char* program_invocation_short_name;

namespace {

__attribute__((constructor)) void holdAtStart() {
  const char* fifo = getenv("LIVECONV_HOLD_FIFO");
  const char* program = getenv("LIVECONV_HOLD_PROGRAM");
  if (!fifo || !program || strcmp(program, program_invocation_short_name) != 0) return;
  char self[4096];
  const ssize_t length = readlink("/proc/self/exe", self, sizeof self - 1);
  if (length <= 0) return;
  self[length] = '\0';
  if (!strstr(self, "/libexec/liveconv/")) return;  // the launcher: the program comes after its exec
  char path[4096], part[4096];
  snprintf(path, sizeof path, "%s.pid", fifo);
  snprintf(part, sizeof part, "%s.pid.part", fifo);
  if (FILE* f = fopen(part, "w")) {
    fprintf(f, "%d\n", static_cast<int>(getpid()));
    fclose(f);
    rename(part, path);  // whole or not there
  }
  int fd;
  do fd = open(fifo, O_RDONLY);
  while (fd < 0 && errno == EINTR);
  if (fd < 0) return;
  char buffer[64];
  for (;;) {
    const ssize_t n = read(fd, buffer, sizeof buffer);
    if (n == 0 || (n < 0 && errno != EINTR)) break;
  }
  close(fd);
}

}  // namespace
