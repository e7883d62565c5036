# The app's layers (docs/app-architecture.md): each folder of app/src includes only its own
# headers and those of the folders below it, in this order, lowest first:
#
#   document < gpu < views < panels < experiments < export < lecture < shell < harness
#
# and no two headers or sources include each other round a cycle. harness/ is the top: nothing
# of the product includes it (only app/main.cpp and the tests). A folder of app/src that is not in
# the list fails too, so a new folder is placed on purpose.
#
# An experiment is one unit: its core header (warpscope/experiments/foo.h) is included only in
# experiments/, where its view and results live (experiments/fooview.h, .cpp); every other folder
# knows the experiments through core's table (warpscope/experiments/experiments.h) and the app's
# registry, so adding one touches no file outside experiments/ in the app.
#
# Run: cmake -DAPP_SRC=<app/src> -P check_layers.cmake   (registered as the ctest test app.layers)
cmake_minimum_required(VERSION 3.25)

set(layers document gpu views panels experiments export lecture shell harness)
if(NOT APP_SRC OR NOT IS_DIRECTORY "${APP_SRC}")
    message(FATAL_ERROR "check_layers: APP_SRC (the app's src folder) is not a folder: '${APP_SRC}'")
endif()

set(problems "")
file(GLOB folders LIST_DIRECTORIES true RELATIVE "${APP_SRC}" "${APP_SRC}/*")
foreach(folder IN LISTS folders)
    if(IS_DIRECTORY "${APP_SRC}/${folder}" AND NOT folder IN_LIST layers)
        list(APPEND problems "app/src/${folder}/ is in no layer: add it to the order in check_layers.cmake and docs/app-architecture.md")
    endif()
endforeach()

file(GLOB_RECURSE files RELATIVE "${APP_SRC}" "${APP_SRC}/*.h" "${APP_SRC}/*.cpp")
list(SORT files)
set(nodes "")
foreach(file IN LISTS files)
    string(REGEX MATCH "^[^/]+" folder "${file}")
    list(FIND layers "${folder}" rank)
    if(rank EQUAL -1)
        continue() # reported above
    endif()
    list(APPEND nodes "${file}")
    # One experiment's core header, in either spelling, only in experiments/.
    file(STRINGS "${APP_SRC}/${file}" coreLines
         REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"]warpscope/experiments/")
    foreach(line IN LISTS coreLines)
        string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*[<\"]([^>\"]+)[>\"].*" "\\1" target "${line}")
        if(NOT target STREQUAL "warpscope/experiments/experiments.h" AND NOT folder STREQUAL "experiments")
            list(APPEND problems "app/src/${file}: #include <${target}> names one experiment outside experiments/ (reach it through the registry, experiments/experimentregistry.h)")
        endif()
    endforeach()
    file(STRINGS "${APP_SRC}/${file}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
    set(edges_${file} "")
    foreach(line IN LISTS lines)
        string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]+)\".*" "\\1" target "${line}")
        if(NOT target MATCHES "/")
            list(APPEND problems "app/src/${file}: #include \"${target}\" names no folder; write it relative to app/src (\"${folder}/${target}\")")
            continue()
        endif()
        string(REGEX MATCH "^[^/]+" targetFolder "${target}")
        list(FIND layers "${targetFolder}" targetRank)
        if(targetRank EQUAL -1)
            continue() # not the app's (a core header, a generated file)
        endif()
        if(targetRank GREATER rank)
            list(APPEND problems "app/src/${file}: #include \"${target}\" runs up the layers (${folder} sits below ${targetFolder})")
        endif()
        if(EXISTS "${APP_SRC}/${target}")
            list(APPEND edges_${file} "${target}")
        endif()
    endforeach()
endforeach()

# Cycles: take away, again and again, every file that includes no file still left; what cannot
# be taken away includes itself round a cycle.
set(left ${nodes})
while(TRUE)
    set(removable "")
    foreach(node IN LISTS left)
        set(blocked FALSE)
        foreach(target IN LISTS edges_${node})
            if(target IN_LIST left)
                set(blocked TRUE)
                break()
            endif()
        endforeach()
        if(NOT blocked)
            list(APPEND removable "${node}")
        endif()
    endforeach()
    if(NOT removable)
        break()
    endif()
    list(REMOVE_ITEM left ${removable})
endwhile()
foreach(node IN LISTS left)
    set(within "")
    foreach(target IN LISTS edges_${node})
        if(target IN_LIST left)
            list(APPEND within "${target}")
        endif()
    endforeach()
    list(JOIN within ", " within)
    list(APPEND problems "app/src/${node} is on an include cycle (through ${within})")
endforeach()

list(LENGTH files fileCount)
if(problems)
    list(LENGTH problems count)
    list(JOIN problems "\n  " text)
    message(FATAL_ERROR "${count} include problem(s) in ${APP_SRC}:\n  ${text}")
endif()
message(STATUS "app/src: ${fileCount} files, every include goes down the layers, no cycle")
