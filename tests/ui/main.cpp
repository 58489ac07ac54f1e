// doctest's main for the UI tests: Dear ImGui without a renderer (headless frames), string table checks.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
