// codegen/diff.cpp — a line diff (longest common subsequence) of a clean source against its buggy version.
#include "codegen/kernel_source.h"

namespace rl {

std::vector<DiffLine> diff(const KernelSource& clean, const KernelSource& buggy) {
    const size_t n = clean.lines.size(), m = buggy.lines.size();
    // lcs[i][j]: the longest common subsequence of clean[i..] and buggy[j..] (a few hundred lines each).
    std::vector<uint32_t> lcs((n + 1) * (m + 1), 0);
    auto at = [&](size_t i, size_t j) -> uint32_t& { return lcs[i * (m + 1) + j]; };
    for (size_t i = n; i-- > 0;)
        for (size_t j = m; j-- > 0;)
            at(i, j) = clean.lines[i].text == buggy.lines[j].text ? at(i + 1, j + 1) + 1 : std::max(at(i + 1, j), at(i, j + 1));
    std::vector<DiffLine> out;
    size_t i = 0, j = 0;
    while (i < n || j < m) {
        if (i < n && j < m && clean.lines[i].text == buggy.lines[j].text) {
            out.push_back({int(i + 1), int(j + 1), ' '});
            ++i;
            ++j;
        } else if (j < m && (i == n || at(i, j + 1) >= at(i + 1, j))) {
            out.push_back({0, int(j + 1), '+'});
            ++j;
        } else {
            out.push_back({int(i + 1), 0, '-'});
            ++i;
        }
    }
    return out;
}

}  // namespace rl
