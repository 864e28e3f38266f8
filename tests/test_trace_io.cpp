// tests/test_trace_io.cpp
#include <doctest/doctest.h>
