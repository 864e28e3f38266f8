// tests/gui/main.cpp — the doctest runner for the GUI suites.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
