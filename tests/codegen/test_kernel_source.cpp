// tests/codegen/test_kernel_source.cpp — the generated source: what each schedule choice writes, bugs marked
// where they change the code, no recording calls, the diff against the clean source.
#include <doctest/doctest.h>

#include <random>
#include <set>
#include <string>

#include "codegen/kernel_source.h"
#include "codegen/lesson_lines.h"
#include "core/lesson.h"
#include "core/error.h"
#include "tests/codegen/bug_schedules.h"
#include "tests/random_schedule.h"

namespace {
bool has(const rl::KernelSource& k, const std::string& what) { return k.text().find(what) != std::string::npos; }
}  // namespace

TEST_CASE("kernel source: each stage choice writes its construct") {
    rl::Schedule s;
    s.n = 5000;
    s.block = 100;
    CHECK(has(rl::kernel_source(s), "__shfl_down_sync("));
    CHECK(has(rl::kernel_source(s), "__global__ void finish("));  // two-pass: a second launch
    s.warp = rl::WarpStage::ShflXor;
    CHECK(has(rl::kernel_source(s), "__shfl_xor_sync("));
    s.warp = rl::WarpStage::SmemStrided;
    CHECK(has(rl::kernel_source(s), "2 * stride * lane"));
    CHECK(has(rl::kernel_source(s), "__syncwarp(mask)"));
    s.assign = rl::Assign::GridStride;
    CHECK(has(rl::kernel_source(s), "i += THREADS"));
    s.grid_stage = rl::GridStage::LastBlock;
    CHECK(has(rl::kernel_source(s), "__threadfence()"));
    CHECK(has(rl::kernel_source(s), "atomicAdd(done, 1u)"));
    s.grid_stage = rl::GridStage::Cooperative;
    CHECK(has(rl::kernel_source(s), "cg::this_grid().sync()"));
    s.grid_stage = rl::GridStage::AtomicElement;
    CHECK(has(rl::kernel_source(s), "atomicAdd(out, x)"));
    s.op = rl::Op::Max;
    CHECK(has(rl::kernel_source(s), "atomicCAS("));
    s.type = rl::DType::BF16;
    CHECK(has(rl::kernel_source(s), "__bfloat162float("));
    s.grid_stage = rl::GridStage::TwoPass;
    s.op = rl::Op::Sum;
    s.accum = rl::Accum::Kahan;
    CHECK(has(rl::kernel_source(s), "c = (t - v) - y;"));
    s.accum = rl::Accum::Pairwise;
    CHECK(rl::kernel_source(s).line_of("pairwise-finish") > 0);
}

TEST_CASE("kernel source: no recording calls, sites unique, invalid schedules refused") {
    std::mt19937_64 rng(7);
    for (int i = 0; i < 100; ++i) {
        const rl::Schedule s = rl::testing::random_schedule(rng);
        const rl::KernelSource k = rl::kernel_source(s, i % 2 == 0);
        std::set<std::string> sites;
        for (const auto& l : k.lines) {
            CHECK_FALSE(l.text.find("emit(") != std::string::npos);
            CHECK_FALSE(l.text.find("Tracked") != std::string::npos);
            if (!l.site.empty()) CHECK(sites.insert(l.site).second);
        }
        CHECK(k.line_of("combine") > 0);
        CHECK(k.line_of("no-such-site") == 0);
        CHECK(bool(s.bugs) == (k.text().find("BUG ") != std::string::npos));
    }
    rl::Schedule bad;
    bad.op = rl::Op::ArgMax;
    bad.type = rl::DType::F64;
    CHECK_THROWS_AS(rl::kernel_source(bad), rl::Error);
}

TEST_CASE("kernel source: each bug is a visible change of a few marked lines, named in a comment") {
    for (const rl::Schedule& s : rl::testing::bug_schedules()) {
        const std::string name(rl::to_string(rl::bug_list(s.bugs).front()));
        rl::Schedule clean = s;
        clean.bugs = 0;
        const rl::KernelSource buggy = rl::kernel_source(s), plain = rl::kernel_source(clean);
        CAPTURE(name);
        CHECK(buggy.text().find("BUG " + name) != std::string::npos);
        CHECK(plain.text().find("BUG") == std::string::npos);
        const auto d = rl::diff(plain, buggy);
        int added = 0, removed = 0;
        for (const rl::DiffLine& l : d) {
            if (l.op == '+') {
                ++added;
                CHECK(buggy.lines[size_t(l.bug_line - 1)].bug);  // every added line is a marked one
            }
            if (l.op == '-') ++removed;
            if (l.op == ' ') CHECK(plain.lines[size_t(l.clean_line - 1)].text == buggy.lines[size_t(l.bug_line - 1)].text);
        }
        CHECK(added >= 1);
        CHECK(added <= 20);  // a few lines of a source of 150 or more, not a different program
        CHECK(size_t(d.size() - size_t(added)) == plain.lines.size());
        CHECK(size_t(d.size() - size_t(removed)) == buggy.lines.size());
    }
}

TEST_CASE("diff: identical sources are all ' ', one changed line is '-' then '+'") {
    rl::KernelSource a, b;
    a.lines = {{"x", "", false}, {"y", "", false}, {"z", "", false}};
    b = a;
    for (const auto& l : rl::diff(a, b)) CHECK(l.op == ' ');
    b.lines[1] = {"Y", "", true};
    const auto d = rl::diff(a, b);
    REQUIRE(d.size() == 4);
    CHECK(d[0].op == ' ');
    CHECK(((d[1].op == '-' && d[2].op == '+') || (d[1].op == '+' && d[2].op == '-')));
    CHECK(d[3].op == ' ');
}

TEST_CASE("lessons: {line:SITE} becomes the site's line in the step's source; a missing site is a problem") {
    rl::install_lesson_lines();
    const char* toml = R"(title = "t"
summary = "s"
[schedule]
n = 64
block = 64
[[step]]
text = "The shuffle is on {line:shuffle}, the barrier on {line:barrier}."
[[step]]
text = "No such place: {line:no-such-site}."
)";
    std::vector<rl::LessonError> errors;
    auto lesson = rl::parse_lesson(toml, "t", "t.toml", errors);
    REQUIRE(lesson);
    const auto played = rl::play_lesson(*lesson);
    REQUIRE(played.size() == 2);
    const rl::KernelSource src = rl::kernel_source(lesson->steps[0].schedule);
    CHECK(played[0].problems.empty());
    CHECK(played[0].narrative == "The shuffle is on line " + std::to_string(src.line_of("shuffle")) + ", the barrier on line " +
                                     std::to_string(src.line_of("barrier")) + ".");
    REQUIRE(played[1].problems.size() >= 1);
    CHECK(played[1].problems[0].find("no site no-such-site") != std::string::npos);
}
