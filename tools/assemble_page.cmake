# Writes the single-file page OUT: the HTML shell (SHELL) with the Emscripten output (APP_JS, built with
# -sSINGLE_FILE=1 so the wasm is inlined as base64) put in place of the /*GG_APP_JS*/ marker. The result needs no
# other file: it works from static hosting, from file:// and after "Save page as".
cmake_minimum_required(VERSION 3.20)
file(READ "${SHELL}" shell)
file(READ "${APP_JS}" app)
string(FIND "${shell}" "/*GG_APP_JS*/" marker)
if(marker EQUAL -1)
  message(FATAL_ERROR "${SHELL} lacks the /*GG_APP_JS*/ marker")
endif()
# Inside an inline <script>, the sequence "</script" would end the element early; "<\/script" means the same in JS.
string(REPLACE "</script" "<\\/script" app "${app}")
string(REPLACE "/*GG_APP_JS*/" "${app}" page "${shell}")
file(WRITE "${OUT}.tmp" "${page}")
file(RENAME "${OUT}.tmp" "${OUT}")
