#include "CBTCPriceRuntime.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t forward_to = -1;

static void forward(int signal) {
  int saved = errno;
  unsigned char number = (unsigned char)signal;
  // Non-blocking: with the pipe full (thousands of signals unread) one more is dropped rather
  // than the interrupted thread stopped.
  (void)write(forward_to, &number, 1);
  errno = saved;
}

int btc_signal_forward(int signal, int write_end) {
  forward_to = write_end;
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
