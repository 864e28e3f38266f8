// tests/main.cpp — doctest's runner (library rlab_test_main), compiled once and linked into every doctest suite.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
