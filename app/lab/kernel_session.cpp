// app/lab/kernel_session.cpp — runs a student's kernel on a worker thread, one run at a time, the latest save last.
#include "app/lab/kernel_session.h"

#include <fstream>
#include <sstream>
#include <string_view>
#include "core/error.h"
#include "core/file_io.h"

namespace rl::lab {
namespace {

// The file's text as it is now, read before the runner reads it (a save in between only costs one more run).
std::string read_source(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// g++ quotes names with typographic quotes in a UTF-8 locale; the lab bench's font atlas has Latin-1 only.
std::string plain_quotes(std::string s) {
    for (const char* q : {"\u2018", "\u2019", "\u201c", "\u201d"})
        for (size_t at; (at = s.find(q)) != std::string::npos;) s.replace(at, std::string_view(q).size(), "'");
    return s;
}

}  // namespace

KernelSession::~KernelSession() {
    {
        std::lock_guard lock(m_);
        again_ = false;
    }
    wait();
    if (worker_.joinable()) worker_.join();
}

void KernelSession::open(const student::KernelRequest& request) {
    wait();
    request_ = request;
    diagnostics.clear();
    error.clear();
    text.clear();
    error_line = 0;
    start();
}

void KernelSession::close() {
    wait();
    request_ = {};
    diagnostics.clear();
    error.clear();
    text.clear();
    error_line = 0;
}

KernelSession::Stamp KernelSession::stamp() const {
    std::error_code ec, ec_size;
    const auto t = std::filesystem::last_write_time(request_.file, ec);
    const uintmax_t size = std::filesystem::file_size(request_.file, ec_size);
    return ec ? Stamp{} : Stamp{t, ec_size ? 0 : size};
}

void KernelSession::start() {
    if (!active()) return;
    std::lock_guard lock(m_);
    seen_ = stamp();
    if (busy_) {
        again_ = true;
        return;
    }
    launch_locked();
}

void KernelSession::set_kernel(const std::string& name) {
    if (!active()) return;
    {
        std::lock_guard lock(m_);
        request_.kernel = name;
        // A kernel picked in the panel runs as the contract launches it: the --launch plan (which names its own
        // kernels, and may not be given with one) gives way.
        if (!name.empty()) request_.launch.clear();
    }
    start();
}

void KernelSession::launch_locked() {
    if (worker_.joinable()) worker_.join();  // the last worker has finished: busy_ was false
    busy_ = true;
    again_ = false;
    worker_ = std::thread([this, request = request_]() mutable {
        for (;;) {
            KernelRun run;
            run.text = read_source(request.file);
            try {
                run.outcome = student::run_kernel(request);
            } catch (const std::exception& e) {  // a bad request: the file vanished, a directory, over a limit
                run.request_error = one_line(e.what());
            }
            std::lock_guard lock(m_);
            ++runs_;
            done_ = std::move(run);
            if (!again_) break;
            again_ = false;   // a save came while this ran: run the file again, as it is now
            request = request_;
        }
        std::lock_guard lock(m_);
        busy_ = false;
        idle_.notify_all();
    });
}

bool KernelSession::running() const {
    std::lock_guard lock(m_);
    return busy_;
}

bool KernelSession::poll_file() {
    if (!active()) return false;
    const Stamp t = stamp();
    {
        std::lock_guard lock(m_);
        if (t == seen_) return false;
    }
    start();
    return true;
}

size_t KernelSession::runs_done() const {
    std::lock_guard lock(m_);
    return runs_;
}

std::optional<KernelRun> KernelSession::take() {
    std::lock_guard lock(m_);
    std::optional<KernelRun> out = std::move(done_);
    done_.reset();
    return out;
}

void KernelSession::wait() {
    std::unique_lock lock(m_);
    idle_.wait(lock, [this] { return !busy_; });
}

void KernelSession::note_result(const KernelRun& r, size_t events) {
    text = r.text;
    diagnostics = r.outcome.diagnostics;
    for (student::Diagnostic& d : diagnostics) d.message = plain_quotes(d.message);
    error_line = 0;
    for (const student::Diagnostic& d : diagnostics)
        if (d.line > 0 && d.message.find("error") != std::string::npos) {
            error_line = d.line;
            break;
        }
    error = plain_quotes(!r.request_error.empty() ? r.request_error : r.outcome.ok ? std::string() : one_line(r.outcome.error));
    if (error.empty() && !r.outcome.ok) error = "the kernel did not run";
    program = r.request_error.empty() && r.outcome.program;
    program_output = program ? r.outcome.program_output : std::string();
    program_failure = program ? plain_quotes(r.outcome.program_failure) : std::string();
    events_ = events;
}

std::string KernelSession::status() const {
    if (!active()) return {};
    if (running()) return "running " + request_.file + "…";
    if (!error.empty()) {
        for (const student::Diagnostic& d : diagnostics)
            if (d.line == error_line && error_line > 0)
                return d.file + ":" + std::to_string(d.line) + ":" + std::to_string(d.column) + ": " + d.message;
        return request_.file + ": " + error;
    }
    return request_.file + ": " + std::to_string(events_) + " events";
}

}  // namespace rl::lab
