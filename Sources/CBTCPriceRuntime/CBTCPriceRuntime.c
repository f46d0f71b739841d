#if defined(__linux__)
// pwritev2 and RWF_NOWAIT (glibc declares them for _GNU_SOURCE only).
#define _GNU_SOURCE
#include <sys/uio.h>
#endif

#include "CBTCPriceRuntime.h"

#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

// Atomic, not only volatile: the handler runs on whichever thread the signal lands on, and
// ThreadSanitizer saw its read race with the write below made on another thread. A lock-free
// atomic int is safe to read in a signal handler.
static _Atomic int forward_to = -1;

static void forward(int signal) {
  int saved = errno;
  unsigned char number = (unsigned char)signal;
  // Non-blocking: with the pipe full (thousands of signals unread) one more is dropped rather
  // than the interrupted thread stopped.
  (void)write(atomic_load_explicit(&forward_to, memory_order_acquire), &number, 1);
  errno = saved;
}

int btc_signal_forward(int signal, int write_end) {
  atomic_store_explicit(&forward_to, write_end, memory_order_release);
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = forward;
  action.sa_flags = SA_RESTART;
  sigemptyset(&action.sa_mask);
  return sigaction(signal, &action, NULL);
}

#if defined(__linux__)
// The Swift runtime's hook (swift/Runtime/Concurrency.h), named here by its symbol only.
extern void *swift_task_enqueueGlobal_hook;

void **btc_enqueue_global_hook_address(void) { return &swift_task_enqueueGlobal_hook; }
#else
void **btc_enqueue_global_hook_address(void) { return NULL; }
#endif

ssize_t btc_write_without_waiting(int descriptor, const void *bytes, size_t count) {
#if defined(__linux__) && defined(RWF_NOWAIT)
  struct iovec vector = {(void *)bytes, count};
  ssize_t written;
  do {
    written = pwritev2(descriptor, &vector, 1, -1, RWF_NOWAIT);
  } while (written < 0 && errno == EINTR);
  return written;
#else
  (void)descriptor;
  (void)bytes;
  (void)count;
  errno = EOPNOTSUPP;
  return -1;
#endif
}
