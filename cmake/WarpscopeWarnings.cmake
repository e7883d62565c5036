# One set of warnings for every warpscope target; -Werror when WARPSCOPE_WARNINGS_AS_ERRORS is on
# (the presets turn it on).
function(warpscope_set_warnings target)
    if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
        set(flags -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Woverloaded-virtual
                  -Wimplicit-fallthrough)
        # GCC 12 at -O2 and above reports impossible overlapping memcpy calls inside std::string
        # (-Wrestrict, GCC bug 105329) and "maybe uninitialized" members of engaged
        # std::optional values (-Wmaybe-uninitialized, GCC bug 80635); later GCCs do not. Debug
        # builds (the dev preset) still report -Wmaybe-uninitialized where GCC can tell.
        if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
            list(APPEND flags -Wno-restrict $<$<NOT:$<CONFIG:Debug>>:-Wno-maybe-uninitialized>)
        endif()
        if(WARPSCOPE_WARNINGS_AS_ERRORS)
            list(APPEND flags -Werror)
        endif()
        target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:${flags}>)
    endif()
endfunction()
