// tests/lab/test_options.cpp — both GUIs' command line: values reach the options, bad input is one line and exit 2.
#include <doctest/doctest.h>

#include <unistd.h>

#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>
#include "app/lab/options.h"

using namespace rl;
using namespace rl::lab;

namespace {

struct Parsed {
    int rc;
    std::string out, err;
    Options o;
};

Parsed parse(FrontEnd which, std::vector<std::string> args) {
    args.insert(args.begin(), which == FrontEnd::LabBench ? "reduction-lab" : "reduction-lab-qt");
    std::vector<const char*> argv;
    for (const std::string& a : args) argv.push_back(a.c_str());
    Parsed p;
    std::ostringstream out, err;
    p.rc = parse_options(which, int(argv.size()), argv.data(), p.o, out, err);
    p.out = out.str();
    p.err = err.str();
    return p;
}

// A refusal: exit 2, exactly one line on stderr that starts with the program and contains `names`.
void check_refused(FrontEnd which, std::vector<std::string> args, const std::string& names) {
    const Parsed p = parse(which, args);
    const std::string program = which == FrontEnd::LabBench ? "reduction-lab: " : "reduction-lab-qt: ";
    CAPTURE(p.err);
    CHECK(p.rc == 2);
    CHECK(p.err.rfind(program, 0) == 0);
    CHECK(p.err.find('\n') == p.err.size() - 1);
    CHECK(p.err.find(names) != std::string::npos);
    CHECK(p.out.empty());
}

}  // namespace

TEST_CASE("options: no flags gives the eight-thread example, auto backend, steps view, no scripted frames") {
    for (FrontEnd which : {FrontEnd::LabBench, FrontEnd::Classroom}) {
        const Parsed p = parse(which, {});
        CHECK(p.rc == -1);
        CHECK(p.err.empty());
        CHECK(p.o.schedule == Schedule{});
        CHECK(p.o.backend_choice == BackendChoice::Auto);
        CHECK(p.o.view == "steps");
        CHECK(p.o.frames == 0);
        CHECK(p.o.width == 1600);
        CHECK(p.o.height == 900);
    }
}

TEST_CASE("options: the shared flags reach the options in both front ends") {
    for (FrontEnd which : {FrontEnd::LabBench, FrontEnd::Classroom}) {
        const Parsed p = parse(which, {"--n", "40", "--block", "32", "--input", "3,1,2", "--n", "3", "--backend", "cpu",
                                       "--theme", "light", "--step", "2", "--quit", "--size", "800x600", "--bench-frames",
                                       "7", "--view", "time", "--numerics"});
        REQUIRE(p.rc == -1);
        CHECK(p.o.schedule.n == 3);  // the last --n wins, as on rlab's command line
        CHECK(p.o.schedule.block == 32);
        CHECK(p.o.schedule.input.values == std::vector<double>{3, 1, 2});
        CHECK(p.o.backend_choice == BackendChoice::Cpu);
        CHECK(p.o.theme == "light");
        CHECK(p.o.step == 2);
        CHECK(p.o.frames == 3);  // --quit asks for frames: three unless --frames says otherwise
        CHECK(p.o.width == 800);
        CHECK(p.o.height == 600);
        CHECK(p.o.bench_frames == 7);
        CHECK(p.o.numerics);
        CHECK(p.o.schedule_flags.given());
    }
    CHECK(parse(FrontEnd::LabBench, {"--frames", "9", "--screenshot", "x.png"}).o.frames == 9);
    CHECK(parse(FrontEnd::LabBench, {"--time-window", "13500:17500"}).o.time_to == 17500);
    CHECK_FALSE(parse(FrontEnd::Classroom, {"--lesson", "eight-threads"}).o.schedule_flags.given());
}

TEST_CASE("options: bad values are refused in one line that names the flag and what is allowed") {
    for (FrontEnd which : {FrontEnd::LabBench, FrontEnd::Classroom}) {
        check_refused(which, {"--theme", "sepia"}, "--theme sepia: expected dark or light");
        check_refused(which, {"--backend", "tpu"}, "--backend tpu: expected auto, cpu or cuda");
        check_refused(which, {"--view", "sideways"}, "--view sideways: expected steps or time");
        check_refused(which, {"--size", "12"}, "--size 12: expected WxH");
        check_refused(which, {"--size", "200x100"}, "from 320x240");
        check_refused(which, {"--bench-frames", "-3"}, "--bench-frames -3");
        check_refused(which, {"--block", "2000"}, "--block 2000");
        check_refused(which, {"--warp", "shfl-up"}, "shfl-down|shfl-down-asc");
        check_refused(which, {"--input", "1,2,x"}, "--input");
        check_refused(which, {"--n", "5", "--input", "1,2,3"}, "--n");
        check_refused(which, {"--frobnicate"}, "--frobnicate");
        check_refused(which, {"--step", "two"}, "--step");
        // issue 19: non-finite or absurd values, and trailing junk
        check_refused(which, {"--size", "65535x65535"}, "to 7680x4320");
        check_refused(which, {"--size", "20000x20000"}, "to 7680x4320");
        check_refused(which, {"--size", "640x480junk"}, "--size 640x480junk");
        check_refused(which, {"--size", "+640x480"}, "--size +640x480");
        check_refused(which, {"--size", "99999999999x480"}, "--size 99999999999x480");
    }
    check_refused(FrontEnd::LabBench, {"--font-scale", "nan"}, "--font-scale nan: expected a number from 0.5 to 3");
    check_refused(FrontEnd::LabBench, {"--font-scale", "-5"}, "--font-scale -5");
    check_refused(FrontEnd::LabBench, {"--font-scale", "0"}, "--font-scale 0");
    check_refused(FrontEnd::LabBench, {"--font-scale", "inf"}, "--font-scale inf");
    check_refused(FrontEnd::LabBench, {"--time-window", "0:1e25"}, "--time-window 0:1e25");
    check_refused(FrontEnd::LabBench, {"--time-window", "0:99999999999999999999"}, "at most 2^53");
    check_refused(FrontEnd::LabBench, {"--time-window", "nan:5"}, "--time-window nan:5");
    CHECK(parse(FrontEnd::LabBench, {"--size", "7680x4320"}).o.width == 7680);
    check_refused(FrontEnd::LabBench, {"--zoom", "wide"}, "--zoom wide: expected fit or lane");
    check_refused(FrontEnd::LabBench, {"--time-window", "9:3"}, "--time-window 9:3: expected FROM:TO cycles, FROM < TO");
    check_refused(FrontEnd::Classroom, {"--msaa", "32"}, "--msaa 32: expected 0 to 16");
    // Each front end's own flags are not the other's (--presenter is both's: the lab bench has the large view too).
    check_refused(FrontEnd::LabBench, {"--export-pdf", "x.pdf"}, "--export-pdf");
    check_refused(FrontEnd::Classroom, {"--zoom", "lane"}, "--zoom");
    for (FrontEnd which : {FrontEnd::LabBench, FrontEnd::Classroom}) {
        const Parsed p = parse(which, {"--presenter"});
        CHECK(p.rc == -1);  // parsed: the program goes on
        CHECK(p.o.presenter);
    }
}

TEST_CASE("options: --help prints the flags and exits 0") {
    const Parsed p = parse(FrontEnd::Classroom, {"--help"});
    CHECK(p.rc == 0);
    CHECK(p.out.find("--export-pdf") != std::string::npos);
    CHECK(p.out.find("--bench-frames") != std::string::npos);
    CHECK(p.err.empty());
}

TEST_CASE("options: the checks rlab render shares") {
    int w = 0, h = 0;
    CHECK(check_size("1280x720", 64, 64, w, h).empty());
    CHECK(w == 1280);
    CHECK(h == 720);
    CHECK_FALSE(check_size("1280x720x3", 64, 64, w, h).empty());
    CHECK_FALSE(check_size("99999x720", 64, 64, w, h).empty());
    CHECK(check_theme("").empty());
    BackendChoice b = BackendChoice::Auto;
    CHECK(check_backend("cuda", b).empty());
    CHECK(b == BackendChoice::Cuda);
}

TEST_CASE("options: --exercise opens a lesson exercise's kernel with its own flags, and refuses what it cannot open") {
    ::setenv("RLAB_LESSONS_DIR", RLAB_SOURCE_DIR "/lessons", 1);
    for (FrontEnd which : {FrontEnd::LabBench, FrontEnd::Classroom}) {
        const Parsed p = parse(which, {"--exercise", "partial-warp-mask", "--backend", "cpu", "--edit"});
        CAPTURE(p.err);
        REQUIRE(p.rc == -1);
        // The exercise's own kernel here (a source tree this user may write), run with its flags: --n 40 --block 40.
        const std::string kernel = std::string(RLAB_SOURCE_DIR) + "/lessons/exercises/partial-warp-mask/kernel.cu";
        if (::access(kernel.c_str(), W_OK) == 0) CHECK(p.o.kernel_request.file == kernel);
        CHECK(p.o.kernel == p.o.kernel_request.file);
        CHECK(p.o.kernel_request.schedule.n == 40);
        CHECK(p.o.kernel_request.schedule.block == 40);
        CHECK(p.o.edit);
        check_refused(which, {"--exercise", "no-such-exercise"}, "no such exercise");
        check_refused(which, {"--exercise", "no-such-exercise"}, "partial-warp-mask");  // the names there
        check_refused(which, {"--exercise", "../lessons"}, "expected an exercise's name");
        check_refused(which, {"--exercise", "partial-warp-mask", "--lesson", "eight-threads"}, "one of them");
        check_refused(which, {"--edit"}, "--exercise NAME");
    }
    ::unsetenv("RLAB_LESSONS_DIR");
}
