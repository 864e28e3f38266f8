// core/trace_binary.cpp — the binary trace (core/trace_binary.h): written as the Trace lies in memory, read back with
// every count bounded by the bytes the file has before anything is allocated, then checked as a JSON trace is.
#include "core/trace_binary.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <istream>
#include <ostream>
#include <type_traits>

#include "core/error.h"
#include "core/event_order.h"
#include "core/file_io.h"
#include "core/limits.h"
#include "core/text_format.h"
#include "core/trace_io.h"

namespace rl {
namespace {

constexpr char kBinaryMagic[8] = {'R', 'L', 'T', 'R', 'A', 'C', 'E', 'B'};
constexpr char kBinaryEndMagic[8] = {'R', 'L', 'T', 'E', 'N', 'D', 0, 0};
constexpr uint32_t kBinaryOrderMark = 0x01020304u;
constexpr uint32_t kBinaryMaxText = 1u << 20;        // a device name, a file name, a finding's words
constexpr uint32_t kBinaryMaxScheduleFields = 256;   // schedule_fields gives about 20, one more per bug
static_assert(std::is_trivially_copyable_v<Event> && sizeof(Event) == 32, "events are written as they lie in memory");

[[noreturn]] void bad_file(const std::string& what) { throw Error("trace file: " + what); }

class BinaryWriter {
public:
    explicit BinaryWriter(std::ostream& out) : out_(out) {}
    void bytes(const void* p, size_t n) { out_.write(static_cast<const char*>(p), std::streamsize(n)); }
    template <class T> void put(T v) {
        static_assert(std::is_arithmetic_v<T>);
        bytes(&v, sizeof v);
    }
    void text(const std::string& s) {
        put(uint32_t(s.size()));
        bytes(s.data(), s.size());
    }
    template <class T> void array(const std::vector<T>& v) {
        put(uint64_t(v.size()));
        bytes(v.data(), v.size() * sizeof(T));
    }
    void findings(const std::vector<Hazard>& list) {
        put(uint64_t(list.size()));
        for (const Hazard& h : list) {
            put(uint8_t(h.kind));
            put(h.event);
            put(h.block);
            put(h.warp);
            put(h.lanes);
            text(h.what);
        }
    }

private:
    std::ostream& out_;
};

class BinaryReader {
public:
    BinaryReader(std::istream& in, uint64_t size) : in_(in), left_(size) {}
    uint64_t left() const { return left_; }

    void bytes(void* p, uint64_t n, const char* what) {
        if (n > left_) truncated(what);
        in_.read(static_cast<char*>(p), std::streamsize(n));
        if (uint64_t(in_.gcount()) != n) truncated(what);
        left_ -= n;
    }
    template <class T> T get(const char* what) {
        T v{};
        bytes(&v, sizeof v, what);
        return v;
    }
    std::string text(const char* what) {
        const uint32_t n = get<uint32_t>(what);
        if (n > kBinaryMaxText) bad_file(std::string(what) + " is " + std::to_string(n) + " bytes long, at most " + std::to_string(kBinaryMaxText));
        if (n > left_) truncated(what);
        std::string s(n, '\0');
        bytes(s.data(), n, what);
        return s;
    }
    // A count of items of at least `min_bytes` each: within `max` and within what the file still holds, so a
    // hostile count allocates nothing.
    uint64_t count(const char* what, uint64_t max, uint64_t min_bytes) {
        const uint64_t n = get<uint64_t>(what);
        if (n > max) bad_file(std::to_string(n) + " " + what + ", more than the " + std::to_string(max) + " allowed (docs/limits.md)");
        if (n * min_bytes > left_)
            bad_file("truncated: " + std::to_string(n) + " " + what + " need " + std::to_string(n * min_bytes) + " bytes, " +
                 std::to_string(left_) + " are left");
        return n;
    }
    template <class T> void array(std::vector<T>& v, uint64_t n, const char* what) {
        v.resize(size_t(n));
        bytes(v.data(), n * sizeof(T), what);
    }

    [[noreturn]] void truncated(const char* what) const {
        bad_file(std::string("truncated in ") + what + " (" + std::to_string(left_) + " bytes were left)");
    }

private:
    std::istream& in_;
    uint64_t left_;
};

void read_binary_findings(BinaryReader& r, Trace& t, const char* list_name) {
    const uint64_t n = r.count(list_name, limits::kTraceEvents, 1 + 4 * 4 + 4);
    for (uint64_t i = 0; i < n; ++i) {
        Hazard h{};
        const uint8_t kind = r.get<uint8_t>(list_name);
        if (kind >= kHazardKindCount) bad_file(std::string(list_name) + " " + std::to_string(i) + " has an unknown kind " + std::to_string(kind));
        h.kind = HazardKind(kind);
        h.event = r.get<uint32_t>(list_name);
        h.block = r.get<uint32_t>(list_name);
        h.warp = r.get<uint32_t>(list_name);
        h.lanes = r.get<uint32_t>(list_name);
        h.what = r.text(list_name);
        if (h.event >= t.events.size() && !(t.events.empty() && h.event == 0))
            bad_file(std::string(list_name) + " " + std::to_string(i) + " names event " + std::to_string(h.event) + " of " +
                 std::to_string(t.events.size()));
        if (h.warp > 31) bad_file(std::string(list_name) + " " + std::to_string(i) + " names warp " + std::to_string(h.warp));
        (is_note(h.kind) ? t.notes : t.hazards).push_back(std::move(h));
    }
}

Trace read_binary(std::istream& in, uint64_t size) {
    BinaryReader r(in, size);
    char magic[8];
    r.bytes(magic, 8, "the header");
    if (std::memcmp(magic, kBinaryMagic, 8) != 0) bad_file("not a binary trace (it does not start with RLTRACEB)");
    const uint32_t version = r.get<uint32_t>("the header");
    const uint32_t order = r.get<uint32_t>("the header");
    const uint32_t event_bytes = r.get<uint32_t>("the header");
    r.get<uint32_t>("the header");
    if (order == 0x04030201u) bad_file("written on a machine of the other byte order");
    if (order != kBinaryOrderMark) bad_file("the header's byte-order mark is not 0x01020304");
    if (version < 1 || version > kTraceBinaryVersion)
        bad_file("unknown version " + std::to_string(version) + " (this rlab reads versions 1 to " + std::to_string(kTraceBinaryVersion) + ")");
    if (event_bytes != sizeof(Event)) bad_file("events of " + std::to_string(event_bytes) + " bytes (this rlab's are 32)");

    Trace t;
    const uint32_t fields = r.get<uint32_t>("the schedule");
    if (fields > kBinaryMaxScheduleFields) bad_file("the schedule has " + std::to_string(fields) + " fields");
    for (uint32_t i = 0; i < fields; ++i) {
        const std::string name = r.text("the schedule"), value = r.text("the schedule");
        if (std::string err = set_field(t.schedule, name, value); !err.empty()) bad_file("schedule: " + one_line(err));
    }
    if (std::string err = validate(t.schedule); !err.empty()) bad_file("schedule: " + one_line(err));

    const uint8_t backend = r.get<uint8_t>("the trace's fields");
    if (backend > uint8_t(Backend::Cuda)) bad_file("backend " + std::to_string(backend) + " is neither cpu (0) nor cuda (1)");
    t.backend = Backend(backend);
    t.device = r.text("the device");
    t.kernel_file = r.text("the kernel file");
    t.grid = r.get<uint32_t>("the trace's fields");
    t.finish_threads = r.get<uint32_t>("the trace's fields");
    t.finisher_block = r.get<uint32_t>("the trace's fields");
    t.result_event = r.get<uint32_t>("the trace's fields");
    t.result_value = r.get<uint64_t>("the trace's fields");
    t.result_flags = r.get<uint8_t>("the trace's fields");
    t.step_count = r.get<uint16_t>("the trace's fields");
    for (uint16_t& s : t.scope_start) s = r.get<uint16_t>("the trace's fields");
    t.reference_value = r.get<uint64_t>("the trace's fields");
    t.reference_exact = r.get<double>("the trace's fields");
    t.abs_sum = r.get<double>("the trace's fields");
    if (t.finish_threads > limits::kBlockThreads)
        bad_file("the finishing launch has " + std::to_string(t.finish_threads) + " threads, at most " + std::to_string(limits::kBlockThreads));
    if (t.result_flags >= 0x80) bad_file("the result's flags " + std::to_string(t.result_flags) + " name an unknown flag");
    if (version >= 2) {  // a plain CUDA run's launches (version 1 files have none)
        const uint32_t launches = r.get<uint32_t>("the launches");
        if (launches > kMaxLaunches)
            bad_file("the trace has " + std::to_string(launches) + " launches, at most " + std::to_string(kMaxLaunches));
        t.launches.resize(launches);
        for (LaunchScope& l : t.launches) {
            l.kernel = r.text("the launches");
            l.grid = r.get<uint32_t>("the launches");
            l.block = r.get<uint32_t>("the launches");
            l.shared_bytes = r.get<uint32_t>("the launches");
            l.first_block = r.get<uint32_t>("the launches");
        }
        if (std::string why = launches_problem(t.launches); !why.empty()) bad_file("launches: " + why);
    }
    if (version >= 3) {  // a plain run's buffer sizes and the atomics' elements past 8192 (checked with the events)
        t.buffer_elements.resize(size_t(r.count("buffers", kMaxTraceBuffers, sizeof(uint64_t))));
        for (uint64_t& n : t.buffer_elements) n = r.get<uint64_t>("the buffers");
        t.wide_atomic_elements.resize(size_t(r.count("wide atomic elements", limits::kTraceEvents, 2 * sizeof(uint32_t))));
        for (auto& [event, element] : t.wide_atomic_elements) {
            event = r.get<uint32_t>("the wide atomic elements");
            element = r.get<uint32_t>("the wide atomic elements");
        }
    }

    r.array(t.inputs, r.count("inputs", limits::kTraceEvents, sizeof(double)), "the inputs");
    const uint64_t events = r.count("events", limits::kTraceEvents, sizeof(Event));
    r.array(t.events, events, "the events");
    // What the JSON reader checks as it reads each event; the rest is check_trace_geometry's, below.
    for (uint32_t i = 0; i < t.events.size(); ++i) {
        const Event& e = t.events[i];
        auto where = [i] { return "event " + std::to_string(i); };
        if (uint8_t(e.kind) >= kEventKindCount) bad_file(where() + " has an unknown kind " + std::to_string(int(e.kind)));
        if (e.flags >= 0x80) bad_file(where() + " has an unknown flag (flags " + std::to_string(e.flags) + ")");
        if (e.step > 0xfffe) bad_file(where() + " \"step\" is 65535, at most 65534 allowed");
        for (uint32_t d : e.dep)
            if (d != kNoEvent && d >= i)
                bad_file(where() + " operand " + std::to_string(d) + (d == i ? " is itself" : " points to a later event") +
                     ": operands point only to earlier events (a DAG)");
    }
    const uint64_t lines = r.count("source lines", limits::kTraceEvents, sizeof(uint16_t));
    if (lines != 0 && lines != events) bad_file(std::to_string(lines) + " source lines for " + std::to_string(events) + " events");
    r.array(t.lines, lines, "the source lines");
    const uint64_t times = r.count("timestamps", limits::kTraceEvents, 20);
    if (times != 0 && times != events) bad_file(std::to_string(times) + " timestamps for " + std::to_string(events) + " events");
    t.times.resize(size_t(times));
    for (EventTime& tm : t.times) {
        tm.globaltimer_ns = r.get<uint64_t>("the timestamps");
        tm.clock = r.get<uint64_t>("the timestamps");
        tm.sm = r.get<uint32_t>("the timestamps");
    }
    if (t.result_event != kNoEvent && t.result_event >= t.events.size())
        bad_file("the result names event " + std::to_string(t.result_event) + " of " + std::to_string(t.events.size()));
    read_binary_findings(r, t, "hazards");
    read_binary_findings(r, t, "notes");
    if (version >= 4) {  // level of detail (core/level_of_detail.h): checked once the trace is
        t.detail.detail_blocks = r.get<uint32_t>("the level of detail");
        t.detail.events_total = r.get<uint64_t>("the level of detail");
        t.detail.summarised.resize(size_t(r.count("summarised ranges", uint64_t(1) << 26, 4 + 4 + 2 + 2 + 8 + 8 * 16 + 8 + 8)));
        for (SummarisedBlocks& sb : t.detail.summarised) {
            sb.first_block = r.get<uint32_t>("the summarised ranges");
            sb.blocks = r.get<uint32_t>("the summarised ranges");
            sb.first_step = r.get<uint16_t>("the summarised ranges");
            sb.last_step = r.get<uint16_t>("the summarised ranges");
            sb.events = r.get<uint64_t>("the summarised ranges");
            for (uint64_t& k : sb.kinds) k = r.get<uint64_t>("the summarised ranges");
            sb.kept = r.get<uint64_t>("the summarised ranges");
            r.array(sb.lines, r.count("summarised lines", 65536, sizeof(uint16_t)), "the summarised lines");
        }
    }
    r.bytes(magic, 8, "the end mark");
    if (std::memcmp(magic, kBinaryEndMagic, 8) != 0) bad_file("the end mark is missing (a damaged file)");
    if (r.left() != 0) bad_file(std::to_string(r.left()) + " bytes follow the end mark");
    check_trace_geometry(t, "trace file");
    if (std::string why = level_of_detail_problem(t); !why.empty()) bad_file(why);
    return t;
}

}  // namespace

bool is_trace_binary(std::string_view head) { return head.size() >= 8 && std::memcmp(head.data(), kBinaryMagic, 8) == 0; }

void write_trace_binary(std::ostream& out, const Trace& t) {
    if (first_forward_operand(t) != kNoEvent) {  // operands point earlier, or the reader refuses the file
        Trace ordered = t;
        order_operands_first(ordered);
        return write_trace_binary(out, ordered);
    }
    BinaryWriter w(out);
    w.bytes(kBinaryMagic, 8);
    w.put(kTraceBinaryVersion);
    w.put(kBinaryOrderMark);
    w.put(uint32_t(sizeof(Event)));
    w.put(uint32_t(0));
    const auto fields = schedule_fields(t.schedule);
    w.put(uint32_t(fields.size()));
    for (const auto& [name, value] : fields) {
        w.text(name);
        w.text(value);
    }
    w.put(uint8_t(t.backend));
    w.text(t.device);
    w.text(t.kernel_file);
    w.put(t.grid);
    w.put(t.finish_threads);
    w.put(t.finisher_block);
    w.put(t.result_event);
    w.put(t.result_value);
    w.put(t.result_flags);
    w.put(t.step_count);
    for (uint16_t s : t.scope_start) w.put(s);
    w.put(t.reference_value);
    w.put(t.reference_exact);
    w.put(t.abs_sum);
    w.put(uint32_t(t.launches.size()));
    for (const LaunchScope& l : t.launches) {
        w.text(l.kernel);
        w.put(l.grid);
        w.put(l.block);
        w.put(l.shared_bytes);
        w.put(l.first_block);
    }
    w.array(t.buffer_elements);
    w.put(uint64_t(t.wide_atomic_elements.size()));
    for (const auto& [event, element] : t.wide_atomic_elements) {
        w.put(event);
        w.put(element);
    }
    w.array(t.inputs);
    w.array(t.events);
    w.array(t.lines);
    w.put(uint64_t(t.times.size()));
    for (const EventTime& tm : t.times) {
        w.put(tm.globaltimer_ns);
        w.put(tm.clock);
        w.put(tm.sm);
    }
    w.findings(t.hazards);
    w.findings(t.notes);
    w.put(t.detail.detail_blocks);
    w.put(t.detail.events_total);
    w.put(uint64_t(t.detail.summarised.size()));
    for (const SummarisedBlocks& sb : t.detail.summarised) {
        w.put(sb.first_block);
        w.put(sb.blocks);
        w.put(sb.first_step);
        w.put(sb.last_step);
        w.put(sb.events);
        for (uint64_t k : sb.kinds) w.put(k);
        w.put(sb.kept);
        w.array(sb.lines);
    }
    w.bytes(kBinaryEndMagic, 8);
}

void write_trace_binary_file(const std::string& path, const Trace& t) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) throw Error(one_line(path) + ": cannot open for writing: " + std::strerror(errno));
    write_trace_binary(out, t);
    out.close();
    if (!out) throw Error("writing " + one_line(path) + " failed: " + std::strerror(errno));
}

Trace read_trace_binary(std::istream& in) {
    in.seekg(0, std::ios::end);
    const std::streamoff end = in.tellg();
    in.seekg(0, std::ios::beg);
    if (end < 0 || !in) bad_file("cannot tell the size of the input (a binary trace is read from a file)");
    try {
        return read_binary(in, uint64_t(end));
    } catch (const std::bad_alloc&) {
        bad_file("out of memory while reading; the trace is too large for this machine (docs/limits.md)");
    }
}

Trace read_trace_binary_file(const std::string& path) {
    check_readable_file(path, "trace", limits::kTraceFileBytes);
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(one_line(path) + ": cannot open for reading");
    return read_trace_binary(in);
}

}  // namespace rl
