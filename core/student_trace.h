// core/student_trace.h — a student kernel's records (either backend) into a checked Trace: steps, the
// one-event-per-warp barriers, canonical order, atomic chains, the result, the reference and the hazards.
#pragma once
#include <functional>
#include <string>
#include <vector>
#include "core/input.h"
#include "core/student_record.h"
#include "core/trace.h"

namespace rl {

struct StudentRun {
    Schedule schedule;            // n, block, grid (first launch), op and type as the kernel ran, input
    Backend backend = Backend::Cpu;
    std::string device;           // "CPU SIMT emulator (student kernel)" or the GPU's name
    std::string kernel_file;      // the student's file, as given
    uint64_t out_identity = 0;    // packed starting value of every out slot (the operator's identity)
    uint64_t final_out0 = 0;      // packed out[0] after the last launch (what memory holds)
    bool second_launch = false;   // the lab ran the kernel again over the block partials
    // Plain CUDA: every launch, records' `launch` = index (up to 16); empty: dialect (launch 0 and the optional
    // second launch, as today).
    std::vector<LaunchScope> launches;
    // Plain CUDA: each global buffer's elements, by the number the records carry (0 = in, 1 = out, 2 = tmp, ...).
    std::vector<uint64_t> buffer_elements;
};

// Throws rl::Error naming the first record that breaks what a recorder guarantees (a dep out of range or
// to a later event of its own thread, groups that cannot be met, more than 65535 steps).
Trace trace_from_student_records(const StudentRun& run, std::vector<StudentRecord> records, const InputData& input);

// The indices of records[first, end) in (launch, block, thread, seq) order: each thread's records together, in its
// program order (equal keys keep their order). Linear when the records come block after block, as both CPU
// backends record them; sorted otherwise (a GPU's records come in any order).
std::vector<uint32_t> records_by_thread(const std::vector<StudentRecord>& records, size_t first = 0);
// The same a block at a time, while its records are in the cache: fn(order, count, false) for each (launch, block) in
// turn with its records' indices in (thread, seq) order. Records that do not come block after block are found where
// a block follows a later one: then fn(order, count, true) gives all of them at once, and what the calls before gave
// is to be forgotten (fn may have changed the records it was given; such changes must bear repeating).
void for_each_block_by_thread(const std::vector<StudentRecord>& records, size_t first,
                              const std::function<void(const uint32_t* order, size_t count, bool all)>& fn);

}  // namespace rl
