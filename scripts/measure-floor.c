/* The floor for scripts/measure: what one price a tick costs with nothing in the way. One kept-alive
 * socket, a GET per tick, the price's text out, a pause. No JSON parser, no decimal, no cache, no
 * deadlines: a lower bound, not a competitor.
 * Usage: measure-floor PORT PATH TICKS INTERVAL_SECONDS */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc != 5) return 2;
  int ticks = atoi(argv[3]), one = 1;
  double interval = atof(argv[4]);
  struct timespec pause = {(time_t)interval, (long)((interval - (time_t)interval) * 1e9)};
  struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(atoi(argv[1]))};
  inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  if (connect(fd, (struct sockaddr *)&address, sizeof address) != 0) return 1;
  char request[512], response[8192];
  int length = snprintf(request, sizeof request,
                        "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", argv[2]);
  for (int tick = 0; tick < ticks; tick++) {
    if (write(fd, request, length) != length) return 1;
    size_t have = 0;
    char *body = NULL;
    long size = 0;
    while (body == NULL || (long)(response + have - body) < size) {
      ssize_t got = read(fd, response + have, sizeof response - 1 - have);
      if (got <= 0) return 1;
      response[have += got] = 0;
      if (body == NULL && (body = strstr(response, "\r\n\r\n")) != NULL) {
        char *field = strcasestr(response, "\r\ncontent-length:");
        size = field ? atol(field + 17) : 0;
        body += 4;
      }
    }
    char *price = strstr(body, "\"price\":\"");
    if (price == NULL) return 1;
    price += 9;
    printf("%.*s\n", (int)strcspn(price, "\""), price);
    fflush(stdout);
    nanosleep(&pause, NULL);
  }
  return 0;
}
