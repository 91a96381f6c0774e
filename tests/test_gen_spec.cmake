# ic_add_points' spec parser (gen/points.cmake): the optional 7th field,
# filler, is validated at configure time; the tag, prefix and normalised spec
# carry it only when it is > 0. With a body, the op is the body's
# name and the nolock forms are refused; ic_body_name refuses a file whose
# name is not a body's, each in one line.
# usage: cmake -DPOINTS_CMAKE=gen/points.cmake -P test_gen_spec.cmake
cmake_minimum_required(VERSION 3.18)
if(DEFINED BODY_FILE)
  include("${POINTS_CMAKE}")
  ic_body_name("${BODY_FILE}" name)
  message("name=${name}")
  return()
endif()
if(DEFINED SPEC)
  # One parse, in a process of its own: a bad spec ends it with FATAL_ERROR.
  include("${POINTS_CMAKE}")
  if(DEFINED BODY)
    ic_point_parse("${SPEC}" P BODY "${BODY}")
  else()
    ic_point_parse("${SPEC}" P)
  endif()
  message("tag=${P_TAG} prefix=${P_PREFIX} spec=${P_SPEC} filler=${P_FILLER}")
  return()
endif()

set(fail 0)
# parse(<spec> <var> [-D...]): runs one parse; <var>_RC, <var>_OUT.
function(parse spec var)
  execute_process(COMMAND "${CMAKE_COMMAND}" "-DPOINTS_CMAKE=${POINTS_CMAKE}" "-DSPEC=${spec}" ${ARGN}
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

# A body's points: its name is the op; the queue's ops and nolock forms are refused.
parse("extern:kref:chain:seq:0:16" R -DBODY=kref)
string(STRIP "${R_OUT}" R_OUT)
if(NOT R_RC EQUAL 0 OR NOT R_OUT STREQUAL "tag=extern_kref_chain_seq_16 prefix=ic_pt_extern_kref_chain_seq_16 spec=extern:kref:chain:seq:0:16 filler=0")
  message("FAIL: body spec: rc ${R_RC}, '${R_OUT}'")
  set(fail 1)
endif()
foreach(bad "extern:tail_dequeue:chain:seq:0:16|op" "inline_nolock:kref:chain:seq:0:16|no lock"
    "extern_nolock:kref:chain:seq:0:16|no lock")
  string(REPLACE "|" ";" bad "${bad}")
  list(GET bad 0 spec)
  list(GET bad 1 why)
  parse("${spec}" R -DBODY=kref)
  string(REGEX REPLACE "[ \n]+" " " R_OUT "${R_OUT}")
  if(R_RC EQUAL 0 OR NOT R_OUT MATCHES "${why}")
    message("FAIL: body spec '${spec}': rc ${R_RC}, '${R_OUT}'")
    set(fail 1)
  endif()
endforeach()
parse("kref.c" R -DBODY=kref)   # not a spec
if(R_RC EQUAL 0)
  message("FAIL: 'kref.c' taken as a spec")
  set(fail 1)
endif()

# ic_body_name: the file's name, or one line saying why not.
get_filename_component(examples "${POINTS_CMAKE}/../../examples" ABSOLUTE)
set(tmp "${CMAKE_CURRENT_BINARY_DIR}/test_gen_spec_bodies")
file(MAKE_DIRECTORY "${tmp}")
foreach(f tail_dequeue.c queue.c my-body.c body.h)
  file(WRITE "${tmp}/${f}" "struct ic_body_state { int x; };\n")
endforeach()
foreach(case "${examples}/kref.c|0|name=kref" "examples/kref.c|1|absolute" "${tmp}/missing.c|1|no such file"
    "${tmp}|1|no such file" "${tmp}/tail_dequeue.c|1|built-in" "${tmp}/queue.c|1|built-in"
    "${tmp}/my-body.c|1|letters" "${tmp}/body.h|1|not a .c file")
  string(REPLACE "|" ";" case "${case}")
  list(GET case 0 file)
  list(GET case 1 want_rc)
  list(GET case 2 want)
  execute_process(COMMAND "${CMAKE_COMMAND}" "-DPOINTS_CMAKE=${POINTS_CMAKE}" "-DBODY_FILE=${file}"
    -P "${CMAKE_CURRENT_LIST_FILE}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  string(REGEX REPLACE "[ \n]+" " " out "${out}")   # CMake wraps long messages
  if((want_rc EQUAL 0 AND NOT rc EQUAL 0) OR (NOT want_rc EQUAL 0 AND rc EQUAL 0)
      OR NOT out MATCHES "${want}")
    message("FAIL: ic_body_name(${file}): rc ${rc}, '${out}'")
    set(fail 1)
  endif()
endforeach()
file(REMOVE_RECURSE "${tmp}")

if(fail)
  message(FATAL_ERROR "spec parsing failed")
endif()
message("ok: bad filler fields are refused at configure time; good ones name the point")
