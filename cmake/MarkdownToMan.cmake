# markdown_to_man(FILE OUT_VAR): a page of docs/ as a help2man include file,
# so a man page carries the same text as the reference it comes from.
# Everything after the first "## " heading is converted (what comes before is
# the page's introduction for readers of docs/); written in CMake's own
# language because the clean build root has no python3 or pandoc.
#
# The markdown it knows, which is all docs/cli.md and docs/windows.md use:
#   ## Title             a man section, [TITLE] (help2man places ENVIRONMENT,
#                        FILES and EXAMPLES itself, the others after OPTIONS)
#   ### Title            .SS "Title"
#   a blank line         a new paragraph (.PP); its lines are joined, so
#                        markup may span them
#   - item               a bullet (.IP); the lines under it continue it
#   | a | b |            a table row: .TP with a as the tag, the rest below
#                        (the header row and its |---| line are left out)
#   ``` ... ```          a verbatim block (.nf, indented)
#   `code`, **bold**     bold; [text](link) becomes text; ![..](..) and
#                        <!-- ... --> on one line are left out
# Roff's specials are escaped: \ as \e, - as \-, and a line that would start
# with . or ' (a request) or [ or / (help2man's own syntax) gets \& before it.

# One line of running text: escaped, then its inline markup.
function(_man_inline text out)
  string(REPLACE "\\" "\\e" text "${text}")
  string(REPLACE "-" "\\-" text "${text}")
  string(REGEX REPLACE "!<LB>[^<]*<RB>\\([^)]*\\)" "" text "${text}")
  string(REGEX REPLACE "<LB>([^<]*)<RB>\\([^)]*\\)" "\\1" text "${text}")
  string(REGEX REPLACE "`([^`]*)`" "\\\\fB\\1\\\\fR" text "${text}")
  string(REGEX REPLACE "\\*\\*([^*]*)\\*\\*" "\\\\fB\\1\\\\fR" text "${text}")
  string(REGEX REPLACE "^([.'/]|<LB>)" "\\\\&\\1" text "${text}")
  string(STRIP "${text}" text)
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# One line of a verbatim block: escaped only.
function(_man_verbatim text out)
  string(REPLACE "\\" "\\e" text "${text}")
  string(REPLACE "-" "\\-" text "${text}")
  string(REGEX REPLACE "^([.'/]|<LB>)" "\\\\&\\1" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

function(markdown_to_man file out_var)
  file(READ "${file}" text)
  # CMake lists split on ; and keep [ ... ] together: both are set aside and
  # come back at the end, so every line is one list element, empty ones too.
  string(REPLACE ";" "<SC>" text "${text}")
  string(REPLACE "[" "<LB>" text "${text}")
  string(REPLACE "]" "<RB>" text "${text}")
  string(REPLACE "\n" ";" lines "${text}")

  set(roff "")
  set(started OFF)     # past the first "## "
  set(verbatim OFF)    # inside ``` ... ```
  set(paragraph OFF)   # the next text needs .PP first
  set(words "")        # the paragraph or item being read, one line (markup may span lines)
  set(pending_row "")  # a table row, written once the next line shows it is no header
  foreach(line IN LISTS lines)
    # Anything but running text ends the text before it.
    if(NOT words STREQUAL "" AND (verbatim OR line MATCHES "^(#|```|- |\\||<!--| *$)"))
      _man_inline("${words}" words)
      string(APPEND roff "${words}\n")
      set(words "")
    endif()
    if(NOT pending_row STREQUAL "" AND NOT line MATCHES "^\\|")
      string(APPEND roff "${pending_row}")  # the last row of a table
      set(pending_row "")
    endif()
    if(line MATCHES "^## +(.*)$")
      string(TOUPPER "${CMAKE_MATCH_1}" title)
      string(APPEND roff "<LB>${title}<RB>\n")
      if(NOT started)
        string(APPEND roff ".nh\n")  # no hyphens inside option and variable names
      endif()
      set(started ON)
      set(paragraph OFF)
    elseif(NOT started)
    elseif(line MATCHES "^```")
      if(verbatim)
        string(APPEND roff ".fi\n.RE\n")
        set(verbatim OFF)
        set(paragraph ON)
      else()
        string(APPEND roff ".PP\n.RS 4\n.nf\n")
        set(verbatim ON)
      endif()
    elseif(verbatim)
      _man_verbatim("${line}" line)
      string(APPEND roff "${line}\n")
    elseif(line MATCHES "^ *$" OR line MATCHES "^ *<!--.*--> *$")
      set(paragraph ON)
    elseif(line MATCHES "^### +(.*)$")
      _man_inline("${CMAKE_MATCH_1}" title)
      string(APPEND roff ".SS \"${title}\"\n")
      set(paragraph OFF)
    elseif(line MATCHES "^\\|")
      if(line MATCHES "^\\|[-| :]*$")
        set(pending_row "")  # the row above was the header: drop it
        continue()
      endif()
      string(APPEND roff "${pending_row}")
      string(REPLACE "\\|" "<BAR>" cells "${line}")
      string(REGEX REPLACE "^\\| *" "" cells "${cells}")
      string(REGEX REPLACE " *\\| *$" "" cells "${cells}")
      string(REGEX MATCH "^[^|]*" tag "${cells}")
      string(LENGTH "${tag}" tag_length)
      string(SUBSTRING "${cells}" ${tag_length} -1 rest)
      string(REGEX REPLACE "^\\| *" "" rest "${rest}")
      string(REGEX REPLACE " *\\| *" "<SC> " rest "${rest}")
      _man_inline("${tag}" tag)
      _man_inline("${rest}" rest)
      set(pending_row ".TP\n${tag}\n${rest}\n")
      string(REPLACE "<BAR>" "|" pending_row "${pending_row}")
    elseif(line MATCHES "^- +(.*)$")
      string(APPEND roff ".IP \\(bu 2\n")
      set(words "${CMAKE_MATCH_1}")
      set(paragraph OFF)
    else()
      if(paragraph)
        string(APPEND roff ".PP\n")
        set(paragraph OFF)
      endif()
      string(STRIP "${line}" line)
      if(words STREQUAL "")
        set(words "${line}")
      else()
        string(APPEND words " ${line}")
      endif()
    endif()
  endforeach()
  if(NOT words STREQUAL "")
    _man_inline("${words}" words)
    string(APPEND roff "${words}\n")
  endif()
  string(APPEND roff "${pending_row}")

  string(REPLACE "<SC>" ";" roff "${roff}")
  string(REPLACE "<LB>" "[" roff "${roff}")
  string(REPLACE "<RB>" "]" roff "${roff}")
  set(${out_var} "${roff}" PARENT_SCOPE)
endfunction()
