// include/rlab/cuda/rlab_atomics.h — CUDA's atomic functions on clang's NVVM builtins: each is one atomicrmw or
// cmpxchg in the bitcode (atomicInc/atomicDec: llvm.nvvm.atomic.load.inc/dec.32), on a generic pointer.
#pragma once

#define __RLAB_ATOMIC(NAME, T, BUILTIN, U)                                                  \
    __RLAB_DEVICE T NAME(T* address, T val) {                                               \
        return static_cast<T>(BUILTIN(reinterpret_cast<U*>(address), static_cast<U>(val))); \
    }

__RLAB_ATOMIC(atomicAdd, int, __nvvm_atom_add_gen_i, int)
__RLAB_ATOMIC(atomicAdd, unsigned int, __nvvm_atom_add_gen_i, int)
__RLAB_ATOMIC(atomicAdd, unsigned long long, __nvvm_atom_add_gen_ll, long long)
__RLAB_DEVICE float atomicAdd(float* address, float val) { return __nvvm_atom_add_gen_f(address, val); }
__RLAB_DEVICE double atomicAdd(double* address, double val) { return __nvvm_atom_add_gen_d(address, val); }

__RLAB_DEVICE int atomicSub(int* address, int val) { return __nvvm_atom_add_gen_i(address, -val); }
__RLAB_DEVICE unsigned int atomicSub(unsigned int* address, unsigned int val) {
    return static_cast<unsigned int>(__nvvm_atom_add_gen_i(reinterpret_cast<int*>(address), -static_cast<int>(val)));
}

__RLAB_ATOMIC(atomicMax, int, __nvvm_atom_max_gen_i, int)
__RLAB_ATOMIC(atomicMax, unsigned int, __nvvm_atom_max_gen_ui, unsigned int)
__RLAB_ATOMIC(atomicMax, long long, __nvvm_atom_max_gen_ll, long long)
__RLAB_ATOMIC(atomicMax, unsigned long long, __nvvm_atom_max_gen_ull, unsigned long long)
__RLAB_ATOMIC(atomicMin, int, __nvvm_atom_min_gen_i, int)
__RLAB_ATOMIC(atomicMin, unsigned int, __nvvm_atom_min_gen_ui, unsigned int)
__RLAB_ATOMIC(atomicMin, long long, __nvvm_atom_min_gen_ll, long long)
__RLAB_ATOMIC(atomicMin, unsigned long long, __nvvm_atom_min_gen_ull, unsigned long long)

__RLAB_ATOMIC(atomicAnd, int, __nvvm_atom_and_gen_i, int)
__RLAB_ATOMIC(atomicAnd, unsigned int, __nvvm_atom_and_gen_i, int)
__RLAB_ATOMIC(atomicOr, int, __nvvm_atom_or_gen_i, int)
__RLAB_ATOMIC(atomicOr, unsigned int, __nvvm_atom_or_gen_i, int)
__RLAB_ATOMIC(atomicXor, int, __nvvm_atom_xor_gen_i, int)
__RLAB_ATOMIC(atomicXor, unsigned int, __nvvm_atom_xor_gen_i, int)

__RLAB_ATOMIC(atomicExch, int, __nvvm_atom_xchg_gen_i, int)
__RLAB_ATOMIC(atomicExch, unsigned int, __nvvm_atom_xchg_gen_i, int)
__RLAB_ATOMIC(atomicExch, unsigned long long, __nvvm_atom_xchg_gen_ll, long long)
__RLAB_DEVICE float atomicExch(float* address, float val) {
    return __builtin_bit_cast(float, __nvvm_atom_xchg_gen_i(reinterpret_cast<int*>(address),
                                                            __builtin_bit_cast(int, val)));
}
#undef __RLAB_ATOMIC

// atomicInc: old >= limit ? 0 : old + 1; atomicDec: old == 0 || old > limit ? limit : old - 1.
__RLAB_DEVICE unsigned int atomicInc(unsigned int* address, unsigned int limit) {
    return __nvvm_atom_inc_gen_ui(address, limit);
}
__RLAB_DEVICE unsigned int atomicDec(unsigned int* address, unsigned int limit) {
    return __nvvm_atom_dec_gen_ui(address, limit);
}

__RLAB_DEVICE int atomicCAS(int* address, int compare, int val) { return __nvvm_atom_cas_gen_i(address, compare, val); }
__RLAB_DEVICE unsigned int atomicCAS(unsigned int* address, unsigned int compare, unsigned int val) {
    return static_cast<unsigned int>(__nvvm_atom_cas_gen_i(reinterpret_cast<int*>(address), static_cast<int>(compare),
                                                           static_cast<int>(val)));
}
__RLAB_DEVICE unsigned long long atomicCAS(unsigned long long* address, unsigned long long compare,
                                           unsigned long long val) {
    return static_cast<unsigned long long>(__nvvm_atom_cas_gen_ll(reinterpret_cast<long long*>(address),
                                                                  static_cast<long long>(compare),
                                                                  static_cast<long long>(val)));
}
