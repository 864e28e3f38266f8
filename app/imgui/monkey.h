// app/imgui/monkey.h — `reduction-lab --monkey SEED:COUNT` (a test's flag): random input fed into Dear ImGui's IO
// each frame — keys, clicks, drags, wheel, typed text — and window resizes, schedule changes and lesson switches,
// COUNT events in all, the same for the same SEED. The frame loop times every frame and reports the slowest.
#pragma once
#include <cstdint>
#include <random>
#include <string>
#include <vector>
#include "app/lab/lab_state.h"

struct GLFWwindow;

namespace rl::lab {

class Monkey {
public:
    Monkey(uint64_t seed, int count);
    bool done() const { return left_ <= 0 && held_ == 0 && key_ < 0 && button_ < 0 && pending_ < 0; }
    // Between the platform backend's NewFrame and ImGui::NewFrame: this frame's input events (one to three), which
    // replace what the backend read from the (idle) window system.
    void feed(GLFWwindow* window);
    // Before the frame is timed: the schedule change, lesson switch or resize the last frame drew (a rerun's time is
    // the knob's, as a lesson's first play is the switch's, not a frame's). Returns whether it did anything.
    bool act(GLFWwindow* window, LabState& s);
    int fed() const { return fed_; }
    std::string counts() const;  // "412 keys, 380 clicks, ..." for the report
    const std::string& this_frame() const { return now_; }  // the events of the frame drawn now, in words

private:
    enum Kind { Key, Click, Drag, Wheel, Text, Resize, Knob, Lesson, Kinds };
    std::mt19937_64 rng_;
    int left_, fed_ = 0;
    int count_[Kinds] = {};
    int held_ = 0;          // frames the current press (key or button) is still held
    int key_ = -1, button_ = -1;
    bool ctrl_ = false;
    float x_ = 0, y_ = 0, dx_ = 0, dy_ = 0;  // the pointer, and a drag's step per frame
    std::vector<std::string> lessons_;
    std::string now_, acted_, press_;
    float real(float lo, float hi);
    int pick(int n) { return int(rng_() % uint64_t(n)); }
    int pending_ = -1;      // Resize, Knob or Lesson, done by act() before the next frame
    void one_event(GLFWwindow* window);
};

}  // namespace rl::lab
