// core/trace_io.cpp — JSON and Chrome Trace Event export, JSON import with clear errors.
#include "core/trace_io.h"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cinttypes>
#include <cstdio>
#include <fstream>
#include <istream>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

#include "core/cost_notes.h"
#include "core/error.h"
#include "core/text_format.h"
#include "core/event_order.h"
#include "core/file_io.h"
#include "core/limits.h"
#include "core/trace_binary.h"

namespace rl {
namespace {

using json = nlohmann::ordered_json;

std::string hex64(uint64_t v) {
    char buf[24];
    snprintf(buf, sizeof buf, "0x%016" PRIx64, v);
    return buf;
}

json flag_list(uint8_t flags) {
    json a = json::array();
    std::string names = format_flags(flags);
    size_t pos = 0;
    while (!names.empty() && pos <= names.size()) {
        size_t c = names.find(',', pos);
        a.push_back(names.substr(pos, c == std::string::npos ? std::string::npos : c - pos));
        if (c == std::string::npos) break;
        pos = c + 1;
    }
    return a;
}

json dep_json(uint32_t d) { return d == kNoEvent ? json(nullptr) : json(d); }

json schedule_json(const Schedule& s) {
    json j;
    j["bug"] = json::array();
    for (const auto& [name, value] : schedule_fields(s)) {
        if (name == "bug")
            j["bug"].push_back(value);
        else if (name == "n" || name == "block" || name == "grid" || name == "items" || name == "seed")
            j[name] = std::stoull(value);
        else
            j[name] = value;
    }
    j["grid"] = s.grid_size();  // the grid launched, not 0 for "sized from n"
    return j;
}

json event_json(const Trace& t, uint32_t i) {
    const Event& e = t.events[i];
    const Schedule& s = t.schedule;
    json j;
    j["kind"] = to_string(e.kind);
    j["step"] = e.step;
    j["block"] = e.block;
    j["warp"] = e.warp();
    j["lane"] = e.lane();
    j["value"] = (e.flags & kUndefined) ? json(nullptr) : json(numeric_value(s.op, s.type, e.value));
    j["text"] = format_value(s.op, s.type, e.value, e.flags);
    j["bits"] = hex64(e.value);
    j["flags"] = flag_list(e.flags);
    j["deps"] = json::array({dep_json(e.dep[0]), dep_json(e.dep[1])});
    j["detail"] = e.detail;
    j["aux"] = e.aux;
    if (i < t.lines.size()) j["line"] = t.lines[i];
    switch (e.kind) {
        case EventKind::Load: j["element"] = e.aux; j["item"] = e.detail; break;
        case EventKind::PartialLoad: j["partial"] = e.aux; j["item"] = e.detail; break;
        case EventKind::Shuffle:
            j["offset"] = e.shuffle_offset();
            j["source_lane"] = e.source_lane();
            j["mask"] = hex32(e.aux);
            break;
        case EventKind::SharedStore:
        case EventKind::SharedLoad: j["slot"] = e.detail; break;
        case EventKind::Atomic:
            j["position"] = e.aux;
            if (!t.launches.empty()) j["element"] = atomic_element(t, i);  // the detail keeps it modulo 8192 only
            break;
        case EventKind::Ticket: j["ticket"] = e.aux; break;
        default: break;
    }
    if (!t.times.empty()) {
        j["globaltimer_ns"] = t.times[i].globaltimer_ns;
        j["clock"] = t.times[i].clock;
        j["sm"] = t.times[i].sm;
    }
    return j;
}

[[noreturn]] void fail(const std::string& what) { throw Error("trace JSON: " + what); }

template <class J> const J& need(const J& j, const char* key, const std::string& where) {
    auto it = j.find(key);
    if (it == j.end()) fail(where + " has no \"" + key + "\"");
    return *it;
}

template <class T, class J> T need_uint(const J& j, const char* key, const std::string& where, uint64_t max) {
    const J& v = need(j, key, where);
    if (!v.is_number_unsigned() && !(v.is_number_integer() && v.template get<int64_t>() >= 0))
        fail(where + " \"" + key + "\" must be a non-negative integer");
    uint64_t x = v.template get<uint64_t>();
    if (x > max) fail(where + " \"" + key + "\" is " + std::to_string(x) + ", at most " + std::to_string(max) + " allowed");
    return T(x);
}

template <class J> std::string need_string(const J& j, const char* key, const std::string& where) {
    const J& v = need(j, key, where);
    if (!v.is_string()) fail(where + " \"" + key + "\" must be a string");
    return v.template get<std::string>();
}

template <class J> double need_number(const J& j, const char* key, const std::string& where) {
    const J& v = need(j, key, where);
    if (!v.is_number()) fail(where + " \"" + key + "\" must be a number");
    return v.template get<double>();
}

template <class J> uint64_t parse_hex(const J& v, const std::string& where) {
    if (!v.is_string()) fail(where + " must be a hex string such as 0x0000000042100000");
    const std::string s = v.template get<std::string>();
    char* end = nullptr;
    uint64_t x = std::strtoull(s.c_str(), &end, 16);
    if (s.size() < 3 || s.rfind("0x", 0) != 0 || *end != '\0') fail(where + " \"" + s + "\" is not a hex string");
    return x;
}

template <class J> uint8_t parse_flags(const J& v, const std::string& where) {
    static constexpr std::array<std::string_view, 7> names{"undefined", "identity", "stale", "order-violated",
                                                           "hazard", "identity-combine", "finisher"};
    if (!v.is_array()) fail(where + " \"flags\" must be a list of names");
    uint8_t out = 0;
    for (const auto& f : v) {
        bool found = false;
        for (size_t i = 0; i < names.size(); ++i)
            if (f.is_string() && f.template get<std::string>() == names[i]) {
                out |= uint8_t(1u << i);
                found = true;
            }
        if (!found) fail(where + " has an unknown flag " + one_line(f.dump()));
    }
    return out;
}

template <class J> Schedule parse_schedule(const J& j) {
    if (!j.is_object()) fail("\"schedule\" must be an object");
    Schedule s;
    for (const char* key : {"n", "block", "grid", "items", "seed"}) {
        const J& v = need(j, key, "schedule");
        if (!v.is_number_unsigned()) fail(std::string("schedule \"") + key + "\" must be a non-negative integer");
        if (std::string err = set_field(s, key, std::to_string(v.template get<uint64_t>())); !err.empty()) fail("schedule: " + err);
    }
    for (const char* key : {"assign", "warp", "block-stage", "grid-stage", "op", "type", "input"}) {
        const J& v = need(j, key, "schedule");
        if (!v.is_string()) fail(std::string("schedule \"") + key + "\" must be a string");
        if (std::string err = set_field(s, key, v.template get<std::string>()); !err.empty()) fail("schedule: " + err);
    }
    if (auto it = j.find("accum"); it != j.end()) {  // optional: traces before the numerics lab have none
        if (!it->is_string()) fail("schedule \"accum\" must be a string");
        if (std::string err = set_field(s, "accum", it->template get<std::string>()); !err.empty()) fail("schedule: " + err);
    }
    if (auto it = j.find("bug"); it != j.end()) {
        if (!it->is_array()) fail("schedule \"bug\" must be a list");
        for (const auto& b : *it) {
            if (!b.is_string()) fail("schedule \"bug\" entries must be strings");
            if (std::string err = set_field(s, "bug", b.template get<std::string>()); !err.empty()) fail("schedule: " + err);
        }
    }
    if (std::string err = validate(s); !err.empty()) fail("schedule: " + err);
    return s;
}

}  // namespace

// Hazards or notes as the trace format lists them (also `rlab check --format json`).
static json findings_json(const std::vector<Hazard>& findings) {
    json hz = json::array();
    for (const Hazard& h : findings)
        hz.push_back({{"kind", to_string(h.kind)}, {"event", h.event}, {"block", h.block}, {"warp", h.warp},
                      {"lanes", hex32(h.lanes)}, {"what", h.what}, {"rule", rule_of(h.kind)}});
    return hz;
}

void write_hazards_json(std::ostream& out, const Trace& t) {
    out << json{{"hazards", findings_json(t.hazards)}, {"notes", findings_json(t.notes)}, {"costs", costs_json(compute_costs(t))}}.dump(1)
        << "\n";
}

void write_trace_json(std::ostream& out, const Trace& t) {
    if (first_forward_operand(t) != kNoEvent) {  // a file's operands point earlier, or the reader refuses it
        Trace ordered = t;
        order_operands_first(ordered);
        return write_trace_json(out, ordered);
    }
    const Analysis a = analyze(t);
    json head;
    head["version"] = kTraceJsonVersion;
    head["schedule"] = schedule_json(t.schedule);
    head["backend"] = t.backend == Backend::Cuda ? "cuda" : "cpu";
    head["device"] = t.device;
    head["grid"] = t.grid;
    head["finisher_block"] = dep_json(t.finisher_block);
    head["step_count"] = t.step_count;
    head["scope_start"] = {t.scope_start[0], t.scope_start[1], t.scope_start[2], t.scope_start[3]};
    head["inputs"] = t.inputs;
    if (!t.kernel_file.empty()) head["kernel"] = {{"file", t.kernel_file}, {"finish_threads", t.finish_threads}};
    if (!t.launches.empty()) {
        json list = json::array();
        for (const LaunchScope& l : t.launches)
            list.push_back({{"kernel", l.kernel}, {"grid", l.grid}, {"block", l.block}, {"shared_bytes", l.shared_bytes},
                            {"first_block", l.first_block}});
        head["launches"] = list;
    }
    if (!t.buffer_elements.empty()) head["buffer_elements"] = t.buffer_elements;
    if (t.detail.active()) {  // a run summarised by level of detail (core/level_of_detail.h)
        json ranges = json::array();
        for (const SummarisedBlocks& s : t.detail.summarised) {
            json kinds = json::object();
            for (int k = 0; k < kEventKindCount; ++k)
                if (s.kinds[k]) kinds[std::string(to_string(EventKind(k)))] = s.kinds[k];
            ranges.push_back({{"first_block", s.first_block}, {"blocks", s.blocks}, {"first_step", s.first_step},
                              {"last_step", s.last_step}, {"events", s.events}, {"kept", s.kept}, {"kinds", kinds}, {"lines", s.lines}});
        }
        head["level_of_detail"] = {{"detail_blocks", t.detail.detail_blocks}, {"events_total", t.detail.events_total},
                                   {"summarised", ranges}, {"line", level_of_detail_line(t)}};
    }
    json result;
    result["event"] = dep_json(t.result_event);
    result["value"] = (t.result_flags & kUndefined) ? json(nullptr) : json(numeric_value(t.schedule.op, t.schedule.type, t.result_value));
    // A plain CUDA argmax writes an int index to out[0]: its text is that int (the pair's index half), as the kernel wrote it.
    const bool index_out = t.schedule.op == Op::ArgMax && !t.launches.empty() && !(t.result_flags & kUndefined);
    result["text"] = index_out ? std::to_string(int32_t(uint32_t(t.result_value >> 32)))
                               : format_value(t.schedule.op, t.schedule.type, t.result_value, t.result_flags);
    result["bits"] = hex64(t.result_value);
    result["flags"] = flag_list(t.result_flags);
    result["reference"] = t.reference_exact;
    result["reference_text"] = format_value(t.schedule.op, t.schedule.type, t.reference_value);
    result["reference_bits"] = hex64(t.reference_value);
    result["abs_sum"] = t.abs_sum;
    result["verdict"] = to_string(a.verdict);
    result["abs_error"] = a.abs_error;
    result["rel_error"] = a.rel_error;
    result["ulps"] = a.ulps;
    result["error_bound"] = a.error_bound;
    head["result"] = result;
    json an;
    an["events"] = a.events;
    an["work"] = a.work;
    an["identity_combines"] = a.identity_combines;
    an["span"] = a.span;
    an["span_by_scope"] = {{"thread", a.span_by_scope[0]}, {"warp", a.span_by_scope[1]},
                           {"block", a.span_by_scope[2]}, {"grid", a.span_by_scope[3]}};
    an["serial_depth"] = a.serial_depth;
    an["tree_depth"] = a.tree_depth;
    head["analysis"] = an;
    head["hazards"] = findings_json(t.hazards);
    head["notes"] = findings_json(t.notes);
    head["costs"] = costs_json(compute_costs(t));  // derived from the events, like "analysis"; readers ignore it

    // Events are streamed one per line so that large traces need no document tree in memory.
    std::string text = head.dump(1);
    text.pop_back();  // the closing brace
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
    out << text << ",\n \"events\": [\n";
    for (uint32_t i = 0; i < t.events.size(); ++i) out << "  " << event_json(t, i).dump() << (i + 1 < t.events.size() ? ",\n" : "\n");
    out << " ]\n}\n";
}

namespace {

using dom = nlohmann::json;  // reading: std::map objects, whose elements never move while the parser holds them

// One event object of the "events" list, converted as soon as the parser closes it.
Event parse_event(const dom& e, size_t i, Trace& t, bool first) {
    const std::string where = "event " + std::to_string(i);
    if (!e.is_object()) fail(where + " must be an object");
    Event ev{};
    const dom& kind = need(e, "kind", where);
    if (!kind.is_string() || !parse_event_kind(kind.get<std::string>(), ev.kind)) fail(where + " has an unknown kind " + one_line(kind.dump()));
    ev.step = need_uint<uint16_t>(e, "step", where, 0xfffe);
    ev.block = need_uint<uint32_t>(e, "block", where, limits::kGridBlocks);
    uint32_t warp = need_uint<uint32_t>(e, "warp", where, 31), lane = need_uint<uint32_t>(e, "lane", where, 31);
    ev.thread = uint16_t(warp * 32 + lane);
    ev.detail = need_uint<uint16_t>(e, "detail", where, 0xffff);
    ev.aux = need_uint<uint32_t>(e, "aux", where, 0xffffffffu);
    ev.value = parse_hex(need(e, "bits", where), where + " \"bits\"");
    ev.flags = parse_flags(need(e, "flags", where), where);
    const dom& deps = need(e, "deps", where);
    if (!deps.is_array() || deps.size() != 2) fail(where + " \"deps\" must list two operands (null for none)");
    for (int k = 0; k < 2; ++k) {
        if (deps[k].is_null()) ev.dep[k] = kNoEvent;
        else if (deps[k].is_number_unsigned() && deps[k].get<uint64_t>() < limits::kTraceEvents) ev.dep[k] = deps[k].get<uint32_t>();
        else fail(where + " operand " + one_line(deps[k].dump()) + " is not an event index");
        // A trace is a DAG by construction: operands point to earlier events (rlab writes them so).
        if (ev.dep[k] == i) fail(where + " names itself as its operand: operands point only to earlier events (a DAG)");
        if (ev.dep[k] != kNoEvent && ev.dep[k] > i)
            fail(where + " operand " + std::to_string(ev.dep[k]) + " points to a later event: operands point only to earlier events (a DAG)");
    }
    const bool timed = e.contains("globaltimer_ns");
    if (!first && timed != !t.times.empty()) fail(where + ": GPU timestamps must be on every event or on none");
    if (timed) {
        EventTime tm{};
        tm.globaltimer_ns = need_uint<uint64_t>(e, "globaltimer_ns", where, ~0ull);
        tm.clock = need_uint<uint64_t>(e, "clock", where, ~0ull);
        tm.sm = need_uint<uint32_t>(e, "sm", where, 0xffffffffu);
        t.times.push_back(tm);
    }
    if (ev.kind == EventKind::Atomic && e.contains("element")) {  // (checked against the detail with the buffers)
        const uint32_t element = need_uint<uint32_t>(e, "element", where, 0xffffffffu);
        if (element > kDetailAtomicElement) t.wide_atomic_elements.emplace_back(uint32_t(i), element);
        else if (element != (ev.detail & kDetailAtomicElement))
            fail(where + " \"element\" " + std::to_string(element) + " does not match its \"detail\" bits (" +
                 std::to_string(ev.detail & kDetailAtomicElement) + ")");
    }
    const bool lined = e.contains("line");
    if (!first && lined != !t.lines.empty()) fail(where + ": source lines must be on every event or on none");
    if (lined) t.lines.push_back(need_uint<uint16_t>(e, "line", where, 0xffff));
    return ev;
}

// SAX reader: builds a document of everything but the events, which become Events one by one, so a large
// trace never exists as text, document and trace at once; nesting and list lengths are bounded as it reads.
class TraceReader final : public nlohmann::json_sax<dom> {
public:
    explicit TraceReader(Trace& t) : trace_(t) {}
    dom root;

    bool null() override { return value(nullptr); }
    bool boolean(bool b) override { return value(b); }
    bool number_integer(number_integer_t v) override { return value(v); }
    bool number_unsigned(number_unsigned_t v) override { return value(v); }
    bool number_float(number_float_t v, const string_t&) override { return value(v); }
    bool string(string_t& v) override { return value(std::move(v)); }
    bool binary(binary_t&) override { fail("binary values are not JSON"); }
    bool key(string_t& k) override {
        pending_events_ = stack_.size() == 1 && k == "events";
        slot_ = &(*stack_.back())[k];
        return true;
    }
    bool start_object(std::size_t) override { return open(dom::value_t::object); }
    bool start_array(std::size_t) override {
        const bool events = pending_events_;
        if (!open(dom::value_t::array)) return false;
        if (events) events_ = stack_.back();
        return true;
    }
    bool end_object() override { return close(); }
    bool end_array() override { return close(); }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& ex) override {
        fail(std::string("not valid JSON: ") + one_line(ex.what()));
    }

private:
    Trace& trace_;
    std::vector<dom*> stack_;
    dom* slot_ = nullptr;
    dom* events_ = nullptr;
    bool pending_events_ = false;

    template <class V> dom* place(V&& v) {
        if (stack_.empty()) {
            root = dom(std::forward<V>(v));
            return &root;
        }
        dom* top = stack_.back();
        if (top->is_array()) {
            if (top->size() >= limits::kTraceEvents)
                fail("a list holds more than " + std::to_string(limits::kTraceEvents) + " entries, the limit (docs/limits.md)");
            top->push_back(dom(std::forward<V>(v)));
            return &top->back();
        }
        *slot_ = dom(std::forward<V>(v));
        return slot_;
    }
    template <class V> bool value(V&& v) {
        pending_events_ = false;
        if (events_ != nullptr && !stack_.empty() && stack_.back() == events_)
            fail("event " + std::to_string(trace_.events.size()) + " must be an object");
        place(std::forward<V>(v));
        return true;
    }
    bool open(dom::value_t kind) {
        pending_events_ = false;
        if (stack_.size() >= size_t(limits::kJsonDepth))
            fail("nested deeper than " + std::to_string(limits::kJsonDepth) +
                 " levels of arrays and objects (docs/limits.md); the format needs at most 4");
        stack_.push_back(place(kind));
        return true;
    }
    bool close() {
        dom* done = stack_.back();
        stack_.pop_back();
        if (!stack_.empty() && stack_.back() == events_ && events_ != nullptr) {
            const size_t i = trace_.events.size();
            if (i >= limits::kTraceEvents)
                fail("more than " + std::to_string(limits::kTraceEvents) + " events, the limit (docs/limits.md)");
            trace_.events.push_back(parse_event(*done, i, trace_, i == 0));
            events_->get_ref<dom::array_t&>().pop_back();  // converted: the document keeps none of it
        }
        return true;
    }
};

}  // namespace

// The events must fit the schedule's launch: blocks, threads, steps, slots and lanes in range. The words of a
// failure are built only then: a trace of millions of events makes no string per event.
void check_trace_geometry(const Trace& t, std::string_view format) {
    auto fail = [&](const std::string& what) { throw Error(std::string(format) + ": " + what); };
    const Schedule& s = t.schedule;
    const uint32_t threads = s.block;
    // A plain CUDA run's blocks are its launches' (block b of launch k is first_block + b), each with its own threads.
    const bool plain = !t.launches.empty();
    if (std::string why = launches_problem(t.launches); !why.empty()) fail("launches: " + why);
    const uint64_t blocks = launch_blocks(t);
    auto threads_in = [&](uint32_t block) { return plain ? t.launches[launch_of_block(t, block)].block : threads; };
    // Tree slots, then warp partials; a student's kernel (kernel_file set) numbers its rl::Shared arrays' slots.
    const bool student = !t.kernel_file.empty();
    const uint32_t slots = student ? limits::kStudentSharedSlots : 2 * std::max<uint32_t>(32, std::bit_ceil(s.block));
    const size_t count = t.events.size();
    for (uint32_t i = 0; i < count; ++i) {
        const Event& e = t.events[i];
        auto where = [i] { return "event " + std::to_string(i); };
        if (e.dep[0] != kNoEvent && e.dep[0] >= count)
            fail(where() + " operand " + std::to_string(e.dep[0]) + " is not an event index below " + std::to_string(count));
        if (e.dep[1] != kNoEvent && e.dep[1] >= count)
            fail(where() + " operand " + std::to_string(e.dep[1]) + " is not an event index below " + std::to_string(count));
        if (plain && e.block >= blocks)
            fail(where() + " \"block\" is " + std::to_string(e.block) + ": the launches have " + std::to_string(blocks) + " blocks");
        if (!plain && e.block > t.grid)
            fail(where() + " \"block\" is " + std::to_string(e.block) + ": the grid has " + std::to_string(t.grid) +
                 " blocks (block " + std::to_string(t.grid) + " is the second launch)");
        if (e.step >= t.step_count)
            fail(where() + " \"step\" is " + std::to_string(e.step) + ", not below \"step_count\" " + std::to_string(t.step_count));
        if (e.thread >= threads_in(e.block))
            fail(where() + " is thread " + std::to_string(e.thread) + " of a block of " + std::to_string(threads_in(e.block)) + " threads");
        if ((e.kind == EventKind::SharedStore || e.kind == EventKind::SharedLoad) && e.detail >= slots)
            fail(where() + " uses shared slot " + std::to_string(e.detail) + "; a block of " + std::to_string(threads) +
                 " threads has " + std::to_string(slots));
        if (e.kind == EventKind::Shuffle && (e.shuffle_offset() >= 32 || e.source_lane() >= 64))
            fail(where() + " shuffles by offset " + std::to_string(e.shuffle_offset()) + " from lane " +
                 std::to_string(e.source_lane()) + "; offsets are below 32 and source lanes below 64");
        // A student's load past the input is recorded (flagged undefined, the out-of-bounds-read hazard).
        if (e.kind == EventKind::Load && e.aux >= s.n && !(student && (e.flags & kUndefined)))
            fail(where() + " loads element " + std::to_string(e.aux) + " of " + std::to_string(s.n));
        if (e.kind == EventKind::PartialLoad && !plain && e.aux > t.grid && !(student && (e.flags & kUndefined)))
            fail(where() + " loads partial " + std::to_string(e.aux) + " of a grid of " + std::to_string(t.grid));
    }
    if (t.grid != s.grid_size())
        fail("\"grid\" is " + std::to_string(t.grid) + " but the schedule launches " + std::to_string(s.grid_size()) + " blocks");
    if (plain && t.grid != t.launches[0].grid)
        fail("\"grid\" is " + std::to_string(t.grid) + " but the first launch has " + std::to_string(t.launches[0].grid) + " blocks");
    if (t.finisher_block != kNoEvent && (plain ? t.finisher_block >= blocks : t.finisher_block > t.grid))
        fail("\"finisher_block\" " + std::to_string(t.finisher_block) + " is not a block of the grid of " + std::to_string(t.grid));
    for (int k = 0; k < 4; ++k)
        if (t.scope_start[k] > t.step_count) fail("\"scope_start\" names a step past \"step_count\"");
    if (std::string why = buffers_problem(t); !why.empty()) fail(why);
    if (t.inputs.size() > s.n)
        fail("\"inputs\" lists " + std::to_string(t.inputs.size()) + " values for a schedule of n = " + std::to_string(s.n));
    for (const auto* list : {&t.hazards, &t.notes})
        for (size_t i = 0; i < list->size(); ++i) {
            const Hazard& h = (*list)[i];
            if ((plain ? h.block >= blocks : h.block > t.grid) || h.warp >= (threads_in(h.block) + 31) / 32)
                fail(std::string(list == &t.notes ? "note " : "hazard ") + std::to_string(i) + " names block " +
                     std::to_string(h.block) + " warp " + std::to_string(h.warp) + ", outside the launch");
        }
}

namespace {

Trace read_trace_json_document(std::istream& in) {
    Trace t;
    TraceReader reader(t);
    dom::sax_parse(in, &reader);
    const dom& j = reader.root;
    if (!j.is_object()) fail("the document must be an object");
    const dom& version = need(j, "version", "the document");
    if (!version.is_number_integer() || version.get<int64_t>() != kTraceJsonVersion)
        fail("unknown version " + one_line(version.dump()) + " (this rlab reads version " + std::to_string(kTraceJsonVersion) + ")");
    if (!j.contains("events")) fail("the document has no \"events\"");
    if (!j["events"].is_array()) fail("\"events\" must be a list");
    const dom& head = j;
    t.schedule = parse_schedule(need(head, "schedule", "the document"));
    const std::string backend = need_string(head, "backend", "the document");
    if (backend != "cpu" && backend != "cuda") fail("\"backend\" must be \"cpu\" or \"cuda\"");
    t.backend = backend == "cuda" ? Backend::Cuda : Backend::Cpu;
    t.device = need_string(head, "device", "the document");
    t.grid = need_uint<uint32_t>(head, "grid", "the document", 0x7fffffff);
    t.step_count = need_uint<uint16_t>(head, "step_count", "the document", 0xffff);
    const dom& fb = need(head, "finisher_block", "the document");
    t.finisher_block = fb.is_null() ? kNoEvent : need_uint<uint32_t>(head, "finisher_block", "the document", 0xffffffffu);
    const dom& ss = need(head, "scope_start", "the document");
    if (!ss.is_array() || ss.size() != 4) fail("\"scope_start\" must list 4 steps");
    for (int i = 0; i < 4; ++i) {
        if (!ss[i].is_number_unsigned() || ss[i].get<uint64_t>() > 0xffff) fail("\"scope_start\" must list 4 steps");
        t.scope_start[i] = ss[i].get<uint16_t>();
    }
    if (head.contains("kernel")) {
        const dom& k = head["kernel"];
        if (!k.is_object()) fail("\"kernel\" must be an object with \"file\" and \"finish_threads\"");
        t.kernel_file = need_string(k, "file", "\"kernel\"");
        t.finish_threads = need_uint<uint32_t>(k, "finish_threads", "\"kernel\"", limits::kBlockThreads);
    }
    if (head.contains("launches")) {  // a plain CUDA run's launches (optional: traces without them have one grid)
        const dom& list = head["launches"];
        if (!list.is_array()) fail("\"launches\" must be a list of {kernel, grid, block, shared_bytes, first_block}");
        if (list.size() > kMaxLaunches)
            fail("\"launches\" lists " + std::to_string(list.size()) + " launches, at most " + std::to_string(kMaxLaunches));
        for (size_t i = 0; i < list.size(); ++i) {
            const dom& l = list[i];
            const std::string where = "launch " + std::to_string(i + 1);
            if (!l.is_object()) fail(where + " must be an object with kernel, grid, block, shared_bytes and first_block");
            LaunchScope s;
            s.kernel = need_string(l, "kernel", where);
            s.grid = need_uint<uint32_t>(l, "grid", where, 0x7fffffff);
            s.block = need_uint<uint32_t>(l, "block", where, limits::kBlockThreads);
            s.shared_bytes = need_uint<uint32_t>(l, "shared_bytes", where, 0xffffffffu);
            s.first_block = need_uint<uint32_t>(l, "first_block", where, 0xffffffffu);
            t.launches.push_back(std::move(s));
        }
        if (std::string why = launches_problem(t.launches); !why.empty()) fail("\"launches\": " + why);
    }
    if (head.contains("buffer_elements")) {  // a plain CUDA run's buffer sizes (optional: older traces have none)
        const dom& list = head["buffer_elements"];
        if (!list.is_array() || list.size() > kMaxTraceBuffers)
            fail("\"buffer_elements\" must be a list of at most " + std::to_string(kMaxTraceBuffers) + " element counts");
        for (const auto& x : list) {
            if (!x.is_number_unsigned()) fail("\"buffer_elements\" must be a list of element counts (whole numbers, 0 or more)");
            t.buffer_elements.push_back(x.get<uint64_t>());
        }
    }
    const dom& inputs = need(head, "inputs", "the document");
    if (!inputs.is_array()) fail("\"inputs\" must be a list of numbers");
    for (const auto& x : inputs) {
        if (!x.is_number()) fail("\"inputs\" must be a list of numbers");
        t.inputs.push_back(x.get<double>());
    }
    const dom& result = need(head, "result", "the document");
    if (!result.is_object()) fail("\"result\" must be an object");
    const dom& rev = need(result, "event", "\"result\"");
    if (!rev.is_null()) {
        if (!rev.is_number_unsigned() || rev.get<uint64_t>() >= t.events.size()) fail("\"result\" event is not an event index");
        t.result_event = rev.get<uint32_t>();
        t.result_value = t.events[t.result_event].value;
        t.result_flags = t.events[t.result_event].flags;
    }
    t.reference_value = parse_hex(need(result, "reference_bits", "\"result\""), "\"result\" \"reference_bits\"");
    t.reference_exact = need_number(result, "reference", "\"result\"");
    t.abs_sum = need_number(result, "abs_sum", "\"result\"");
    // "notes" (cost findings) is optional: traces written before notes were kept list them among the hazards,
    // and a note read there moves to the notes.
    auto read_findings = [&](const dom& list, const char* name, const char* one) {
        if (!list.is_array()) fail(std::string("\"") + name + "\" must be a list");
        for (size_t i = 0; i < list.size(); ++i) {
            const dom& h = list[i];
            const std::string where = one + std::string(" ") + std::to_string(i);
            if (!h.is_object()) fail(where + " must be an object");
            Hazard out{};
            const dom& kind = need(h, "kind", where);
            if (!kind.is_string() || !parse_hazard_kind(kind.get<std::string>(), out.kind)) fail(where + " has an unknown kind " + one_line(kind.dump()));
            out.event = need_uint<uint32_t>(h, "event", where, t.events.empty() ? 0 : t.events.size() - 1);
            out.block = need_uint<uint32_t>(h, "block", where, 0xffffffffu);
            out.warp = need_uint<uint32_t>(h, "warp", where, 31);
            out.lanes = uint32_t(parse_hex(need(h, "lanes", where), where + " \"lanes\""));
            out.what = need_string(h, "what", where);
            (is_note(out.kind) ? t.notes : t.hazards).push_back(std::move(out));
        }
    };
    read_findings(need(head, "hazards", "the document"), "hazards", "hazard");
    if (head.contains("notes")) read_findings(head["notes"], "notes", "note");
    if (head.contains("level_of_detail")) {  // optional: a trace that keeps every event has none
        const dom& d = head["level_of_detail"];
        const std::string where = "\"level_of_detail\"";
        if (!d.is_object() || !d.contains("summarised") || !d["summarised"].is_array())
            fail(where + " must be an object with detail_blocks, events_total and a list summarised");
        t.detail.detail_blocks = need_uint<uint32_t>(d, "detail_blocks", where, 0xffffffffu);
        t.detail.events_total = need_uint<uint64_t>(d, "events_total", where, ~0ull);
        for (const dom& r : d["summarised"]) {
            const std::string at = where + " range " + std::to_string(t.detail.summarised.size() + 1);
            if (!r.is_object() || !r.contains("kinds") || !r["kinds"].is_object() || !r.contains("lines") || !r["lines"].is_array())
                fail(at + " must be an object with first_block, blocks, first_step, last_step, events, kept, kinds and lines");
            SummarisedBlocks s;
            s.first_block = need_uint<uint32_t>(r, "first_block", at, 0xffffffffu);
            s.blocks = need_uint<uint32_t>(r, "blocks", at, 0xffffffffu);
            s.first_step = need_uint<uint16_t>(r, "first_step", at, 0xfffe);
            s.last_step = need_uint<uint16_t>(r, "last_step", at, 0xfffe);
            s.events = need_uint<uint64_t>(r, "events", at, ~0ull);
            s.kept = need_uint<uint64_t>(r, "kept", at, ~0ull);
            for (const auto& [name, count] : r["kinds"].items()) {
                EventKind k;
                if (!parse_event_kind(name, k)) fail(at + ": \"" + one_line(name) + "\" is not an event kind");
                if (!count.is_number_unsigned()) fail(at + ": the count of " + name + " must be a whole number");
                s.kinds[int(k)] = count.get<uint64_t>();
            }
            for (const dom& l : r["lines"]) {
                if (!l.is_number_unsigned() || l.get<uint64_t>() > 0xffff) fail(at + ": lines are numbers 0..65535");
                s.lines.push_back(uint16_t(l.get<uint64_t>()));
            }
            t.detail.summarised.push_back(std::move(s));
        }
    }
    check_trace_geometry(t, "trace JSON");  // operands were checked to point earlier as each event was read: no cycles
    if (std::string why = level_of_detail_problem(t); !why.empty()) fail(why);
    return t;
}

}  // namespace

// Any type mismatch the checks above miss still ends as a one-line error, never a crash.
Trace read_trace_json(std::istream& in) {
    try {
        return read_trace_json_document(in);
    } catch (const json::exception& e) {
        fail(std::string("unexpected content: ") + one_line(e.what()));
    } catch (const std::bad_alloc&) {
        fail("out of memory while reading; the trace is too large for this machine (docs/limits.md)");
    }
}

namespace {

bool is_gzip(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    unsigned char magic[2] = {0, 0};
    in.read(reinterpret_cast<char*>(magic), 2);
    return in.gcount() == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
}

// A gzip file's text, refused once it decompresses past the trace limit (a small file can hold a huge one).
std::string gunzip_text(const std::string& path) {
    gzFile gz = gzopen(path.c_str(), "rb");
    if (!gz) throw Error(one_line(path) + ": cannot open for reading");
    std::string text;
    char buf[1 << 16];
    int got = 0;
    while ((got = gzread(gz, buf, sizeof buf)) > 0) {
        if (text.size() + size_t(got) > limits::kTraceFileBytes) {
            gzclose(gz);
            throw Error(one_line(path) + ": decompresses to more than the " +
                        std::to_string(limits::kTraceFileBytes >> 20) + " MiB a trace may have (docs/limits.md)");
        }
        text.append(buf, size_t(got));
    }
    int code = Z_OK;
    const std::string why = gzerror(gz, &code);  // a stream cut short reads as its end, with Z_BUF_ERROR set
    gzclose(gz);
    if (got < 0 || code != Z_OK) throw Error(one_line(path) + ": not a whole gzip file (" + why + ")");
    return text;
}

}  // namespace

Trace read_trace_file(const std::string& path) {
    check_readable_file(path, "trace", limits::kTraceFileBytes);
    {  // the runner's binary form (core/trace_binary.h), kept by hand or by a tool
        std::ifstream head(path, std::ios::binary);
        char magic[8] = {};
        head.read(magic, sizeof magic);
        if (is_trace_binary(std::string_view(magic, size_t(head.gcount())))) return read_trace_binary(head);
    }
    if (is_gzip(path)) {  // a .json.gz (the lessons' recordings are committed so)
        std::istringstream in(gunzip_text(path));
        return read_trace_json(in);
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(one_line(path) + ": cannot open for reading");
    return read_trace_json(in);
}

void write_chrome_trace(std::ostream& out, const Trace& t) {
    const bool timed = !t.times.empty();
    uint64_t t0 = ~0ull;
    for (const auto& tm : t.times) t0 = std::min(t0, tm.globaltimer_ns);
    auto ts = [&](uint32_t i) {
        if (timed) return double(t.times[i].globaltimer_ns - t0) / 1000.0;
        const Event& e = t.events[i];
        return double(e.step) * 100.0 + double(e.lane()) * 3.0;  // emulator: a step is 100 "us"
    };
    const double dur = timed ? 0.001 : 2.0;
    out << "{\"displayTimeUnit\":\"ns\",\"otherData\":" << json({{"schedule", describe(t.schedule)}, {"device", t.device}}).dump()
        << ",\"traceEvents\":[\n";
    bool first = true;
    auto sep = [&]() {
        if (!first) out << ",\n";
        first = false;
    };
    for (uint32_t i = 0; i < t.events.size(); ++i) {
        const Event& e = t.events[i];
        sep();
        out << json({{"name", to_string(e.kind)}, {"cat", to_string(e.kind)}, {"ph", "X"}, {"ts", ts(i)}, {"dur", dur},
                     {"pid", e.block}, {"tid", e.warp()},
                     {"args", {{"event", i}, {"lane", e.lane()}, {"step", e.step},
                               {"value", format_value(t.schedule.op, t.schedule.type, e.value, e.flags)},
                               {"flags", format_flags(e.flags)}}}}).dump();
        if (e.kind == EventKind::Shuffle && e.dep[0] != kNoEvent) {
            const Event& src = t.events[e.dep[0]];
            sep();
            out << json({{"name", "shuffle"}, {"cat", "shuffle"}, {"ph", "s"}, {"id", i}, {"ts", ts(e.dep[0])},
                         {"pid", src.block}, {"tid", src.warp()}}).dump();
            sep();
            out << json({{"name", "shuffle"}, {"cat", "shuffle"}, {"ph", "f"}, {"bp", "e"}, {"id", i}, {"ts", ts(i)},
                         {"pid", e.block}, {"tid", e.warp()}}).dump();
        }
    }
    // Track names: "block 3" / "warp 1".
    std::vector<std::pair<uint32_t, uint32_t>> tracks;
    for (const Event& e : t.events) tracks.push_back({e.block, e.warp()});
    std::sort(tracks.begin(), tracks.end());
    tracks.erase(std::unique(tracks.begin(), tracks.end()), tracks.end());
    uint32_t last_block = kNoEvent;
    for (auto [b, w] : tracks) {
        if (b != last_block) {
            sep();
            std::string name = (b == t.grid ? "second launch" : "block " + std::to_string(b));
            out << json({{"name", "process_name"}, {"ph", "M"}, {"pid", b}, {"args", {{"name", name}}}}).dump();
            last_block = b;
        }
        sep();
        out << json({{"name", "thread_name"}, {"ph", "M"}, {"pid", b}, {"tid", w}, {"args", {{"name", "warp " + std::to_string(w)}}}}).dump();
    }
    out << "\n]}\n";
}

}  // namespace rl
