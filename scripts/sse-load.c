/* Many Server-Sent Events viewers of `btc-price serve` in one process, for scripts/serve-load.
 *
 * Opens --viewers connections to 127.0.0.1:--port (spread over --addresses source addresses,
 * 127.0.0.2 and up, so that churn never runs out of ephemeral ports), asks each for /api/stream,
 * and records for every event id how many viewers got it and when the first and the last did
 * (CLOCK_MONOTONIC, the clock Python's time.monotonic_ns() reads). With --churn, closes that
 * many random viewers every second and opens as many new ones. Runs --seconds, then prints one
 * line per event id: "event <id> <viewers> <first_ns> <last_ns>", and a summary.
 *
 * For nginx + nchan edges (scripts/serve-load --edges): --ports a,b spreads the viewers over
 * several servers in turn, and --price-ids BASE numbers each event by its price instead of its
 * id (nchan's ids are "<time>:<tag>"): the fake exchange answers tick n with BASE + n cents, so
 * the first "price":"…" of an event's data names its tick on serve and on an edge alike.
 *
 * Loopback only; bounded in time. Build: cc -O2 -o sse-load scripts/sse-load.c
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_EVENTS 100000

typedef struct {
  int fd;
  int connected;
  char tail[64]; /* the end of the previous read, for an "id: " or a price split across reads */
  int tail_length;
} viewer_t;

static long long counts[MAX_EVENTS];
static long long first_ns[MAX_EVENTS];
static long long last_ns[MAX_EVENTS];
static int max_id = -1;
static int port = 8080;
static int ports[16];
static int port_count = 0;
static long long price_base = -1; /* in cents; -1: number events by their "id: " */
static int addresses = 64;
static int epoll_fd;
static int idle = 0;
static long long opened = 0, failed = 0, closed_by_server = 0;

static long long now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static const char request[] = "GET /api/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n";

static int open_viewer(viewer_t *viewer, int index) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
  if (fd < 0) return -1;
  struct sockaddr_in source = {.sin_family = AF_INET};
  source.sin_addr.s_addr = htonl(0x7F000002 + (uint32_t)(index % addresses));
  if (bind(fd, (struct sockaddr *)&source, sizeof source) != 0) { close(fd); return -1; }
  int to = port_count > 0 ? ports[index % port_count] : port;
  struct sockaddr_in target = {.sin_family = AF_INET, .sin_port = htons((uint16_t)to)};
  target.sin_addr.s_addr = htonl(0x7F000001);
  if (connect(fd, (struct sockaddr *)&target, sizeof target) != 0 && errno != EINPROGRESS) {
    close(fd);
    return -1;
  }
  viewer->fd = fd;
  viewer->connected = 0;
  viewer->tail_length = 0;
  struct epoll_event event = {.events = EPOLLIN | EPOLLOUT, .data.ptr = viewer};
  epoll_ctl(epoll_fd, EPOLL_CTL_ADD, fd, &event);
  opened++;
  return 0;
}

static void close_viewer(viewer_t *viewer) {
  if (viewer->fd < 0) return;
  epoll_ctl(epoll_fd, EPOLL_CTL_DEL, viewer->fd, NULL);
  close(viewer->fd);
  viewer->fd = -1;
}

static void record(int id, long long at) {
  if (id < 0 || id >= MAX_EVENTS) return;
  if (counts[id]++ == 0) first_ns[id] = at;
  last_ns[id] = at;
  if (id > max_id) max_id = id;
}

/* Finds every "\nid: <n>\n" (or, with --price-ids, every "data: " line's first "price":"<d>.<cc>")
 * in the new bytes (with the previous read's tail in front). */
static void scan(viewer_t *viewer, const char *data, ssize_t length, long long at) {
  char buffer[64 + 65536];
  memcpy(buffer, viewer->tail, (size_t)viewer->tail_length);
  memcpy(buffer + viewer->tail_length, data, (size_t)length);
  size_t total = (size_t)viewer->tail_length + (size_t)length;
  size_t keep_from = total;
  for (size_t i = 0; i + 6 < total; i++) {
    if (i != 0 && buffer[i - 1] != '\n') continue;
    if (price_base < 0 && memcmp(buffer + i, "id: ", 4) == 0) {
      size_t j = i + 4;
      int id = 0, digits = 0;
      while (j < total && buffer[j] >= '0' && buffer[j] <= '9') { id = id * 10 + (buffer[j] - '0'); j++; digits++; }
      if (j < total && buffer[j] == '\n' && digits > 0) record(id, at);
      else if (j >= total) { keep_from = i; break; } /* incomplete: kept in the tail */
    } else if (price_base >= 0 && memcmp(buffer + i, "data: ", 6) == 0) {
      static const char key[] = "\"price\":\"";
      size_t limit = i + 60 < total ? i + 60 : total;
      size_t j = i + 6;
      while (j + sizeof key - 1 <= limit && memcmp(buffer + j, key, sizeof key - 1) != 0) j++;
      if (j + sizeof key - 1 > limit) { if (limit == total) { keep_from = i; break; } continue; }
      j += sizeof key - 1;
      /* The price as the ticker writes it: trailing zeros dropped ("68001", "68000.1"). */
      long long cents = 0;
      int fraction = -1;
      while (j < total && ((buffer[j] >= '0' && buffer[j] <= '9') || buffer[j] == '.')) {
        if (buffer[j] == '.') fraction = 0;
        else if (fraction < 0) cents = cents * 10 + (buffer[j] - '0');
        else if (fraction < 2) { cents = cents * 10 + (buffer[j] - '0'); fraction++; }
        j++;
      }
      if (j >= total) { keep_from = i; break; }
      for (int f = fraction < 0 ? 0 : fraction; f < 2; f++) cents *= 10;
      record((int)(cents - price_base), at);
    }
  }
  size_t keep = total - keep_from;
  if (keep > sizeof viewer->tail) keep = 0;
  if (keep_from == total) keep = total < 8 ? total : 8;
  memcpy(viewer->tail, buffer + total - keep, keep);
  viewer->tail_length = (int)keep;
}

int main(int argc, char **argv) {
  int viewers = 1000, seconds = 30, churn = 0;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--port")) port = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--viewers")) viewers = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--seconds")) seconds = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--churn")) churn = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--addresses")) addresses = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--idle")) idle = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--price-ids")) price_base = atoll(argv[i + 1]) * 100;
    else if (!strcmp(argv[i], "--ports")) {
      for (char *next = argv[i + 1]; *next && port_count < 16; port_count++) {
        ports[port_count] = (int)strtol(next, &next, 10);
        if (*next == ',') next++;
      }
    }
  }
  struct rlimit limit;
  getrlimit(RLIMIT_NOFILE, &limit);
  limit.rlim_cur = limit.rlim_max;
  setrlimit(RLIMIT_NOFILE, &limit);
  srand(1);

  epoll_fd = epoll_create1(0);
  viewer_t *all = calloc((size_t)viewers, sizeof(viewer_t));
  for (int i = 0; i < viewers; i++) {
    all[i].fd = -1;
    if (open_viewer(&all[i], i) != 0) failed++;
  }
  fprintf(stderr, "sse-load: opened %lld viewers (%lld failed)\n", opened, failed);

  struct epoll_event ready[1024];
  char data[65536];
  long long started = now_ns(), next_churn = started + 1000000000LL, next_status = started;
  long long end = started + (long long)seconds * 1000000000LL;
  int next_index = viewers;
  while (now_ns() < end) {
    int count = epoll_wait(epoll_fd, ready, 1024, 100);
    long long at = now_ns();
    for (int k = 0; k < count; k++) {
      viewer_t *viewer = ready[k].data.ptr;
      if (viewer->fd < 0) continue;
      if (!viewer->connected && (ready[k].events & EPOLLOUT)) {
        int error = 0;
        socklen_t size = sizeof error;
        getsockopt(viewer->fd, SOL_SOCKET, SO_ERROR, &error, &size);
        if (error != 0) { failed++; close_viewer(viewer); continue; }
        if (!idle && write(viewer->fd, request, sizeof request - 1) < 0) { failed++; close_viewer(viewer); continue; }
        viewer->connected = 1;
        struct epoll_event event = {.events = EPOLLIN, .data.ptr = viewer};
        epoll_ctl(epoll_fd, EPOLL_CTL_MOD, viewer->fd, &event);
      }
      if (ready[k].events & (EPOLLIN | EPOLLHUP | EPOLLERR)) {
        for (;;) {
          ssize_t length = read(viewer->fd, data, sizeof data);
          if (length > 0) { scan(viewer, data, length, at); continue; }
          if (length == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)) {
            closed_by_server++;
            close_viewer(viewer);
          }
          break;
        }
      }
    }
    if (churn > 0 && at >= next_churn) {
      for (int c = 0; c < churn; c++) {
        viewer_t *viewer = &all[rand() % viewers];
        close_viewer(viewer);
        if (open_viewer(viewer, next_index++) != 0) failed++;
      }
      next_churn += 1000000000LL;
    }
    if (at >= next_status) {
      int open_now = 0;
      for (int i = 0; i < viewers; i++) open_now += all[i].fd >= 0 && all[i].connected;
      fprintf(stderr, "sse-load: t=%llds connected=%d latest_id=%d opened=%lld failed=%lld closed_by_server=%lld\n",
              (at - started) / 1000000000LL, open_now, max_id, opened, failed, closed_by_server);
      next_status += 5000000000LL;
    }
  }
  for (int id = 0; id <= max_id; id++) {
    if (counts[id] > 0) printf("event %d %lld %lld %lld\n", id, counts[id], first_ns[id], last_ns[id]);
  }
  printf("summary opened=%lld failed=%lld closed_by_server=%lld\n", opened, failed, closed_by_server);
  return 0;
}
