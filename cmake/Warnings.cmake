# Warnings per target: clean under -Wall -Wextra.
function(rlab_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wshadow -Wnon-virtual-dtor -Wpedantic>)
endfunction()
