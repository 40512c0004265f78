# cmake -P script behind liveconv_man_page(): PROGRAM, HELP2MAN, PAGE, NAME,
# COMMANDS ("|"-separated subcommands whose --help becomes a COMMANDS
# section), SEE_ALSO ("|"-separated section 1 pages), VERSION, REFERENCE (a
# markdown page of docs/ whose "## " sections follow the options).
include("${CMAKE_CURRENT_LIST_DIR}/MarkdownToMan.cmake")
function(roff_escape text out)
  string(REPLACE "\\" "\\e" text "${text}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

set(include_text "")
if(COMMANDS)
  string(APPEND include_text "[COMMANDS]\n")
  string(REPLACE "|" ";" commands "${COMMANDS}")
  foreach(command IN LISTS commands)
    separate_arguments(words UNIX_COMMAND "${command}")
    execute_process(COMMAND "${PROGRAM}" ${words} --help OUTPUT_VARIABLE help RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "${PROGRAM} ${command} --help failed (${rc}): the man page needs every command's help")
    endif()
    roff_escape("${help}" help)
    string(APPEND include_text ".SS \"${command}\"\n.nf\n${help}.fi\n")
  endforeach()
endif()
if(REFERENCE)
  markdown_to_man("${REFERENCE}" reference_text)
  string(APPEND include_text "${reference_text}")
endif()
if(SEE_ALSO)
  string(APPEND include_text "[SEE ALSO]\n")
  string(REPLACE "|" ";" pages "${SEE_ALSO}")
  get_filename_component(self "${PROGRAM}" NAME)
  list(REMOVE_ITEM pages "${self}")
  list(JOIN pages " (1),\n.BR " see_also)
  string(APPEND include_text ".BR ${see_also} (1)\n")
endif()
set(include_file "${PAGE}.h2m")
file(WRITE "${include_file}" "${include_text}")

execute_process(
  COMMAND "${HELP2MAN}" --no-info --no-discard-stderr --section=1 "--name=${NAME}"
          "--version-string=${VERSION}" "--include=${include_file}" "--output=${PAGE}" "${PROGRAM}"
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "help2man failed for ${PROGRAM} (${rc})")
endif()
