// core/error.h — the two exceptions every layer throws: bad input (exit 2) and a hung device.
#pragma once
#include <stdexcept>

namespace rl {

// Bad input that the caller should report as one line and exit 2.
class Error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A GPU kernel that never finishes (a deadlocking injected bug). Its context cannot free memory or
// shut down normally any more, so whoever catches this reports it and ends the process (std::_Exit).
class DeviceHung : public Error {
public:
    using Error::Error;
};

}  // namespace rl
