// doctest's main for the native test binary (engine, catalog, CLI). Tests live beside it in tests/*/.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
