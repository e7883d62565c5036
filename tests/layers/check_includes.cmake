# The layers below the app (ARCHITECTURE.md, docs/app-architecture.md): core is plain C++ (no Qt,
# no CUDA); the probe's protocol, its fake backend and its command line are plain C++ too (they
# build and are tested without a CUDA toolkit), and neither core nor the probe includes Qt. This
# script fails on any #include of a forbidden header in the files it is given.
#
# Run: cmake -DWHAT=<name> -DROOT=<folder> -DFILES=<a;b;...> -DFORBIDDEN=<regex> -P check_includes.cmake
#   FILES are paths relative to ROOT; FORBIDDEN is matched against the header's name.
cmake_minimum_required(VERSION 3.25)

if(NOT WHAT OR NOT ROOT OR NOT FILES OR NOT FORBIDDEN)
    message(FATAL_ERROR "check_includes: WHAT, ROOT, FILES and FORBIDDEN are all needed")
endif()
set(problems "")
set(count 0)
foreach(file IN LISTS FILES)
    if(NOT EXISTS "${ROOT}/${file}")
        list(APPEND problems "${file}: no such file under ${ROOT}")
        continue()
    endif()
    math(EXPR count "${count} + 1")
    file(STRINGS "${ROOT}/${file}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"]")
    foreach(line IN LISTS lines)
        string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*[<\"]([^>\"]+)[>\"].*" "\\1" header "${line}")
        if(header MATCHES "${FORBIDDEN}")
            list(APPEND problems "${file}: #include \"${header}\" is not allowed in ${WHAT}")
        endif()
    endforeach()
endforeach()
if(problems)
    list(JOIN problems "\n  " text)
    message(FATAL_ERROR "check_includes: ${WHAT}:\n  ${text}")
endif()
message(STATUS "check_includes: ${WHAT}: ${count} files, none includes a forbidden header")
