// include/rlab/cuda/cooperative_groups/reduce.h — cooperative_groups::reduce over a thread_block_tile<N> and its
// operators plus, less, greater, bit_and, bit_or, bit_xor: log2(N) steps, each a __shfl_xor_sync and a combine,
// so the lab shows every step (CUDA may use sm_80's one-instruction warp reduce instead; the result is the same).
#pragma once

#include "../cooperative_groups.h"

namespace cooperative_groups {

template <class T>
struct plus {
    __RLAB_MEMBER T operator()(const T& a, const T& b) const { return a + b; }
};
template <class T>
struct less {  // the smaller: reduce(g, v, less<T>()) is the minimum
    __RLAB_MEMBER T operator()(const T& a, const T& b) const { return b < a ? b : a; }
};
template <class T>
struct greater {  // the larger: reduce(g, v, greater<T>()) is the maximum
    __RLAB_MEMBER T operator()(const T& a, const T& b) const { return a < b ? b : a; }
};
template <class T>
struct bit_and {
    __RLAB_MEMBER T operator()(const T& a, const T& b) const { return a & b; }
};
template <class T>
struct bit_or {
    __RLAB_MEMBER T operator()(const T& a, const T& b) const { return a | b; }
};
template <class T>
struct bit_xor {
    __RLAB_MEMBER T operator()(const T& a, const T& b) const { return a ^ b; }
};

namespace details {
// A butterfly: lane distance Offset, then Offset / 2 ... 1; every lane ends with the whole tile's result.
template <unsigned int Offset, unsigned int Size, class T, class Op>
__RLAB_DEVICE T reduce_steps(const thread_block_tile<Size, void>& g, T v, Op& op) {
    if constexpr (Offset == 0) {
        return v;
    } else {
        v = op(v, g.shfl_xor(v, Offset));
        return reduce_steps<Offset / 2>(g, v, op);
    }
}
}  // namespace details

template <unsigned int Size, class Parent, class T, class Op>
__RLAB_MEMBER auto reduce(const thread_block_tile<Size, Parent>& g, T v, Op op) -> decltype(op(v, v)) {
    return details::reduce_steps<Size / 2>(static_cast<const thread_block_tile<Size, void>&>(g), v, op);
}

template <class T, class Op>
__RLAB_NO("cooperative_groups::reduce over a whole thread_block is",
          "reduce each tiled_partition<32>(block) with it, then combine the tiles' results through __shared__")
T reduce(const thread_block& g, T v, Op op);

}  // namespace cooperative_groups
