# docs/scenario-keys.md is the key table as `gpuguide keys --markdown` prints it (src/catalog/scenario_keys.cpp):
# fails when a key was added or changed in one and not the other. To update the page:
#   build/native/gpuguide keys --markdown > docs/scenario-keys.md
cmake_minimum_required(VERSION 3.20)
execute_process(COMMAND "${CLI}" keys --markdown RESULT_VARIABLE rc OUTPUT_VARIABLE generated ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gpuguide keys --markdown: exit ${rc}: ${err}")
endif()
file(READ "${ROOT}/docs/scenario-keys.md" page)
if(NOT page STREQUAL generated)
  message(FATAL_ERROR "docs/scenario-keys.md differs from the key table; regenerate it with "
                      "`gpuguide keys --markdown > docs/scenario-keys.md` (from build/native)")
endif()
message(STATUS "scenario_keys_doc: docs/scenario-keys.md is the key table")
