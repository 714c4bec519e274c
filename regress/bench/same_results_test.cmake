# same_results.py save, then check with the same build: every run the same (exit status 0).
# Then one number of a saved results file changed: check reports that run different, with the
# file and key path (exit status 1), so that a check that passes everything would fail here.
# cmake -D SCRIPT=same_results.py -D BUILD=build-dir -D DIR=scratch-dir -P same_results_test.cmake
set(runs --only msgrate_lt --only golden_allreduce_3x3x3)
file(REMOVE_RECURSE "${DIR}")
execute_process(COMMAND "${SCRIPT}" save "${BUILD}" "${DIR}" ${runs} RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "same_results.py save: exit status ${status}, expected 0")
endif()
execute_process(COMMAND "${SCRIPT}" check "${BUILD}" "${DIR}" ${runs} RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "same_results.py check with the build that saved: exit status ${status}, "
                      "expected 0 (every run the same)")
endif()

set(results "${DIR}/msgrate_lt/results.json")
file(READ "${results}" text)
string(REGEX REPLACE "\"hops\": ([0-9]+)" "\"hops\": 1\\1" altered "${text}")
if(altered STREQUAL text)
  message(FATAL_ERROR "${results}: no \"hops\" to change")
endif()
file(WRITE "${results}" "${altered}")
execute_process(COMMAND "${SCRIPT}" check "${BUILD}" "${DIR}" ${runs} RESULT_VARIABLE status
                OUTPUT_VARIABLE output)
message("${output}")
if(NOT status EQUAL 1 OR NOT output MATCHES "\\| msgrate_lt \\| different: results.json /hops:"
   OR NOT output MATCHES "\\| golden_allreduce_3x3x3 \\| same \\|")
  message(FATAL_ERROR "same_results.py check after changing /hops in ${results}: exit status "
                      "${status}, expected 1 with msgrate_lt different at /hops only")
endif()
file(REMOVE_RECURSE "${DIR}")
