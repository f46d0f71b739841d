/* The floor of reading a price stream, for scripts/measure: one WebSocket connection to
 * 127.0.0.1:PORT PATH (Binance's trade stream shape), each frame read as it arrives, the newest
 * trade's price ("p") kept, pings answered, and that price written once a second from a timerfd.
 * No JSON parser, no allocation, no threads: what the kernel and the wake-ups cost on this
 * machine per message, which no program that reads every message can go below.
 *
 * Usage: measure-stream-floor PORT PATH   (runs until killed)
 */
#include <arpa/inet.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <unistd.h>

static char buf[1 << 16];
static size_t have;

int main(int argc, char **argv) {
  if (argc != 3) return 2;
  int s = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons(atoi(argv[1]))};
  inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
  if (connect(s, (struct sockaddr *)&addr, sizeof addr) != 0) return 1;
  char request[512];
  int n = snprintf(request, sizeof request,
                   "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%s\r\nUpgrade: websocket\r\n"
                   "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                   "Sec-WebSocket-Version: 13\r\n\r\n", argv[2], argv[1]);
  if (write(s, request, n) != n) return 1;
  char *end = NULL;
  while (!end) { /* the 101 response; frames may follow it in the same read */
    ssize_t got = read(s, buf + have, sizeof buf - have - 1);
    if (got <= 0) return 1;
    have += got;
    buf[have] = 0;
    end = strstr(buf, "\r\n\r\n");
  }
  size_t head = end + 4 - buf;
  memmove(buf, buf + head, have - head);
  have -= head;

  int timer = timerfd_create(CLOCK_MONOTONIC, 0);
  struct itimerspec every = {.it_interval = {1, 0}, .it_value = {1, 0}};
  timerfd_settime(timer, 0, &every, NULL);
  char latest[64] = "";
  struct pollfd fds[2] = {{.fd = s, .events = POLLIN}, {.fd = timer, .events = POLLIN}};
  for (;;) {
    if (poll(fds, 2, -1) < 0) return 1;
    if (fds[1].revents & POLLIN) {
      uint64_t ticks;
      if (read(timer, &ticks, sizeof ticks) < 0) return 1;
      if (latest[0]) {
        size_t len = strlen(latest);
        latest[len] = '\n';
        if (write(1, latest, len + 1) < 0) return 1;
        latest[len] = 0;
      }
    }
    if (!(fds[0].revents & (POLLIN | POLLHUP))) continue;
    ssize_t got = read(s, buf + have, sizeof buf - have);
    if (got <= 0) return 0;
    have += got;
    for (;;) { /* every complete frame in the buffer (server frames are not masked) */
      if (have < 2) break;
      size_t len = buf[1] & 0x7F, at = 2;
      if (len == 126) {
        if (have < 4) break;
        len = ((unsigned char)buf[2] << 8) | (unsigned char)buf[3];
        at = 4;
      }
      if (have < at + len) break;
      int opcode = buf[0] & 0x0F;
      if (opcode == 1) {
        char *payload = buf + at, saved = payload[len];
        payload[len] = 0;
        char *p = strstr(payload, "\"p\":\"");
        if (p) {
          p += 5;
          size_t i = 0;
          while (p[i] && p[i] != '"' && i < sizeof latest - 2) latest[i] = p[i], i++;
          latest[i] = 0;
        }
        payload[len] = saved;
      } else if (opcode == 9 && len < 126) { /* pong with the ping's payload, mask of zeros */
        char pong[6 + 125] = {(char)0x8A, (char)(0x80 | len), 0, 0, 0, 0};
        memcpy(pong + 6, buf + at, len);
        if (write(s, pong, 6 + len) < 0) return 1;
      } else if (opcode == 8) {
        return 0;
      }
      memmove(buf, buf + at + len, have - at - len);
      have -= at + len;
    }
  }
}
