// tests/test_hardening.cpp — issue 19 in core: bounded readers (nesting, size, special files, launch geometry,
// operand DAG), checked atomic writes, and the exact reference with infinities and overflow in linear time; the
// binary handoff's reader (core/trace_binary.h) against truncation, hostile counts and damage.
#include <doctest/doctest.h>

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <sstream>
#include "core/emulator.h"
#include "core/exact_sum.h"
#include "core/file_io.h"
#include "core/lesson.h"
#include "core/lesson_recorded.h"
#include "core/limits.h"
#include "core/student_trace.h"
#include "core/trace_binary.h"
#include "core/trace_io.h"
#include "support/helpers.h"

using namespace rl;
namespace fs = std::filesystem;

namespace {

std::string mutated(const std::function<void(nlohmann::ordered_json&)>& fn) {
    auto j = nlohmann::ordered_json::parse(test::eight_threads_json());
    fn(j);
    return test::trace_json_error(j.dump());
}

std::string data(const std::string& name) { return std::string(RLAB_SOURCE_DIR) + "/tests/data/hostile/" + name; }

std::string file_error(const std::string& path) {
    return test::thrown_error([&] { read_trace_file(path); });
}

}  // namespace

TEST_CASE("trace reader: the committed hostile traces are refused with the reason named") {
    CHECK(file_error(data("trace-step-65535.json")).find("\"step\" is 65535, at most 65534") != std::string::npos);
    CHECK(file_error(data("trace-step-past-count.json")).find("not below \"step_count\" 5") != std::string::npos);
    CHECK(file_error(data("trace-dep-self.json")).find("event 20 names itself") != std::string::npos);
    CHECK(file_error(data("trace-dep-cycle.json")).find("event 10 operand 30 points to a later event") != std::string::npos);
    CHECK(file_error(data("trace-dep-forward.json")).find("event 20 operand 32 points to a later event") != std::string::npos);
    CHECK(file_error(data("trace-block-past-grid.json")).find("event 3 \"block\" is 7") != std::string::npos);
    CHECK(file_error(data("trace-thread-past-block.json")).find("event 3 is thread 20 of a block of 8") != std::string::npos);
    CHECK(file_error(data("trace-hazard-outside.json")).find("hazard 0 names block 9") != std::string::npos);
    CHECK(file_error(data("trace-grid-mismatch.json")).find("\"grid\" is 3") != std::string::npos);
    CHECK(file_error(data("trace-times-partial.json")).find("on every event or on none") != std::string::npos);
}

TEST_CASE("trace reader: every recorded GPU trace reads (rewritten once so that operands point earlier)") {
    size_t read = 0;
    for (const auto& dir : {"/tests/data/gpu-corpus", "/docs/gpu/traces", "/lessons/recorded"})
        for (const auto& f : fs::recursive_directory_iterator(std::string(RLAB_SOURCE_DIR) + dir))
            if (f.path().extension() == ".json" || f.path().string().ends_with(".json.gz")) {
                INFO(f.path().string());
                CHECK(file_error(f.path().string()) == "");
                ++read;
            }
    // Every file is a recording some manifest owns: each corpus file a line of the corpus's recorded.txt that says
    // "ok", each lesson file the recording of a lesson step whose schedule it holds (read_recorded_step refuses a
    // file recorded for another schedule), and the two traces docs/gpu/traces shows.
    size_t corpus_ok = 0;
    std::ifstream manifest(std::string(RLAB_SOURCE_DIR) + "/tests/data/gpu-corpus/recorded.txt");
    for (std::string line; std::getline(manifest, line);)
        if (line.find(" ok ") != std::string::npos) ++corpus_ok;
    std::set<std::string> lesson_files;
    const LessonSet set = load_lessons(std::string(RLAB_SOURCE_DIR) + "/lessons");
    CHECK(set.errors.empty());
    for (const Lesson& l : set.lessons) {
        const RecordedLesson r = find_recorded(l);
        for (size_t k = 0; k < r.files.size(); ++k) {
            if (!r.has(k)) continue;
            INFO(l.name << " step " << k + 1 << ": " << r.files[k]);
            CHECK(read_recorded_step(l, r, k).error == "");
            lesson_files.insert(fs::path(r.files[k]).filename().string() + "@" + l.name);
        }
    }
    CHECK(corpus_ok >= 50);
    CHECK(lesson_files.size() >= 50);
    CHECK(read == corpus_ok + 2 + lesson_files.size());
}

TEST_CASE("trace reader: nesting, special files, folders and sizes are bounded before parsing") {
    std::string deep = test::eight_threads_json();
    const std::string nest = std::string(100000, '[') + std::string(100000, ']');
    deep.replace(deep.find("\"bug\": []"), 9, "\"bug\": " + nest);
    CHECK(test::trace_json_error(deep).find("nested deeper than 64") != std::string::npos);
    CHECK(test::trace_json_error("{\"version\":1,\"events\":[{},{}]}").find("event 0 has no \"kind\"") != std::string::npos);
    CHECK(file_error("/dev/zero").find("not a regular file") != std::string::npos);
    CHECK(file_error(RLAB_SOURCE_DIR).find("is a folder") != std::string::npos);
    CHECK(file_error("/no/such/file.json").find("cannot open") != std::string::npos);
    // Messages stay one line, whatever the file held.
    const std::string nl = mutated([](auto& j) { j["events"][2]["kind"] = "a\nb"; });
    CHECK(nl.find("a\\nb") != std::string::npos);
    CHECK(nl.find('\n') == std::string::npos);
}

TEST_CASE("nesting scans: JSON and TOML depth as the parsers would recurse") {
    CHECK(json_nesting_depth("{\"a\": [1, {\"b\": \"[[[[\"}]}", 64) == 3);  // brackets in strings do not count
    CHECK(json_nesting_depth(std::string(70, '['), 64) == 65);               // stops counting past the limit
    CHECK(toml_nesting_depth("title = \"x\"\n[schedule]\nn = 8\n[[step]]\ntext = \"a.b.c [[[\"\n", 32) == 1);
    CHECK(toml_nesting_depth("x = 1.5\nschedule = { grid-stage = \"atomic-block\" }\n", 32) == 2);
    CHECK(toml_nesting_depth("a.b.c = 1\n", 32) == 3);
    CHECK(toml_nesting_depth("[a.b.c.d]\n", 32) == 4);
    CHECK(toml_nesting_depth("v = [[1], [2, [3]]]\n", 32) == 4);
    CHECK(toml_nesting_depth("# [[[[[[\ns = '''[[[[\n[[[['''\n", 32) == 0);
    std::string lessons_deepest;
    for (const auto& f : fs::directory_iterator(std::string(RLAB_SOURCE_DIR) + "/lessons"))
        if (f.path().extension() == ".toml") {
            std::ifstream in(f.path());
            std::stringstream ss;
            ss << in.rdbuf();
            CHECK(toml_nesting_depth(ss.str(), limits::kTomlDepth) <= 3);
        }
}

TEST_CASE("lessons: nesting, step count, n and type errors are refused with what was expected") {
    auto errors_of = [](const std::string& text) {
        std::vector<LessonError> errors;
        auto l = parse_lesson(text, "x", "x.toml", errors);
        std::string all;
        for (auto& e : errors) all += e.what + "|";
        return std::make_pair(l.has_value(), all);
    };
    std::string dotted = "title = \"x\"\n";
    for (int i = 0; i < 50000; ++i) dotted += "a.";
    dotted += "a = 1\n";
    CHECK(errors_of(dotted).second.find("nested deeper than 32") != std::string::npos);
    std::string header = "title = \"x\"\n[";
    for (int i = 0; i < 50000; ++i) header += "a.";
    header += "a]\n";
    CHECK(errors_of(header).second.find("nested deeper than 32") != std::string::npos);
    const auto n_true = errors_of("title = \"x\"\n[schedule]\nn = true\nblock = 8\n[[step]]\ntext = \"a\"\n");
    CHECK(!n_true.first);
    CHECK(n_true.second.find("'n': expected a whole number") != std::string::npos);
    std::vector<LessonError> errors;
    CHECK(!load_lesson_file(data("lesson-200-steps.toml"), errors));
    REQUIRE(!errors.empty());
    CHECK(errors.back().what.find("200 steps: a lesson has at most 64") != std::string::npos);
    errors.clear();
    CHECK(!load_lesson_file(data("lesson-big-n.toml"), errors));
    REQUIRE(!errors.empty());
    CHECK(errors.back().what.find("elements a lesson step may show") != std::string::npos);
    errors.clear();
    CHECK(!load_lesson_file("/dev/zero", errors));
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].what.find("not a regular file") != std::string::npos);
}

TEST_CASE("exact sum: infinities and overflow give the IEEE result, in linear time") {
    ExactSum over;
    for (int i = 0; i < 3; ++i) over.add(1e308);
    CHECK(over.rounded() == INFINITY);
    CHECK(over.residual() == 0.0);
    ExactSum back;  // overflowing on the way, back in range at the end: exact, no inf
    back.add(1e308), back.add(1e308), back.add(-1e308), back.add(1.0);
    CHECK(back.rounded() == 1e308);
    ExactSum edge;  // DBL_MAX + half an ulp rounds to +inf (ties to even: DBL_MAX is odd), just below stays
    edge.add(std::numeric_limits<double>::max()), edge.add(0x1.0p970);
    CHECK(edge.rounded() == INFINITY);
    ExactSum below;
    below.add(std::numeric_limits<double>::max()), below.add(0x1.0p969);
    CHECK(below.rounded() == std::numeric_limits<double>::max());
    ExactSum mixed;
    mixed.add(INFINITY), mixed.add(-INFINITY);
    CHECK(std::isnan(mixed.rounded()));
    ExactSum neg;
    neg.add(-INFINITY), neg.add(5.0);
    CHECK(neg.rounded() == -INFINITY);
    ExactSum tiny;  // the usual exactness is kept next to large values
    tiny.add(0x1.0p950), tiny.add(1.0), tiny.add(-0x1.0p950);
    CHECK(tiny.rounded() == 1.0);
    // A million infinite inputs cost what a million finite ones do (it was quadratic: a NaN partial per input).
    const auto t0 = std::chrono::steady_clock::now();
    ExactSum many;
    for (int i = 0; i < 1000000; ++i) many.add(i % 2 ? INFINITY : 1.0);
    CHECK(many.rounded() == INFINITY);
    CHECK(many.partials().size() <= 2);
    CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(10));
}

TEST_CASE("the f64 overflow the tree also reaches is exact, not wrong") {
    Schedule s;
    s.type = DType::F64;
    s.block = 32;
    s.input.kind = InputKind::Values;
    s.input.values = {1e308, 1e308, 1e308};
    s.n = 3;
    Trace t = emulate(s);
    CHECK(t.reference_exact == INFINITY);
    CHECK(analyze(t).verdict == Verdict::Exact);
}

TEST_CASE("atomic writes: the whole file or nothing, and errors say so in one line") {
    const std::string dir = fs::temp_directory_path() / ("rlab-write-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const std::string path = dir + "/out.txt";
    write_file_atomically(path, std::string_view("hello\n"));
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    CHECK(line == "hello");
    // A writer that fails half-way leaves the old file and no temporary.
    CHECK_THROWS_AS(write_file_atomically(path, [](std::ostream& out) { out << "partial"; throw Error("stop"); }), Error);
    std::ifstream again(path);
    std::getline(again, line);
    CHECK(line == "hello");
    size_t files = 0;
    for (const auto& f : fs::directory_iterator(dir)) files += f.is_regular_file();
    CHECK(files == 1);
    const std::string full = test::thrown_error([] { write_file_atomically("/dev/full", std::string_view("x")); });
    CHECK(full.find("No space left") != std::string::npos);
    CHECK(test::thrown_error([&] { write_file_atomically(dir, std::string_view("x")); }).find("is a folder") != std::string::npos);
    CHECK(test::thrown_error([] { write_file_atomically("/no/such/dir/x", std::string_view("x")); }).find("cannot create") !=
          std::string::npos);
    fs::remove_all(dir);
    CHECK(one_line("a\nb\tc\x1b") == "a\\nb\\tc\\x1b");
}

// ---- the binary handoff (core/trace_binary.h): rlab-kernel-runner's trace as its caller reads it ----------------

namespace {

std::string binary_of(const Trace& t) {
    std::ostringstream out;
    write_trace_binary(out, t);
    return out.str();
}
Trace from_binary(const std::string& bytes) {
    std::istringstream in(bytes);
    return read_trace_binary(in);
}
std::string binary_error(const std::string& bytes) {
    return test::thrown_error([&] { from_binary(bytes); });
}
std::string json_of(const Trace& t) {
    std::ostringstream out;
    write_trace_json(out, t);
    return out.str();
}
// A student kernel's trace: a warp's shuffle sum with source lines, a file name and the finishing threads.
Trace student_trace() {
    std::vector<StudentRecord> recs;
    std::vector<uint32_t> v(32);
    auto add = [&](StudentRecord r, uint32_t seq) {
        r.seq = seq;
        r.line = uint16_t(r.kind == EventKind::Shuffle ? 5 : 4);
        recs.push_back(r);
        return uint32_t(recs.size() - 1);
    };
    for (uint32_t l = 0; l < 32; ++l) {
        StudentRecord r;
        r.kind = EventKind::Load, r.thread = uint16_t(l), r.aux = l, r.value = pack_value(float(l + 1));
        v[l] = add(r, 0);
    }
    uint32_t seq = 1, k = 0;
    for (uint32_t off = 16; off > 0; off /= 2, ++k, seq += 2) {
        std::vector<uint32_t> got(32);
        for (uint32_t l = 0; l < 32; ++l) {
            StudentRecord s;
            s.kind = EventKind::Shuffle, s.thread = uint16_t(l), s.aux = 0xffffffffu, s.group = k;
            s.detail = off | ((l + off) << 8);
            s.dep[0] = l + off < 32 ? v[l + off] : v[l];
            s.value = recs[s.dep[0]].value;
            got[l] = add(s, seq);
        }
        for (uint32_t l = 0; l < 32; ++l) {
            StudentRecord c;
            c.kind = EventKind::Combine, c.thread = uint16_t(l), c.dep[0] = v[l], c.dep[1] = got[l];
            c.value = pack_value(unpack_value<float>(recs[v[l]].value) + unpack_value<float>(recs[got[l]].value));
            v[l] = add(c, seq + 1);
        }
    }
    StudentRecord st;
    st.kind = EventKind::BlockPartial, st.dep[0] = v[0], st.value = recs[v[0]].value;
    add(st, seq);
    StudentRun run;
    run.schedule.n = 32;
    run.schedule.block = 32;
    run.schedule.grid = 1;
    run.kernel_file = "warp_sum.cu";
    run.device = "CPU SIMT emulator (plain CUDA)";
    run.out_identity = pack_value(0.0f);
    run.final_out0 = st.value;
    return trace_from_student_records(run, recs, make_input(run.schedule));
}

}  // namespace

TEST_CASE("binary trace: a trace comes back whole (events, lines, times, findings, result)") {
    std::vector<Trace> traces{emulate(Schedule{}), emulate(test::with(1000, 64, Bug::UninitTail)), student_trace()};
    traces.push_back(read_trace_file(std::string(RLAB_SOURCE_DIR) + "/docs/gpu/traces/gpu-trace-eight.json"));
    for (const Trace& t : traces) {
        CAPTURE(describe(t.schedule));
        const Trace back = from_binary(binary_of(t));
        CHECK(json_of(back) == json_of(t));
        CHECK(test::identical_events(back, t));
        CHECK(back.lines == t.lines);
        CHECK(back.times.size() == t.times.size());
        CHECK(back.kernel_file == t.kernel_file);
        CHECK(back.finish_threads == t.finish_threads);
        CHECK(back.result_value == t.result_value);
        CHECK(back.result_flags == t.result_flags);
        CHECK(back.hazards.size() == t.hazards.size());
        CHECK(back.notes.size() == t.notes.size());
    }
    CHECK_FALSE(traces[1].hazards.empty());
    CHECK_FALSE(traces[2].lines.empty());
    CHECK_FALSE(traces[3].times.empty());
    // read_trace_file takes the binary form too.
    const std::string path = fs::temp_directory_path() / ("rlab-binary-" + std::to_string(::getpid()) + ".rltrace");
    write_trace_binary_file(path, traces[2]);
    CHECK(json_of(read_trace_file(path)) == json_of(traces[2]));
    CHECK(json_of(read_trace_binary_file(path)) == json_of(traces[2]));
    fs::remove(path);
}

TEST_CASE("binary trace: every truncation and hostile count is refused in one line before it allocates") {
    Trace t = emulate(test::with(64, 32, Bug::UninitTail));
    const std::string good = binary_of(t);
    for (size_t cut = 0; cut < good.size(); ++cut) {
        const std::string why = binary_error(good.substr(0, cut));
        CAPTURE(cut);
        REQUIRE(why.rfind("trace file: ", 0) == 0);
        REQUIRE(why.find('\n') == std::string::npos);
    }
    CHECK(binary_error(good + "x").find("1 bytes follow the end mark") != std::string::npos);
    CHECK(binary_error("RLTRACEJ" + good.substr(8)).find("not a binary trace") != std::string::npos);

    // The events' count sits right before them; with no findings, lines or times, after them come four empty counts,
    // the empty level of detail (version 4: u32 window 0, u64 events 0, u64 ranges 0) and the end mark.
    t.hazards.clear();
    t.notes.clear();
    const std::string plain = binary_of(t);
    const size_t count_at = plain.size() - 8 - (4 + 8 + 8) - 4 * 8 - t.events.size() * sizeof(Event) - 8;
    auto with_u64 = [&](size_t at, uint64_t v) {
        std::string b = plain;
        std::memcpy(b.data() + at, &v, 8);
        return b;
    };
    auto with_byte = [&](size_t at, uint8_t v) {
        std::string b = plain;
        b[at] = char(v);
        return b;
    };
    REQUIRE(from_binary(with_u64(count_at, t.events.size())).events.size() == t.events.size());
    CHECK(binary_error(with_u64(count_at, 1ull << 60)).find("more than the 16777216 allowed") != std::string::npos);
    CHECK(binary_error(with_u64(count_at, 1ull << 24)).find("truncated: 16777216 events need 536870912 bytes") != std::string::npos);
    const size_t event0 = count_at + 8;
    CHECK(binary_error(with_byte(event0, 200)).find("event 0 has an unknown kind 200") != std::string::npos);
    CHECK(binary_error(with_byte(event0 + 1, 0x80)).find("event 0 has an unknown flag") != std::string::npos);
    // Event 5's first operand (offset 16 of an event) names itself, then a later event, then one past the end.
    const size_t dep5 = event0 + 5 * sizeof(Event) + 16;
    CHECK(binary_error(with_u64(dep5, 0xffffffff00000005ull)).find("event 5 operand 5 is itself") != std::string::npos);
    CHECK(binary_error(with_u64(dep5, 0xffffffff00000009ull)).find("event 5 operand 9 points to a later event") != std::string::npos);
    // Event 0's thread (offset 4) outside the block: the JSON reader's whole-trace checks apply.
    std::string thread = plain;
    const uint16_t far = 40;
    std::memcpy(thread.data() + event0 + 4, &far, 2);
    CHECK(binary_error(thread).find("event 0 is thread 40 of a block of 32") != std::string::npos);
    // Header: version, byte order, event size.
    CHECK(binary_error(with_byte(8, 9)).find("unknown version 9") != std::string::npos);
    std::string swapped = plain;
    const uint32_t other_order = 0x04030201u;
    std::memcpy(swapped.data() + 12, &other_order, 4);
    CHECK(binary_error(swapped).find("other byte order") != std::string::npos);
    CHECK(binary_error(with_byte(16, 40)).find("events of 40 bytes") != std::string::npos);
    // A schedule field the lab does not know (the first field's name starts after the header and the field count).
    CHECK(binary_error(with_byte(24 + 4 + 4, 'Q')).find("schedule: ") != std::string::npos);
    // A huge string length.
    CHECK(binary_error(with_u64(24, 0xffffffff00000001ull)).find("bytes long, at most") != std::string::npos);
}

TEST_CASE("binary trace: random damage ends in a trace or one line, never a crash") {
    const std::string good = binary_of(student_trace());
    std::mt19937_64 rng(7);
    size_t refused = 0;
    for (int round = 0; round < 3000; ++round) {
        std::string b = good;
        const int flips = 1 + int(rng() % 4);
        for (int k = 0; k < flips; ++k) b[rng() % b.size()] = char(rng());
        const std::string why = binary_error(b);
        if (why.empty()) continue;
        ++refused;
        REQUIRE(why.rfind("trace file: ", 0) == 0);
        REQUIRE(why.find('\n') == std::string::npos);
    }
    CHECK(refused > 100);
}

namespace rl {
namespace {
// A plain run's two launches (a version 2 file, tests/data/fuzz/trace_binary/README.md): its launches section, cut,
// damaged or contradicted, ends in one line, and an intact file reads back with launch 2's finding.
TEST_CASE("binary trace: a plain run's launches, cut or damaged, end in a trace or one line") {
    std::ifstream in(std::string(RLAB_SOURCE_DIR) + "/tests/data/fuzz/trace_binary/plain-two-launches-oob.rltrace", std::ios::binary);
    const std::string good((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    REQUIRE(good.size() > 1000);
    const Trace t = from_binary(good);
    REQUIRE(t.launches.size() == 2);
    CHECK(t.launches[1].first_block == 4);
    REQUIRE(t.hazards.size() == 1);
    CHECK(t.hazards[0].what.rfind("In launch 2, block 0, warp 0, lanes 4-15: ", 0) == 0);
    // The launches section sits in the first 600 bytes (header, schedule, fields): every cut there, and random damage
    // anywhere, is one line.
    for (size_t cut = 0; cut < 600; ++cut) {
        const std::string why = binary_error(good.substr(0, cut));
        CAPTURE(cut);
        REQUIRE(why.rfind("trace file: ", 0) == 0);
        REQUIRE(why.find('\n') == std::string::npos);
    }
    std::mt19937_64 rng(32);
    for (int round = 0; round < 1500; ++round) {
        std::string b = good;
        for (int k = 0; k < 1 + int(rng() % 3); ++k) b[rng() % 600] = char(rng());
        const std::string why = binary_error(b);
        if (why.empty()) continue;
        REQUIRE(why.rfind("trace file: ", 0) == 0);
        REQUIRE(why.find('\n') == std::string::npos);
    }
    // Launch 2 moved to start at block 5: the blocks no longer add up.
    const std::string name("\x07\0\0\0harris3", 11);  // a string: u32 length, bytes (launch 2's is the last)
    const size_t second = good.rfind(name);
    REQUIRE(second != std::string::npos);
    REQUIRE(second > good.find(name));
    std::string moved = good;
    const uint32_t five = 5;
    std::memcpy(moved.data() + second + name.size() + 12, &five, 4);  // after grid, block, shared_bytes: first_block
    CHECK(binary_error(moved) == "trace file: launches: launch 2 (harris3): first_block 5, expected 4 (the blocks of the launches before it)");
}
}  // namespace
}  // namespace rl
