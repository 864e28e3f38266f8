// tests/test_trace_io.cpp — JSON round trip (exact), malformed input errors, Chrome trace shape.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include "core/emulator.h"
#include "core/trace_io.h"
#include "random_schedule.h"
#include "support/helpers.h"

using namespace rl;

TEST_CASE("JSON round trip is exact: events bit for bit, hazards, result and reference") {
    std::mt19937_64 rng(99);
    for (int i = 0; i < 60; ++i) {
        Schedule s = testing::random_schedule(rng, 3000);
        if (i % 3 == 0) s.bugs = uint16_t(Bug::UninitTail);
        if (!validate(s).empty()) continue;
        INFO(describe(s));
        Trace t = emulate(s);
        std::stringstream io;
        write_trace_json(io, t);
        Trace r = read_trace_json(io);
        CHECK(test::identical_events(t, r));
        CHECK(r.hazards.size() == t.hazards.size());
        CHECK(r.notes.size() == t.notes.size());
        CHECK(r.result_value == t.result_value);
        CHECK(r.result_event == t.result_event);
        CHECK(r.reference_value == t.reference_value);
        CHECK(r.reference_exact == t.reference_exact);
        CHECK(r.inputs == t.inputs);
        CHECK(describe(r.schedule) == describe(t.schedule));
        CHECK(analyze(r).span == analyze(t).span);
    }
}

TEST_CASE("JSON carries the contract's fields") {
    auto j = nlohmann::json::parse(test::eight_threads_json());
    CHECK(j["version"] == 1);
    CHECK(j["schedule"]["op"] == "sum");
    CHECK(j["inputs"].size() == 8);
    CHECK(j["result"]["value"] == 36.0);
    CHECK(j["result"]["reference"] == 36.0);
    CHECK(j["analysis"]["work"] == 7);
    CHECK(j["analysis"]["span"] == 3);
    CHECK(j["analysis"]["serial_depth"] == 7);
    CHECK(j["analysis"]["tree_depth"] == 3);
    CHECK(j["hazards"].empty());
    CHECK(j["notes"].empty());
    const auto& e = j["events"][0];
    for (const char* key : {"kind", "step", "block", "warp", "lane", "value", "flags", "deps"}) CHECK(e.contains(key));
    int shuffles = 0;
    for (const auto& ev : j["events"])
        if (ev["kind"] == "shuffle") {
            ++shuffles;
            CHECK(ev.contains("offset"));
            CHECK(ev.contains("source_lane"));
            CHECK(ev["mask"] == "0x000000ff");
        }
    CHECK(shuffles == 24);  // 8 lanes execute each of the 3 shuffles, each records its own
}

TEST_CASE("JSON: notes are written beside the hazards, and an old trace's atomic-contention hazard loads as a note") {
    // One atomic per element over 40 elements: a chain of 40 atomics as long as the input, the cost note, and no
    // hazard. The file lists it under "notes", with the same fields as a hazard, and "hazards" stays (empty).
    Schedule s;
    s.n = 40;
    s.block = 32;
    s.bugs = uint16_t(Bug::AtomicPerElement);
    const Trace t = emulate(s);
    REQUIRE(t.hazards.empty());
    REQUIRE(t.notes.size() == 1);
    std::stringstream io;
    write_trace_json(io, t);
    auto j = nlohmann::json::parse(io.str());
    CHECK(j["hazards"].empty());
    REQUIRE(j["notes"].size() == 1);
    CHECK(j["notes"][0]["kind"] == "atomic-contention");
    CHECK(j["notes"][0]["event"] == t.notes[0].event);
    CHECK(j["notes"][0]["lanes"] == "0x00000001");
    CHECK(j["notes"][0]["what"] == t.notes[0].what);
    CHECK(j["notes"][0]["rule"] == std::string(rule_of(HazardKind::AtomicContention)));
    std::stringstream back(io.str());
    const Trace r = read_trace_json(back);
    CHECK(r.hazards.empty());
    REQUIRE(r.notes.size() == 1);
    CHECK(r.notes[0].kind == HazardKind::AtomicContention);
    CHECK(r.notes[0].event == t.notes[0].event);
    // A trace written before notes were kept: no "notes", the contention under "hazards". It loads, as a note.
    j["hazards"] = j["notes"];
    j.erase("notes");
    std::stringstream old(j.dump());
    const Trace o = read_trace_json(old);
    CHECK(o.hazards.empty());
    REQUIRE(o.notes.size() == 1);
    CHECK(o.notes[0].kind == HazardKind::AtomicContention);
    CHECK(o.notes[0].what == t.notes[0].what);
    // A hazard kind under "notes" stays a hazard: each finding goes to the list its kind belongs to.
    j["notes"] = nlohmann::json::array({j["hazards"][0]});
    j["notes"][0]["kind"] = "shared-memory-race";
    j["hazards"] = nlohmann::json::array();
    std::stringstream moved(j.dump());
    const Trace m = read_trace_json(moved);
    CHECK(m.notes.empty());
    REQUIRE(m.hazards.size() == 1);
    CHECK(m.hazards[0].kind == HazardKind::SharedMemoryRace);
}

TEST_CASE("malformed traces give a one-line error, never a crash") {
    std::string good = test::eight_threads_json();
    CHECK(test::trace_json_error(good).empty());
    CHECK(test::trace_json_error("").find("not valid JSON") != std::string::npos);
    CHECK(test::trace_json_error("{\"version\": 1").find("not valid JSON") != std::string::npos);
    CHECK(test::trace_json_error("[1,2]").find("must be an object") != std::string::npos);
    CHECK(test::trace_json_error("{}").find("no \"version\"") != std::string::npos);

    auto mutate = [&](auto fn) {
        auto j = nlohmann::ordered_json::parse(good);
        fn(j);
        return test::trace_json_error(j.dump());
    };
    CHECK(mutate([](auto& j) { j["version"] = 7; }).find("unknown version 7") != std::string::npos);
    CHECK(mutate([](auto& j) { j["schedule"]["block"] = 5000; }).find("--block 5000") != std::string::npos);
    CHECK(mutate([](auto& j) { j["schedule"]["warp"] = "shfl-up"; }).find("--warp shfl-up") != std::string::npos);
    CHECK(mutate([](auto& j) { j["events"][3]["kind"] = "teleport"; }).find("unknown kind") != std::string::npos);
    CHECK(mutate([](auto& j) { j["events"][3]["deps"][0] = 100000; }).find("event 3 operand 100000 points to a later event") != std::string::npos);
    CHECK(mutate([](auto& j) { j["events"][3]["deps"][1] = 4; }).find("event 3 operand 4 points to a later event") != std::string::npos);
    CHECK(mutate([](auto& j) { j["events"][3]["deps"][0] = -1; }).find("not an event index") != std::string::npos);
    CHECK(mutate([](auto& j) { j["events"][3]["lane"] = 40; }).find("at most 31") != std::string::npos);
    CHECK(mutate([](auto& j) { j["events"][3]["bits"] = "zz"; }).find("hex") != std::string::npos);
    CHECK(mutate([](auto& j) { j["events"][3].erase("step"); }).find("event 3 has no \"step\"") != std::string::npos);
    CHECK(mutate([](auto& j) { j["result"]["event"] = -1; }).find("result") != std::string::npos);
    for (const std::string& msg : {mutate([](auto& j) { j["version"] = "one"; })}) CHECK(msg.find('\n') == std::string::npos);
    // wrong types anywhere: still one clear line (found by mutating traces at random)
    CHECK(mutate([](auto& j) { j["backend"] = nullptr; }).find("\"backend\" must be a string") != std::string::npos);
    CHECK(mutate([](auto& j) { j["device"] = 3; }).find("\"device\" must be a string") != std::string::npos);
    CHECK(mutate([](auto& j) { j["result"]["reference"] = "x"; }).find("must be a number") != std::string::npos);
    CHECK(mutate([](auto& j) { j["scope_start"][1] = "x"; }).find("scope_start") != std::string::npos);
    CHECK(mutate([](auto& j) { j["inputs"][0] = "x"; }).find("inputs") != std::string::npos);
    CHECK(mutate([](auto& j) { j["events"][0]["flags"] = "x"; }).find("event 0 \"flags\" must be a list of names") != std::string::npos);
}

TEST_CASE("Chrome trace: valid JSON, a track per warp, flow arrows for shuffles") {
    Schedule s;
    s.n = 100;
    s.block = 64;
    std::ostringstream out;
    Trace t = emulate(s);
    write_chrome_trace(out, t);
    auto j = nlohmann::json::parse(out.str());
    size_t x = 0, flows_start = 0, flows_end = 0, thread_names = 0;
    for (const auto& e : j["traceEvents"]) {
        std::string ph = e["ph"];
        if (ph == "X") ++x;
        if (ph == "s") ++flows_start;
        if (ph == "f") ++flows_end;
        if (ph == "M" && e["name"] == "thread_name") ++thread_names;
    }
    size_t shuffles = 0;  // shuffles that read a value some event produced (not a lane past the block)
    for (const Event& e : t.events) shuffles += e.kind == EventKind::Shuffle && e.dep[0] != kNoEvent;
    CHECK(x == t.events.size());
    CHECK(flows_start == shuffles);
    CHECK(flows_end == shuffles);
    CHECK(thread_names == 2 + 2 + 1);  // blocks 0 and 1 with two warps each, the second launch with one
}
