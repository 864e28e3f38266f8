// tests/test_properties.cpp
#include <doctest/doctest.h>
