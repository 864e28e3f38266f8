// tests/main.cpp — doctest's runner (library rlab_test_main), compiled once and linked into every doctest suite.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <string>
#include <vector>

// CTest runs each TEST_CASE as `--test-case=NAME`, with the names doctest_discover_tests read from --list-test-cases.
// That reader cuts a name at each ';' (CMake's list separator) into CTest tests whose filters match no test case,
// and a filter that matches nothing passes: such a case never ran. So a plain filter also names the case it was
// cut from (NAME;* and *;NAME): each part runs the whole case. (Found by scripts/mutate.sh, docs/mutation.md.)
int main(int argc, char** argv) {
    const std::string flag = "--test-case=";
    std::vector<std::string> args(argv, argv + argc);
    for (std::string& a : args)
        if (a.rfind(flag, 0) == 0 && a.find_first_of("*?", flag.size()) == std::string::npos) {
            const std::string name = a.substr(flag.size());
            a += "," + name + ";*,*;" + name;
        }
    std::vector<char*> ptrs;
    for (std::string& a : args) ptrs.push_back(a.data());
    doctest::Context context(int(ptrs.size()), ptrs.data());
    return context.run();
}
