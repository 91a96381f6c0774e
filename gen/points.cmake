# Build integration for generated points.
#
# ic_add_points(<target> POINTS <spec>... [PER_FILE K] [DEFINES def...]
#               [COMPILE_OPTIONS opt...] [BODY <file>])
#
#   <spec> is form:op:layout:order:seed:sites[:filler], e.g.
#   inline:tail_dequeue:chain:seq:0:1024 (seed matters for order random only;
#   filler is gen's --filler, bytes 0..65536 before each site, default 0).
#   PER_FILE is gen's --per-file (default 256).
#   BODY: your own function instead of the queue (queue/body.h), an absolute
#   path; every spec's op is then the body's name (ic_body_name), and its
#   forms are inline, hint, extern, clone and mark. <target>_body, a STATIC
#   library of queue/body_extern.c (the extern copy, the set-up, ic_body_desc)
#   compiled once with the file, comes with <target>.
#
# The points are grouped in series (form, op, layout, filler: what a site's
# code depends on). For each series gen --part sites writes its sites once,
# at the series' largest N M, into
# ${CMAKE_CURRENT_BINARY_DIR}/<target>_points/series/<form>_<op>_<layout>[_f<filler>]_<M>_k<K>_c<C>/
# and for each point gen --part point writes point.c (its pass over the first
# N sites in the point's order; a chain point's tail caller of the sites past
# its last whole series caller) into
# ${CMAKE_CURRENT_BINARY_DIR}/<target>_points/<form>_<op>_<layout>_<order>[_s<seed>]_<sites>[_f<filler>]_m<M>_k<K>_c<C>/
# (K sites per file, C = IC_PER_CALLER sites per chain caller; again only when
# the point or gen changes). An OBJECT library per series and per point
# compiles them with IC_CODEGEN_OPTIONS, in parallel under cmake --build -j. Then:
#   <target>           STATIC library: every point plus <target>_table.c, which defines
#                        const struct ic_point *const <target>_points[];  (NULL-terminated,
#                        in the order given; declare it extern to use it). Link it to get
#                        the points, site.h's include path and ic_queue.
#   <target>_codesize  custom target (part of ALL) writing <target>_codesize.csv with
#                        codesize over each point's objects.
# Variables set in the caller's scope: <target>_CODESIZE_CSV (csv path),
# <target>_CODESIZE_ARGS (codesize's argument file: --point, spec, the point's
# object, its series' objects...),
# <target>_POINT_DIRS (generated directories, in point order). The csv path is
# also the target property IC_CODESIZE_CSV of <target>; IC_POINT_LIBS (the
# object libraries), IC_POINT_TABLE and IC_CODESIZE_ARGS let bench/ link the
# same objects again in a random layout (bench/link_variant).
#
# The symbol prefix rule is gen/point_name.h's ic_point_prefix(); keep them in step.

set_property(GLOBAL PROPERTY IC_GEN_SOURCE_DIR "${CMAKE_CURRENT_LIST_DIR}")
get_filename_component(_ic_queue_dir "${CMAKE_CURRENT_LIST_DIR}/../queue" ABSOLUTE)
set_property(GLOBAL PROPERTY IC_QUEUE_SOURCE_DIR "${_ic_queue_dir}")

# Default sites per translation unit, as gen's: one TU with 65,536 inlined
# sites took gcc 122 s and 1.4 GB in the suite's first prototype; 256 keep
# each TU under a second.
set_property(GLOBAL PROPERTY IC_POINTS_PER_FILE_DEFAULT 256)

# ic_point_names(<kind> <out-var>): the names of one kind (FORM, OP, LAYOUT or
# ORDER) from gen/point_names.def, the table point_name.h and run.sh read too:
# the X(ENUM, name, ...) entries of its IC_<kind>S list.
function(ic_point_names kind out)
  get_property(dir GLOBAL PROPERTY IC_GEN_SOURCE_DIR)
  file(READ "${dir}/point_names.def" def)
  # Editing the table reconfigures (a script, tests/test_gen_spec.cmake, has
  # nothing to reconfigure).
  if(NOT CMAKE_SCRIPT_MODE_FILE)
    set_property(DIRECTORY "${CMAKE_SOURCE_DIR}" APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
      "${dir}/point_names.def")
  endif()
  # The list runs from its #define to the first line without a backslash.
  string(REGEX MATCH "#define IC_${kind}S\\(X\\)([^\n]*\\\\\n)*[^\n]*" list "${def}")
  string(REGEX MATCHALL "X\\([A-Z_]+, [a-z_]+," entries "${list}")
  set(names "")
  foreach(e IN LISTS entries)
    string(REGEX REPLACE "X\\([A-Z_]+, ([a-z_]+)," "\\1" n "${e}")
    list(APPEND names "${n}")
  endforeach()
  set(${out} "${names}" PARENT_SCOPE)
endfunction()

# ic_body_name(<file> <out-var>): the name of a body file (queue/body.h), its
# basename without .c, after the checks gen/point_name.h's ic_body_name_why
# makes (keep them in step); a file that fails them is a one-line
# FATAL_ERROR naming IC_BODY.
function(ic_body_name file out)
  if(NOT IS_ABSOLUTE "${file}")
    message(FATAL_ERROR "IC_BODY: '${file}' is not an absolute path")
  endif()
  if(NOT EXISTS "${file}" OR IS_DIRECTORY "${file}")
    message(FATAL_ERROR "IC_BODY: ${file}: no such file")
  endif()
  if(file MATCHES "[\"\\\\\n;]")
    message(FATAL_ERROR "IC_BODY: ${file}: the path holds a quote, backslash, newline or ;")
  endif()
  get_filename_component(base "${file}" NAME)
  if(NOT base MATCHES "^(.+)\\.c$")
    message(FATAL_ERROR "IC_BODY: ${file}: not a .c file")
  endif()
  set(name "${CMAKE_MATCH_1}")
  string(LENGTH "${name}" len)
  ic_point_names(OP ops)
  if(NOT name MATCHES "^[A-Za-z0-9_]+$" OR len GREATER 64)
    message(FATAL_ERROR "IC_BODY: ${file}: the name '${name}' may hold only letters, digits and _ (at most 64)")
  elseif(name IN_LIST ops OR name STREQUAL "queue")
    message(FATAL_ERROR "IC_BODY: ${file}: the name '${name}' is the built-in queue's (rename the file)")
  endif()
  set(${out} "${name}" PARENT_SCOPE)
endfunction()

# ic_point_parse(<spec> <out-var-prefix> [BODY <name>]): sets <p>_FORM, _OP,
# _LAYOUT, _ORDER, _SEED (0 for seq), _SITES, _FILLER (0 if not given), _TAG
# (form_op_layout_order[_s<seed>]_sites[_f<filler>]), _KEY (its series:
# form_op_layout[_f<filler>]), _PREFIX (ic_pt_<tag>),
# _SPEC (normalised spec: the filler field only when it is > 0). With BODY,
# the op must be the body's name and the form not a nolock one.
function(ic_point_parse spec out)
  cmake_parse_arguments(PARSE_ARGV 2 A "" "BODY" "")
  string(REPLACE ":" ";" f "${spec}")
  list(LENGTH f n)
  if(NOT n EQUAL 6 AND NOT n EQUAL 7)
    message(FATAL_ERROR "ic_add_points: '${spec}' is not form:op:layout:order:seed:sites[:filler]")
  endif()
  list(GET f 0 form)
  list(GET f 1 op)
  list(GET f 2 layout)
  list(GET f 3 order)
  list(GET f 4 seed)
  list(GET f 5 sites)
  set(filler 0)
  if(n EQUAL 7)
    list(GET f 6 filler)
  endif()
  foreach(kind FORM OP LAYOUT ORDER)
    string(TOLOWER "${kind}" var)
    ic_point_names(${kind} allowed)
    if(A_BODY AND kind STREQUAL "OP")
      set(allowed "${A_BODY}")
    elseif(A_BODY AND kind STREQUAL "FORM")
      list(FILTER allowed EXCLUDE REGEX "_nolock$")
      if(form MATCHES "_nolock$")
        message(FATAL_ERROR "ic_add_points: '${spec}': a body has no lock to replace (the nolock forms are the queue's)")
      endif()
    endif()
    if(NOT "${${var}}" IN_LIST allowed)
      string(REPLACE ";" ", " allowed "${allowed}")
      message(FATAL_ERROR "ic_add_points: '${spec}': ${var} '${${var}}' is not one of ${allowed}")
    endif()
  endforeach()
  if(NOT seed MATCHES "^[0-9]+$" OR seed GREATER 4294967295)
    message(FATAL_ERROR "ic_add_points: '${spec}': seed '${seed}' is not 0..4294967295")
  endif()
  if(NOT sites MATCHES "^[0-9]+$" OR sites LESS 1 OR sites GREATER 1000000)
    message(FATAL_ERROR "ic_add_points: '${spec}': sites '${sites}' is not 1..1000000")
  endif()
  # gen's IC_POINT_FILLER_MAX (gen/point_name.h).
  if(NOT filler MATCHES "^[0-9]+$" OR filler GREATER 65536)
    message(FATAL_ERROR "ic_add_points: '${spec}': filler '${filler}' is not 0..65536")
  endif()
  # Canonical decimal (no leading zeros), as gen prints it.
  math(EXPR seed "${seed}")
  math(EXPR sites "${sites}")
  math(EXPR filler "${filler}")
  if(order STREQUAL "random")
    set(tag "${form}_${op}_${layout}_${order}_s${seed}_${sites}")
  else()
    set(seed 0)
    set(tag "${form}_${op}_${layout}_${order}_${sites}")
  endif()
  set(norm "${form}:${op}:${layout}:${order}:${seed}:${sites}")
  set(key "${form}_${op}_${layout}")
  if(filler GREATER 0)
    string(APPEND tag "_f${filler}")
    string(APPEND norm ":${filler}")
    string(APPEND key "_f${filler}")
  endif()
  foreach(v form op layout order seed sites filler tag key)
    string(TOUPPER "${v}" V)
    set(${out}_${V} "${${v}}" PARENT_SCOPE)
  endforeach()
  set(${out}_PREFIX "ic_pt_${tag}" PARENT_SCOPE)
  set(${out}_SPEC "${norm}" PARENT_SCOPE)
endfunction()

function(ic_add_points target)
  cmake_parse_arguments(PARSE_ARGV 1 A "" "PER_FILE;BODY" "POINTS;DEFINES;COMPILE_OPTIONS")
  if(A_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "ic_add_points(${target}): unexpected arguments: ${A_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT A_POINTS)
    message(FATAL_ERROR "ic_add_points(${target}): no POINTS")
  endif()
  get_property(per_file GLOBAL PROPERTY IC_POINTS_PER_FILE_DEFAULT)
  if(DEFINED A_PER_FILE)
    if(NOT A_PER_FILE MATCHES "^[0-9]+$" OR A_PER_FILE LESS 1 OR A_PER_FILE GREATER 1000000)
      message(FATAL_ERROR "ic_add_points(${target}): PER_FILE '${A_PER_FILE}' is not 1..1000000")
    endif()
    math(EXPR per_file "${A_PER_FILE}")
  endif()
  # A chain caller never spans translation units: files hold at least one.
  if(IC_PER_CALLER GREATER per_file)
    set(per_file ${IC_PER_CALLER})
  endif()
  get_property(gen_dir GLOBAL PROPERTY IC_GEN_SOURCE_DIR)
  get_property(queue_dir GLOBAL PROPERTY IC_QUEUE_SOURCE_DIR)
  set(root "${CMAKE_CURRENT_BINARY_DIR}/${target}_points")
  set(body_parse "")
  set(body_gen "")
  set(body_dir "")
  set(args "")
  if(DEFINED A_BODY)
    ic_body_name("${A_BODY}" body_name)
    set(body_parse BODY "${body_name}")
    set(body_gen --body "${A_BODY}")
    # The path is in the directory name: another file of the same name
    # generates afresh (the sites include it by its path).
    string(MD5 h "${A_BODY}")
    string(SUBSTRING "${h}" 0 8 h)
    set(body_dir "_b${h}")
    # The body TU: the extern copy, the set-up and ic_body_desc, compiled
    # once, as the queue's out-of-line copies are (no LTO, the sites' codegen).
    add_library(${target}_body STATIC "${queue_dir}/body_extern.c")
    target_compile_definitions(${target}_body PRIVATE "IC_BODY_FILE=\"${A_BODY}\""
      "IC_BODY_NAME=\"${body_name}\"")
    target_compile_options(${target}_body PRIVATE ${IC_CODEGEN_OPTIONS})
    target_include_directories(${target}_body PUBLIC "${queue_dir}")
    set(args "--body\n${body_name}\n")
  endif()

  set(libs "")
  set(dirs "")
  set(prefixes "")
  set(decls "")
  set(entries "")
  set(series "")
  # First the series: a site's code depends on its index, form, op, layout
  # and filler, not on N, order or seed, so each series is generated and
  # compiled once, at its largest N, and every point of it calls the first
  # N of those sites from a small file of its own (point.c: the pass, a
  # scatter walk table, a chain point's tail caller of the sites after its
  # last whole series caller). About half the compiling of a sweep whose N
  # double.
  foreach(spec IN LISTS A_POINTS)
    ic_point_parse("${spec}" P ${body_parse})
    if(P_PREFIX IN_LIST prefixes)
      message(FATAL_ERROR "ic_add_points(${target}): point '${spec}' given twice")
    endif()
    list(APPEND prefixes "${P_PREFIX}")
    set(key "${P_KEY}")
    if(NOT key IN_LIST series)
      list(APPEND series "${key}")
      set(max_${key} 0)
      set(spec_${key} "${spec}")
    endif()
    if(P_SITES GREATER max_${key})
      set(max_${key} ${P_SITES})
    endif()
  endforeach()
  foreach(key IN LISTS series)
    # Any spec of the series gives its form, op, layout and filler.
    ic_point_parse("${spec_${key}}" P ${body_parse})
    set(max ${max_${key}})
    # Every setting gen is given is in the directory name: a changed one
    # generates afresh instead of keeping stale sources.
    set(dir "${root}/series/${key}_${max}_k${per_file}_c${IC_PER_CALLER}${body_dir}")
    math(EXPR nfiles "(${max} + ${per_file} - 1) / ${per_file} - 1")
    set(srcs "")
    foreach(f RANGE 0 ${nfiles})
      list(APPEND srcs "${dir}/sites_${f}.c")
    endforeach()
    set(what --op ${P_OP})
    if(DEFINED A_BODY)
      set(what ${body_gen})
    endif()
    add_custom_command(
      OUTPUT ${srcs} "${dir}/manifest.txt"
      COMMAND gen --part sites --sites ${max} --form ${P_FORM} ${what} --layout ${P_LAYOUT}
              --per-file ${per_file} --per-caller ${IC_PER_CALLER} --filler ${P_FILLER} -o "${dir}"
      DEPENDS gen
      COMMENT "gen ${P_FORM}/${P_OP}/${P_LAYOUT} sites 0..${max} filler ${P_FILLER} (${target})"
      VERBATIM)
    set(lib "${target}_sr_${key}")
    set(lib_${key} ${lib})
    add_library(${lib} OBJECT ${srcs})
    list(APPEND libs ${lib})
  endforeach()
  foreach(spec IN LISTS A_POINTS)
    ic_point_parse("${spec}" P ${body_parse})
    set(key "${P_KEY}")
    set(max ${max_${key}})
    set(dir "${root}/${P_TAG}_m${max}_k${per_file}_c${IC_PER_CALLER}${body_dir}")
    set(what --op ${P_OP})
    if(DEFINED A_BODY)
      set(what ${body_gen})
    endif()
    add_custom_command(
      OUTPUT "${dir}/point.c" "${dir}/manifest.txt"
      COMMAND gen --part point --sites ${P_SITES} --series-sites ${max} --form ${P_FORM} ${what}
              --layout ${P_LAYOUT} --order ${P_ORDER} --seed ${P_SEED} --per-file ${per_file}
              --per-caller ${IC_PER_CALLER} --filler ${P_FILLER} -o "${dir}"
      DEPENDS gen
      COMMENT "gen ${P_FORM}/${P_OP}/${P_LAYOUT}/${P_ORDER}/${P_SITES} filler ${P_FILLER} (${target})"
      VERBATIM)
    # Named by the point, not its place in the list: a changed point set
    # then rebuilds only the points that are new.
    set(lib "${target}_${P_TAG}")
    add_library(${lib} OBJECT "${dir}/point.c")
    list(APPEND libs ${lib})
    list(APPEND dirs "${dir}")
    string(APPEND decls "extern const struct ic_point ${P_PREFIX};\n")
    string(APPEND entries "\t&${P_PREFIX},\n")
    # The point's object first, then its series': codesize follows the
    # point's pass through them.
    string(APPEND args "--point\n${P_SPEC}\n$<JOIN:$<TARGET_OBJECTS:${lib}>,\n>\n"
      "$<JOIN:$<TARGET_OBJECTS:${lib_${key}}>,\n>\n")
  endforeach()
  foreach(lib IN LISTS libs)
    target_include_directories(${lib} PRIVATE "${gen_dir}")
    target_link_libraries(${lib} PRIVATE ic_queue)
    # Own section per function: every call, even to a local hint copy in the
    # same file, keeps a relocation that codesize can count, and codesize
    # takes a point's code as the sections its pass reaches. No isolated
    # erroneous paths: a dequeue's NULL branch never runs (the caller keeps a
    # node on q), but in inline_nolock, with no lock loop in the way, gcc
    # turned it into a trap in .text.unlikely and copied the next sites'
    # filler into it. The locked forms compile byte for byte the same.
    # No debug info (-g0): generated code needs none, and it took a third of
    # the compile time; the instructions are the same.
    # IC_CALLER_OPTIONS: LTO of the callers when asked (top CMakeLists.txt).
    target_compile_options(${lib} PRIVATE -ffunction-sections -g0
      $<$<C_COMPILER_ID:GNU>:-fno-isolate-erroneous-paths-dereference>
      ${IC_CODEGEN_OPTIONS} ${IC_CALLER_OPTIONS} ${A_COMPILE_OPTIONS})
    target_compile_definitions(${lib} PRIVATE ${A_DEFINES})
  endforeach()

  set(table "${CMAKE_CURRENT_BINARY_DIR}/${target}_table.c")
  file(CONFIGURE OUTPUT "${table}" CONTENT
"/* Generated by ic_add_points(${target}) in gen/points.cmake. Do not edit. */
#include <stddef.h>
#include \"site.h\"

${decls}
const struct ic_point *const ${target}_points[] = {
${entries}\tNULL,
};
" @ONLY)
  add_library(${target} STATIC "${table}")
  foreach(lib IN LISTS libs)
    target_sources(${target} PRIVATE $<TARGET_OBJECTS:${lib}>)
  endforeach()
  target_include_directories(${target} PUBLIC "${gen_dir}")
  target_link_libraries(${target} PUBLIC ic_queue)
  target_compile_definitions(${target} PRIVATE ${A_DEFINES})
  target_compile_options(${target} PRIVATE ${IC_CALLER_OPTIONS})
  set(body_lib "")
  if(DEFINED A_BODY)
    set(body_lib ${target}_body)
    target_link_libraries(${target} PUBLIC ${body_lib})
  endif()

  set(argfile "${CMAKE_CURRENT_BINARY_DIR}/${target}_codesize.args")
  set(csv "${CMAKE_CURRENT_BINARY_DIR}/${target}_codesize.csv")
  file(GENERATE OUTPUT "${argfile}" CONTENT "${args}")
  set(objs "")
  foreach(lib IN LISTS libs)
    list(APPEND objs $<TARGET_OBJECTS:${lib}>)
  endforeach()
  # codesize proves the nolock forms lock-free from the disassembly.
  set(objdump "${CMAKE_OBJDUMP}")
  if(NOT objdump)
    set(objdump objdump)
  endif()
  # The objects go through the argument file: a 1,000,000-site point has
  # thousands, more than one shell command line may hold.
  add_custom_command(
    OUTPUT "${csv}"
    COMMAND codesize -o "${csv}" --objdump "${objdump}" "@${argfile}"
    DEPENDS codesize "${argfile}" ${libs} ${objs}
    COMMENT "codesize ${target}"
    VERBATIM)
  add_custom_target(${target}_codesize ALL DEPENDS "${csv}")
  set_property(TARGET ${target} PROPERTY IC_CODESIZE_CSV "${csv}")
  set_property(TARGET ${target} PROPERTY IC_POINT_LIBS "${libs}")
  set_property(TARGET ${target} PROPERTY IC_POINT_TABLE "${table}")
  set_property(TARGET ${target} PROPERTY IC_CODESIZE_ARGS "${argfile}")
  set_property(TARGET ${target} PROPERTY IC_BODY_LIB "${body_lib}")

  set(${target}_CODESIZE_CSV "${csv}" PARENT_SCOPE)
  set(${target}_CODESIZE_ARGS "${argfile}" PARENT_SCOPE)
  set(${target}_POINT_DIRS "${dirs}" PARENT_SCOPE)
endfunction()
