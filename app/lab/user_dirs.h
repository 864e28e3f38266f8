// app/lab/user_dirs.h — where the front ends keep what belongs to the user: settings (XDG config) and work that
// outlives a session, such as a student's copies of the installed exercises (XDG data).
#pragma once
#include <string>

namespace rl::lab {

// $XDG_CONFIG_HOME/reduction-lab, else ~/.config/reduction-lab; empty when neither can be named.
std::string config_dir();
// $XDG_DATA_HOME/reduction-lab, else ~/.local/share/reduction-lab; empty when neither can be named.
std::string data_dir();

}  // namespace rl::lab
