// tests/test_gpu_corpus.cpp — the recorded GPU trace corpus (tests/data/gpu-corpus, recorded on the
// H200 by scripts/record-gpu-corpus.sh): the checker's findings on each trace, with the file's own
// hazards and bug names stripped, against an independent statement of what each bug must show; and
// the emulator replayed in the GPU's order (atomics, tickets) equal to every deterministic trace.
#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <set>
#include <string>

#include "core/analysis.h"
#include "core/checker.h"
#include "core/emulator.h"
#include "core/gpu_trace.h"
#include "core/schedule.h"
#include "core/trace_io.h"
#include "corpus.h"
#include "stripped_trace.h"
#include "support/gpu_compare.h"
#include "support/hazard_places.h"

using namespace rl;

namespace {

// What the checker must find on a GPU trace of each bug (by rule), what it may find besides (races
// and stale reads depend on timing), and whether the hardware's events are fixed by the schedule
// (then the replayed emulator equals the GPU trace event for event). Written from the bugs' meaning
// and the CUDA rules, not from any trace.
struct Expect {
    std::set<std::string> must, may;
    bool deterministic;
};
const std::map<std::string, Expect>& expectations() {
    static const std::map<std::string, Expect> table{
        // never-launched lanes count as exited: naming them is no violation, reading them is undefined
        // (the block stage's full-mask shuffle over the warp partials is added below where lanes exist)
        {"full-mask-partial-warp", {{"read-from-non-participating-lane"}, {}, false}},
        {"unbounded-source", {{"read-from-non-participating-lane"}, {}, false}},
        {"uninit-tail", {{"uninitialised-tail"}, {}, false}},
        {"wrong-identity", {{"wrong-identity"}, {}, true}},
        // the partials are read with no barrier after their stores, whatever value the load saw
        {"missing-barrier", {{"shared-memory-race"}, {"shared-slot-never-written"}, false}},
        {"grid-stride-order", {{"order-violation"}, {}, true}},
        {"descending-order", {{"order-violation"}, {}, true}},
        {"atomic-per-element", {{"atomic-contention"}, {}, true}},
        {"volatile-unroll", {{"implicit-warp-sync"}, {"shared-memory-race"}, false}},
        // existing lanes (threads past the input) skip the shuffle the full mask names
        {"divergent-shuffle", {{"mask-names-inactive-lanes"}, {"read-from-non-participating-lane"}, false}},
        {"missing-threadfence", {{"missing-threadfence"}, {"stale-partial-read"}, false}},
    };
    return table;
}

// Bugs whose kernels may not finish on the GPU (a hang ended by the watchdog is their recorded result).
const std::set<std::string> kMayHang{"divergent-shuffle", "divergent-barrier"};

Trace load(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    REQUIRE(in);
    return read_trace_json(in);
}

std::string bug_of(const Schedule& s) {  // the one injected bug's name, or ""
    for (int b = 0; b < kBugCount; ++b)
        if (s.bugs & (1u << b)) return std::string(to_string(Bug(1u << b)));
    return "";
}

bool allow_cpu() {
    const char* v = std::getenv("RLAB_GPU_CORPUS_ALLOW_CPU");
    return v && std::string(v) == "1";
}

// The emulator's trace of a recorded trace's schedule and input, its atomics and tickets in the GPU's order.
Trace replayed(const Trace& gpu) {
    EmulatorOptions opt;
    opt.atomic_positions = atomic_positions_of(gpu);
    opt.tickets = tickets_of(gpu);
    return emulate(gpu.schedule, make_input(gpu.schedule), opt);
}

// The recorder's manifest: "key: value" header lines, then "NAME ok EVENTS" / "NAME failed CODE: why".
std::map<std::string, std::string> manifest_lines(std::map<std::string, std::string>* header = nullptr) {
    std::ifstream in(testing::corpus_dir() + "/recorded.txt");
    std::map<std::string, std::string> out;
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] == '#') continue;
        const size_t colon = line.find(": "), space = line.find(' ');
        if (colon != std::string::npos && colon < space) {
            if (header) (*header)[line.substr(0, colon)] = line.substr(colon + 2);
            continue;
        }
        out[line.substr(0, space)] = space == std::string::npos ? "" : line.substr(space + 1);
    }
    return out;
}


}  // namespace

TEST_CASE("GPU corpus: recorded on a GPU, at least 50 traces, every grid stage and every bug that finishes") {
    std::map<std::string, std::string> header;
    const auto recorded = manifest_lines(&header);
    REQUIRE_MESSAGE(!recorded.empty(), "recorded.txt is missing from " << testing::corpus_dir());
    MESSAGE("recorded " << header["date"] << " on " << header["device"] << ", driver " << header["driver"]);
    if (!allow_cpu()) {
        CHECK(header["backend"] == "cuda");
        CHECK(!header["device"].empty());
        CHECK(!header["driver"].empty());
    }
    CHECK(!header["date"].empty());
    size_t traces = 0;
    std::set<std::string> stages, bugs_recorded, bugs_listed;
    for (const testing::CorpusEntry& e : testing::corpus_schedules()) {
        CAPTURE(e.name);
        const std::string bug = e.flag("--bug");
        if (!bug.empty()) bugs_listed.insert(bug);
        auto it = recorded.find(e.name);
        REQUIRE_MESSAGE(it != recorded.end(), "schedules.txt lists " << e.name << " but the corpus did not record it");
        const bool ok = it->second.rfind("ok", 0) == 0;
        if (!ok) {  // only a bug that can hang the GPU may be missing, and its failure is kept in words
            INFO("recorded: " << it->second);
            CHECK(kMayHang.count(bug) == 1);
            continue;
        }
        CHECK(std::filesystem::exists(testing::corpus_dir() + "/" + e.name + ".json"));
        ++traces;
        stages.insert(e.flag("--grid-stage").empty() ? "two-pass" : e.flag("--grid-stage"));
        if (!bug.empty()) bugs_recorded.insert(bug);
    }
    CHECK(traces >= 50);
    CHECK(traces == testing::corpus_traces().size());
    for (const char* g : {"two-pass", "atomic-block", "atomic-element", "last-block", "cooperative"}) CHECK(stages.count(g) == 1);
    for (const auto& entry : expectations()) {
        const std::string& bug = entry.first;  // not a structured binding: clang 14 cannot capture one (CHECK_MESSAGE)
        if (!kMayHang.count(bug)) CHECK_MESSAGE(bugs_recorded.count(bug) == 1, bug << " has no recorded trace");
    }
    for (const std::string& bug : bugs_listed) CHECK_MESSAGE(expectations().count(bug) == 1, bug << " has no expectation");
    bool raced = false;
    for (const testing::CorpusEntry& e : testing::corpus_schedules())
        raced = raced || (e.flag("--bug") == "missing-barrier" && !e.flag("--race-delay").empty());
    CHECK(raced);
}

TEST_CASE("GPU corpus: each recording holds the schedule of its line in schedules.txt and the manifest's event count") {
    // The schedule is rebuilt from the line's flags by the schedule parser (the flags `rlab trace` was given), so a
    // recording made from another line, a stale file or a reader that drops a field fails here.
    const auto recorded = manifest_lines();
    size_t compared = 0;
    for (const testing::CorpusEntry& e : testing::corpus_schedules()) {
        CAPTURE(e.name);
        auto it = recorded.find(e.name);
        if (it == recorded.end() || it->second.rfind("ok ", 0) != 0) continue;  // the test above judges what is missing
        Schedule want;
        for (size_t i = 0; i + 1 < e.flags.size(); i += 2) {
            if (e.flags[i] == "--race-delay") continue;  // an amplifier of the recorder, not part of the schedule
            REQUIRE(e.flags[i].rfind("--", 0) == 0);
            CHECK(set_field(want, std::string_view(e.flags[i]).substr(2), e.flags[i + 1]) == "");
        }
        REQUIRE(validate(want) == "");
        const Trace t = load(testing::corpus_dir() + "/" + e.name + ".json");
        CHECK(describe(t.schedule) == describe(want));
        CHECK(t.schedule.input == want.input);
        CHECK(t.schedule.bugs == want.bugs);
        CHECK(std::to_string(t.events.size()) == it->second.substr(3));
        ++compared;
    }
    CHECK(compared + 1 == testing::corpus_schedules().size());  // all but divergent-shuffle, which hangs the GPU
}

TEST_CASE("GPU corpus: the checker finds by rule what each bug must show, and nothing on correct schedules") {
    size_t checked = 0;
    for (const auto& path : testing::corpus_traces()) {
        CAPTURE(path.filename().string());
        const Trace recorded = load(path);
        if (!allow_cpu()) CHECK(recorded.backend == Backend::Cuda);
        const std::string bug = bug_of(recorded.schedule);
        // the checker sees the events alone: no bug names, no hazards from the file
        const Trace t = testing::stripped(recorded);
        const Findings findings = check_findings(t);
        std::set<std::string> found;  // hazards and notes (the cost finding) by kind
        for (const auto* list : {&findings.hazards, &findings.notes})
            for (const Hazard& h : *list) found.insert(std::string(to_string(h.kind)));
        Expect want{{}, {}, true};
        if (!bug.empty()) {
            REQUIRE_MESSAGE(expectations().count(bug) == 1, "no expectation for " << bug);
            want = expectations().at(bug);
            // a block of several warps combines its warp partials with a shuffle over lanes 0..W-1 of
            // warp 0: with the full mask it names lanes W-31 of warp 0, which exist and skip the call
            const Schedule& s = t.schedule;
            const bool shuffle = s.warp == WarpStage::ShflDown || s.warp == WarpStage::ShflDownAsc || s.warp == WarpStage::ShflXor;
            if (bug == "full-mask-partial-warp" && s.block > 32 && shuffle && s.block_stage == BlockStage::WarpPartials)
                want.must.insert("mask-names-inactive-lanes");
        } else if (t.schedule.effective_grid_stage() == GridStage::AtomicElement) {
            want.must = {"atomic-contention"};  // a cost finding (a note): one chain of n atomics on one address
        }
        std::string found_text;
        for (const std::string& k : found) found_text += k + " ";
        INFO("bug: " << (bug.empty() ? "none" : bug) << "; found: " << found_text);
        for (const std::string& k : want.must) CHECK_MESSAGE(found.count(k) == 1, "missing " << k);
        for (const std::string& k : found) CHECK_MESSAGE((want.must.count(k) + want.may.count(k)) == 1, "unexpected " << k);
        // Where: a hazard the rules fix (a kind the bug must show) is at the places the checker names on the
        // emulator's trace of the same schedule, whatever values the hardware's timing gave; hazards of the
        // kinds a bug only may show depend on that timing, so only their kind is fixed above.
        const Trace emu = replayed(recorded);
        for (const std::string& k : want.must) {
            HazardKind kind{};
            REQUIRE(parse_hazard_kind(k, kind));
            CHECK(test::hazard_places(t, is_note(kind) ? findings.notes : findings.hazards, kind) ==
                  test::hazard_places(emu, is_note(kind) ? emu.notes : emu.hazards, kind));
        }
        ++checked;
    }
    CHECK(checked == testing::corpus_traces().size());
}

TEST_CASE("GPU corpus: the emulator replayed in the GPU's order equals every deterministic trace, event for event") {
    size_t compared = 0;
    for (const auto& path : testing::corpus_traces()) {
        CAPTURE(path.filename().string());
        const Trace gpu = load(path);
        const std::string bug = bug_of(gpu.schedule);
        const InputData in = make_input(gpu.schedule);
        // the trace was recorded from the input its schedule describes
        REQUIRE(gpu.inputs.size() == in.size());
        for (size_t i = 0; i < in.size(); ++i) CHECK(gpu.inputs[i] == in.value(i));
        if (!bug.empty() && !expectations().at(bug).deterministic) continue;
        EmulatorOptions opt;
        opt.atomic_positions = atomic_positions_of(gpu);
        opt.tickets = tickets_of(gpu);
        const Trace emu = emulate(gpu.schedule, in, opt);
        CHECK(test::first_difference(gpu, emu) == "");
        CHECK(gpu.result_value == emu.result_value);
        CHECK((gpu.result_flags & ~kHazard) == (emu.result_flags & ~kHazard));
        ++compared;
    }
    MESSAGE(compared << " deterministic traces compared");
    CHECK(compared >= 40);
}
