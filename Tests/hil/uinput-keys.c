// SPDX-License-Identifier: MIT
// uinput-keys: a virtual USB keyboard for the usb-remote hardware-in-the-loop test, built
// static so it runs in the test VM as it is (kernel Documentation/input/uinput.rst).
//
// usage: uinput-keys NAME VENDOR PRODUCT STEP...     (VENDOR, PRODUCT in hex)
//        uinput-keys --grabbed NODE                  (exit 0 if someone holds EVIOCGRAB on NODE)
// steps: tap:CODE          press and release (a SYN_REPORT after each)
//        hold:CODE:MS      press, let the input core auto-repeat for MS ms, release
//        sleep:MS          wait
//        wait:FILE         wait until FILE exists (at most 20 s)
// The device exists from the first step until the program ends (UI_DEV_DESTROY, then close):
// that is the unplug.
#include <errno.h>
#include <fcntl.h>
#include <linux/input.h>
#include <linux/uinput.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void sleep_ms(long ms) {
  struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
  while (nanosleep(&t, &t) != 0 && errno == EINTR) {}
}

static void emit(int fd, int type, int code, int value) {
  struct input_event event;
  memset(&event, 0, sizeof event);
  event.type = type;
  event.code = code;
  event.value = value;
  if (write(fd, &event, sizeof event) != sizeof event) { perror("uinput-keys: write"); exit(1); }
}

static void key(int fd, int code, int value) {
  emit(fd, EV_KEY, code, value);
  emit(fd, EV_SYN, SYN_REPORT, 0);
}

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "--grabbed") == 0) {
    // EVIOCGRAB fails with EBUSY while another descriptor holds the grab (evdev.c evdev_grab).
    int fd = open(argv[2], O_RDONLY | O_NONBLOCK);
    if (fd < 0) { perror(argv[2]); return 2; }
    if (ioctl(fd, EVIOCGRAB, (unsigned long)1) == 0) { close(fd); return 1; }
    int busy = errno == EBUSY;
    close(fd);
    return busy ? 0 : 2;
  }
  if (argc < 4) {
    fprintf(stderr, "usage: uinput-keys NAME VENDOR PRODUCT STEP... | --grabbed NODE\n");
    return 64;
  }
  int fd = open("/dev/uinput", O_WRONLY | O_NONBLOCK);
  if (fd < 0) { perror("uinput-keys: /dev/uinput"); return 1; }
  ioctl(fd, UI_SET_EVBIT, EV_KEY);
  ioctl(fd, UI_SET_EVBIT, EV_REP);  // the input core's soft auto-repeat (value 2 events)
  for (int code = 1; code < 256; code++) ioctl(fd, UI_SET_KEYBIT, code);
  struct uinput_setup setup;
  memset(&setup, 0, sizeof setup);
  setup.id.bustype = BUS_USB;
  setup.id.vendor = (unsigned short)strtol(argv[2], NULL, 16);
  setup.id.product = (unsigned short)strtol(argv[3], NULL, 16);
  snprintf(setup.name, UINPUT_MAX_NAME_SIZE, "%s", argv[1]);
  if (ioctl(fd, UI_DEV_SETUP, &setup) < 0 || ioctl(fd, UI_DEV_CREATE) < 0) {
    perror("uinput-keys: create");
    return 1;
  }
  for (int i = 4; i < argc; i++) {
    int code = 0;
    long ms = 0;
    char file[256];
    if (sscanf(argv[i], "tap:%d", &code) == 1) {
      key(fd, code, 1);
      sleep_ms(30);
      key(fd, code, 0);
      sleep_ms(100);
    } else if (sscanf(argv[i], "hold:%d:%ld", &code, &ms) == 2) {
      key(fd, code, 1);
      sleep_ms(ms);
      key(fd, code, 0);
      sleep_ms(100);
    } else if (sscanf(argv[i], "sleep:%ld", &ms) == 1) {
      sleep_ms(ms);
    } else if (sscanf(argv[i], "wait:%255s", file) == 1) {
      struct stat st;
      for (int n = 0; n < 200 && stat(file, &st) != 0; n++) sleep_ms(100);
    } else {
      fprintf(stderr, "uinput-keys: unknown step %s\n", argv[i]);
      return 64;
    }
  }
  ioctl(fd, UI_DEV_DESTROY);
  close(fd);
  return 0;
}
