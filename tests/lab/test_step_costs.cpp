// tests/lab/test_step_costs.cpp — the current step's cost lines both front ends show, and the report LabState keeps.
#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

#include "app/lab/lab_state.h"
#include "app/lab/step_costs.h"

using namespace rl;
using namespace rl::lab;

TEST_CASE("step cost lines: one step's numbers in words") {
    CostReport c;
    c.has_lines = true;
    c.steps.resize(2);
    StepCosts& s = c.steps[1];
    s.accesses = 5, s.conflicted = 3, s.max_degree = 4, s.worst_line = 11, s.divergent_warps = 2;
    s.lanes = 64, s.live = 48, s.active = 16;
    const std::vector<std::string> l = step_cost_lines(c, 1);
    REQUIRE(l.size() == 3);
    CHECK(l[0] == "bank conflicts: 4-way at line 11 (3 of 5 warp accesses)");
    CHECK(l[1] == "divergent warps: 2");
    CHECK(l[2] == "idle lanes: 48 of 64 (75%), 32 waiting");  // 64 - 16 idle, 48 - 16 alive but silent
    CHECK(step_cost_lines(c, 0)[0] == "bank conflicts: no shared-memory access");
    CHECK(step_cost_lines(c, 2).empty());   // past the last step
    CHECK(step_cost_lines(CostReport{}, 0).empty());  // not computed yet
}

TEST_CASE("LabState computes the costs with the analysis, with the generated source's lines") {
    // The strided warp tree over 64 elements (two warps). f64: a double slot covers two words. The store s[lane] of
    // 32 lanes puts words 0..63 in the banks, two each: 2-way. At stride 1 lanes 0-15 load s[2l] (words 4l, 4l+1):
    // lanes l and l + 8 share their banks: 2-way; stride 2, lanes 0-7, words 8l: 2-way again; never worse.
    // f32: 32 words in 32 banks at most, so never a conflict.
    auto costs_of = [](DType type) {
        LabState s;
        s.backend = BackendChoice::Cpu;
        s.schedule.n = 64;
        s.schedule.block = 64;
        s.schedule.type = type;
        s.schedule.warp = WarpStage::SmemStrided;
        REQUIRE(s.rerun());
        CHECK(s.costs.steps.empty());  // with the analysis, after the first frame
        s.finish_analysis();
        REQUIRE(s.costs.steps.size() == s.trace.step_count);
        return std::make_pair(s.costs, s.source.source);
    };
    auto degree_at = [](const CostReport& c, int line) {
        for (const LineCost& l : c.lines)
            if (int(l.line) == line) return l.max_degree;
        return 0u;
    };
    const auto wide = costs_of(DType::F64);
    const CostReport& c = wide.first;
    CHECK(c.slot_bytes == 8);
    CHECK(c.has_lines);
    CHECK(c.max_degree == 2);
    CHECK(degree_at(c, wide.second.line_of("warp-smem-store")) == 2);
    CHECK(degree_at(c, wide.second.line_of("warp-smem-load")) == 2);
    CHECK(c.worst_line == uint32_t(wide.second.line_of("warp-smem-store")));  // the first 2-way access
    const auto narrow = costs_of(DType::F32);
    CHECK(narrow.first.slot_bytes == 4);
    CHECK(narrow.first.shared_accesses > 0);
    CHECK(narrow.first.max_degree == 1);
}
