# cmake -DSOURCE=<repo> -DWORK=<scratch folder> -P git_commit_test.cmake
# liveconv_git_commit on every kind of tree a build starts from: a clone (a
# branch, packed refs, a detached HEAD, a worktree), an archive made by
# git archive, a copy without history (unknown, or LIVECONV_COMMIT).
include("${SOURCE}/cmake/GitCommit.cmake")
set(a "0123456789abcdef0123456789abcdef01234567")
set(b "fedcba9876543210fedcba9876543210fedcba98")
set(failures 0)

function(expect name dir want)
  liveconv_git_commit(got SOURCE_DIR "${dir}")
  if(NOT got STREQUAL want)
    message(SEND_ERROR "${name}: got '${got}', want '${want}'")
  else()
    message(STATUS "${name}: ${got}")
  endif()
endfunction()

file(REMOVE_RECURSE "${WORK}")
set(ENV{LIVECONV_COMMIT} "")

file(WRITE "${WORK}/branch/.git/HEAD" "ref: refs/heads/main\n")
file(WRITE "${WORK}/branch/.git/refs/heads/main" "${a}\n")
expect("a branch" "${WORK}/branch" "0123456789ab")

file(WRITE "${WORK}/packed/.git/HEAD" "ref: refs/heads/main\n")
file(WRITE "${WORK}/packed/.git/packed-refs" "# pack-refs with: peeled fully-peeled sorted\n${b} refs/heads/main\n")
expect("packed refs" "${WORK}/packed" "fedcba987654")

file(WRITE "${WORK}/detached/.git/HEAD" "${b}\n")
expect("a detached HEAD" "${WORK}/detached" "fedcba987654")

file(WRITE "${WORK}/worktree/.git" "gitdir: ../branch/.git\n")
expect("a worktree" "${WORK}/worktree" "0123456789ab")

file(WRITE "${WORK}/archive/cmake/commit" "${a}\n")
expect("an archive (git archive filled cmake/commit in)" "${WORK}/archive" "0123456789ab")

file(READ "${SOURCE}/cmake/commit" placeholder)
file(WRITE "${WORK}/copy/cmake/commit" "${placeholder}")
expect("a copy without history" "${WORK}/copy" "unknown")

set(ENV{LIVECONV_COMMIT} "${b}")
expect("a copy without history, LIVECONV_COMMIT set" "${WORK}/copy" "fedcba987654")
expect("LIVECONV_COMMIT over a clone" "${WORK}/branch" "fedcba987654")
set(ENV{LIVECONV_COMMIT} "not a commit")
expect("LIVECONV_COMMIT that is not a commit" "${WORK}/branch" "0123456789ab")

# git archive fills cmake/commit in only while .gitattributes asks it to.
file(STRINGS "${SOURCE}/.gitattributes" attributes REGEX "^cmake/commit export-subst$")
if(NOT attributes OR NOT placeholder MATCHES "^\\$Format:%H\\$")
  message(SEND_ERROR "cmake/commit must hold $Format:%H$ with 'cmake/commit export-subst' in .gitattributes")
endif()
file(REMOVE_RECURSE "${WORK}")
