// tests/tools/renumber_traces.cpp — rewrites trace files written before operands had to point to earlier
// events (GPU recordings in lane/slot order) into core's order (core/event_order.h), as text: every other
// field and each event's own fields are kept as they were; only the events' order, their "deps", the
// hazards' "event" and the result's "event" change. A one-time migration tool, built on request
// (cmake --build B --target rlab_renumber_traces); usage: rlab_renumber_traces IN OUT (".gz" read and written).
#include <zlib.h>

#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/event_order.h"
#include "core/trace.h"

namespace {

using json = nlohmann::ordered_json;  // the files' key order is kept

std::string read_all(const std::string& path) {
    gzFile f = gzopen(path.c_str(), "rb");  // reads plain files too
    if (!f) throw rl::Error("cannot open " + path);
    std::string text;
    char buf[1 << 16];
    int got;
    while ((got = gzread(f, buf, sizeof buf)) > 0) text.append(buf, size_t(got));
    const bool ok = got == 0;
    gzclose(f);
    if (!ok) throw rl::Error("cannot read " + path);
    return text;
}

void write_all(const std::string& path, const std::string& text) {
    const bool gz = path.size() > 3 && path.compare(path.size() - 3, 3, ".gz") == 0;
    if (gz) {
        gzFile f = gzopen(path.c_str(), "wb9");
        if (!f || gzwrite(f, text.data(), unsigned(text.size())) != int(text.size()) || gzclose(f) != Z_OK)
            throw rl::Error("cannot write " + path);
        return;
    }
    FILE* f = std::fopen(path.c_str(), "wb");
    if (!f || std::fwrite(text.data(), 1, text.size(), f) != text.size() || std::fclose(f) != 0)
        throw rl::Error("cannot write " + path);
}

// What the order needs of each event: kind, step, block, thread, the finisher flag and the operands.
rl::Event order_fields(const json& e) {
    rl::Event ev{};
    if (!rl::parse_event_kind(e.at("kind").get<std::string>(), ev.kind)) throw rl::Error("unknown event kind");
    ev.step = e.at("step").get<uint16_t>();
    ev.block = e.at("block").get<uint32_t>();
    ev.thread = uint16_t(e.at("warp").get<uint32_t>() * 32 + e.at("lane").get<uint32_t>());
    for (const auto& f : e.at("flags"))
        if (f == "finisher") ev.flags |= rl::kFinisher;
    for (int k = 0; k < 2; ++k) ev.dep[k] = e.at("deps")[k].is_null() ? rl::kNoEvent : e.at("deps")[k].get<uint32_t>();
    return ev;
}

json renamed(const json& index, const std::vector<uint32_t>& new_of_old) {
    return index.is_null() ? index : json(new_of_old.at(index.get<uint32_t>()));
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 3) {
        std::cerr << "usage: rlab_renumber_traces IN OUT\n";
        return 2;
    }
    try {
        json doc = json::parse(read_all(argv[1]));
        json& events = doc.at("events");
        rl::Trace order_only;
        for (const auto& e : events) order_only.events.push_back(order_fields(e));
        const std::vector<rl::Event>& ev = order_only.events;
        if (rl::first_forward_operand(order_only) == rl::kNoEvent) {
            std::cout << argv[1] << ": operands already point earlier\n";
            return 0;
        }
        const std::vector<uint32_t> order = rl::operands_first_order(ev);
        std::vector<uint32_t> new_of_old(order.size());
        for (uint32_t k = 0; k < order.size(); ++k) new_of_old[order[k]] = k;
        json out = json::array();
        for (uint32_t old : order) {
            json e = events[old];
            for (auto& d : e.at("deps")) d = renamed(d, new_of_old);
            out.push_back(std::move(e));
        }
        for (auto& h : doc.at("hazards")) h.at("event") = renamed(h.at("event"), new_of_old);
        doc.at("result").at("event") = renamed(doc.at("result").at("event"), new_of_old);
        // Laid out as write_trace_json lays it out: the head indented, then one event a line.
        doc.erase("events");
        std::string text = doc.dump(1);
        text.pop_back();  // the closing brace
        while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
        text += ",\n \"events\": [\n";
        for (size_t i = 0; i < out.size(); ++i) text += "  " + out[i].dump() + (i + 1 < out.size() ? ",\n" : "\n");
        write_all(argv[2], text + " ]\n}\n");
        std::cout << argv[1] << ": " << order.size() << " events renumbered\n";
    } catch (const std::exception& e) {
        std::cerr << argv[1] << ": " << e.what() << "\n";
        return 2;
    }
}
