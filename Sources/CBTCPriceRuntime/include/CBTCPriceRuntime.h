#ifndef CBTCPRICERUNTIME_H
#define CBTCPRICERUNTIME_H

#include <sys/types.h>

/// The three things the tool needs from C: a signal handler that only writes the signal's number
/// to a pipe (nothing else is safe in a handler), the address of the Swift runtime's hook for
/// starting a task on the default pool, which Swift cannot name (it is the runtime's own
/// variable; with the runtime linked statically it is not even a dynamic symbol), and a write
/// that cannot block, which Swift's Glibc module does not declare (it needs `_GNU_SOURCE`).

/// Sends `signal` to `write_end` (a non-blocking pipe) from now on: one byte, the signal's
/// number, per delivery. Every signal installed this way goes to the same pipe, the last given.
/// Returns 0, or -1 with errno set by sigaction.
int btc_signal_forward(int signal, int write_end);

/// The address of `swift_task_enqueueGlobal_hook` on Linux; NULL elsewhere.
void *_Nullable *_Nullable btc_enqueue_global_hook_address(void);

/// Writes up to `count` bytes to `descriptor` without ever waiting: `pwritev2` with
/// `RWF_NOWAIT` at the descriptor's own position (Linux 4.14; pipes since 5.x, as on this
/// machine's 6.18). Returns the bytes written (maybe fewer than `count`), or -1 with errno:
/// EAGAIN when the write would have waited (a full pipe), EOPNOTSUPP where the file cannot be
/// written this way (a terminal, ext4 here, any system but Linux). The descriptor's own flags
/// are untouched: `O_NONBLOCK` would change them for every process that shares the file.
ssize_t btc_write_without_waiting(int descriptor, const void *_Nonnull bytes, size_t count);

#endif
