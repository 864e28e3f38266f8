// app/lab/close_guard.h — closing a front end while its kernel editor holds unsaved edits: the window stays open and
// a question is asked (Save and quit, Discard and quit, Cancel) until the edits are saved or dropped on purpose.
// The lab bench draws the question (app/imgui/panel_kernel_edit.cpp); the decisions are made here, where tests reach.
#pragma once
#include "app/lab/kernel_editor.h"
#include "app/lab/kernel_session.h"

namespace rl::lab {

enum class CloseChoice { kNone, kSave, kDiscard, kCancel };

class CloseGuard {
public:
    // The window was asked to close: true when it may close now (no unsaved edits); else the question is up.
    bool request(const KernelEditor& ed);
    bool asking() const { return asking_; }
    // True once after the question went up (or came back after a failed save): the dialog opens its popup then.
    bool take_open();
    // The student's answer (kNone: still deciding). True when the window closes now: the edits were saved, or
    // dropped (the buffer reverted). A failed save keeps the question up, its reason in `ed.error`, the edits kept.
    bool answer(CloseChoice choice, KernelEditor& ed, KernelSession& k);

private:
    bool asking_ = false, open_ = false;
};

}  // namespace rl::lab
