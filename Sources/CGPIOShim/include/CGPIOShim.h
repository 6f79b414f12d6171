// SPDX-License-Identifier: MIT
// One plain C interface over libgpiod API v1 (1.6.x, Debian 12) and API v2 (2.x, Debian 13).
//
// The two libgpiod APIs are source-incompatible and reuse some names with different values
// (libgpiod.md §4), so Swift never sees <gpiod.h>: this header declares only opaque handles,
// plain integers and the small enums below, and CGPIOShim.c picks the implementation at compile
// time. Every function that can fail returns NULL or -1 and leaves the reason in errno.
//
// Threading: libgpiod gives no guarantee beyond "one thread per object at a time" (v2 gpiod.h,
// top-level comment; v1 documents none), so a chip and its requests belong to one thread.
#ifndef WODCLOCK_CGPIOSHIM_H
#define WODCLOCK_CGPIOSHIM_H

#include <stddef.h>
#include <stdint.h>

/// An open GPIO chip (a /dev/gpiochipN character device).
typedef struct cgpio_chip cgpio_chip;

/// A set of lines of one chip requested together, as inputs or as outputs.
typedef struct cgpio_request cgpio_request;

/// The libgpiod version this shim was compiled against, such as "1.6.3" or "2.2.1".
const char *cgpio_library_version(void);

/// 1 or 2: the libgpiod API generation this shim was compiled against.
int cgpio_library_api(void);

// MARK: chips

/// Opens the chip at `path`, such as "/dev/gpiochip0". NULL + errno on failure (ENOENT: no such
/// file; ENOTTY or ENODEV: the file is not a GPIO chip; EACCES: permissions).
cgpio_chip *cgpio_chip_open_path(const char *path);

/// Opens "/dev/<name>", such as "gpiochip0".
cgpio_chip *cgpio_chip_open_name(const char *name);

/// Opens "/dev/gpiochip<number>".
cgpio_chip *cgpio_chip_open_number(unsigned int number);

/// Opens the first chip (in /dev order) whose label is `label`, such as "pinctrl-rp1".
/// NULL + ENOENT when no chip has that label.
cgpio_chip *cgpio_chip_open_label(const char *label);

/// Guesses whether `spec` is a path, a number, a name or a label and opens accordingly, in that
/// order (the rules of v1's gpiod_chip_open_lookup, gpiod.h 1.6 @defgroup chips).
cgpio_chip *cgpio_chip_open_lookup(const char *spec);

/// Drops the caller's reference. The chip is really closed once every request made from it has
/// been released too (v1 would otherwise release all of its lines, gpiod.h 1.6 gpiod_chip_close).
void cgpio_chip_close(cgpio_chip *chip);

/// The kernel's name of the chip, such as "gpiochip0". Owned by the chip.
const char *cgpio_chip_name(cgpio_chip *chip);

/// The chip's label, such as "pinctrl-rp1". Owned by the chip.
const char *cgpio_chip_label(cgpio_chip *chip);

/// How many lines the chip has; offsets run from 0 to this minus one.
unsigned int cgpio_chip_line_count(cgpio_chip *chip);

// MARK: line info

/// What the kernel says about one line right now.
typedef struct {
  /// The line's name from the device tree or driver, "" when it has none.
  char name[64];
  /// Who holds the line ("" when nobody does or the holder gave no name).
  char consumer[64];
  /// 1 if the line is requested (by this or any process, or by the kernel), else 0.
  int used;
  /// 1 if the line is configured as an output, else 0.
  int output;
  /// 1 if the line is active-low, else 0.
  int active_low;
} cgpio_line_info;

/// Fills `info` for the line at `offset`. -1 + errno (EINVAL for an offset out of range).
int cgpio_chip_line_info(cgpio_chip *chip, unsigned int offset, cgpio_line_info *info);

/// The offset of the first line named `name`, or -1 + ENOENT when no line has that name.
int cgpio_chip_find_line(cgpio_chip *chip, const char *name);

// MARK: requests

/// Bias (pull resistor) requested for input lines.
typedef enum {
  CGPIO_BIAS_AS_IS = 0,
  CGPIO_BIAS_DISABLED = 1,
  CGPIO_BIAS_PULL_UP = 2,
  CGPIO_BIAS_PULL_DOWN = 3,
} cgpio_bias;

/// Which edges of an input line produce events.
typedef enum {
  CGPIO_EDGE_NONE = 0,
  CGPIO_EDGE_RISING = 1,
  CGPIO_EDGE_FALLING = 2,
  CGPIO_EDGE_BOTH = 3,
} cgpio_edge;

/// The most lines one request can hold (GPIO_V2_LINES_MAX and GPIOD_LINE_BULK_MAX_LINES).
#define CGPIO_MAX_LINES 64

/// Requests `count` lines of `chip` as inputs. `consumer` is what `gpioinfo` shows (at most 31
/// bytes are kept). `active_low` != 0 inverts values and swaps rising and falling edges.
/// NULL + errno on failure: EBUSY when a line is already held, EINVAL for a bad offset or an
/// unsupported combination, E2BIG for more than CGPIO_MAX_LINES lines.
cgpio_request *cgpio_request_inputs(
    cgpio_chip *chip, const char *consumer, const unsigned int *offsets, size_t count,
    cgpio_bias bias, int active_low, cgpio_edge edges);

/// Requests `count` lines of `chip` as push-pull outputs driven to `initial_values` (logical:
/// with `active_low` a 1 drives the pin low). NULL + errno as for cgpio_request_inputs.
cgpio_request *cgpio_request_outputs(
    cgpio_chip *chip, const char *consumer, const unsigned int *offsets, size_t count,
    int active_low, const int *initial_values);

/// Gives the lines back to the kernel and frees the request.
void cgpio_request_release(cgpio_request *request);

/// A descriptor that polls readable (POLLIN / EPOLLIN) while edge events are waiting, or -1 for a
/// request without edge detection. Owned by the request: never close it.
int cgpio_request_fd(cgpio_request *request);

/// One edge seen by the kernel.
typedef struct {
  /// The chip offset of the line.
  unsigned int offset;
  /// 1 for a rising edge, 0 for a falling one (logical: active-low swaps them).
  int rising;
  /// The kernel's timestamp of the edge in nanoseconds on CLOCK_MONOTONIC (the default clock of
  /// both uAPI versions since Linux 5.7; libgpiod.md §2 and §5).
  uint64_t timestamp_ns;
} cgpio_event;

/// Reads up to `capacity` waiting edge events without blocking. Returns how many were stored in
/// `events` (0 when none are waiting), or -1 + errno. Events are in kernel order per line; across
/// lines of a v1 request they are sorted by timestamp.
int cgpio_request_read_events(cgpio_request *request, cgpio_event *events, size_t capacity);

/// Reads the logical values of all requested lines, in request order, into `values` (0 or 1).
int cgpio_request_get_values(cgpio_request *request, int *values);

/// Sets the logical value of the requested output line at chip offset `offset`.
int cgpio_request_set_value(cgpio_request *request, unsigned int offset, int value);

/// Sets the logical values of all requested output lines, in request order.
int cgpio_request_set_values(cgpio_request *request, const int *values);

#endif
