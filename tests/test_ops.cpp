// tests/test_ops.cpp
#include <doctest/doctest.h>
