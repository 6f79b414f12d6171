// SPDX-License-Identifier: MIT
// lane-press: presses or releases gpio-sim lines as sim-pull does (writing pull-down or pull-up
// to the line's sim_gpioN/pull), and brackets each write with CLOCK_MONOTONIC. gpio-sim raises
// the line's edge event inside that write, and the kernel stamps the event with CLOCK_MONOTONIC
// (the line's default event clock), so the edge's timestamp lies between the two readings: a
// recorded finish can be checked against the bracket, not against a tolerance. Built static so
// it runs in the test VM as it is.
//
// usage: lane-press SYSFS down|up|tap OFFSET...   (SYSFS: the bank's directory, $GPIO_SIM_SYSFS)
// prints one line per offset, in the order written: "OFFSET BEFORE_NS AFTER_NS" (of the press).
// `tap` rests 20 ms released, presses, holds 20 ms and releases, in one process: two commands from
// a shell would hold the buttons as long as the emulated machine takes to start the second, long
// enough now and then to be a long press. The rest lets a release just before (the end of a long
// press) settle past the 5 ms debounce: a press sooner would join that release's burst, and the
// button would never have let go.
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static long long monotonic_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void rest_ms(long milliseconds) {
  struct timespec left = {0, milliseconds * 1000 * 1000};
  while (clock_nanosleep(CLOCK_MONOTONIC, 0, &left, &left) == EINTR) {
  }
}

int main(int argc, char **argv) {
  int tap = argc >= 4 && strcmp(argv[2], "tap") == 0;
  if (argc < 4 || (!tap && strcmp(argv[2], "down") != 0 && strcmp(argv[2], "up") != 0)) {
    fprintf(stderr, "usage: lane-press SYSFS down|up|tap OFFSET...\n");
    return 2;
  }
  const char *pull = strcmp(argv[2], "up") == 0 ? "pull-up" : "pull-down";
  int count = argc - 3;
  int fds[64];
  long long before[64], after[64];
  if (count > 64) {
    fprintf(stderr, "lane-press: at most 64 lines, got %d\n", count);
    return 2;
  }
  // Every file is opened first, so the writes follow each other as closely as they can.
  for (int i = 0; i < count; i++) {
    char path[512];
    snprintf(path, sizeof path, "%s/sim_gpio%s/pull", argv[1], argv[3 + i]);
    fds[i] = open(path, O_WRONLY);
    if (fds[i] < 0) {
      fprintf(stderr, "lane-press: cannot open %s: %s\n", path, strerror(errno));
      return 1;
    }
  }
  size_t length = strlen(pull);
  if (tap) rest_ms(20);
  for (int i = 0; i < count; i++) {
    before[i] = monotonic_ns();
    ssize_t written = write(fds[i], pull, length);
    after[i] = monotonic_ns();
    if (written != (ssize_t)length) {
      fprintf(stderr, "lane-press: writing %s to line %s failed: %s\n", pull, argv[3 + i],
              strerror(errno));
      return 1;
    }
  }
  if (tap) {
    rest_ms(20);
    for (int i = 0; i < count; i++) {
      if (write(fds[i], "pull-up", 7) != 7) {
        fprintf(stderr, "lane-press: releasing line %s failed: %s\n", argv[3 + i], strerror(errno));
        return 1;
      }
    }
  }
  for (int i = 0; i < count; i++) {
    close(fds[i]);
    printf("%s %lld %lld\n", argv[3 + i], before[i], after[i]);
  }
  return 0;
}
