# ic_add_points' spec parser (gen/points.cmake): the optional 7th field,
# filler, is validated at configure time; the tag, prefix and normalised spec
# carry it only when it is > 0.
# usage: cmake -DPOINTS_CMAKE=gen/points.cmake -P test_gen_spec.cmake
cmake_minimum_required(VERSION 3.18)
if(DEFINED SPEC)
  # One parse, in a process of its own: a bad spec ends it with FATAL_ERROR.
  include("${POINTS_CMAKE}")
  ic_point_parse("${SPEC}" P)
  message("tag=${P_TAG} prefix=${P_PREFIX} spec=${P_SPEC} filler=${P_FILLER}")
  return()
endif()

set(fail 0)
# parse(<spec> <var>): runs one parse; <var>_RC, <var>_OUT.
function(parse spec var)
  execute_process(COMMAND "${CMAKE_COMMAND}" "-DPOINTS_CMAKE=${POINTS_CMAKE}" "-DSPEC=${spec}"
    -P "${CMAKE_CURRENT_LIST_FILE}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  set(${var}_RC "${rc}" PARENT_SCOPE)
  set(${var}_OUT "${out}" PARENT_SCOPE)
endfunction()

set(base "inline:tail_dequeue:chain:seq:0:16")
foreach(bad x -1 65537 1e3 "" 256:1)
  parse("${base}:${bad}" R)
  if(R_RC EQUAL 0)
    message("FAIL: '${base}:${bad}' accepted")
    set(fail 1)
  elseif(NOT bad STREQUAL "256:1" AND NOT R_OUT MATCHES "filler")
    message("FAIL: '${base}:${bad}' refused without naming the filler: ${R_OUT}")
    set(fail 1)
  endif()
endforeach()

# spec -> expected "tag=... prefix=... spec=... filler=..."
set(good
  "${base}|tag=inline_tail_dequeue_chain_seq_16 prefix=ic_pt_inline_tail_dequeue_chain_seq_16 spec=${base} filler=0"
  "${base}:0|tag=inline_tail_dequeue_chain_seq_16 prefix=ic_pt_inline_tail_dequeue_chain_seq_16 spec=${base} filler=0"
  "${base}:0256|tag=inline_tail_dequeue_chain_seq_16_f256 prefix=ic_pt_inline_tail_dequeue_chain_seq_16_f256 spec=${base}:256 filler=256"
  "clone:mixed:scatter:random:7:37:65536|tag=clone_mixed_scatter_random_s7_37_f65536 prefix=ic_pt_clone_mixed_scatter_random_s7_37_f65536 spec=clone:mixed:scatter:random:7:37:65536 filler=65536")
foreach(g IN LISTS good)
  string(REPLACE "|" ";" g "${g}")
  list(GET g 0 spec)
  list(GET g 1 want)
  parse("${spec}" R)
  string(STRIP "${R_OUT}" R_OUT)
  if(NOT R_RC EQUAL 0 OR NOT R_OUT STREQUAL want)
    message("FAIL: '${spec}': rc ${R_RC}, '${R_OUT}', expected '${want}'")
    set(fail 1)
  endif()
endforeach()

if(fail)
  message(FATAL_ERROR "spec parsing failed")
endif()
message("ok: bad filler fields are refused at configure time; good ones name the point")
