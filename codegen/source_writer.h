// codegen/source_writer.h — appends lines to a KernelSource: plain lines, named sites, lines a bug changed.
#pragma once
#include <string>

#include "codegen/kernel_source.h"
#include "core/error.h"

namespace rl::codegen {

class SourceWriter {
public:
    explicit SourceWriter(KernelSource& out) : out_(out) {}
    // A line; site names the place (unique per source: a second use is a generator defect).
    void line(std::string text, std::string site = {}) { add(std::move(text), std::move(site), false); }
    // A line a switched-on bug changed or added (it carries a comment naming the bug).
    void bug(std::string text, std::string site = {}) { add(std::move(text), std::move(site), true); }
    // line() or bug() by a flag.
    void line_if_bug(bool is_bug, std::string text, std::string site = {}) { add(std::move(text), std::move(site), is_bug); }
    void blank() { add({}, {}, false); }
    // While on, every line is written as a bug line (a block of code a bug added).
    void bug_block(bool on) { bug_block_ = on; }

private:
    void add(std::string text, std::string site, bool bug) {
        if (!site.empty() && out_.line_of(site) != 0) throw Error("generator: site " + site + " written twice");
        out_.lines.push_back({std::move(text), std::move(site), bug || bug_block_});
    }
    KernelSource& out_;
    bool bug_block_ = false;
};

}  // namespace rl::codegen
