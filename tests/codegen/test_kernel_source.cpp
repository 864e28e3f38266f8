// tests/codegen/test_kernel_source.cpp — the generated source: what each schedule choice writes, bugs marked
// where they change the code, no recording calls, the diff against the clean source.
#include <doctest/doctest.h>

#include <random>
#include <optional>
#include <set>
#include <string>

#include "codegen/kernel_source.h"
#include "codegen/lesson_lines.h"
#include "core/lesson.h"
#include "core/emulator.h"
#include "core/error.h"
#include "tests/codegen/bug_schedules.h"
#include "tests/random_schedule.h"

namespace {
// The 1-based lines of the source text that hold `construct`, found by searching the text itself.
std::vector<int> lines_with(const rl::KernelSource& k, const std::string& construct) {
    std::vector<int> out;
    const std::string text = k.text();
    int line = 1;
    for (size_t at = 0; at < text.size();) {
        const size_t end = text.find('\n', at);
        if (text.substr(at, end - at).find(construct) != std::string::npos) out.push_back(line);
        at = end + 1;
        ++line;
    }
    return out;
}

// The construct is written once, on the line of `site` (0: no site; then `line_of_site` gives the line expected),
// and the line table puts the events of `kind` on exactly that line: every one of them, and nothing else there.
void on_site(const rl::Schedule& s, const std::string& construct, const std::string& site,
             std::optional<rl::EventKind> kind, int line_of_site = 0) {
    CAPTURE(rl::describe(s));
    CAPTURE(construct);
    CAPTURE(site);
    const rl::KernelSource k = rl::kernel_source(s);
    const std::vector<int> found = lines_with(k, construct);
    REQUIRE(found.size() == 1);
    const int line = found[0];
    if (!site.empty()) CHECK(k.line_of(site) == line);
    if (line_of_site) CHECK(line_of_site == line);
    if (!kind) return;
    const rl::Trace t = rl::emulate(s);
    const std::vector<uint32_t> table = rl::line_table(k, t);
    REQUIRE(table.size() == t.events.size());
    size_t of_kind = 0;
    for (size_t i = 0; i < t.events.size(); ++i) {
        CAPTURE(i);
        if (t.events[i].kind == *kind) {
            ++of_kind;
            CHECK(table[i] == uint32_t(line));
        } else {
            CHECK(table[i] != uint32_t(line));
        }
    }
    CHECK(of_kind > 0);
}
}  // namespace

TEST_CASE("kernel source: each stage choice writes its construct, on the line of its site and its events") {
    using rl::EventKind;
    rl::Schedule s;
    s.n = 5000;
    s.block = 100;
    on_site(s, "__shfl_down_sync(", "shuffle", EventKind::Shuffle);
    {
        // two-pass: a second launch, whose one line calls the finishing block's code
        const rl::KernelSource k = rl::kernel_source(s);
        const std::vector<int> finish = lines_with(k, "__global__ void finish(");
        REQUIRE(finish.size() == 1);
        CHECK(k.lines[size_t(finish[0])].text == "    finish_partials(partials, out);");
        CHECK(lines_with(k, "__device__ void finish_partials(").at(0) < k.line_of("partial-load"));
        // the second launch's partial loads are on the partial-load line, inside finish_partials
        on_site(s, "const Value p = partials[idx];", "partial-load", EventKind::PartialLoad);
    }
    s.warp = rl::WarpStage::ShflXor;
    on_site(s, "__shfl_xor_sync(", "shuffle", EventKind::Shuffle);
    s.warp = rl::WarpStage::SmemStrided;
    {
        const rl::KernelSource k = rl::kernel_source(s);
        // the strided index, two lines above the loads it addresses
        on_site(s, "2 * stride * lane", "", std::nullopt, k.line_of("warp-smem-load") - 2);
        // __syncwarp(mask) twice: after the stores and after each level; the warp syncs are on those two lines
        CHECK(lines_with(k, "__syncwarp(mask)") == std::vector<int>{k.line_of("syncwarp"), k.line_of("syncwarp-level")});
        const rl::Trace t = rl::emulate(s);
        const std::vector<uint32_t> table = rl::line_table(k, t);
        size_t syncs = 0;
        for (size_t i = 0; i < t.events.size(); ++i)
            if (t.events[i].kind == EventKind::WarpSync) {
                ++syncs;
                CHECK((table[i] == uint32_t(k.line_of("syncwarp")) || table[i] == uint32_t(k.line_of("syncwarp-level"))));
            }
        CHECK(syncs > 0);
    }
    s.assign = rl::Assign::GridStride;
    {
        // the grid-stride loop header, the line above each element's load
        const rl::KernelSource k = rl::kernel_source(s);
        on_site(s, "i += THREADS", "", std::nullopt, k.line_of("load") - 1);
        on_site(s, "const Value x = lift(in[i], i);", "load", EventKind::Load);
    }
    s.grid_stage = rl::GridStage::LastBlock;
    on_site(s, "__threadfence();  // the partial", "fence", EventKind::Fence);
    CHECK(lines_with(rl::kernel_source(s), "__threadfence()").size() == 2);  // and once more before the last block reads
    on_site(s, "atomicAdd(done, 1u)", "ticket", EventKind::Ticket);
    s.grid_stage = rl::GridStage::Cooperative;
    on_site(s, "cg::this_grid().sync()", "grid-sync", EventKind::GridSync);
    s.grid_stage = rl::GridStage::AtomicElement;
    on_site(s, "atomicAdd(out, x)", "atomic-op", std::nullopt);
    on_site(s, "atomic_combine(out, x);", "atomic", EventKind::Atomic);  // each element's atomic is the call's line
    s.op = rl::Op::Max;
    on_site(s, "atomicCAS(", "atomic-op", std::nullopt);
    s.type = rl::DType::BF16;
    on_site(s, "__bfloat162float(", "load", EventKind::Load);
    s.grid_stage = rl::GridStage::TwoPass;
    s.op = rl::Op::Sum;
    s.accum = rl::Accum::Kahan;
    {
        // the compensation, the line above the sum it corrects (the accumulate site)
        const rl::KernelSource k = rl::kernel_source(s);
        on_site(s, "c = (t - v) - y;", "", std::nullopt, k.line_of("accumulate") - 1);
        CHECK(k.lines[size_t(k.line_of("accumulate") - 1)].text == "            v = t;");
    }
    s.accum = rl::Accum::Pairwise;
    CHECK(rl::kernel_source(s).line_of("pairwise-finish") > 0);
    on_site(s, "for (; depth > 1; --depth)", "pairwise-finish", std::nullopt);
    // With 3 items per thread the stack holds two partials at the end: the finishing merges are on that line.
    s.items = 3;
    s.assign = rl::Assign::Contiguous;
    on_site(s, "for (; depth > 1; --depth)", "pairwise-finish", std::nullopt);
    {
        const rl::KernelSource k = rl::kernel_source(s);
        const rl::Trace t = rl::emulate(s);
        const std::vector<uint32_t> table = rl::line_table(k, t);
        // a thread's three items: push, push (merge on the accumulate line), push; the finish merges the two
        size_t finishing = 0, accumulating = 0;
        for (size_t i = 0; i < t.events.size(); ++i) {
            finishing += table[i] == uint32_t(k.line_of("pairwise-finish"));
            accumulating += table[i] == uint32_t(k.line_of("accumulate"));
        }
        const uint64_t full = s.n / 3;  // threads with three items
        CHECK(accumulating == full + (s.n % 3 == 2 ? 1 : 0));
        CHECK(finishing == full);
    }
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
