# Words meant for the project, not for users, in the app's user-facing text: the string literals
# of app/src (its translation sources: tr() strings and the texts beside them) and the texts of
# resources/ (presets, kernels, lecture decks). It fails on
#
#   - "seed 0..": the course notes cited by a file name instead of by what they are
#     ("the lecture slides, Figure 4-9", "the notes' Table 4-11");
#   - "issue N": the project's tracker;
#   - a raw probe protocol code in parentheses, "(no_driver)": the message says it in words;
#   - "addressExpression" inside a sentence: a field name of the code.
#
# app/src/harness/ (benchmarks and screenshots for developers) and comment lines are not read.
# ALLOWED names a file of exceptions, one "path|text" a line (# starts a comment): a literal of
# that file containing that text passes.
#
# Run: cmake -DAPP_SRC=<app/src> -DRESOURCES=<resources> [-DALLOWED=<file>] -P check_wording.cmake
# (registered as the ctest test app.wording; app.wording.catches-internal-words proves it fails).
cmake_minimum_required(VERSION 3.25)

foreach(folder APP_SRC RESOURCES)
    if(NOT ${folder} OR NOT IS_DIRECTORY "${${folder}}")
        message(FATAL_ERROR "check_wording: ${folder} is not a folder: '${${folder}}'")
    endif()
    get_filename_component(${folder} "${${folder}}" ABSOLUTE)
endforeach()

set(allowed "")
if(ALLOWED)
    file(STRINGS "${ALLOWED}" allowed_lines REGEX "^[^#].*\\|")
    list(APPEND allowed ${allowed_lines})
endif()

# Each rule: a regular expression and what to say.
set(rule_names seed issue code field)
set(rule_seed "seed 0[0-9]")
set(why_seed "cites the course notes by a file name; say what they are (\"the lecture slides, Figure 4-9\")")
set(rule_issue "[Ii]ssue [0-9]")
set(why_issue "speaks of the project's issue tracker")
set(rule_code "\\((no_driver|no_device|driver_too_old|bad_request|pattern_refused|counters_not_permitted|counters_busy|counters_unavailable|compile_error|kernel_fault|out_of_memory|probe_missing)\\)")
set(why_code "shows a raw probe protocol code; say what happened in words")
set(rule_field "addressExpression[^\"]* |[^\"]* addressExpression")
set(why_field "names a field of the code in a sentence")

set(problems "")
function(check_text path text)
    foreach(rule IN LISTS rule_names)
        if(text MATCHES "${rule_${rule}}")
            set(match "${CMAKE_MATCH_0}")
            set(excused FALSE)
            foreach(entry IN LISTS allowed)
                string(REGEX REPLACE "\\|.*" "" allowed_path "${entry}")
                string(REGEX REPLACE "^[^|]*\\|" "" allowed_text "${entry}")
                string(FIND "${text}" "${allowed_text}" at)
                if(allowed_path STREQUAL path AND NOT at EQUAL -1)
                    set(excused TRUE)
                endif()
            endforeach()
            if(NOT excused)
                string(SUBSTRING "${text}" 0 100 shown)
                set(problems "${problems}\n  ${path}: \"${match}\" ${why_${rule}}: ${shown}"
                    PARENT_SCOPE)
                return()
            endif()
        endif()
    endforeach()
endfunction()

file(GLOB_RECURSE sources RELATIVE "${APP_SRC}" "${APP_SRC}/*.cpp" "${APP_SRC}/*.h")
list(SORT sources)
foreach(source IN LISTS sources)
    if(source MATCHES "^harness/")
        continue()
    endif()
    file(STRINGS "${APP_SRC}/${source}" lines ENCODING UTF-8)
    foreach(line IN LISTS lines)
        # A comment after the code ("QString source; // \"as the notes say\"") is no text.
        string(REGEX REPLACE "([;{},)])[ \t]+//.*$" "\\1" line "${line}")
        if(line MATCHES "^[ \t]*//" OR NOT line MATCHES "\"")
            continue()
        endif()
        string(REGEX MATCHALL "\"([^\"\\\\]|\\\\.)*\"" literals "${line}")
        foreach(literal IN LISTS literals)
            check_text("app/src/${source}" "${literal}")
        endforeach()
    endforeach()
endforeach()

file(GLOB_RECURSE texts RELATIVE "${RESOURCES}" "${RESOURCES}/*.json" "${RESOURCES}/*.md"
     "${RESOURCES}/*.txt")
list(SORT texts)
foreach(text_file IN LISTS texts)
    file(STRINGS "${RESOURCES}/${text_file}" lines ENCODING UTF-8)
    foreach(line IN LISTS lines)
        check_text("resources/${text_file}" "${line}")
    endforeach()
endforeach()

if(problems)
    message(FATAL_ERROR "User-facing text with words meant for the project:${problems}")
endif()
message(STATUS "check_wording: ${APP_SRC} and ${RESOURCES} speak to users")
