# Precompiled headers for the targets whose files each spend most of their compile time parsing the same
# third-party headers (Qt Widgets: a Qt file compiles in 1.2 s instead of 2.6), which on CI's 2 cores is minutes per build.
option(RLAB_PCH "Precompile the Qt headers of the classroom" ON)

function(rlab_precompile target)
  if(RLAB_PCH)
    target_precompile_headers(${target} PRIVATE ${ARGN})
  endif()
endfunction()
