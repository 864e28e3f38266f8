// core/file_io.h — checked file access for every reader and writer: regular files only, size caps,
// nesting pre-scans, atomic writes (temporary name + rename) and a checked standard output.
#pragma once
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>

namespace rl {

// Throws rl::Error unless path names a regular file (not a directory, device, FIFO or socket) of at most
// max_bytes. `what` names the file's role in the message ("trace", "lesson file").
void check_readable_file(const std::string& path, const std::string& what, uint64_t max_bytes);
// The whole file as text, after check_readable_file; never reads more than max_bytes.
std::string read_text_file(const std::string& path, const std::string& what, uint64_t max_bytes);

// Deepest nesting of [ and { outside strings in JSON text (stops counting once past `limit`).
int json_nesting_depth(std::string_view text, int limit);
// Deepest nesting of a TOML document: table-header and dotted-key parts plus inline [ and { levels.
int toml_nesting_depth(std::string_view text, int limit);
// Throws rl::Error ("<what>: nested deeper than N levels ...") when the text nests past the limit.
void check_json_nesting(std::string_view text, const std::string& what, int limit);
void check_toml_nesting(std::string_view text, const std::string& what, int limit);

// Writes a file through `write`: to a temporary name in the same folder, flushed and checked, then renamed
// over path, so a full disk or a failed writer leaves no truncated file. A path that is an existing
// non-regular file (/dev/null, /dev/full, a FIFO) is written in place and checked. Throws rl::Error.
void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& write);
void write_file_atomically(const std::string& path, std::string_view bytes);

// Flushes std::cout and C stdout; throws rl::Error ("writing standard output failed: ...") when the
// stream is closed, full or broken. Every command calls it before it exits 0.
void flush_stdout_checked();
// When standard output is closed at start-up, holds its descriptor with a read-only /dev/null, so that a
// file opened later cannot take descriptor 1 and every write to standard output fails (and is reported).
void guard_closed_stdout();

// One line: control characters (newlines, tabs, escapes) shown as \n, \t, \x1b; long values cut.
std::string one_line(std::string_view text, size_t max_chars = 200);

}  // namespace rl
