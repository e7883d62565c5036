// The one way warpscope reads a file: session, pattern, kernel and deck files, recorded
// measurements, the autosave file and every file argument of the command lines. Only a regular
// file is read (a FIFO, a device, a directory or a socket is refused with a message), it is
// opened without blocking, and at most a size cap of it is read, so no input can hang a reader
// or exhaust its memory.
#pragma once

#include "warpscope/result.h"

#include <cstddef>
#include <string>

namespace warpscope {

/// The size cap of the files warpscope reads: 16 MiB unless the environment variable
/// WARPSCOPE_MAX_FILE_MIB names another whole number of MiB (1 to 4096); docs/testing.md.
std::size_t maxFileBytes();

/// The file at `path`, if it is a regular file of at most `capBytes` bytes. Errors are
/// ErrorCode::Io with `where` set to the path and a message saying what the file is instead
/// ("is a FIFO (named pipe), not a regular file") or how large it is and the cap.
Result<std::string> readRegularFile(const std::string& path, std::size_t capBytes);

} // namespace warpscope
