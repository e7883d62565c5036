# One set of warnings for every warpscope target; -Werror when WARPSCOPE_WARNINGS_AS_ERRORS is on
# (the presets turn it on).
function(warpscope_set_warnings target)
    if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
        set(flags -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Woverloaded-virtual
                  -Wimplicit-fallthrough)
        if(WARPSCOPE_WARNINGS_AS_ERRORS)
            list(APPEND flags -Werror)
        endif()
        target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:${flags}>)
    endif()
endfunction()
