# GAN scenarios through the CLI (issue 42, docs/gan.md): estimate prints the GAN report (both networks, phases,
# sec/kimg, verdict); rank and advise take it; a key that means nothing for a GAN exits 2 naming it; a command that
# does not handle GANs says so (exit 2) instead of answering from the one-network path.
cmake_minimum_required(VERSION 3.20)
set(ok "${WORK_DIR}/gan_ok.json")
set(bad "${WORK_DIR}/gan_bad.json")
file(WRITE "${ok}" [=[{"model": "stylegan2-ada-256", "batch_size": 16, "gpu": {"id": "v100-sxm2-16gb", "count": 1}, "kimg": 1000}]=])
file(WRITE "${bad}" [=[{"model": "stylegan2-ada-256", "method": "lora", "gpu": {"id": "t4", "strategy": "zero3"}}]=])
execute_process(COMMAND "${CLI}" estimate "${ok}" --json RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "\"kind\": \"gan\"" OR NOT out MATCHES "\"sec_per_kimg\"" OR
   NOT out MATCHES "\"peak_phase\": \"Gmain\"" OR NOT out MATCHES "\"verdict\": \"fits\"")
  message(FATAL_ERROR "estimate of a GAN: exit ${rc}, stdout '${out}', stderr '${err}'")
endif()
foreach(command rank advise)
  execute_process(COMMAND "${CLI}" ${command} "${ok}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "\"kind\": \"gan\"" OR out MATCHES "lora|zero3")
    message(FATAL_ERROR "${command} of a GAN: exit ${rc}, stdout '${out}', stderr '${err}'")
  endif()
endforeach()
execute_process(COMMAND "${CLI}" estimate "${bad}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 2 OR NOT out STREQUAL "" OR NOT err MATCHES "/method: method does not apply to a GAN" OR
   NOT err MATCHES "/gpu/strategy")
  message(FATAL_ERROR "inapplicable keys: exit ${rc}, stdout '${out}', stderr '${err}'")
endif()
execute_process(COMMAND "${CLI}" config "${ok}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 2 OR NOT out STREQUAL "" OR NOT err MATCHES "GAN scenario is not handled by config")
  message(FATAL_ERROR "config of a GAN: exit ${rc}, stdout '${out}', stderr '${err}'")
endif()
message(STATUS "cli: GAN scenarios are estimated, ranked and advised; inapplicable keys and commands are named")
