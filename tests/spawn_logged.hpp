// A program started as a user's shell starts it, for tests that signal or
// watch it: in `dir`, standard input /dev/null, standard output and error into
// the file `log`, the environment exactly `env`. Plain POSIX.
#pragma once

#include <fcntl.h>
#include <spawn.h>
#include <unistd.h>

#include <string>
#include <vector>

namespace liveconv::test {

// The child's pid, or -1 when it cannot be started (posix_spawn's error in
// *error). `closeInChild`: a descriptor of the test's the child must not hold
// (a FIFO's writer end), or -1.
inline pid_t spawnLogged(std::vector<std::string> args, std::vector<std::string> env, const std::string& log,
                         const std::string& dir, int closeInChild = -1, int* error = nullptr) {
  std::vector<char*> envp, argv;
  for (std::string& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t files;
  posix_spawn_file_actions_init(&files);
  posix_spawn_file_actions_addopen(&files, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&files, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&files, STDOUT_FILENO, STDERR_FILENO);
  posix_spawn_file_actions_addchdir_np(&files, dir.c_str());
  if (closeInChild >= 0) posix_spawn_file_actions_addclose(&files, closeInChild);
  pid_t child = -1;
  const int spawned = posix_spawn(&child, argv[0], &files, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&files);
  if (error) *error = spawned;
  return spawned == 0 ? child : -1;
}

}  // namespace liveconv::test
