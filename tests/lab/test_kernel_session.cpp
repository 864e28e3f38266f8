// tests/lab/test_kernel_session.cpp — the lab bench's side of a student's kernel: --kernel checked by parse_options,
// the first run waited for, the file's modification time polled and a save run again on the worker while the last
// trace stays shown, and an exercise opened with its own run flags. Counts come from the kernel text and sizes here.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "app/lab/exercise_links.h"
#include "app/lab/kernel_request.h"
#include "app/lab/lab_state.h"
#include "app/lab/options.h"
#include "tests/support/helpers.h"

using namespace rl;
namespace fs = std::filesystem;

namespace {

// The kernel a student would write (tests/support/warp_sum.cu).
std::string sum_kernel() {
    std::ifstream in(std::string(RLAB_SOURCE_DIR) + "/tests/support/warp_sum.cu");
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}


}  // namespace

TEST_CASE("--kernel: checked options, the first run, and a save polled and run again") {
    const fs::path file = fs::path(RLAB_TEST_TMP) / "lab_kernel_session.cu";
    const std::string kSum = sum_kernel();
    REQUIRE(kSum.find("RL_KERNEL") != std::string::npos);
    test::write_text(file, kSum);
    const std::string path = file.string();
    std::ostringstream out, err;
    lab::Options o;
    {
        const char* argv[] = {"reduction-lab", "--kernel", path.c_str(), "--n", "40", "--block", "64", "--warp", "shfl-xor"};
        CHECK(lab::parse_options(lab::FrontEnd::LabBench, 9, argv, o, out, err) == 2);  // a stage flag: the kernel has its own
        CHECK(err.str().find("--warp") != std::string::npos);
    }
    err.str("");
    {
        const char* argv[] = {"reduction-lab", "--kernel", "/no/such/kernel.cu"};
        CHECK(lab::parse_options(lab::FrontEnd::LabBench, 3, argv, o, out, err) == 2);
        CHECK(err.str().find("no such file") != std::string::npos);
    }
    o = lab::Options{};
    const char* argv[] = {"reduction-lab", "--kernel", path.c_str(), "--n", "40", "--block", "64", "--backend", "cpu"};
    REQUIRE(lab::parse_options(lab::FrontEnd::LabBench, 9, argv, o, out, err) == -1);
    CHECK(o.kernel_request.file == path);
    CHECK(o.kernel_request.schedule.n == 40);

    lab::LabState s;
    REQUIRE(s.open_kernel_and_wait(o.kernel_request).empty());
    REQUIRE(s.kernel->error.empty());
    CHECK(s.trace.kernel_file == path);
    CHECK(s.trace.result_value == s.trace.reference_value);
    size_t shuffles = 0;
    for (const Event& e : s.trace.events) shuffles += e.kind == EventKind::Shuffle;
    CHECK(shuffles == 64 * 5);  // 64 threads, offsets 16, 8, 4, 2, 1
    CHECK(s.source.source.lines.size() == size_t(std::count(kSum.begin(), kSum.end(), '\n')));
    for (size_t i = 0; i < s.source.source.lines.size(); ++i) {  // the shuffles are recorded on the shuffle's line
        const bool shfl = s.source.source.lines[i].text.find("__shfl_down_sync") != std::string::npos;
        for (uint32_t e : s.source.events_of_line(int(i + 1)))
            if (s.trace.events[e].kind == EventKind::Shuffle) CHECK(shfl);
    }

    // A save (the modification time moves): the poll starts a run; until it ends the last trace stays.
    std::string three = kSum;
    three.replace(three.find("for (int offset = 16;"), 21, "for (int offset = 4;");  // offsets 4, 2, 1
    test::write_text(file, three);
    fs::last_write_time(file, fs::last_write_time(file) + std::chrono::seconds(2));
    const size_t before = s.trace.events.size();
    s.kernel_polled_s = -1;
    bool took = s.poll_kernel();
    if (!took) CHECK(s.trace.events.size() == before);
    for (int k = 0; k < 600 && !took; ++k) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        took = s.poll_kernel();
    }
    REQUIRE(took);
    shuffles = 0;
    for (const Event& e : s.trace.events) shuffles += e.kind == EventKind::Shuffle;
    CHECK(shuffles == 64 * 3);
    CHECK(!s.poll_kernel());  // nothing changed since: no run
}

// A plain CUDA file of two kernels in the lab bench: --kernel-name picks one at startup, the kernel field's list
// (kernel_choices) offers the file's kernels, and set_kernel runs another; --kernel-name is refused without --kernel
// and for a name that is no name, each in one line.
TEST_CASE("--kernel-name: a plain CUDA file's kernel, switched in the kernel field") {
    const std::string course = std::string(RLAB_SOURCE_DIR) + "/tests/cuda/corpus/course_two_kernels.cu";
    std::ostringstream out, err;
    lab::Options o;
    {
        const char* argv[] = {"reduction-lab", "--kernel-name", "finish_sum"};
        CHECK(lab::parse_options(lab::FrontEnd::LabBench, 3, argv, o, out, err) == 2);
        CHECK(err.str() == "reduction-lab: --kernel-name finish_sum: names a kernel of the --kernel FILE.cu: give --kernel too\n");
    }
    err.str("");
    o = lab::Options{};
    {
        const char* argv[] = {"reduction-lab-qt", "--kernel", course.c_str(), "--kernel-name", "finish_sum;"};
        CHECK(lab::parse_options(lab::FrontEnd::Classroom, 5, argv, o, out, err) == 2);
        const std::string e = err.str();
        CHECK(e.rfind("reduction-lab-qt: --kernel-name finish_sum;: expected a kernel's name", 0) == 0);
        CHECK(std::count(e.begin(), e.end(), '\n') == 1);
    }
    err.str("");
    o = lab::Options{};
    const char* argv[] = {"reduction-lab", "--kernel", course.c_str(), "--kernel-name", "finish_sum", "--n", "256", "--block", "256"};
    REQUIRE(lab::parse_options(lab::FrontEnd::LabBench, 9, argv, o, out, err) == -1);
    CHECK(o.kernel_request.kernel == "finish_sum");
    // --backend auto on a plain CUDA file: the emulator, and the note says why.
    CHECK(o.kernel_request.backend == Backend::Cpu);
    CHECK(o.kernel_note == "plain CUDA (no RL_KERNEL): using the CPU emulator, where plain CUDA runs for now");

    lab::LabState s;
    REQUIRE(s.open_kernel_and_wait(o.kernel_request).empty());
    if (s.kernel->error.find("LLVM") != std::string::npos || s.kernel->error.find("clang-14 was not found") != std::string::npos) {
        MESSAGE("SKIPPED: " << s.kernel->error);
        return;
    }
    REQUIRE(s.kernel->error.empty());
    auto result = [&] { return format_value(s.trace.schedule.op, s.trace.schedule.type, s.trace.result_value); };
    CHECK(result() == "32896");  // one block over 1..256
    CHECK(lab::kernel_choices(s.kernel->text, 256) == std::vector<std::string>{"block_partials", "finish_sum"});
    CHECK(lab::kernel_choices(sum_kernel(), 256).empty());  // a dialect file: no field

    // The field picks the other kernel: it runs (one block of 256 here too, the same sum).
    s.kernel->set_kernel("block_partials");
    s.kernel->wait();
    REQUIRE(s.take_kernel_run());
    REQUIRE(s.kernel->error.empty());
    CHECK(s.kernel->request().kernel == "block_partials");
    CHECK(result() == "32896");
    // A name the file lacks: the run's one line lists the kernels there are.
    s.kernel->set_kernel("nope");
    s.kernel->wait();
    REQUIRE(s.take_kernel_run());
    CHECK(s.kernel->error == "--kernel nope: the file has no kernel nope (its kernels: block_partials, finish_sum)");
}

TEST_CASE("an exercise opens with its own flags") {
    const LessonSet set = load_lessons(std::string(RLAB_SOURCE_DIR) + "/lessons");
    const Lesson* mask = nullptr;
    for (const Lesson& l : set.lessons) mask = l.name == "mask-contract" ? &l : mask;
    REQUIRE(mask);
    std::vector<std::string> problems;
    const std::vector<Exercise> exs = lab::lesson_exercises(*mask, &problems);
    CHECK(problems.empty());
    REQUIRE(exs.size() == 2);
    const student::KernelRequest r = lab::exercise_request(exs[0], false, BackendChoice::Cpu, nullptr);
    CHECK(r.file == exs[0].kernel_file());
    CHECK(r.schedule.n == 40);  // partial-warp-mask: --n 40 --block 40
    CHECK(r.schedule.block == 40);
    CHECK(lab::exercise_request(exs[0], true, BackendChoice::Cpu, nullptr).file == exs[0].solution_file());
    // An exercise of several blocks runs as a plan, as rlab run takes it (core/exercise.h's run flags).
    Exercise planned = exs[0];
    planned.run = {"--n", "64", "--launch", "partial_warp_sum<<<2, 32>>>(in, tmp, n); partial_warp_sum<<<1, 32>>>(tmp, out, 2)"};
    const student::KernelRequest p = lab::exercise_request(planned, true, BackendChoice::Cpu, nullptr);
    CHECK(p.launch == planned.run[3]);
    CHECK(p.schedule.n == 64);
    const student::KernelOutcome o = student::run_kernel(p);
    if (o.error.find("LLVM") != std::string::npos || o.error.find("clang-14 was not found") != std::string::npos) return;
    INFO(o.error);
    REQUIRE(o.ok);
    CHECK(o.trace.launches.size() == 2);
    CHECK(o.trace.hazards.empty());
    CHECK(unpack_value<float>(o.trace.result_value) == 64.0f * 65.0f / 2.0f);  // 1 + ... + 64
}

TEST_CASE("every exercise opened as the front ends open it shows its hazard and its solution is clean and exact") {
    // The plain CUDA exercises run once, <<<1, block>>>: out[0] is the whole reduction, compared here with a plain loop
    // over the trace's inputs (sum in long double, exact for 1..n; max). The witness operator has no number to compare.
    std::vector<LessonError> errors;
    const std::vector<Exercise> all = load_exercises(std::string(RLAB_SOURCE_DIR) + "/lessons", errors);
    REQUIRE(errors.empty());
    REQUIRE(all.size() >= 6);
    for (const Exercise& ex : all) {
        CAPTURE(ex.name);
        const student::KernelOutcome bug = student::run_kernel(lab::exercise_request(ex, false, BackendChoice::Cpu, nullptr));
        if (bug.error.find("LLVM") != std::string::npos || bug.error.find("clang-14 was not found") != std::string::npos) {
            MESSAGE("SKIPPED: " << bug.error);
            return;
        }
        INFO(bug.error);
        REQUIRE(bug.ok);
        bool found = false;
        for (const Hazard& h : bug.trace.hazards) found = found || h.kind == ex.hazard;
        CHECK(found);
        const student::KernelOutcome sol = student::run_kernel(lab::exercise_request(ex, true, BackendChoice::Cpu, nullptr));
        INFO(sol.error);
        REQUIRE(sol.ok);
        CHECK(sol.trace.hazards.empty());
        CHECK(sol.trace.launches.size() == 1);
        CHECK(sol.trace.grid == 1);
        const Schedule& s = sol.trace.schedule;
        REQUIRE(sol.trace.inputs.size() == s.n);
        if (s.op == Op::Witness) continue;
        long double want = s.op == Op::Max ? -INFINITY : 0.0L;
        for (double x : sol.trace.inputs) want = s.op == Op::Max ? std::max<long double>(want, x) : want + x;
        CHECK(double(unpack_value<float>(sol.trace.result_value)) == double(want));
    }
}

TEST_CASE("a program with main(): the session keeps what it printed and why it failed") {
    // program_main_returns_3.cu sums 1..256 correctly, prints "sum = 32896" and returns 3 (docs/plain-cuda.md).
    lab::LabState s;
    student::KernelRequest q;
    q.file = std::string(RLAB_SOURCE_DIR) + "/tests/cuda/corpus/program_main_returns_3.cu";
    q.backend = Backend::Cpu;
    REQUIRE(s.open_kernel_and_wait(q).empty());
    if (s.kernel->error.find("LLVM") != std::string::npos || s.kernel->error.find("clang-14 was not found") != std::string::npos) {
        MESSAGE("SKIPPED: " << s.kernel->error);
        return;
    }
    REQUIRE(s.kernel->error.empty());
    CHECK(s.kernel->program);
    CHECK(s.kernel->program_output == "sum = 32896\n");
    CHECK(s.kernel->program_failure == "the program's main() returned 3");
    CHECK(format_value(s.trace.schedule.op, s.trace.schedule.type, s.trace.result_value) == "32896");
    // The same session on a kernel file: no program, nothing printed.
    q.file = std::string(RLAB_SOURCE_DIR) + "/tests/cuda/corpus/harris3_sequential.cu";
    q.schedule.n = 64;
    q.schedule.block = 64;
    REQUIRE(s.open_kernel_and_wait(q).empty());
    REQUIRE(s.kernel->error.empty());
    CHECK(!s.kernel->program);
    CHECK(s.kernel->program_output.empty());
    CHECK(s.kernel->program_failure.empty());
}
