# liveconv_git_commit(OUT [SOURCE_DIR DIR]): the commit the source tree is at
# (12 hex digits), or "unknown". In order:
#  1. the environment variable LIVECONV_COMMIT, for a tree copied without its
#     history (the GPU machine's copy: scripts/gpu-build.sh passes it on);
#  2. .git, read without the git program (a copied clone in a clean root has
#     .git but no git); a new commit or checkout re-runs the configure step,
#     so the value follows HEAD;
#  3. the file `commit` beside this one, which `git archive` fills in
#     (export-subst in .gitattributes), for a build from a release archive.
# DIR defaults to PROJECT_SOURCE_DIR. Runs in script mode too (tests/cmake).
function(liveconv_git_commit out)
  cmake_parse_arguments(G "" "SOURCE_DIR" "" ${ARGN})
  if(NOT G_SOURCE_DIR)
    set(G_SOURCE_DIR "${PROJECT_SOURCE_DIR}")
  endif()
  set(hex12 "[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]")
  set(commit "unknown")
  set(watch "")
  if("$ENV{LIVECONV_COMMIT}" MATCHES "^(${hex12})")
    set(commit "${CMAKE_MATCH_1}")
  else()
    _liveconv_commit_from_git("${G_SOURCE_DIR}" head watch)
    if(NOT head AND EXISTS "${G_SOURCE_DIR}/cmake/commit")  # an archive made by git archive
      file(READ "${G_SOURCE_DIR}/cmake/commit" head)
    endif()
    if(head MATCHES "^(${hex12})")
      set(commit "${CMAKE_MATCH_1}")
    endif()
  endif()
  if(watch AND CMAKE_PROJECT_NAME)
    set_property(DIRECTORY "${G_SOURCE_DIR}" APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${watch})
  endif()
  set(${out} "${commit}" PARENT_SCOPE)
endfunction()

# HEAD's commit from DIR/.git (a folder, or a worktree's "gitdir: PATH" file),
# and the files whose change means a new commit.
function(_liveconv_commit_from_git dir out_head out_watch)
  set(head "")
  set(watch "")
  set(git_dir "${dir}/.git")
  if(EXISTS "${git_dir}" AND NOT IS_DIRECTORY "${git_dir}")
    file(READ "${git_dir}" link)
    if(link MATCHES "gitdir: ([^\n]+)")
      get_filename_component(git_dir "${CMAKE_MATCH_1}" ABSOLUTE BASE_DIR "${dir}")
    endif()
  endif()
  if(EXISTS "${git_dir}/HEAD")
    set(common_dir "${git_dir}")
    if(EXISTS "${git_dir}/commondir")
      file(READ "${git_dir}/commondir" rel)
      string(STRIP "${rel}" rel)
      get_filename_component(common_dir "${rel}" ABSOLUTE BASE_DIR "${git_dir}")
    endif()
    file(READ "${git_dir}/HEAD" head)
    string(STRIP "${head}" head)
    list(APPEND watch "${git_dir}/HEAD")
    if(head MATCHES "^ref: (.+)$")
      set(ref "${CMAKE_MATCH_1}")
      set(head "")
      if(EXISTS "${common_dir}/${ref}")
        file(READ "${common_dir}/${ref}" head)
        string(STRIP "${head}" head)
        list(APPEND watch "${common_dir}/${ref}")
      elseif(EXISTS "${common_dir}/packed-refs")
        file(STRINGS "${common_dir}/packed-refs" packed REGEX " ${ref}$")
        set(head "${packed}")
        list(APPEND watch "${common_dir}/packed-refs")
      endif()
    endif()
  endif()
  set(${out_head} "${head}" PARENT_SCOPE)
  set(${out_watch} "${watch}" PARENT_SCOPE)
endfunction()
