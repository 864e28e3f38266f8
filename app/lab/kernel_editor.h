// app/lab/kernel_editor.h — a student's kernel edited inside a front end's source panel: the edit buffer (apart from
// the text shown with the trace, so a failed compile keeps what the student typed), saved atomically over the kernel's
// file and run once, reloaded when the file changes on disk while the buffer holds no edits. Both GUIs are views of it.
#pragma once
#include <string>
#include "app/lab/kernel_session.h"

namespace rl::lab {

class KernelEditor {
public:
    std::string buffer;            // what the student is typing (the front ends edit it in place)
    bool editing = false;          // the source panel shows the editor instead of the lit read-only view
    std::string error;             // the last save's or load's failure: one line naming the file and the reason
    std::string notice;            // "FILE changed on disk ...": the buffer holds edits and was kept

    // The buffer for `file`: its text on disk (a kernel just opened). On a read failure the buffer is empty and
    // `error` says why.
    void load(const std::string& file);
    const std::string& file() const { return file_; }
    // The buffer differs from the text it was loaded from or last saved as.
    bool modified() const { return !file_.empty() && buffer != base_; }
    // Writes the buffer over the session's file (a temporary file in its folder, then a rename) and starts its run
    // directly; the watch and the poll then see the time stamp of that run and do not run it again. On failure
    // nothing changes on disk, the buffer is kept and `error` holds the one line; false.
    bool save(KernelSession& k);
    // The file as it is on disk now, edits dropped.
    void revert();
    // A run read the file (its text): a buffer without edits follows it; a buffer with edits is kept and `notice`
    // says the file changed on disk. Another file than the one loaded replaces the buffer.
    void file_read(const std::string& file, const std::string& text);
    // The source panel's title: the file, with " *" while the buffer holds edits.
    std::string title() const;
    // What the editor says under its buttons: the save error, else the disk notice, else "".
    const std::string& message() const { return error.empty() ? notice : error; }

private:
    std::string file_;
    std::string base_;             // the text the buffer was loaded from or saved as
    std::string disk_;             // the file's text as last read or written
};

}  // namespace rl::lab
