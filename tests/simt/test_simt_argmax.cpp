// tests/simt/test_simt_argmax.cpp — a student's argmax loop (`if (v > best) { best = v; bi = i; }`) on the
// interpreter: the value select is recorded as max combines of the element loads, the winning element index follows
// from that history by the first-index rule (ArgMaxOp), and the kernel's own index is checked against it (ties).
#include <doctest/doctest.h>

#include <cstring>
#include "simt_test.h"
#include "simt/values.h"

namespace rl::simt_test {
namespace {

#define REQUIRE_CLANG()                                               \
    if (!have_clang()) {                                              \
        MESSAGE("SKIPPED: clang-14 is not installed (Debian: clang-14)"); \
        return;                                                       \
    }

// One thread walks in[0..n-1] as students write it; CMP is `>` (ties keep the first) or `>=` (ties move to the last).
std::string argmax_loop(const char* cmp) {
    return std::string("__global__ void argmax_loop(const float* in, int* out, int n) {\n"   // line 1
                       "    if (threadIdx.x != 0) return;\n"                                 // line 2
                       "    float best = in[0];\n"                                           // line 3
                       "    int bi = 0;\n"                                                   // line 4
                       "    for (int i = 1; i < n; ++i) {\n"                                 // line 5
                       "        float v = in[i];\n"                                          // line 6
                       "        if (v ") + cmp + " best) { best = v; bi = i; }\n"            // line 7
                       "    }\n"
                       "    out[0] = bi;\n"                                                  // line 9
                       "}\n";
}

struct Run {
    simt::LaunchResult result;
    int32_t kernel_index = 0;  // what the kernel wrote to out[0]
};

// <<<1, block>>>(in, out, n) over the given floats, operator `op` (max), out[0] starting at -1.
Run run(const simt::Kernel& k, const std::vector<float>& values, Op op = Op::Max, uint32_t block = 32) {
    std::vector<simt::GlobalBuffer> buffers(2);
    buffers[0].name = "in";
    buffers[0].input = true;
    buffers[0].input_elements = values.size();
    buffers[0].size = values.size() * 4;
    buffers[0].mem.assign(buffers[0].size, 0);
    std::memcpy(buffers[0].mem.bytes.data(), values.data(), values.size() * 4);
    buffers[1].name = "out";
    buffers[1].size = 4;
    buffers[1].mem.assign(4, 0);
    const int32_t start = -1;
    std::memcpy(buffers[1].mem.bytes.data(), &start, 4);
    simt::LaunchRequest r;
    r.grid = 1;
    r.block = block;
    r.args = {{simt::ArgKind::Buffer, 0, 0, 0}, {simt::ArgKind::Buffer, 0, 1, 0}, {simt::ArgKind::Scalar, uint64_t(values.size()), 0, 0}};
    r.op = op;
    r.type = DType::F32;
    r.buffers = &buffers;
    Run out;
    out.result = simt::run_launch(k, r);
    std::memcpy(&out.kernel_index, buffers[1].mem.bytes.data(), 4);
    return out;
}

// The argmax a value's history holds: a Load of in[i] is (value, i); a combine is ArgMaxOp's combine of its operands
// (the greater value, the lower index on a tie), whichever operand the kernel's select kept.
ArgMaxValue<float> history_argmax(const std::vector<StudentRecord>& rec, uint32_t ev) {
    const StudentRecord& r = rec.at(ev);
    if (r.kind == EventKind::Load) return ArgMaxOp<float>::lift(unpack_value<float>(r.value), r.aux);
    REQUIRE(r.kind == EventKind::Combine);
    return ArgMaxOp<float>::combine(history_argmax(rec, r.dep[0]), history_argmax(rec, r.dep[1]));
}

// Thread 0 on n elements, in program order: the Loads of in[1] (line 6) and in[0] (line 3), left operand first, and
// their max combine (line 7); then per i = 2..n-1 a Load of in[i] and a max combine (line 7) of that load and the
// previous combine (select(v > best, v, best): the compare's operands in its order, the new element first). Then
// `out[0] = bi` (line 9): the index is a plain int with no history, so it is recorded as an IdentityFill holding the
// kernel's int and a BlockPartial of it: nothing ties it to the value's history (why the runner must compare it with
// the history's index itself). No other thread records. Returns the last combine; `written` gets the fill's int.
uint32_t check_chain(const simt::LaunchResult& r, size_t n, int32_t& written) {
    const std::vector<StudentRecord>& rec = r.records;
    for (uint32_t t = 1; t < 32; ++t) CHECK(thread_records(rec, 0, t).empty());
    const std::vector<uint32_t> own = thread_records(rec, 0, 0);
    REQUIRE(own.size() == 2 * n + 1);
    auto load_of = [&](uint32_t ev, uint32_t element, uint32_t line) {
        CHECK(rec[ev].kind == EventKind::Load);
        CHECK(rec[ev].aux == element);
        CHECK(rec[ev].line == line);
    };
    load_of(own[0], 1, 6);
    load_of(own[1], 0, 3);
    uint32_t best = own[1];
    for (size_t i = 1; i < n; ++i) {
        CAPTURE(i);
        const uint32_t load = i == 1 ? own[0] : own[2 * i - 1], comb = own[2 * i];
        if (i > 1) load_of(load, uint32_t(i), 6);
        CHECK(rec[comb].kind == EventKind::Combine);
        CHECK(rec[comb].line == 7);
        CHECK(rec[comb].dep[0] == load);
        CHECK(rec[comb].dep[1] == best);
        best = comb;
    }
    const StudentRecord &fill = rec[own[2 * n - 1]], &partial = rec[own[2 * n]];
    CHECK(fill.kind == EventKind::IdentityFill);
    CHECK(fill.line == 9);
    CHECK(partial.kind == EventKind::BlockPartial);
    CHECK(partial.dep[0] == own[2 * n - 1]);
    written = unpack_value<int32_t>(fill.value);
    return best;
}

TEST_CASE("simt argmax: `if (v > best) { best = v; bi = i; }` records max combines of the loads; the history's index is the first maximum") {
    REQUIRE_CLANG();
    const simt::Module m = compile(argmax_loop(">"), "argmax_loop.cu");
    // Distinct values: the maximum 9 is at index 2 (hand-derived), and the kernel writes 2.
    const std::vector<float> distinct = {3, -1, 9, 4, 7};
    const Run a = run(m.kernels.at(0), distinct);
    REQUIRE(a.result.error.empty());
    int32_t written = -1;
    const uint32_t last = check_chain(a.result, distinct.size(), written);
    CHECK(unpack_value<float>(a.result.records[last].value) == 9.0f);  // the combine's value is the max
    const ArgMaxValue<float> h = history_argmax(a.result.records, last);
    CHECK(h.value == 9.0f);
    CHECK(h.index == 2u);
    CHECK(a.kernel_index == 2);
    CHECK(written == 2);
    CHECK(a.result.first_op == simt::kCombineMax);
}

TEST_CASE("simt argmax: a tie: `>` keeps the first maximum as the history does, `>=` writes the last one") {
    REQUIRE_CLANG();
    // 8 at indices 1 and 3 (hand-derived): the first maximum is 1.
    const std::vector<float> tie = {2, 8, -5, 8, 6};
    for (const char* cmp : {">", ">="}) {
        CAPTURE(cmp);
        const simt::Module m = compile(argmax_loop(cmp), "argmax_loop.cu");
        const Run r = run(m.kernels.at(0), tie);
        REQUIRE(r.result.error.empty());
        int32_t written = -1;
        const uint32_t last = check_chain(r.result, tie.size(), written);
        const ArgMaxValue<float> h = history_argmax(r.result.records, last);
        CHECK(h.value == 8.0f);
        CHECK(h.index == 1u);                                      // the history names the first maximum either way
        CHECK(r.kernel_index == (std::string(cmp) == ">" ? 1 : 3));  // the kernel's int: what a check compares with it
        CHECK(written == r.kernel_index);
    }
}

TEST_CASE("simt argmax: under --op argmax the kernel's index follows its value into out[0]") {
    REQUIRE_CLANG();
    // As above, but the run's operator is argmax: `bi = v > best ? i : bi` takes the history of `best`'s select on the
    // same compare, and `out[0] = bi` stores the kernel's int with that history: the BlockPartial's operand is the
    // last combine (no fill), its value the pair (the combine's value, the kernel's int), memory the int itself.
    const std::vector<float> tie = {2, 8, -5, 8, 6};  // 8 at 1 and 3: the first maximum is (8, 1)
    for (const char* cmp : {">", ">="}) {
        CAPTURE(cmp);
        const simt::Module m = compile(argmax_loop(cmp), "argmax_loop.cu");
        const Run r = run(m.kernels.at(0), tie, Op::ArgMax);
        REQUIRE(r.result.error.empty());
        const int32_t kernel = std::string(cmp) == ">" ? 1 : 3;
        CHECK(r.kernel_index == kernel);
        const std::vector<StudentRecord>& rec = r.result.records;
        const std::vector<uint32_t> own = thread_records(rec, 0, 0);
        REQUIRE(own.size() == 2 * tie.size());  // n loads, n - 1 combines, the BlockPartial: no fill
        const StudentRecord& partial = rec[own.back()];
        REQUIRE(partial.kind == EventKind::BlockPartial);
        const StudentRecord& last = rec.at(partial.dep[0]);
        REQUIRE(last.kind == EventKind::Combine);
        const ArgMaxValue<float> h = unpack_value<ArgMaxValue<float>>(last.value);
        CHECK(h.value == 8.0f);
        CHECK(h.index == 1u);  // ArgMaxOp's pair: the first maximum, whatever the kernel kept
        const ArgMaxValue<float> stored = unpack_value<ArgMaxValue<float>>(partial.value);
        CHECK(stored.value == 8.0f);
        CHECK(stored.index == uint32_t(kernel));  // the kernel's own int beside the value
        // Every Load is the pair (in[i], i).
        for (uint32_t ev : own)
            if (rec[ev].kind == EventKind::Load) {
                const ArgMaxValue<float> p = unpack_value<ArgMaxValue<float>>(rec[ev].value);
                CHECK(p.value == tie.at(rec[ev].aux));
                CHECK(p.index == rec[ev].aux);
            }
    }
}

// The branch form of a max tree over 8 slots of shared memory: `if (s[t + k] > s[t]) s[t] = s[t + k];`.
const char* kBranchMax =
    "__global__ void branch_max(const float* in, float* out, int n) {\n"  // 1
    "    __shared__ float s[8];\n"                                         // 2
    "    unsigned t = threadIdx.x;\n"                                      // 3
    "    s[t] = in[t];\n"                                                  // 4
    "    __syncthreads();\n"                                               // 5
    "    for (unsigned k = 4; k > 0; k >>= 1) {\n"                         // 6
    "        if (t < k) {\n"                                               // 7
    "            if (s[t + k] > s[t]) s[t] = s[t + k];\n"                  // 8
    "        }\n"                                                          // 9
    "        __syncthreads();\n"                                           // 10
    "    }\n"                                                              // 11
    "    if (t == 0) out[0] = s[0];\n"                                     // 12
    "}\n";

TEST_CASE("simt branch form: `if (s[t + k] > s[t]) s[t] = s[t + k];` records a max combine where it stores") {
    REQUIRE_CLANG();
    const simt::Module m = compile(kBranchMax, "branch_max.cu");
    // in = 3 -1 9 4 7 2 8 5, one block of 8 (hand-derived): k = 4: slot 0 takes 7 > 3, slot 1 2 > -1, slot 3 5 > 4,
    // slot 2 keeps 9 (8 is not greater); k = 2: slot 0 takes 9 > 7, slot 1 5 > 2; k = 1: 5 > 9 fails. Five stores, each
    // a max combine (line 8) of the slot's old value and the greater one; out[0] = 9.
    const std::vector<float> in = {3, -1, 9, 4, 7, 2, 8, 5};
    const Run r = run(m.kernels.at(0), in, Op::Max, 8);
    REQUIRE(r.result.error.empty());
    const std::vector<StudentRecord>& rec = r.result.records;
    struct Want { uint32_t thread; float old_value, taken; };
    const std::vector<Want> want = {{0, 3, 7}, {1, -1, 2}, {3, 4, 5}, {0, 7, 9}, {1, 2, 5}};
    std::vector<uint32_t> combines;
    for (uint32_t k = 0; k < rec.size(); ++k)
        if (rec[k].kind == EventKind::Combine) combines.push_back(k);
    REQUIRE(combines.size() == want.size());
    for (const Want& w : want) {
        CAPTURE(w.thread);
        CAPTURE(w.taken);
        bool found = false;
        for (uint32_t c : combines) {
            const StudentRecord& x = rec[c];
            if (x.thread != w.thread || unpack_value<float>(x.value) != w.taken) continue;
            found = true;
            CHECK(x.line == 8);
            CHECK(rec.at(x.dep[0]).kind == EventKind::SharedLoad);
            CHECK(rec.at(x.dep[1]).kind == EventKind::SharedLoad);
            CHECK(unpack_value<float>(rec.at(x.dep[0]).value) == w.old_value);  // the slot's old value, then the greater
            CHECK(unpack_value<float>(rec.at(x.dep[1]).value) == w.taken);
            // The store that follows stores the combine.
            bool stored = false;
            for (uint32_t k = c + 1; k < rec.size(); ++k)
                stored = stored || (rec[k].kind == EventKind::SharedStore && rec[k].dep[0] == c && rec[k].detail == w.thread);
            CHECK(stored);
        }
        CHECK(found);
    }
    CHECK(r.result.first_op == simt::kCombineMax);
    float out0;
    std::memcpy(&out0, &r.kernel_index, 4);
    CHECK(out0 == 9.0f);
}

TEST_CASE("simt branch form: conditional stores that are no max or min record no combine") {
    REQUIRE_CLANG();
    // A clamp (a constant stored), a threshold (the compared value is no load of the slot stored over) and a
    // compare-exchange (two stores of elements under one branch: a sort step, not a reduction). Run under sum: a
    // combine would show in first_op.
    const char* src =
        "__global__ void not_reductions(const float* in, float* out, int n) {\n"
        "    __shared__ float s[8];\n"
        "    unsigned t = threadIdx.x;\n"
        "    s[t] = in[t];\n"
        "    __syncthreads();\n"
        "    if (s[t] > 4.0f) s[t] = 4.0f;\n"
        "    float x = in[(t + 1) % 8];\n"
        "    if (x > 2.0f) s[t] = x;\n"
        "    __syncthreads();\n"
        "    if (t % 2 == 0) {\n"
        "        float a = s[t], b = s[t + 1];\n"
        "        if (a > b) { s[t] = b; s[t + 1] = a; }\n"
        "    }\n"
        "    __syncthreads();\n"
        "    if (t == 0) out[0] = s[0];\n"
        "}\n";
    const simt::Module m = compile(src, "not_reductions.cu");
    const std::vector<float> in = {3, -1, 9, 4, 7, 2, 8, 5};
    const Run r = run(m.kernels.at(0), in, Op::Sum, 8);
    REQUIRE(r.result.error.empty());
    for (const StudentRecord& x : r.result.records) CHECK(x.kind != EventKind::Combine);
    CHECK(r.result.first_op < 0);
    // By hand: clamp gives 3 -1 4 4 4 2 4 4; x = in[t + 1] = -1 9 4 7 2 8 5 3, stored where > 2: slots 1 2 3 5 6 7 take
    // 9 4 7 8 5 3: 3 9 4 7 4 8 5 3; the pairs (0,1) (2,3) (4,5) (6,7) are in order but (6,7): 5 > 3 swaps; out[0] = 3.
    float out0;
    std::memcpy(&out0, &r.kernel_index, 4);
    CHECK(out0 == 3.0f);
}

}  // namespace
}  // namespace rl::simt_test
