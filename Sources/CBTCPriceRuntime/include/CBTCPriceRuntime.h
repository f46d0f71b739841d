#ifndef CBTCPRICERUNTIME_H
#define CBTCPRICERUNTIME_H

/// The two things the tool needs from C: a signal handler that only writes the signal's number
/// to a pipe (nothing else is safe in a handler), and the address of the Swift runtime's hook
/// for starting a task on the default pool, which Swift cannot name (it is the runtime's own
/// variable; with the runtime linked statically it is not even a dynamic symbol).

/// Sends `signal` to `write_end` (a non-blocking pipe) from now on: one byte, the signal's
/// number, per delivery. Every signal installed this way goes to the same pipe, the last given.
/// Returns 0, or -1 with errno set by sigaction.
int btc_signal_forward(int signal, int write_end);

/// The address of `swift_task_enqueueGlobal_hook` on Linux; NULL elsewhere.
void *_Nullable *_Nullable btc_enqueue_global_hook_address(void);

#endif
