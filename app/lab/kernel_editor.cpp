// app/lab/kernel_editor.cpp — the edit buffer of a student's kernel: load, atomic save and run, revert, disk changes.
#include "app/lab/kernel_editor.h"

#include <filesystem>
#include "core/error.h"
#include "core/file_io.h"

namespace rl::lab {
namespace {

// A kernel file's text, up to the runner's own limit (student/kernel_run.cpp): a file the lab can run can be edited.
std::string read_kernel(const std::string& file) { return read_text_file(file, "kernel", 1u << 20); }

// A symbolic link is written through to its target (a rename would replace the link by a plain file).
std::string write_target(const std::string& file) {
    std::error_code ec;
    if (!std::filesystem::is_symlink(file, ec)) return file;
    const std::filesystem::path target = std::filesystem::canonical(file, ec);
    return ec ? file : target.string();
}

}  // namespace

void KernelEditor::load(const std::string& file) {
    file_ = file;
    error.clear();
    notice.clear();
    try {
        base_ = read_kernel(file);
    } catch (const std::exception& e) {
        base_.clear();
        error = one_line(e.what());
    }
    disk_ = buffer = base_;
}

bool KernelEditor::save(KernelSession& k) {
    if (!k.active()) {
        error = "no kernel is open: open one first (Ctrl+O)";
        return false;
    }
    if (file_ != k.file()) {  // the buffer belongs to another file: never write it over this one
        error = k.file() + ": the editor holds " + (file_.empty() ? std::string("nothing") : file_) + "; Revert loads this file";
        return false;
    }
    try {
        write_file_atomically(write_target(file_), buffer);
    } catch (const std::exception& e) {
        error = one_line(std::string(e.what()) + " (your edits are kept)");
        return false;
    }
    error.clear();
    notice.clear();
    base_ = disk_ = buffer;
    k.start();  // records the new time stamp: poll_file and the classroom's watcher see nothing new
    return true;
}

void KernelEditor::revert() {
    if (!file_.empty()) load(file_);
}

void KernelEditor::file_read(const std::string& file, const std::string& text) {
    if (file.empty()) return;
    if (file != file_) {
        file_ = file;
        error.clear();
        notice.clear();
        buffer = base_ = disk_ = text;
        return;
    }
    if (text == disk_) return;
    disk_ = text;
    if (!modified()) {
        buffer = base_ = text;
        notice.clear();
        return;
    }
    notice = file_ + " changed on disk; your edits are kept (Save and run writes them over it, Revert loads the file)";
}

std::string KernelEditor::title() const { return modified() ? file_ + " *" : file_; }

}  // namespace rl::lab
