// tests/lab/test_kernel_time_job.cpp — "Time on GPU" (app/lab/kernel_time_job): the rlab command line written out by
// hand, and the job driven with fake commands (shell scripts written here): one that writes the saved timing fixture
// where -o says, one that fails with rlab's one line, one that hangs until Cancel kills it and its child.
#include <doctest/doctest.h>

#include <signal.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "app/lab/kernel_time_job.h"
#include "tests/support/helpers.h"

using namespace rl;
namespace fs = std::filesystem;
using State = lab::KernelTimeJob::State;

namespace {

// A fake command: an executable shell script in the test's folder.
std::string script(const std::string& name, const std::string& body) {
    const fs::path p = fs::path(RLAB_TEST_TMP) / name;
    {
        std::ofstream out(p);
        out << "#!/bin/sh\n" << body;
    }
    fs::permissions(p, fs::perms::owner_all);
    return p.string();
}

// Waits (at most `limit_s`) until the job has left Running.
bool wait_done(const lab::KernelTimeJob& job, double limit_s) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(limit_s);
    while (job.running() && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    return !job.running();
}

std::string read_all(const fs::path& p) {
    std::ifstream in(p);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// A process that is gone or a zombie left for init (kill(pid, 0) alone succeeds on a zombie).
bool dead(long pid) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    if (!stat) return true;
    std::string line;
    std::getline(stat, line);
    const size_t close = line.rfind(')');
    return close != std::string::npos && close + 2 < line.size() && line[close + 2] == 'Z';
}

student::KernelRequest request(const std::string& file) {
    student::KernelRequest r;
    r.file = file;
    r.schedule.n = 4096;
    r.schedule.block = 256;
    r.schedule.input.kind = InputKind::Uniform;
    r.schedule.input.seed = 7;
    r.time_limit_s = 5;
    return r;
}

}  // namespace

TEST_CASE("Time on GPU: the rlab command line of the open kernel's settings") {
    student::KernelRequest r = request("k.cu");
    CHECK(lab::kernel_time_command("rlab", r, "/tmp/t.json") ==
          std::vector<std::string>{"rlab", "run", "k.cu", "--backend", "cuda", "--time", "--format", "json", "-o",
                                   "/tmp/t.json", "--n", "4096", "--block", "256", "--input", "uniform", "--seed", "7",
                                   "--time-limit", "5"});
    // A grid, a kernel named in the field, an operator chosen: each is passed; the time limit as the user gave it.
    r.schedule.grid = 3;
    r.kernel = "harris6<64>";
    r.schedule.op = Op::Max;
    r.op_given = true;
    r.time_limit_s = 2.5;
    CHECK(lab::kernel_time_command("/x/rlab", r, "o.json") ==
          std::vector<std::string>{"/x/rlab", "run", "k.cu", "--backend", "cuda", "--time", "--format", "json", "-o",
                                   "o.json", "--n", "4096", "--block", "256", "--grid", "3", "--kernel", "harris6<64>",
                                   "--op", "max", "--input", "uniform", "--seed", "7", "--time-limit", "2.5"});
    // A plan names every launch's kernel: rlab refuses --kernel beside it, so only the plan goes.
    r.launch = "k<<<16, 256, 1024>>>(in, tmp, n); k<<<1, 16, 64>>>(tmp, out, 16)";
    const std::vector<std::string> with_plan = lab::kernel_time_command("rlab", r, "o.json");
    CHECK(std::count(with_plan.begin(), with_plan.end(), "--kernel") == 0);
    const auto at = std::find(with_plan.begin(), with_plan.end(), "--launch");
    REQUIRE(at + 1 < with_plan.end());
    CHECK(at[1] == r.launch);
}

TEST_CASE("Time on GPU: the action is refused, with its reason, where rlab --time would refuse the file") {
    CHECK(lab::kernel_time_blocker(student::KernelRequest{}, "").find("no kernel open") == 0);
    const student::KernelRequest r = request("dir/sum.cu");
    CHECK(lab::kernel_time_blocker(r, "").empty());  // not read yet: rlab says what it finds
    CHECK(lab::kernel_time_blocker(r, "__global__ void k(const int* in, int* out, unsigned n) {}\n").empty());
    CHECK(lab::kernel_time_blocker(r, "#include <rlab/kernel.h>\nRL_KERNEL void k(rl::In in) {}\n").find("sum.cu is in the lab's dialect") == 0);
    const std::string with_main = "__global__ void k(int* o) {}\n\nint main() { return 0; }\n";
    CHECK(lab::kernel_time_blocker(r, with_main).find("sum.cu:3 has main()") == 0);
    // Refused: no child runs, the state says why at once.
    lab::KernelTimeJob job;
    CHECK(job.start(student::KernelRequest{}, "/bin/false"));
    CHECK(job.state() == State::Failed);
    CHECK(job.status_line().find("Time on GPU failed: no kernel open") == 0);
    CHECK(job.exit_code() == -1);
}

TEST_CASE("Time on GPU: a finished run's JSON becomes the three rows the saved-result view shows") {
    const fs::path args = fs::path(RLAB_TEST_TMP) / "time_job_args.txt";
    const std::string fixture = std::string(RLAB_SOURCE_DIR) + "/tests/data/kernel-timing-fixture.json";
    // The fake rlab: writes its arguments, one a line, then the fixture where -o says (as rlab run --time -o does).
    const std::string fake = script("fake-rlab-ok.sh",
                                    "printf '%s\\n' \"$@\" > '" + args.string() + "'\n"
                                    "while [ $# -gt 0 ]; do [ \"$1\" = -o ] && cp '" + fixture + "' \"$2\"; shift; done\n"
                                    "echo 'rlab: wrote the timing' >&2\n");
    lab::KernelTimeJob job;
    REQUIRE(job.start(request("corpus/harris4.cu"), fake));
    REQUIRE(wait_done(job, 20));
    REQUIRE(job.state() == State::Done);
    CHECK(job.exit_code() == 0);
    CHECK(job.status_line().empty());
    std::optional<KernelTiming> t = job.take();
    REQUIRE(t);
    CHECK_FALSE(job.take());  // taken once
    // The fixture's numbers, read by hand from tests/data/kernel-timing-fixture.json.
    REQUIRE(t->rows.size() == 3);
    CHECK(t->rows[0].name == "your kernel");
    CHECK(t->rows[0].median_us == doctest::Approx(180.0));
    CHECK(t->rows[1].median_us == doctest::Approx(17.5));
    CHECK(t->rows[2].name == "CUB");
    CHECK(t->n == 16777216);
    // GB/s of the student's row: 16,777,216 int32 = 67,108,864 bytes in 180 µs = 372.8 GB/s, 7.8 % of 4800 GB/s.
    const std::vector<std::vector<std::string>> cells = kernel_timing_cells(*t);
    REQUIRE(cells.size() == 3);
    CHECK(cells[0][2].find("373") == 0);
    CHECK(cells[0][3].find("7.8") == 0);
    // What the fake was given: the command line up to the output file it chose (a private temporary folder).
    std::istringstream given(read_all(args));
    std::vector<std::string> lines;
    for (std::string l; std::getline(given, l);) lines.push_back(l);
    REQUIRE(lines.size() == 19);
    CHECK(lines[0] == "run");
    CHECK(lines[1] == "corpus/harris4.cu");
    CHECK(lines[2] == "--backend");
    CHECK(lines[3] == "cuda");
    CHECK(lines[4] == "--time");
    CHECK(lines[8].rfind("/tmp/rlab-time-", 0) == 0);
    CHECK_FALSE(fs::exists(lines[8]));  // removed with its folder once read
    CHECK(lines[17] == "--time-limit");
    CHECK(lines[18] == "5");
}

TEST_CASE("Time on GPU: a failing rlab's one line is the reason shown, without its rlab: prefix") {
    const std::string fake = script("fake-rlab-nogpu.sh",
                                    "echo 'compiling...'\n"
                                    "echo 'rlab: --time needs --backend cuda on a machine with a usable GPU: no usable GPU (fake)' >&2\n"
                                    "exit 2\n");
    lab::KernelTimeJob job;
    REQUIRE(job.start(request("k.cu"), fake));
    REQUIRE(wait_done(job, 20));
    CHECK(job.state() == State::Failed);
    CHECK(job.exit_code() == 2);
    CHECK(job.error() == "--time needs --backend cuda on a machine with a usable GPU: no usable GPU (fake)");
    CHECK(job.status_line() == "Time on GPU failed: " + job.error());
    CHECK_FALSE(job.take());

    // Exit 2 that says nothing, a program that is not there, output that is not a timing: each one line, no result.
    lab::KernelTimeJob silent;
    REQUIRE(silent.start(request("k.cu"), script("fake-rlab-silent.sh", "exit 2\n")));
    REQUIRE(wait_done(silent, 20));
    CHECK(silent.error() == "rlab run --time failed (exit 2) and said nothing");
    lab::KernelTimeJob missing;
    REQUIRE(missing.start(request("k.cu"), "/no/such/rlab"));
    REQUIRE(wait_done(missing, 20));
    CHECK(missing.state() == State::Failed);
    CHECK(missing.error().find("/no/such/rlab") != std::string::npos);
    lab::KernelTimeJob garbage;
    REQUIRE(garbage.start(request("k.cu"), script("fake-rlab-garbage.sh",
                                                  "while [ $# -gt 0 ]; do [ \"$1\" = -o ] && echo '{\"x\": 1}' > \"$2\"; shift; done\n")));
    REQUIRE(wait_done(garbage, 20));
    CHECK(garbage.state() == State::Failed);
    CHECK(garbage.error().find("rlab's timing result cannot be read: ") == 0);
}

TEST_CASE("Time on GPU: a hung rlab runs with its elapsed time until Cancel kills it and its children") {
    const fs::path pids = fs::path(RLAB_TEST_TMP) / "time_job_pids.txt";
    fs::remove(pids);
    // The fake hangs as a kernel would, in a grandchild too (rlab's own child processes go with it).
    const std::string fake = script("fake-rlab-hang.sh", "sleep 300 &\necho $$ $! > '" + pids.string() + "'\nwait\n");
    lab::KernelTimeJob job;
    REQUIRE(job.start(request("slow.cu"), fake));
    for (int i = 0; i < 500 && !fs::exists(pids); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    REQUIRE(job.running());
    CHECK_FALSE(job.start(request("other.cu"), fake));  // a second start while one runs: refused
    CHECK(job.file() == "slow.cu");
    const double before = job.elapsed_s();
    CHECK(before >= 0.3);
    CHECK(job.status_line().find("Timing slow.cu on the GPU… ") == 0);
    long shell = 0, sleeper = 0;
    std::istringstream(read_all(pids)) >> shell >> sleeper;
    REQUIRE(shell > 0);
    REQUIRE(sleeper > 0);
    const auto t0 = std::chrono::steady_clock::now();
    job.cancel();
    REQUIRE(wait_done(job, 5));
    CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() < 2.0);
    CHECK(job.state() == State::Cancelled);
    CHECK(job.status_line().find("Timing of slow.cu cancelled after ") == 0);
    const double frozen = job.elapsed_s();
    CHECK(frozen >= before);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    CHECK(job.elapsed_s() == frozen);  // the clock stopped with the child
    CHECK(dead(shell));
    for (int i = 0; i < 100 && !dead(sleeper); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    CHECK(dead(sleeper));
    // The job can run again after a cancel.
    REQUIRE(job.start(request("slow.cu"), script("fake-rlab-fail2.sh", "echo 'rlab: again' >&2; exit 1\n")));
    REQUIRE(wait_done(job, 20));
    CHECK(job.error() == "again");
}
