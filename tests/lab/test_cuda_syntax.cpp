// tests/lab/test_cuda_syntax.cpp — the CUDA tokenizer both front ends colour with: tokens cover each line, kinds
// are right for the code a reduction kernel has, comments carry across lines, the colours stay legible.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include "app/lab/cuda_syntax.h"

using namespace rl::lab;

namespace {

// "kind:text" for each token that is not plain white space, for readable expectations.
std::string show(std::string_view line, bool* block = nullptr) {
    std::string out;
    for (const Token& t : cuda_tokens(line, block)) {
        const std::string_view w = t.text(line);
        if (t.kind == TokenKind::Plain) continue;
        static const char* names[] = {"plain", "kw", "type", "builtin", "num", "comment", "str", "pre"};
        out += std::string(names[int(t.kind)]) + ":" + std::string(w) + " ";
    }
    return out;
}

// WCAG relative luminance and contrast ratio, written from the definition.
double lum(uint32_t rgb) {
    auto ch = [](uint32_t v) {
        const double c = double(v) / 255.0;
        return c <= 0.03928 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * ch((rgb >> 16) & 255) + 0.7152 * ch((rgb >> 8) & 255) + 0.0722 * ch(rgb & 255);
}
double contrast(uint32_t a, uint32_t b) {
    const double x = lum(a), y = lum(b);
    return (std::max(x, y) + 0.05) / (std::min(x, y) + 0.05);
}

}  // namespace

TEST_CASE("cuda_syntax: the tokens of a line cover it in order, without gaps") {
    const std::string lines[] = {
        "    v = op(v, __shfl_down_sync(0xffffffffu, v, offset));  // shuffle: lane + offset",
        "__global__ void reduce(const float* __restrict__ in, float* out, unsigned n) {",
        "#pragma unroll",
        "  printf(\"%d \\\"x\\\" %c\\n\", 3, 'a'); /* a */ x = 1.5e-3f + .5 + 0x1Fu;",
        "",
        "   \t",
        "}"};
    for (const std::string& l : lines) {
        size_t at = 0;
        for (const Token& t : cuda_tokens(l)) {
            CHECK(t.begin == at);
            CHECK(t.size > 0);
            at += t.size;
        }
        CHECK(at == l.size());
    }
}

TEST_CASE("cuda_syntax: keywords, types, CUDA built-ins, numbers, comments, strings, preprocessor lines") {
    CHECK(show("    v = op(v, __shfl_down_sync(0xffffffffu, v, offset));  // shuffle") ==
          "builtin:__shfl_down_sync num:0xffffffffu comment:// shuffle ");
    CHECK(show("__global__ void k(const float* in, unsigned n) {") == "kw:__global__ type:void kw:const type:float kw:unsigned ");
    CHECK(show("  __shared__ volatile int s[64];") == "kw:__shared__ kw:volatile type:int num:64 ");
    CHECK(show("  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;") ==
          "kw:const kw:unsigned builtin:blockIdx builtin:blockDim builtin:threadIdx ");
    CHECK(show("  if (threadIdx.x == 0) atomicAdd(out, v);") == "kw:if builtin:threadIdx num:0 builtin:atomicAdd ");
    CHECK(show("  __syncthreads();") == "builtin:__syncthreads ");
    CHECK(show("#include <cstdio>") == "pre:#include <cstdio> ");
    CHECK(show("  #pragma unroll") == "pre:#pragma unroll ");
    CHECK(show("  x = 1.5e-3f + 2.0 - 1e+4;") == "num:1.5e-3f num:2.0 num:1e+4 ");
    CHECK(show("  y = 0x1e-2;") == "num:0x1e num:2 ");  // hex has no exponent: the minus is an operator
    CHECK(show("  printf(\"a \\\" // not a comment\\n\");") == "builtin:printf str:\"a \\\" // not a comment\\n\" ");
    CHECK(show("  c = 'x'; /* note */ d = 2;") == "str:'x' comment:/* note */ num:2 ");
    CHECK(show("  my_value = thread_idx;") == "");  // identifiers that merely look like built-ins stay plain
}

TEST_CASE("cuda_syntax: a block comment carries across lines when the caller keeps the state") {
    bool block = false;
    CHECK(show("  int a; /* starts here", &block) == "type:int comment:/* starts here ");
    CHECK(block);
    CHECK(show("  #define NOT_PREPROC inside a comment", &block) == "comment:  #define NOT_PREPROC inside a comment ");
    CHECK(block);
    CHECK(show("  ends */ return 1;", &block) == "comment:  ends */ kw:return num:1 ");
    CHECK_FALSE(block);
}

TEST_CASE("cuda_syntax: every token colour is legible (contrast >= 4.5:1) on every line background, both themes") {
    for (bool dark : {true, false}) {
        const SourceColors& c = source_colors(dark);
        for (uint32_t bg : {c.background, c.step_line, c.picked_line, c.bug_line, c.removed_line})
            for (int k = 0; k <= int(TokenKind::Preproc); ++k) {
                INFO("dark " << dark << " kind " << k << " background " << bg);
                CHECK(contrast(token_color(TokenKind(k), dark), bg) >= 4.5);
            }
        CHECK(contrast(c.line_number, c.background) >= 4.5);
        CHECK(contrast(c.bug_mark, c.background) >= 3.0);  // a mark, not text: WCAG's 3:1 for graphics
    }
}
