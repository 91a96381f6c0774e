# The name of a --body file by CMake's own rules (gen/points.cmake's
# ic_body_name, which a build's configure applies too), so run.sh refuses a
# name before it installs or builds anything, in CMake's words.
# usage: cmake -DPOINTS_CMAKE=gen/points.cmake -DBODY_FILE=FILE -P body_name.cmake
cmake_minimum_required(VERSION 3.18)
include("${POINTS_CMAKE}")
ic_body_name("${BODY_FILE}" name)
message("name=${name}")
