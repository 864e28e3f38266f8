// app/lab/cuda_syntax.cpp — a small CUDA C++ lexer for colouring (not a parser): words, numbers, comments, strings.
#include "app/lab/cuda_syntax.h"

#include <algorithm>
#include <iterator>
#include <cctype>

namespace rl::lab {

namespace {

// Words a reduction kernel and its harness use; anything else stays plain.
constexpr std::string_view kKeywords[] = {
    "__device__", "__forceinline__", "__global__", "__host__", "__launch_bounds__", "__restrict__", "__shared__",
    "auto", "break", "case", "const", "constexpr", "continue", "default", "do", "else", "extern", "false", "for",
    "if", "inline", "namespace", "nullptr", "return", "sizeof", "static", "static_cast", "struct", "switch",
    "template", "true", "typename", "unsigned", "using", "volatile", "while"};
constexpr std::string_view kTypes[] = {
    "__half", "__nv_bfloat16", "bool", "char", "cudaError_t", "cudaStream_t", "dim3", "double", "float", "grid_group",
    "half", "int", "int32_t", "int64_t", "long", "short", "size_t", "thread_block", "uint16_t", "uint32_t",
    "uint64_t", "uint8_t", "void"};
constexpr std::string_view kBuiltins[] = {
    "__activemask", "__ballot_sync", "__bfloat162float", "__float2bfloat16", "__float2half", "__half2float",
    "__hadd", "__hmax", "__hmin", "__hmul", "__shfl_down_sync", "__shfl_sync", "__shfl_up_sync", "__shfl_xor_sync",
    "__syncthreads", "__syncwarp", "__threadfence", "atomicAdd", "atomicCAS", "atomicExch", "atomicInc", "atomicMax",
    "atomicMin", "blockDim", "blockIdx", "cooperative_groups", "cudaDeviceSynchronize", "cudaFree",
    "cudaGetLastError", "cudaLaunchCooperativeKernel", "cudaMalloc", "cudaMemcpy", "cudaMemcpyDeviceToHost",
    "cudaMemcpyHostToDevice", "cudaMemset", "fmax", "fmaxf", "fmin", "fminf", "gridDim", "main", "memcpy",
    "printf", "std", "sync", "this_grid", "this_thread_block", "threadIdx", "uint_as_float", "warpSize",
    "__float_as_uint", "__int_as_float", "__float_as_int"};

template <size_t N>
bool in(const std::string_view (&list)[N], std::string_view w) {
    return std::find(std::begin(list), std::end(list), w) != std::end(list);
}

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

TokenKind word_kind(std::string_view w) {
    if (in(kKeywords, w)) return TokenKind::Keyword;
    if (in(kTypes, w)) return TokenKind::Type;
    if (in(kBuiltins, w)) return TokenKind::Builtin;
    return TokenKind::Plain;
}

// Appends a token, merging it into the previous one when both are of the same kind (fewer draw calls).
void push(std::vector<Token>& out, TokenKind k, size_t begin, size_t size) {
    if (size == 0) return;
    if (!out.empty() && out.back().kind == k && out.back().begin + out.back().size == begin) {
        out.back().size += size;
        return;
    }
    out.push_back({k, begin, size});
}

}  // namespace

std::vector<Token> cuda_tokens(std::string_view line, bool* in_block_comment) {
    std::vector<Token> out;
    const size_t n = line.size();
    size_t i = 0;
    bool block = in_block_comment && *in_block_comment;
    if (!block) {  // a preprocessor line is one token (#include <...>, #pragma unroll, #define ...)
        const size_t first = line.find_first_not_of(" \t");
        if (first != std::string_view::npos && line[first] == '#') {
            push(out, TokenKind::Plain, 0, first);
            push(out, TokenKind::Preproc, first, n - first);
            return out;
        }
    }
    while (i < n) {
        const size_t start = i;
        if (block) {
            const size_t end = line.find("*/", i);
            i = end == std::string_view::npos ? n : end + 2;
            block = end == std::string_view::npos;
            push(out, TokenKind::Comment, start, i - start);
            continue;
        }
        const char c = line[i];
        if (c == '/' && i + 1 < n && line[i + 1] == '/') {
            push(out, TokenKind::Comment, i, n - i);
            break;
        }
        if (c == '/' && i + 1 < n && line[i + 1] == '*') {
            block = true;
            i += 2;
            const size_t end = line.find("*/", i);
            i = end == std::string_view::npos ? n : end + 2;
            block = end == std::string_view::npos;
            push(out, TokenKind::Comment, start, i - start);
            continue;
        }
        if (c == '"' || c == '\'') {
            ++i;
            while (i < n && line[i] != c) i += (line[i] == '\\' && i + 1 < n) ? 2 : 1;
            i = std::min(n, i + 1);
            push(out, TokenKind::String, start, i - start);
            continue;
        }
        if (std::isdigit(static_cast<unsigned char>(c)) ||
            (c == '.' && i + 1 < n && std::isdigit(static_cast<unsigned char>(line[i + 1])))) {
            // 42, 0xffffffffu, 1.5f, 1e-3, 32ull: digits, letters (hex, suffixes), dots and an exponent's sign.
            ++i;
            while (i < n && (ident_char(line[i]) || line[i] == '.' ||
                             ((line[i] == '-' || line[i] == '+') && (line[i - 1] == 'e' || line[i - 1] == 'E') &&
                              !(line[start] == '0' && start + 1 < n && (line[start + 1] == 'x' || line[start + 1] == 'X')))))
                ++i;
            push(out, TokenKind::Number, start, i - start);
            continue;
        }
        if (ident_start(c)) {
            while (i < n && ident_char(line[i])) ++i;
            push(out, word_kind(line.substr(start, i - start)), start, i - start);
            continue;
        }
        ++i;
        push(out, TokenKind::Plain, start, 1);
    }
    if (in_block_comment) *in_block_comment = block;
    return out;
}

uint32_t token_color(TokenKind k, bool dark) {
    switch (k) {
        case TokenKind::Plain: return dark ? 0xe8e8e8 : 0x1a1a1a;
        case TokenKind::Keyword: return dark ? 0xd7a6ff : 0x7a1fa2;
        case TokenKind::Type: return dark ? 0x8fb8ff : 0x1d4ed8;
        case TokenKind::Builtin: return dark ? 0xffd27a : 0x8a4f00;
        case TokenKind::Number: return dark ? 0xffa07a : 0xa33200;
        case TokenKind::Comment: return dark ? 0xa3adb8 : 0x566270;
        case TokenKind::String: return dark ? 0xb8e28d : 0x2d6a10;
        case TokenKind::Preproc: return dark ? 0x8fe3ff : 0x00607a;
    }
    return dark ? 0xe8e8e8 : 0x1a1a1a;
}

const SourceColors& source_colors(bool dark) {
    // Line backgrounds are dark tints (or pale ones on light), so every token colour keeps its contrast on them.
    static const SourceColors kDark{0x16181d, 0xe8e8e8, 0x8a929c, 0x263a5e, 0x4a3a0e, 0x4d1d24, 0x1d4226, 0xff6b6b, 0x7a1f1f};
    static const SourceColors kLight{0xfcfcfa, 0x1a1a1a, 0x6b7480, 0xdbe7ff, 0xffe9a8, 0xffdcdc, 0xd6f2d6, 0xc00000, 0xffb0b0};
    return dark ? kDark : kLight;
}

}  // namespace rl::lab
