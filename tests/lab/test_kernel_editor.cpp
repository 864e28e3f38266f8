// tests/lab/test_kernel_editor.cpp — editing a student's kernel in the source panel (app/lab/kernel_editor): a save
// writes exactly the buffer by a rename (a new inode, no temporary left) and runs it once; a folder that cannot be
// written gives one line naming the file and keeps the buffer; a syntax error comes back with its line and the
// student's text kept, and the fix gives a trace; a change on disk reaches an unedited buffer and spares an edited one.
// Expected counts come from the kernel text and the sizes here (64 threads, one shuffle per offset and lane).
#include <doctest/doctest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <iterator>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/lab/close_guard.h"
#include "app/lab/lab_state.h"
#include "app/lab/options.h"
#include "tests/support/helpers.h"
#include "app/lab/startup.h"
#include "core/file_io.h"

using namespace rl;
namespace fs = std::filesystem;

namespace {

std::string read(const fs::path& p) { return read_text_file(p.string(), "test kernel", 1u << 20); }


// The student's text with the first loop starting at `offset` (16: the kernel as written).
std::string with_offset(const std::string& kernel, int offset) {
    std::string k = kernel;
    k.replace(k.find("for (int offset = 16;"), 21, "for (int offset = " + std::to_string(offset) + ";");
    return k;
}

size_t shuffles(const Trace& t) {
    size_t n = 0;
    for (const Event& e : t.events) n += e.kind == EventKind::Shuffle;
    return n;
}

// What the kernel adds when its loop starts at `offset`: lane 0 of each warp holds lanes 0 .. 2*offset-1, summed
// here from the inputs the trace records (a full warp only when offset is 16).
double first_lanes_sum(const Trace& t, int offset) {
    double sum = 0;
    for (size_t i = 0; i < t.inputs.size(); ++i) sum += int(i % 32) < 2 * offset ? t.inputs[i] : 0.0;
    return sum;
}

double result(const Trace& t) { return numeric_value(t.schedule.op, t.schedule.type, t.result_value); }

// A fresh folder holding the student's kernel, opened in a lab at n 40, block 64, and its first run taken.
struct Bench {
    fs::path dir, file;
    std::string kernel = read(std::string(RLAB_SOURCE_DIR) + "/tests/support/warp_sum.cu");
    lab::LabState s;
    explicit Bench(const std::string& name) {
        dir = fs::path(RLAB_TEST_TMP) / name;
        fs::remove_all(dir);
        fs::create_directories(dir);
        file = dir / "kernel.cu";
        test::write_text(file, kernel);
        student::KernelRequest r;
        r.file = file.string();
        r.schedule.n = 40;
        r.schedule.block = 64;
        r.backend = Backend::Cpu;
        REQUIRE(s.open_kernel_and_wait(r).empty());
        REQUIRE(s.kernel->error.empty());
    }
    void finish() {  // the run the save started, taken as the frame would
        s.kernel->wait();
        REQUIRE(s.take_kernel_run());
    }
};

}  // namespace

TEST_CASE("kernel editor: a save writes exactly the buffer by a rename and runs it once") {
    Bench b("kernel_editor_save");
    lab::KernelEditor& ed = b.s.kernel_editor;
    CHECK(ed.buffer == b.kernel);
    CHECK(!ed.modified());
    CHECK(ed.title() == b.file.string());
    REQUIRE(shuffles(b.s.trace) == 64 * 5);

    ed.buffer = with_offset(b.kernel, 4);  // offsets 4, 2, 1
    CHECK(ed.modified());
    CHECK(ed.title() == b.file.string() + " *");
    struct stat before {}, after {};
    REQUIRE(::stat(b.file.c_str(), &before) == 0);
    const size_t runs = b.s.kernel->runs_done();
    REQUIRE(ed.save(*b.s.kernel));
    CHECK(ed.error.empty());
    CHECK(!ed.modified());
    CHECK(read(b.file) == ed.buffer);
    REQUIRE(::stat(b.file.c_str(), &after) == 0);
    CHECK(after.st_ino != before.st_ino);  // a new file renamed over the old one, never the old one truncated
    CHECK(std::distance(fs::directory_iterator(b.dir), fs::directory_iterator{}) == 1);  // no temporary file left

    b.finish();
    CHECK(b.s.kernel->error.empty());
    CHECK(shuffles(b.s.trace) == 64 * 3);
    CHECK(result(b.s.trace) == first_lanes_sum(b.s.trace, 4));  // lanes 0-7 of each warp: the edit is what ran
    CHECK(result(b.s.trace) != first_lanes_sum(b.s.trace, 16));
    // The poll (the lab bench) and the watcher's check (the classroom) see the save's own time stamp: no second run.
    b.s.kernel_polled_s = -1;
    CHECK(!b.s.poll_kernel());
    CHECK(!b.s.kernel->poll_file());
    b.s.kernel->wait();
    CHECK(b.s.kernel->runs_done() == runs + 1);
}

TEST_CASE("kernel editor: a folder that cannot be written gives one line and keeps the buffer") {
    Bench b("kernel_editor_unwritable");
    lab::KernelEditor& ed = b.s.kernel_editor;
    const std::string edited = with_offset(b.kernel, 8);
    ed.buffer = edited;
    const size_t runs = b.s.kernel->runs_done();
    auto check_refused = [&](const char* why) {
        CAPTURE(why);
        CHECK(!ed.save(*b.s.kernel));
        CHECK(ed.error.find(b.file.string()) != std::string::npos);
        CHECK(ed.error.find('\n') == std::string::npos);
        CHECK(ed.message() == ed.error);
        CHECK(ed.buffer == edited);
        CHECK(ed.modified());
        CHECK(!b.s.kernel->running());
        CHECK(b.s.kernel->runs_done() == runs);
    };
    // A read-only folder (root writes there anyway: then only the case below runs).
    ::chmod(b.dir.c_str(), 0555);
    if (::access(b.dir.c_str(), W_OK) != 0) {
        check_refused("read-only folder");
        CHECK(ed.error.find("Permission denied") != std::string::npos);
        CHECK(read(b.file) == b.kernel);
    } else {
        MESSAGE("running as root: a read-only folder is writable, only the vanished folder is tried");
    }
    ::chmod(b.dir.c_str(), 0755);
    // The folder gone (moved away while the lab had the file open).
    const fs::path moved = b.dir.string() + "-moved";
    fs::remove_all(moved);
    fs::rename(b.dir, moved);
    check_refused("folder moved away");
    CHECK(ed.error.find("No such file or directory") != std::string::npos);
    CHECK(read(moved / "kernel.cu") == b.kernel);
    fs::rename(moved, b.dir);
    // Back in place: the same buffer saves.
    REQUIRE(ed.save(*b.s.kernel));
    CHECK(ed.error.empty());
    CHECK(read(b.file) == edited);
    b.finish();
    CHECK(shuffles(b.s.trace) == 64 * 4);
}

TEST_CASE("kernel editor: a syntax error comes back with its line, the text kept, and the fix gives a trace") {
    Bench b("kernel_editor_syntax");
    lab::KernelEditor& ed = b.s.kernel_editor;
    const size_t events = b.s.trace.events.size();
    std::string broken = b.kernel;
    broken.replace(broken.find("for (int offset = 16;"), 21, "for (int offset = 16 oops;");
    int bad_line = 1;
    for (size_t i = 0; i < broken.find("oops"); ++i) bad_line += broken[i] == '\n';
    ed.buffer = broken;
    REQUIRE(ed.save(*b.s.kernel));
    b.finish();
    REQUIRE(!b.s.kernel->error.empty());
    CHECK(b.s.kernel->error_line == bad_line);
    CHECK(b.s.kernel->status().find(b.file.string() + ":" + std::to_string(bad_line) + ":") == 0);
    CHECK(ed.buffer == broken);            // the student's text, not the last good file
    CHECK(!ed.modified());                 // it is what the file holds
    CHECK(b.s.trace.events.size() == events);  // the canvas keeps the last trace

    ed.buffer = with_offset(b.kernel, 2);  // the fix, with offsets 2, 1
    REQUIRE(ed.save(*b.s.kernel));
    b.finish();
    CHECK(b.s.kernel->error.empty());
    CHECK(b.s.kernel->error_line == 0);
    CHECK(shuffles(b.s.trace) == 64 * 2);
    CHECK(result(b.s.trace) == first_lanes_sum(b.s.trace, 2));
    CHECK(b.s.kernel->text == ed.buffer);  // the source panel shows the saved text with the new trace
}

TEST_CASE("kernel editor: a change on disk reloads an unedited buffer and spares an edited one") {
    Bench b("kernel_editor_disk");
    lab::KernelEditor& ed = b.s.kernel_editor;
    auto external_save = [&](const std::string& text) {  // another editor writes the file; the poll runs it
        test::write_text(b.file, text);
        fs::last_write_time(b.file, fs::last_write_time(b.file) + std::chrono::seconds(2));
        b.s.kernel_polled_s = -1;
        REQUIRE(b.s.kernel->poll_file());
        b.finish();
    };
    const std::string outside = with_offset(b.kernel, 8);
    external_save(outside);
    CHECK(ed.buffer == outside);
    CHECK(!ed.modified());
    CHECK(ed.notice.empty());
    CHECK(shuffles(b.s.trace) == 64 * 4);

    const std::string mine = with_offset(b.kernel, 1);
    ed.buffer = mine;
    external_save(b.kernel);
    CHECK(ed.buffer == mine);
    CHECK(ed.modified());
    CHECK(ed.notice.find(b.file.string() + " changed on disk") == 0);
    CHECK(shuffles(b.s.trace) == 64 * 5);  // the canvas shows the file as it is on disk
    // Opening a kernel (this one again, or another) would drop the edits: refused with one line until they are
    // saved or reverted.
    const student::KernelRequest again = b.s.kernel->request();
    CHECK(!b.s.open_kernel(again));
    CHECK(b.s.error.find(b.file.string() + " has edits that are not saved") == 0);
    CHECK(ed.buffer == mine);
    ed.revert();
    CHECK(ed.buffer == b.kernel);
    CHECK(!ed.modified());
    CHECK(ed.notice.empty());
    CHECK(b.s.open_kernel(again));
    b.finish();
}

TEST_CASE("--edit: the editor open at start with --kernel; refused without one") {
    const fs::path file = fs::path(RLAB_TEST_TMP) / "kernel_editor_option.cu";
    const std::string kernel = read(std::string(RLAB_SOURCE_DIR) + "/tests/support/warp_sum.cu");
    std::ofstream(file, std::ios::binary | std::ios::trunc) << kernel;
    const std::string path = file.string();
    std::ostringstream out, err;
    lab::Options o;
    {
        const char* argv[] = {"reduction-lab", "--edit", "--n", "40"};
        CHECK(lab::parse_options(lab::FrontEnd::LabBench, 4, argv, o, out, err) == 2);
        CHECK(err.str().find("--edit") != std::string::npos);
        CHECK(err.str().find("--kernel") != std::string::npos);
    }
    o = lab::Options{};
    const char* argv[] = {"reduction-lab", "--kernel", path.c_str(), "--n", "40", "--block", "64", "--backend", "cpu", "--edit"};
    REQUIRE(lab::parse_options(lab::FrontEnd::LabBench, 10, argv, o, out, err) == -1);
    lab::LabState s;
    REQUIRE(lab::start_lab_bench(s, o).empty());
    CHECK(s.kernel_editor.editing);
    CHECK(s.kernel_editor.file() == path);
    CHECK(s.kernel_editor.buffer == kernel);
}

TEST_CASE("closing with unsaved edits: asked, and each answer does what it says") {
    Bench b("kernel_editor_close");
    lab::KernelEditor& ed = b.s.kernel_editor;
    ed.load(b.file.string());
    lab::CloseGuard guard;
    CHECK(guard.request(ed));  // nothing edited: the window closes at once
    CHECK(!guard.asking());

    ed.buffer = with_offset(b.kernel, 8);
    CHECK(!guard.request(ed));  // edits: the window stays, the question goes up, its popup opens once
    CHECK(guard.asking());
    CHECK(guard.take_open());
    CHECK(!guard.take_open());
    CHECK(!guard.request(ed));  // closing again while it is asked still keeps the edits
    CHECK(!guard.take_open());
    CHECK(!guard.answer(lab::CloseChoice::kNone, ed, *b.s.kernel));
    CHECK(guard.asking());

    // Cancel: the window and the edits stay.
    CHECK(!guard.answer(lab::CloseChoice::kCancel, ed, *b.s.kernel));
    CHECK(!guard.asking());
    CHECK(ed.modified());

    // Save and quit in a folder that cannot be written: the question comes back with the reason, the edits kept.
    CHECK(!guard.request(ed));
    (void)guard.take_open();
    if (::geteuid() != 0) {  // root writes anywhere
        fs::permissions(b.dir, fs::perms::owner_read | fs::perms::owner_exec);
        CHECK(!guard.answer(lab::CloseChoice::kSave, ed, *b.s.kernel));
        CHECK(guard.asking());
        CHECK(guard.take_open());
        CHECK(!ed.error.empty());
        CHECK(ed.modified());
        fs::permissions(b.dir, fs::perms::owner_all);
    }
    // Save and quit: the file holds the edits, and the window closes.
    CHECK(guard.answer(lab::CloseChoice::kSave, ed, *b.s.kernel));
    CHECK(!guard.asking());
    CHECK(read(b.file) == with_offset(b.kernel, 8));
    b.finish();

    // Discard and quit: the file keeps what it held, the buffer drops the edits, the window closes.
    ed.buffer = with_offset(b.kernel, 4);
    CHECK(!guard.request(ed));
    CHECK(guard.answer(lab::CloseChoice::kDiscard, ed, *b.s.kernel));
    CHECK(read(b.file) == with_offset(b.kernel, 8));
    CHECK(!ed.modified());
}
