// SPDX-License-Identifier: MIT
// The evdev ioctls (/dev/input/eventN) as plain functions: their request numbers are macros
// with arguments (_IOR, _IOC with a length) that Swift cannot expand, and ioctl(2) is variadic.
// Every function returns -1 and leaves the reason in errno when the ioctl fails.
#ifndef WODCLOCK_CEVDEVSHIM_H
#define WODCLOCK_CEVDEVSHIM_H

#include <stddef.h>
#include <stdint.h>

/// EVIOCGRAB: `grab` 1 takes the device for this descriptor alone (console, X and other readers
/// see nothing; EBUSY when someone else holds it), 0 releases it. Released on close anyway.
int cevdev_grab(int fd, int grab);

/// EVIOCGNAME(len): the device's name, NUL-terminated, into `buffer`; returns the length.
int cevdev_name(int fd, char *buffer, size_t size);

/// EVIOCGUNIQ(len): the device's unique id (often empty or a serial number) into `buffer`.
int cevdev_unique(int fd, char *buffer, size_t size);

/// EVIOCGID: `struct input_id` {bustype, vendor, product, version}.
int cevdev_id(int fd, uint16_t *bustype, uint16_t *vendor, uint16_t *product, uint16_t *version);

/// EVIOCGBIT(EV_KEY, len): the key-capability bitmap (bit n = key code n) into `bitmap`.
int cevdev_key_bits(int fd, uint8_t *bitmap, size_t size);

/// EVIOCGKEY(len): the keys held down now (bit n = key code n), to resynchronise after
/// SYN_DROPPED.
int cevdev_key_state(int fd, uint8_t *bitmap, size_t size);

/// EVIOCSCLOCKID: the clock of the event timestamps (CLOCK_MONOTONIC = 1 instead of the default
/// CLOCK_REALTIME), so a wall-clock step cannot make a press look long.
int cevdev_set_clock(int fd, int clock_id);

/// sizeof(struct input_event) as this program was compiled: 24 on 64-bit, 16 on 32-bit.
size_t cevdev_event_size(void);

#endif
