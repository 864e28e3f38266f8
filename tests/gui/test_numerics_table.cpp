// tests/gui/test_numerics_table.cpp — the numerics table both front ends show: one row per order, cells from the report.
#include <doctest/doctest.h>

#include "app/render/numerics_table.h"
#include "core/emulator.h"

using namespace rl;

TEST_CASE("numerics table: header, one row per order, the chosen row marked, cells from the report") {
    Schedule s;  // the eight-thread example
    const NumericsReport r = compare_numerics(s);
    const render::NumericsTable t = render::numerics_table(r);
    CHECK(t.header == std::vector<std::string>{"order", "result", "bits", "abs error", "error (ULPs)", "bound",
                                               "within bound", "results seen"});
    REQUIRE(t.rows.size() == r.rows.size());
    int chosen = 0;
    for (size_t i = 0; i < t.rows.size(); ++i) {
        const render::NumericsCellRow& row = t.rows[i];
        REQUIRE(row.cells.size() == t.header.size());
        CHECK(row.cells[2] == r.rows[i].bits_hex);
        CHECK(row.cells[6] == (r.rows[i].within_bound ? "yes" : "NO"));
        CHECK(row.tooltip.find("bound: " + r.rows[i].bound_formula) != std::string::npos);
        if (row.chosen) {
            ++chosen;
            CHECK(row.cells[0] == "chosen schedule");
            CHECK(row.cells[1] == "36");
        }
        if (!r.rows[i].deterministic) CHECK(row.cells[7].find(" in " + std::to_string(r.rows[i].runs) + " orders") != std::string::npos);
        else CHECK(row.cells[7] == "1 (fixed order)");
    }
    CHECK(chosen == 1);
    CHECK(t.rows[0].cells[0] == "serial left-to-right (f32)");
    CHECK(t.summary.find("exact sum 36") == 0);
    CHECK(t.summary.find(r.reference_hex) != std::string::npos);
}

TEST_CASE("numerics table: group prefixes as rlab numerics prints them, atomic rows list their bit patterns") {
    Schedule s;
    s.n = 4096;
    s.block = 256;
    s.input.kind = InputKind::Cancellation;
    const NumericsReport r = compare_numerics(s);
    const render::NumericsTable t = render::numerics_table(r);
    bool warp = false, accum = false, grid = false, atomic_tip = false;
    for (const render::NumericsCellRow& row : t.rows) {
        warp |= row.cells[0].rfind("warp ", 0) == 0;
        accum |= row.cells[0].rfind("accum ", 0) == 0;
        grid |= row.cells[0].rfind("grid ", 0) == 0;
        if (!row.deterministic) atomic_tip |= row.tooltip.find(" x") != std::string::npos;
    }
    CHECK(warp);
    CHECK(accum);
    CHECK(grid);
    CHECK(atomic_tip);
}
