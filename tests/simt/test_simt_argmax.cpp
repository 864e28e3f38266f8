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

// <<<1, 32>>>(in, out, n) over the given floats, operator max, out[0] starting at -1.
Run run(const simt::Kernel& k, const std::vector<float>& values) {
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
    r.block = 32;
    r.args = {{simt::ArgKind::Buffer, 0, 0, 0}, {simt::ArgKind::Buffer, 0, 1, 0}, {simt::ArgKind::Scalar, uint64_t(values.size()), 0, 0}};
    r.op = Op::Max;
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

}  // namespace
}  // namespace rl::simt_test
