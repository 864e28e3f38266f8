# packaging/man/man_page.cmake — writes a man page: a hand-written roff template whose @OPTIONS@ is replaced by
# the program's own --help (and, with SUBCOMMANDS, each command's --help), so the page cannot drift from it.
# cmake -DPROGRAM=path -DNAME=rlab -DTEMPLATE=rlab.1.in -DOUTPUT=rlab.1 -DVERSION=0.1.0 -DDATE=2026-12-01
#       [-DSUBCOMMANDS=ON] -P man_page.cmake
cmake_minimum_required(VERSION 3.25)

# Runs PROGRAM with ARGS and returns its help as roff: a no-fill block with roff's special characters escaped.
function(help_as_roff out)
  execute_process(COMMAND ${PROGRAM} ${ARGN} --help OUTPUT_VARIABLE text RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${PROGRAM} ${ARGN} --help failed (${rc}): ${err}")
  endif()
  string(REPLACE "${PROGRAM}" "${NAME}" text "${text}")      # "Usage: /build/path/rlab" -> "Usage: rlab"
  string(REPLACE "\\" "\\e" text "${text}")
  string(REPLACE "-" "\\-" text "${text}")                   # ASCII hyphen-minus, so the flags can be copied
  string(REGEX REPLACE "\n([.'])" "\n\\\\&\\1" text "${text}")
  string(REGEX REPLACE "\n\n+" "\n\n" text "${text}")
  string(STRIP "${text}" text)
  set(${out} ".nf\n${text}\n.fi" PARENT_SCOPE)
endfunction()

help_as_roff(options)
if(SUBCOMMANDS)
  # The commands are the lines under "Subcommands:" of the top-level help.
  execute_process(COMMAND ${PROGRAM} --help OUTPUT_VARIABLE top)
  string(REGEX REPLACE ".*\nSubcommands:\n" "" listing "${top}")
  string(REGEX MATCHALL "(^|\n)  [a-z][a-z-]*" commands "${listing}")
  foreach(c ${commands})
    string(STRIP "${c}" c)
    help_as_roff(sub ${c})
    string(APPEND options "\n.SS ${NAME} ${c}\n${sub}")
  endforeach()
endif()
file(READ ${TEMPLATE} page)
string(REPLACE "@OPTIONS@" "${options}" page "${page}")
string(REPLACE "@VERSION@" "${VERSION}" page "${page}")
string(REPLACE "@DATE@" "${DATE}" page "${page}")
file(WRITE ${OUTPUT} "${page}")
