// SPDX-License-Identifier: MIT
// The evdev ioctls (kernel include/uapi/linux/input.h; drivers/input/evdev.c).

#include "CEvdevShim.h"

#include <linux/input.h>
#include <string.h>
#include <sys/ioctl.h>

int cevdev_grab(int fd, int grab) {
  // The argument is passed by value, not as a pointer (drivers/input/evdev.c, EVIOCGRAB).
  return ioctl(fd, EVIOCGRAB, (unsigned long)(grab ? 1 : 0));
}

int cevdev_name(int fd, char *buffer, size_t size) {
  if (size == 0) return 0;
  memset(buffer, 0, size);
  int length = ioctl(fd, EVIOCGNAME(size - 1), buffer);
  return length;
}

int cevdev_unique(int fd, char *buffer, size_t size) {
  if (size == 0) return 0;
  memset(buffer, 0, size);
  return ioctl(fd, EVIOCGUNIQ(size - 1), buffer);
}

int cevdev_id(int fd, uint16_t *bustype, uint16_t *vendor, uint16_t *product, uint16_t *version) {
  struct input_id id;
  int result = ioctl(fd, EVIOCGID, &id);
  if (result < 0) return result;
  *bustype = id.bustype;
  *vendor = id.vendor;
  *product = id.product;
  *version = id.version;
  return 0;
}

int cevdev_key_bits(int fd, uint8_t *bitmap, size_t size) {
  memset(bitmap, 0, size);
  return ioctl(fd, EVIOCGBIT(EV_KEY, size), bitmap);
}

int cevdev_key_state(int fd, uint8_t *bitmap, size_t size) {
  memset(bitmap, 0, size);
  return ioctl(fd, EVIOCGKEY(size), bitmap);
}

int cevdev_set_clock(int fd, int clock_id) {
  return ioctl(fd, EVIOCSCLOCKID, &clock_id);
}

size_t cevdev_event_size(void) { return sizeof(struct input_event); }
