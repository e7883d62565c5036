# warpscope_add_gtests(): registers a GoogleTest program with ctest, the one way every tests/
# CMakeLists.txt does it.
#
#   warpscope_add_gtests(TARGET [TEST_PREFIX prefix] [DISCOVERY_TIMEOUT seconds]
#                        [TIMEOUT seconds] [LABELS label...] [ENVIRONMENT VAR=value...]
#                        [SHARDS count] [SHARD_TIMEOUT seconds] [SHARD_COST cost])
#
# By default each test case is a ctest test of its own (gtest_discover_tests), named by the case
# and TEST_PREFIX, with TIMEOUT per case. With WARPSCOPE_TESTS_IN_SHARDS (the asan preset) the
# program is instead SHARDS ctest tests, each running one GoogleTest shard of its cases in one
# process (GTEST_TOTAL_SHARDS, GTEST_SHARD_INDEX), named TARGET.shard-I-of-SHARDS, with
# SHARD_TIMEOUT for the shard: a sanitized program takes about 0.6 s only to start and exit, and
# starting it once per case cost more than the cases themselves. LABELS and ENVIRONMENT hold in
# both forms. A shard fails when any case in it fails, and its output (shown on failure) names the
# case; its skipped cases are listed in the output with their reasons (GoogleTest's "Skipped"
# lines, which ./scripts/test.sh prints). Unlike one test per case, no SKIP_REGULAR_EXPRESSION is
# set on a shard: it would mark a shard that skipped one case and failed another as skipped.
include_guard(GLOBAL)
include(GoogleTest)

option(WARPSCOPE_TESTS_IN_SHARDS
    "Register each GoogleTest program as a few shards instead of one ctest test per case" OFF)

function(warpscope_add_gtests target)
    cmake_parse_arguments(PARSE_ARGV 1 arg ""
        "TEST_PREFIX;DISCOVERY_TIMEOUT;TIMEOUT;SHARDS;SHARD_TIMEOUT;SHARD_COST" "LABELS;ENVIRONMENT")
    if(arg_UNPARSED_ARGUMENTS)
        message(FATAL_ERROR "warpscope_add_gtests(${target}): unknown arguments "
                            "${arg_UNPARSED_ARGUMENTS}")
    endif()
    if(NOT arg_DISCOVERY_TIMEOUT)
        set(arg_DISCOVERY_TIMEOUT 60)
    endif()
    if(NOT arg_SHARDS)
        set(arg_SHARDS 2)
    endif()
    if(NOT arg_SHARDS MATCHES "^[1-9][0-9]*$")
        message(FATAL_ERROR "warpscope_add_gtests(${target}): SHARDS must be a whole number from 1")
    endif()

    if(NOT WARPSCOPE_TESTS_IN_SHARDS)
        set(prefix)
        if(arg_TEST_PREFIX)
            set(prefix TEST_PREFIX ${arg_TEST_PREFIX})
        endif()
        gtest_discover_tests(${target} ${prefix} DISCOVERY_TIMEOUT ${arg_DISCOVERY_TIMEOUT})
        # The cases' properties, set by a file ctest reads after the discovered cases (their names
        # are in ${target}_TESTS there): gtest_discover_tests's PROPERTIES splits a list value
        # such as two ENVIRONMENT entries into separate arguments.
        set(properties)
        foreach(property IN ITEMS LABELS ENVIRONMENT TIMEOUT)
            if(arg_${property})
                string(APPEND properties " ${property} [==[${arg_${property}}]==]")
            endif()
        endforeach()
        if(properties)
            set(file "${CMAKE_CURRENT_BINARY_DIR}/${target}_properties.cmake")
            file(WRITE "${file}" "if(DEFINED ${target}_TESTS)\n"
                "    set_tests_properties(\${${target}_TESTS} PROPERTIES${properties})\nendif()\n")
            set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${file}")
        endif()
        return()
    endif()

    foreach(index RANGE 1 ${arg_SHARDS})
        math(EXPR shard_index "${index} - 1")
        set(name "${target}.shard-${index}-of-${arg_SHARDS}")
        add_test(NAME ${name} COMMAND ${target} --gtest_color=no)
        set_tests_properties(${name} PROPERTIES ENVIRONMENT
            "${arg_ENVIRONMENT};GTEST_TOTAL_SHARDS=${arg_SHARDS};GTEST_SHARD_INDEX=${shard_index}")
        if(arg_LABELS)
            set_tests_properties(${name} PROPERTIES LABELS "${arg_LABELS}")
        endif()
        if(arg_SHARD_TIMEOUT)
            set_tests_properties(${name} PROPERTIES TIMEOUT ${arg_SHARD_TIMEOUT})
        endif()
        if(arg_SHARD_COST)
            set_tests_properties(${name} PROPERTIES COST ${arg_SHARD_COST})
        endif()
    endforeach()
endfunction()
