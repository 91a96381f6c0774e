# Code generation of the sites and the queue (IC_CODEGEN), and what the
# kernel build's return thunk does (IC_RETURN_THUNK). Sets:
#   IC_CODEGEN_OPTIONS  compile options of the sites, the queue and the bodies
#   IC_CODEGEN_NAME     what the bench records (JSON context "codegen")
#   IC_CODEGEN_KERNEL   ON in the kernel build: queue/ adds its thunks
#
#   user        -mgeneral-regs-only: the kernel's rule of no vector registers,
#               so the bytes per site are what a kernel-style build emits;
#               otherwise a plain user-space call and return.
#   vectorised  nothing added: gcc may vectorise the node stores, as a
#               user-space -O2 build does.
#   kernel      the x86-64 kernel's call, as a kernel with the default
#               mitigations builds it (arch/x86/Makefile and the top Makefile):
#               every `ret` a jump to __x86_return_thunk and every indirect
#               branch a jump to __x86_indirect_thunk_<reg> (queue/thunks.S),
#               endbr64 at function entries (IBT), int3 after every
#               indirect jump and return (straight-line speculation), a
#               5-byte nop at every function entry where ftrace patches
#               its call, no red zone, jumps and loops unaligned. gcc only:
#               clang 14 has no -mfunction-return, -mharden-sls for x86,
#               -mrecord-mcount, -mnop-mcount or -falign-jumps.
#               -mnop-mcount needs code that is not position independent:
#               the kernel's is not (-mcmodel=kernel), so these objects are
#               -fno-pie and the programs link -no-pie.

# The cache string var must be one of the choices set as its STRINGS
# property: the list lives once, where the choice is offered.
function(ic_cache_choice_check var)
  get_property(choices CACHE ${var} PROPERTY STRINGS)
  if(NOT ${var} IN_LIST choices)
    list(POP_BACK choices last)
    list(JOIN choices ", " first)
    message(FATAL_ERROR "${var} must be ${first} or ${last}, not '${${var}}'")
  endif()
endfunction()

set(IC_CODEGEN "user" CACHE STRING "code generation of sites and queue: user, vectorised or kernel")
set_property(CACHE IC_CODEGEN PROPERTY STRINGS user vectorised kernel)
set(IC_RETURN_THUNK "ret" CACHE STRING "the kernel build's return thunk: ret, retbleed or srso")
set_property(CACHE IC_RETURN_THUNK PROPERTY STRINGS ret retbleed srso)

# The switch this replaces: IC_GENERAL_REGS_ONLY=OFF is `vectorised`.
if(DEFINED IC_GENERAL_REGS_ONLY AND NOT IC_GENERAL_REGS_ONLY)
  if(IC_CODEGEN STREQUAL "user")
    set(IC_CODEGEN "vectorised")
  elseif(NOT IC_CODEGEN STREQUAL "vectorised")
    message(FATAL_ERROR "IC_GENERAL_REGS_ONLY=OFF contradicts IC_CODEGEN=${IC_CODEGEN}: give IC_CODEGEN alone")
  endif()
endif()
ic_cache_choice_check(IC_CODEGEN)
ic_cache_choice_check(IC_RETURN_THUNK)

set(IC_CODEGEN_KERNEL OFF)
if(IC_CODEGEN STREQUAL "user")
  set(IC_CODEGEN_OPTIONS -mgeneral-regs-only)
  set(IC_CODEGEN_NAME "user")
elseif(IC_CODEGEN STREQUAL "vectorised")
  set(IC_CODEGEN_OPTIONS "")
  set(IC_CODEGEN_NAME "vectorised")
else()
  if(NOT CMAKE_C_COMPILER_ID STREQUAL "GNU")
    message(FATAL_ERROR "IC_CODEGEN=kernel: gcc only: ${CMAKE_C_COMPILER_ID} ${CMAKE_C_COMPILER_VERSION} lacks -mfunction-return=thunk-extern, -mharden-sls=all, -mrecord-mcount and -mnop-mcount on x86")
  endif()
  if(NOT CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
    message(FATAL_ERROR "IC_CODEGEN=kernel: the x86-64 kernel's call, not for ${CMAKE_SYSTEM_PROCESSOR}")
  endif()
  set(IC_CODEGEN_OPTIONS
    -mgeneral-regs-only -mno-red-zone
    -falign-jumps=1 -falign-loops=1
    -mfunction-return=thunk-extern
    -mindirect-branch=thunk-extern -mindirect-branch-register
    -fcf-protection=branch
    -mharden-sls=all
    -pg -mfentry -mrecord-mcount -mnop-mcount
    -fno-pie)
  # Every program: the sites' objects are not position independent.
  add_link_options(-no-pie)
  set(IC_CODEGEN_KERNEL ON)
  set(IC_CODEGEN_NAME "kernel-${IC_RETURN_THUNK}")
  # Every flag, checked here rather than in a failed build of the sites.
  include(CheckCSourceCompiles)
  string(REPLACE ";" " " CMAKE_REQUIRED_FLAGS "${IC_CODEGEN_OPTIONS}")
  # Compiled, not linked: the thunks are not built yet.
  set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
  check_c_source_compiles("int main(void) { return 0; }" IC_KERNEL_FLAGS_OK)
  unset(CMAKE_REQUIRED_FLAGS)
  unset(CMAKE_TRY_COMPILE_TARGET_TYPE)
  if(NOT IC_KERNEL_FLAGS_OK)
    message(FATAL_ERROR "IC_CODEGEN=kernel: ${CMAKE_C_COMPILER} refuses one of: ${IC_CODEGEN_OPTIONS}")
  endif()
endif()
