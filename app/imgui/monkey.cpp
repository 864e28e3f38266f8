// app/imgui/monkey.cpp — random input for the lab bench's monkey test (see monkey.h and docs/gui-monkey.md).
#include "app/imgui/monkey.h"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include "core/course.h"
#include "core/data_paths.h"
#include "core/schedule.h"

namespace rl::lab {
namespace {

// The keys the lab bench answers to, and a few it ignores.
constexpr int kKeys[] = {GLFW_KEY_RIGHT, GLFW_KEY_LEFT, GLFW_KEY_UP,  GLFW_KEY_DOWN,      GLFW_KEY_HOME,      GLFW_KEY_END,
                         GLFW_KEY_SPACE, GLFW_KEY_H,    GLFW_KEY_F,   GLFW_KEY_F5,        GLFW_KEY_T,         GLFW_KEY_N,
                         GLFW_KEY_S,     GLFW_KEY_D,    GLFW_KEY_G,   GLFW_KEY_ESCAPE,    GLFW_KEY_PAGE_DOWN, GLFW_KEY_PAGE_UP,
                         GLFW_KEY_1,     GLFW_KEY_2,    GLFW_KEY_3,   GLFW_KEY_4,         GLFW_KEY_F1,        GLFW_KEY_EQUAL,
                         GLFW_KEY_MINUS, GLFW_KEY_0,    GLFW_KEY_TAB, GLFW_KEY_ENTER,     GLFW_KEY_BACKSPACE, GLFW_KEY_DELETE,
                         GLFW_KEY_A,     GLFW_KEY_Z,    GLFW_KEY_9,   GLFW_KEY_KP_ADD,    GLFW_KEY_KP_SUBTRACT, GLFW_KEY_R};

// A schedule field and values for it, allowed and refused (the config panel's knobs, set directly).
const char* const kKnobs[][6] = {{"n", "1", "7", "1000", "50000", "0"},
                                 {"block", "1", "33", "256", "1024", "5000"},
                                 {"items", "1", "4", "16", "3", "0"},
                                 {"warp", "shfl-down", "shfl-xor", "smem-divergent", "smem-sequential", "x"},
                                 {"grid-stage", "two-pass", "atomic-block", "last-block", "cooperative", "y"},
                                 {"bug", "missing-barrier", "uninit-tail", "full-mask-partial-warp", "wrong-identity", "z"},
                                 {"op", "sum", "max", "witness", "argmax", "q"},
                                 {"type", "f32", "f16", "i32", "f64", "w"}};

}  // namespace

Monkey::Monkey(uint64_t seed, int count) : rng_(seed), left_(count) {
    const std::string dir = find_lessons_dir();
    if (!dir.empty()) lessons_ = load_course(dir).order;
    lessons_.push_back("no-such-lesson");  // refused with a line, the lab stays as it was
}

float Monkey::real(float lo, float hi) { return lo + (hi - lo) * float(rng_() % 100000) / 100000.0f; }

std::string Monkey::counts() const {
    static const char* names[] = {"keys", "clicks", "drags", "wheel turns", "typed characters", "resizes",
                                  "schedule changes", "lesson switches"};
    std::string out;
    for (int k = 0; k < Kinds; ++k) out += (k ? ", " : "") + std::to_string(count_[k]) + " " + names[k];
    return out;
}

void Monkey::feed(GLFWwindow* window) {
    ImGuiIO& io = ImGui::GetIO();
    now_ = acted_;
    acted_.clear();
    if (held_ > 0 || key_ >= 0 || button_ >= 0) now_ += "(held: " + press_ + ") ";
    // A press lasts a few frames (a drag moves meanwhile), then is released.
    if (held_ > 0) {
        --held_;
        x_ += dx_, y_ += dy_;
    } else if (key_ >= 0 || button_ >= 0) {
        if (key_ >= 0) io.KeysDown[key_] = false;
        key_ = button_ = -1;
        ctrl_ = false;
        dx_ = dy_ = 0;
    }
    if (held_ == 0 && key_ < 0 && button_ < 0 && left_ > 0) {
        for (int k = 1 + pick(3); k > 0 && left_ > 0 && held_ == 0 && pending_ < 0; --k) one_event(window);
        press_ = now_;
    }
    io.MousePos = ImVec2(x_, y_);
    for (int b = 0; b < 3; ++b) io.MouseDown[b] = b == button_;
    if (key_ >= 0) io.KeysDown[key_] = true;
    io.KeyCtrl = ctrl_;
    io.KeyShift = io.KeyAlt = io.KeySuper = false;
}

bool Monkey::act(GLFWwindow* window, LabState& s) {
    const int what = pending_;
    pending_ = -1;
    acted_.clear();
    if (what == Resize) {  // at times below the smallest size the layout is made for
        const int w = 200 + pick(1800), h = 150 + pick(1000);
        glfwSetWindowSize(window, w, h);
        acted_ = "resize " + std::to_string(w) + "x" + std::to_string(h) + "; ";
    } else if (what == Knob) {  // one field to an allowed or refused value (a refused one changes nothing)
        const auto& k = kKnobs[pick(int(std::size(kKnobs)))];
        Schedule next = s.schedule;
        const char* value = k[1 + pick(5)];
        acted_ = std::string("--") + k[0] + " " + value + "; ";
        if (set_field(next, k[0], value).empty() && validate(next).empty() && next.n <= 100000) {
            s.schedule = next;
            s.rerun();
        }
    } else if (what == Lesson) {  // another lesson, at one of its steps
        const std::string& name = lessons_[size_t(pick(int(lessons_.size())))];
        const size_t step = size_t(pick(8));
        acted_ = "lesson " + name + " step " + std::to_string(step) + "; ";
        s.error = s.lesson.open(name);
        if (s.error.empty() && s.lesson.active()) s.lesson.go(s, step);
    }
    return what >= 0;
}

void Monkey::one_event(GLFWwindow* window) {
    --left_;
    ++fed_;
    int ww = 0, wh = 0;
    glfwGetWindowSize(window, &ww, &wh);
    ImGuiIO& io = ImGui::GetIO();
    const int kind = pick(100);
    if (kind < 30) {  // a key, sometimes with Ctrl (text size), held one or two frames
        ++count_[Key];
        key_ = kKeys[pick(int(std::size(kKeys)))];
        ctrl_ = pick(6) == 0;
        held_ = pick(2);
        now_ += std::string(ctrl_ ? "key Ctrl+" : "key ") + std::to_string(key_) + "; ";
    } else if (kind < 55) {  // a click (left, sometimes right or middle) anywhere in the window or just outside
        ++count_[Click];
        x_ = real(-5, float(ww) + 5), y_ = real(-5, float(wh) + 5);
        button_ = pick(5) == 0 ? 1 + pick(2) : 0;
        held_ = pick(2);
        now_ += "click " + std::to_string(button_) + " at " + std::to_string(int(x_)) + "," + std::to_string(int(y_)) + "; ";
    } else if (kind < 67) {  // a drag: pressed, moved over a few frames, released
        ++count_[Drag];
        x_ = real(0, float(ww)), y_ = real(0, float(wh));
        button_ = 0;
        held_ = 2 + pick(8);
        dx_ = real(-60, 60), dy_ = real(-40, 40);
        now_ += "drag from " + std::to_string(int(x_)) + "," + std::to_string(int(y_)) + "; ";
    } else if (kind < 79) {  // the wheel over the pointer
        ++count_[Wheel];
        x_ = real(0, float(ww)), y_ = real(0, float(wh));
        const float turn = real(-4, 4);
        io.MouseWheel += turn;
        now_ += "wheel " + std::to_string(turn) + " at " + std::to_string(int(x_)) + "," + std::to_string(int(y_)) + "; ";
    } else if (kind < 86) {  // typed text (into a focused field, if any)
        ++count_[Text];
        const char* chars = "0123456789abcxyz -.:,";
        now_ += "text '";
        for (int k = 1 + pick(4); k > 0; --k) {
            const char c = chars[pick(21)];
            io.AddInputCharacter(unsigned(c));
            now_ += c;
        }
        now_ += "'; ";
    } else {  // a resize, a schedule change or a lesson switch, done before the next frame
        pending_ = kind < 91 ? Resize : kind < 97 ? Knob : Lesson;
        ++count_[pending_];
    }
}

}  // namespace rl::lab
