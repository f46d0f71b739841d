/* The floor of keeping the cache file, for scripts/measure: a writer thread that sleeps until it
 * is handed a write, then writes a cache-sized file the way AtomicFile does (a new temporary
 * file opened with O_CREAT | O_EXCL, written, fsync'ed, closed and renamed over the old one).
 * What a write costs this machine's file system in wake-ups (voluntary context switches of the
 * writer thread, the hand-off's own included) and CPU, which no tool that keeps its last price
 * durably from a thread off its event loop (ENGINEERING rules 5 and 11) can go below.
 *
 * Usage: measure-disk-floor DIR WRITES
 * Prints: "<wake-ups a write> <CPU microseconds a write>"
 */
#define _GNU_SOURCE /* RUSAGE_THREAD */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t handed = PTHREAD_COND_INITIALIZER, done = PTHREAD_COND_INITIALIZER;
static int pending, finished, writes;
static const char *dir;
static long switches;
static double cpu_us;

static const char cache[] =
    "{\"currency\":\"USD\",\"price\":\"68901.23\",\"source\":\"binance\","
    "\"timestamp\":\"2026-11-29T18:02:48.545Z\",\"version\":1}";

static double micros(struct timeval t) { return t.tv_sec * 1e6 + t.tv_usec; }

static void *writer(void *unused) {
  (void)unused;
  char temporary[4096], path[4096];
  snprintf(path, sizeof path, "%s/last-price.json", dir);
  struct rusage before, after;
  getrusage(RUSAGE_THREAD, &before);
  for (int i = 0; i < writes; i++) {
    pthread_mutex_lock(&lock);
    while (!pending) pthread_cond_wait(&handed, &lock);
    pending = 0;
    pthread_mutex_unlock(&lock);
    snprintf(temporary, sizeof temporary, "%s/.last-price.json.%d.%d.tmp", dir, getpid(), i);
    int fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0 || write(fd, cache, sizeof cache - 1) != (ssize_t)(sizeof cache - 1) ||
        fsync(fd) != 0 || close(fd) != 0 || rename(temporary, path) != 0) {
      perror("measure-disk-floor");
      exit(1);
    }
    pthread_mutex_lock(&lock);
    finished++;
    pthread_cond_signal(&done);
    pthread_mutex_unlock(&lock);
  }
  getrusage(RUSAGE_THREAD, &after);
  switches = after.ru_nvcsw - before.ru_nvcsw;
  cpu_us = micros(after.ru_utime) - micros(before.ru_utime) + micros(after.ru_stime) -
           micros(before.ru_stime);
  return NULL;
}

int main(int argc, char **argv) {
  if (argc != 3 || (writes = atoi(argv[2])) <= 0) return 2;
  dir = argv[1];
  pthread_t thread;
  if (pthread_create(&thread, NULL, writer, NULL) != 0) return 1;
  for (int i = 0; i < writes; i++) {
    /* The writer is asleep when a write is handed over, as btc-price's is for the 10 s between
     * two writes. */
    nanosleep(&(struct timespec){.tv_nsec = 30 * 1000 * 1000}, NULL);
    pthread_mutex_lock(&lock);
    pending = 1;
    pthread_cond_signal(&handed);
    while (finished <= i) pthread_cond_wait(&done, &lock);
    pthread_mutex_unlock(&lock);
  }
  pthread_join(thread, NULL);
  printf("%.2f %.1f\n", (double)switches / writes, cpu_us / writes);
  return 0;
}
