# tools/gen_text.py refuses text with problems, naming file, entry and problem, and accepts the page's own
# data/text (ctest: text_data). The fixtures in tests/data/text_problems hold one problem of each kind next to
# entries that are fine. Run with -DPYTHON3= -DROOT= -DWORK_DIR=.
cmake_minimum_required(VERSION 3.20)
set(failures "")
function(expect kind root want_rc)  # ARGN: messages the output must hold
  execute_process(COMMAND "${PYTHON3}" "${ROOT}/tools/gen_text.py" "${root}" ${kind} "${WORK_DIR}/text_data/${kind}.h"
                  RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_VARIABLE out)
  if(want_rc EQUAL 0 AND NOT rc EQUAL 0)
    set(failures "${failures}\n  ${kind}: the page's own text is refused:\n${err}" PARENT_SCOPE)
  elseif(NOT want_rc EQUAL 0 AND rc EQUAL 0)
    set(failures "${failures}\n  ${kind}: text with problems was accepted" PARENT_SCOPE)
  endif()
  foreach(message IN LISTS ARGN)
    string(FIND "${err}" "${message}" at)
    if(at EQUAL -1)
      set(failures "${failures}\n  ${kind}: no '${message}' in:\n${err}" PARENT_SCOPE)
    endif()
  endforeach()
endfunction()

set(bad "${ROOT}/tests/data/text_problems")
set(strings "data/text/strings/01-problems.json")
expect(strings "${bad}" 1
  "${strings}: 'NoChinese': no Chinese text ('zh')"
  "${strings}: 'NoEnglish': no English text ('en')"
  "${strings}: 'Twice': id already used in ${strings}"
  "${strings}: 'Formats': printf conversions differ: en has '%d%f', zh has '%s%f'"
  "${strings}: 'Typo': unknown key 'ch'"
  "${strings}: 'lowercase': an id is a C++ name in PascalCase"
  "${strings}: key 'en' appears twice in one entry")
set(guide "data/text/guide/01-problems.json")
expect(guide "${bad}" 1
  "${guide}: title: no Chinese text ('zh')"
  "${guide}: paragraph 2: no Chinese text ('zh')"
  "${guide}: try_it 1: 'scenario' must be a scenario object")
expect(glossary "${bad}" 1
  "data/text/glossary.json: 'Amp': an id is a C++ name in PascalCase, used once"
  "data/text/glossary.json: 'NoSource': 'source' missing or empty")
# The fine entries of the fixtures are not reported.
foreach(kind strings guide)
  execute_process(COMMAND "${PYTHON3}" "${ROOT}/tools/gen_text.py" "${bad}" ${kind} "${WORK_DIR}/text_data/${kind}.h"
                  ERROR_VARIABLE err)
  if(err MATCHES "'Fine'|try_it 2|paragraph 1:")
    set(failures "${failures}\n  ${kind}: an entry without a problem is reported:\n${err}")
  endif()
endforeach()
foreach(kind strings guide glossary)
  expect(${kind} "${ROOT}" 0)
endforeach()

if(failures)
  message(FATAL_ERROR "tools/gen_text.py checks:${failures}")
endif()
message(STATUS "text_data: gen_text.py refuses each kind of problem and accepts data/text")
