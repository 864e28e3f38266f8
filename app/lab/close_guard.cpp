// app/lab/close_guard.cpp — the unsaved-edits question on closing: when it is asked and what each answer does.
#include "app/lab/close_guard.h"

namespace rl::lab {

bool CloseGuard::request(const KernelEditor& ed) {
    if (!ed.modified()) return true;
    if (!asking_) asking_ = open_ = true;
    return false;
}

bool CloseGuard::take_open() {
    const bool open = open_;
    open_ = false;
    return open;
}

bool CloseGuard::answer(CloseChoice choice, KernelEditor& ed, KernelSession& k) {
    switch (choice) {
        case CloseChoice::kNone: return false;
        case CloseChoice::kCancel: asking_ = false; return false;
        case CloseChoice::kDiscard:
            ed.revert();
            asking_ = false;
            return true;
        case CloseChoice::kSave:
            if (ed.save(k)) {
                asking_ = false;
                return true;
            }
            open_ = true;  // asked again, with the reason
            return false;
    }
    return false;
}

}  // namespace rl::lab
