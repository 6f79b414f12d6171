// SPDX-License-Identifier: MIT
// CGPIOShim.h implemented twice: once for libgpiod API v1 (1.6.x) and once for API v2 (2.x).
//
// Which one is compiled is decided by the header that pkg-config's `libgpiod` points at:
// GPIOD_LINE_BULK_MAX_LINES is defined by v1's gpiod.h only (libgpiod.md §4, "Macros defined").
// References below name the libgpiod header section (its Doxygen @defgroup) of the version in
// question: "v1 gpiod.h line_request" is the "Line requests" group of libgpiod 1.6's gpiod.h.
//
// _GNU_SOURCE: versionsort(3) for scanning /dev in the kernel's numeric order.
#define _GNU_SOURCE
#include "CGPIOShim.h"

#include <dirent.h>
#include <errno.h>
#include <gpiod.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef GPIOD_LINE_BULK_MAX_LINES
#define CGPIO_API 1
#else
#define CGPIO_API 2
#endif

// How many edge events one v2 read can return; the kernel buffers 16 per line by default
// (gpio-v2-line-event-read.rst), and the caller reads again while the descriptor stays ready.
#define CGPIO_EVENT_BUFFER 64

struct cgpio_chip {
  // One reference for the caller plus one per live request: v1's gpiod_chip_close releases
  // every line requested through the chip (v1 gpiod.h chips, gpiod_chip_close), so a request
  // must keep its chip open. v2 requests do not need the chip, but one rule keeps both alike.
  int references;
  struct gpiod_chip *chip;
#if CGPIO_API == 2
  // v2 reads name, label and line count from a separate info object (v2 gpiod.h chip_info).
  struct gpiod_chip_info *info;
#endif
};

struct cgpio_request {
  cgpio_chip *owner;
  size_t count;
  unsigned int offsets[CGPIO_MAX_LINES];
  cgpio_edge edges;
#if CGPIO_API == 1
  struct gpiod_line_bulk bulk;
  // uAPI v1 gives every line requested for events its own descriptor (libgpiod.md §2, "Events").
  // An epoll instance over them is the one pollable descriptor of the request.
  int epoll_fd;
  // The last values written to an output request. The kernel's v1 SET_LINE_VALUES ioctl sets
  // every line of the handle at once, and gpiod_line_set_value() on one line of a multi-line
  // request sends zeros for the others; setting one line therefore resends all of them.
  int values[CGPIO_MAX_LINES];
#else
  struct gpiod_line_request *request;
  struct gpiod_edge_event_buffer *buffer;
#endif
};

// MARK: chips (shared)

static cgpio_chip *wrap_chip(struct gpiod_chip *raw) {
  if (raw == NULL) return NULL;
  cgpio_chip *chip = calloc(1, sizeof *chip);
  if (chip == NULL) {
    gpiod_chip_close(raw);
    errno = ENOMEM;
    return NULL;
  }
  chip->references = 1;
  chip->chip = raw;
#if CGPIO_API == 2
  // v2 gpiod.h chip_info: gpiod_chip_get_info() returns a snapshot the caller frees.
  chip->info = gpiod_chip_get_info(raw);
  if (chip->info == NULL) {
    int saved = errno;
    gpiod_chip_close(raw);
    free(chip);
    errno = saved;
    return NULL;
  }
#endif
  return chip;
}

static void release_chip(cgpio_chip *chip) {
  if (chip == NULL || --chip->references > 0) return;
#if CGPIO_API == 2
  gpiod_chip_info_free(chip->info);
#endif
  gpiod_chip_close(chip->chip);
  free(chip);
}

cgpio_chip *cgpio_chip_open_path(const char *path) {
  // Both APIs have gpiod_chip_open(path) (v1 gpiod.h chips; v2 gpiod.h chips). v2 fails with
  // ENODEV for a file that is not a GPIO character device; v1 with ENOTTY.
  return wrap_chip(gpiod_chip_open(path));
}

cgpio_chip *cgpio_chip_open_name(const char *name) {
  // v1's gpiod_chip_open_by_name() only prepends "/dev/"; v2 has no such helper (libgpiod.md §3),
  // so both do it here.
  char path[256];
  if (snprintf(path, sizeof path, "/dev/%s", name) >= (int)sizeof path) {
    errno = ENAMETOOLONG;
    return NULL;
  }
  return cgpio_chip_open_path(path);
}

cgpio_chip *cgpio_chip_open_number(unsigned int number) {
  char path[64];
  snprintf(path, sizeof path, "/dev/gpiochip%u", number);
  return cgpio_chip_open_path(path);
}

static int is_chip_entry(const struct dirent *entry) {
  return strncmp(entry->d_name, "gpiochip", 8) == 0;
}

cgpio_chip *cgpio_chip_open_label(const char *label) {
  // A scan of /dev like v1's gpiod_chip_open_by_label() (v1 gpiod.h chips), done here for both
  // APIs so the order is the same: versionsort puts gpiochip2 before gpiochip10.
  struct dirent **entries = NULL;
  int count = scandir("/dev", &entries, is_chip_entry, versionsort);
  if (count < 0) return NULL;
  cgpio_chip *found = NULL;
  for (int i = 0; i < count; i++) {
    if (found == NULL) {
      cgpio_chip *chip = cgpio_chip_open_name(entries[i]->d_name);
      // A chip that cannot be opened (permissions, a stale node) is skipped, as v1 does.
      if (chip != NULL && strcmp(cgpio_chip_label(chip), label) == 0) {
        found = chip;
      } else if (chip != NULL) {
        cgpio_chip_close(chip);
      }
    }
    free(entries[i]);
  }
  free(entries);
  if (found == NULL) errno = ENOENT;
  return found;
}

static int is_unsigned_number(const char *text) {
  if (*text == '\0') return 0;
  for (const char *p = text; *p != '\0'; p++) {
    if (*p < '0' || *p > '9') return 0;
  }
  return 1;
}

cgpio_chip *cgpio_chip_open_lookup(const char *spec) {
  if (spec[0] == '/') return cgpio_chip_open_path(spec);
  if (is_unsigned_number(spec)) {
    return cgpio_chip_open_number((unsigned int)strtoul(spec, NULL, 10));
  }
  if (strncmp(spec, "gpiochip", 8) == 0 && is_unsigned_number(spec + 8)) {
    return cgpio_chip_open_name(spec);
  }
  return cgpio_chip_open_label(spec);
}

void cgpio_chip_close(cgpio_chip *chip) { release_chip(chip); }

// MARK: requests (shared)

static cgpio_request *new_request(
    cgpio_chip *chip, const unsigned int *offsets, size_t count, cgpio_edge edges) {
  if (count == 0) {
    errno = EINVAL;
    return NULL;
  }
  if (count > CGPIO_MAX_LINES) {
    errno = E2BIG;
    return NULL;
  }
  cgpio_request *request = calloc(1, sizeof *request);
  if (request == NULL) {
    errno = ENOMEM;
    return NULL;
  }
  request->owner = chip;
  request->count = count;
  request->edges = edges;
  memcpy(request->offsets, offsets, count * sizeof *offsets);
#if CGPIO_API == 1
  request->epoll_fd = -1;
#endif
  return request;
}

static int index_of_offset(const cgpio_request *request, unsigned int offset) {
  for (size_t i = 0; i < request->count; i++) {
    if (request->offsets[i] == offset) return (int)i;
  }
  errno = EINVAL;
  return -1;
}

static void copy_text(char *destination, size_t size, const char *source) {
  snprintf(destination, size, "%s", source != NULL ? source : "");
}

#if CGPIO_API == 1
// ==== libgpiod API v1 (1.6.x) =====================================================================

#include <sys/epoll.h>
#include <unistd.h>

const char *cgpio_library_version(void) { return gpiod_version_string(); }
int cgpio_library_api(void) { return 1; }

const char *cgpio_chip_name(cgpio_chip *chip) { return gpiod_chip_name(chip->chip); }
const char *cgpio_chip_label(cgpio_chip *chip) { return gpiod_chip_label(chip->chip); }
unsigned int cgpio_chip_line_count(cgpio_chip *chip) { return gpiod_chip_num_lines(chip->chip); }

int cgpio_chip_line_info(cgpio_chip *chip, unsigned int offset, cgpio_line_info *info) {
  // v1 gpiod.h chips: gpiod_chip_get_line() fails with EINVAL past the last line. The line
  // object caches what the kernel said when it was first fetched, so gpiod_line_update() asks
  // again (v1 gpiod.h line_info: "line info may have changed since ...").
  struct gpiod_line *line = gpiod_chip_get_line(chip->chip, offset);
  if (line == NULL) return -1;
  if (gpiod_line_update(line) < 0) return -1;
  copy_text(info->name, sizeof info->name, gpiod_line_name(line));
  copy_text(info->consumer, sizeof info->consumer, gpiod_line_consumer(line));
  info->used = gpiod_line_is_used(line) ? 1 : 0;
  info->output = gpiod_line_direction(line) == GPIOD_LINE_DIRECTION_OUTPUT;
  info->active_low = gpiod_line_active_state(line) == GPIOD_LINE_ACTIVE_STATE_LOW;
  return 0;
}

int cgpio_chip_find_line(cgpio_chip *chip, const char *name) {
  // v1 gpiod.h chips: gpiod_chip_find_line() returns NULL and sets ENOENT when no line matches.
  struct gpiod_line *line = gpiod_chip_find_line(chip->chip, name);
  if (line == NULL) return -1;
  return (int)gpiod_line_offset(line);
}

static int bias_flag(cgpio_bias bias) {
  // v1 gpiod.h line_request: GPIOD_LINE_REQUEST_FLAG_BIAS_* (kernel >= 5.5).
  switch (bias) {
  case CGPIO_BIAS_DISABLED: return GPIOD_LINE_REQUEST_FLAG_BIAS_DISABLE;
  case CGPIO_BIAS_PULL_UP: return GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP;
  case CGPIO_BIAS_PULL_DOWN: return GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_DOWN;
  case CGPIO_BIAS_AS_IS: break;
  }
  return 0;
}

static int request_type(cgpio_edge edges) {
  // v1 gpiod.h line_request: an input with edge detection is an "event" request type.
  switch (edges) {
  case CGPIO_EDGE_RISING: return GPIOD_LINE_REQUEST_EVENT_RISING_EDGE;
  case CGPIO_EDGE_FALLING: return GPIOD_LINE_REQUEST_EVENT_FALLING_EDGE;
  case CGPIO_EDGE_BOTH: return GPIOD_LINE_REQUEST_EVENT_BOTH_EDGES;
  case CGPIO_EDGE_NONE: break;
  }
  return GPIOD_LINE_REQUEST_DIRECTION_INPUT;
}

static void free_request(cgpio_request *request, int requested) {
  int saved = errno;
  if (request->epoll_fd >= 0) close(request->epoll_fd);
  // v1 gpiod.h line_request: gpiod_line_release_bulk() gives every line of the bulk back.
  if (requested) gpiod_line_release_bulk(&request->bulk);
  release_chip(request->owner);
  free(request);
  errno = saved;
}

// Requests the lines of `request` with `config`; on success the request holds a chip reference.
static int request_lines(
    cgpio_request *request, const struct gpiod_line_request_config *config, const int *values) {
  // v1 gpiod.h chips: gpiod_chip_get_lines() fills a bulk (EINVAL for an offset past the end).
  if (gpiod_chip_get_lines(
          request->owner->chip, request->offsets, (unsigned int)request->count, &request->bulk)
      < 0) {
    return -1;
  }
  // v1 gpiod.h line_request: one kernel request for the whole bulk; EBUSY when a line is held.
  if (gpiod_line_request_bulk(&request->bulk, config, values) < 0) return -1;
  request->owner->references++;
  return 0;
}

cgpio_request *cgpio_request_inputs(
    cgpio_chip *chip, const char *consumer, const unsigned int *offsets, size_t count,
    cgpio_bias bias, int active_low, cgpio_edge edges) {
  cgpio_request *request = new_request(chip, offsets, count, edges);
  if (request == NULL) return NULL;
  struct gpiod_line_request_config config = {
      .consumer = consumer,
      .request_type = request_type(edges),
      .flags = bias_flag(bias) | (active_low ? GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW : 0),
  };
  if (request_lines(request, &config, NULL) < 0) {
    int saved = errno;
    free(request);
    errno = saved;
    return NULL;
  }
  if (edges == CGPIO_EDGE_NONE) return request;
  request->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
  if (request->epoll_fd < 0) {
    free_request(request, 1);
    return NULL;
  }
  for (size_t i = 0; i < count; i++) {
    // v1 gpiod.h line_event: gpiod_line_event_get_fd() is the line's own event descriptor,
    // owned by libgpiod (never closed here).
    struct epoll_event interest = {.events = EPOLLIN, .data.u32 = (uint32_t)i};
    int fd = gpiod_line_event_get_fd(request->bulk.lines[i]);
    if (fd < 0 || epoll_ctl(request->epoll_fd, EPOLL_CTL_ADD, fd, &interest) < 0) {
      free_request(request, 1);
      return NULL;
    }
  }
  return request;
}

cgpio_request *cgpio_request_outputs(
    cgpio_chip *chip, const char *consumer, const unsigned int *offsets, size_t count,
    int active_low, const int *initial_values) {
  cgpio_request *request = new_request(chip, offsets, count, CGPIO_EDGE_NONE);
  if (request == NULL) return NULL;
  for (size_t i = 0; i < count; i++) request->values[i] = initial_values[i] ? 1 : 0;
  struct gpiod_line_request_config config = {
      .consumer = consumer,
      .request_type = GPIOD_LINE_REQUEST_DIRECTION_OUTPUT,
      .flags = active_low ? GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW : 0,
  };
  // v1 gpiod.h line_request: the third argument holds the initial (logical) output values.
  if (request_lines(request, &config, request->values) < 0) {
    int saved = errno;
    free(request);
    errno = saved;
    return NULL;
  }
  return request;
}

void cgpio_request_release(cgpio_request *request) { free_request(request, 1); }

int cgpio_request_fd(cgpio_request *request) { return request->epoll_fd; }

int cgpio_request_read_events(cgpio_request *request, cgpio_event *events, size_t capacity) {
  if (request->edges == CGPIO_EDGE_NONE || capacity == 0) return 0;
  struct pollfd fds[CGPIO_MAX_LINES];
  for (size_t i = 0; i < request->count; i++) {
    fds[i].fd = gpiod_line_event_get_fd(request->bulk.lines[i]);
    fds[i].events = POLLIN;
    fds[i].revents = 0;
  }
  // A zero timeout: only lines with events already queued are read, so nothing blocks.
  int ready = poll(fds, (nfds_t)request->count, 0);
  if (ready <= 0) return ready;
  size_t stored = 0;
  for (size_t i = 0; i < request->count && stored < capacity; i++) {
    if (!(fds[i].revents & POLLIN)) continue;
    // v1 gpiod.h line_event: read_fd_multiple() does one read(), which returns what is queued
    // once at least one event is there (gpio-lineevent-data-read.rst).
    struct gpiod_line_event raw[16];
    size_t wanted = capacity - stored < 16 ? capacity - stored : 16;
    int got = gpiod_line_event_read_fd_multiple(fds[i].fd, raw, (unsigned int)wanted);
    if (got < 0) return -1;
    for (int k = 0; k < got; k++) {
      cgpio_event *event = &events[stored++];
      event->offset = request->offsets[i];
      event->rising = raw[k].event_type == GPIOD_LINE_EVENT_RISING_EDGE;
      event->timestamp_ns =
          (uint64_t)raw[k].ts.tv_sec * 1000000000u + (uint64_t)raw[k].ts.tv_nsec;
    }
  }
  // Lines have separate queues in uAPI v1; merge them in time order (a stable insertion sort:
  // a handful of events).
  for (size_t i = 1; i < stored; i++) {
    cgpio_event key = events[i];
    size_t j = i;
    while (j > 0 && events[j - 1].timestamp_ns > key.timestamp_ns) {
      events[j] = events[j - 1];
      j--;
    }
    events[j] = key;
  }
  return (int)stored;
}

int cgpio_request_get_values(cgpio_request *request, int *values) {
  // v1 gpiod.h line_value: works for value and event requests; values are logical.
  return gpiod_line_get_value_bulk(&request->bulk, values);
}

int cgpio_request_set_value(cgpio_request *request, unsigned int offset, int value) {
  int index = index_of_offset(request, offset);
  if (index < 0) return -1;
  int values[CGPIO_MAX_LINES];
  memcpy(values, request->values, sizeof values);
  values[index] = value ? 1 : 0;
  return cgpio_request_set_values(request, values);
}

int cgpio_request_set_values(cgpio_request *request, const int *values) {
  int next[CGPIO_MAX_LINES] = {0};
  for (size_t i = 0; i < request->count; i++) next[i] = values[i] ? 1 : 0;
  // v1 gpiod.h line_value: gpiod_line_set_value_bulk() sets all lines of one request at once.
  if (gpiod_line_set_value_bulk(&request->bulk, next) < 0) return -1;
  memcpy(request->values, next, sizeof next);
  return 0;
}

#else
// ==== libgpiod API v2 (2.x) =======================================================================

const char *cgpio_library_version(void) { return gpiod_api_version(); }
int cgpio_library_api(void) { return 2; }

const char *cgpio_chip_name(cgpio_chip *chip) { return gpiod_chip_info_get_name(chip->info); }
const char *cgpio_chip_label(cgpio_chip *chip) { return gpiod_chip_info_get_label(chip->info); }
unsigned int cgpio_chip_line_count(cgpio_chip *chip) {
  return (unsigned int)gpiod_chip_info_get_num_lines(chip->info);
}

int cgpio_chip_line_info(cgpio_chip *chip, unsigned int offset, cgpio_line_info *info) {
  // v2 gpiod.h chips: gpiod_chip_get_line_info() is a fresh snapshot the caller frees.
  struct gpiod_line_info *line = gpiod_chip_get_line_info(chip->chip, offset);
  if (line == NULL) return -1;
  copy_text(info->name, sizeof info->name, gpiod_line_info_get_name(line));
  copy_text(info->consumer, sizeof info->consumer, gpiod_line_info_get_consumer(line));
  info->used = gpiod_line_info_is_used(line) ? 1 : 0;
  info->output = gpiod_line_info_get_direction(line) == GPIOD_LINE_DIRECTION_OUTPUT;
  info->active_low = gpiod_line_info_is_active_low(line) ? 1 : 0;
  gpiod_line_info_free(line);
  return 0;
}

int cgpio_chip_find_line(cgpio_chip *chip, const char *name) {
  // v2 gpiod.h chips: -1 and ENOENT when no line has that name.
  return gpiod_chip_get_line_offset_from_name(chip->chip, name);
}

static enum gpiod_line_bias v2_bias(cgpio_bias bias) {
  // v2 gpiod.h line_defs: note DISABLED (v1 says DISABLE) and the different numbering.
  switch (bias) {
  case CGPIO_BIAS_DISABLED: return GPIOD_LINE_BIAS_DISABLED;
  case CGPIO_BIAS_PULL_UP: return GPIOD_LINE_BIAS_PULL_UP;
  case CGPIO_BIAS_PULL_DOWN: return GPIOD_LINE_BIAS_PULL_DOWN;
  case CGPIO_BIAS_AS_IS: break;
  }
  return GPIOD_LINE_BIAS_AS_IS;
}

static enum gpiod_line_edge v2_edge(cgpio_edge edges) {
  switch (edges) {
  case CGPIO_EDGE_RISING: return GPIOD_LINE_EDGE_RISING;
  case CGPIO_EDGE_FALLING: return GPIOD_LINE_EDGE_FALLING;
  case CGPIO_EDGE_BOTH: return GPIOD_LINE_EDGE_BOTH;
  case CGPIO_EDGE_NONE: break;
  }
  return GPIOD_LINE_EDGE_NONE;
}

static void free_request(cgpio_request *request) {
  int saved = errno;
  if (request->buffer != NULL) gpiod_edge_event_buffer_free(request->buffer);
  // v2 gpiod.h line_request: releasing closes the request's descriptor and frees the lines.
  if (request->request != NULL) gpiod_line_request_release(request->request);
  release_chip(request->owner);
  free(request);
  errno = saved;
}

// Builds the line config for `settings` per line (the output value may differ per line), makes
// the kernel request and takes a chip reference. Frees nothing it did not allocate.
static int request_lines(
    cgpio_request *request, const char *consumer, struct gpiod_line_settings *settings,
    const int *output_values) {
  int result = -1;
  struct gpiod_line_config *lines = gpiod_line_config_new();
  struct gpiod_request_config *config = gpiod_request_config_new();
  if (lines == NULL || config == NULL) goto done;
  // v2 gpiod.h request_config: the consumer is truncated to the kernel's maximum.
  gpiod_request_config_set_consumer(config, consumer);
  for (size_t i = 0; i < request->count; i++) {
    if (output_values != NULL) {
      gpiod_line_settings_set_output_value(
          settings, output_values[i] ? GPIOD_LINE_VALUE_ACTIVE : GPIOD_LINE_VALUE_INACTIVE);
    }
    // v2 gpiod.h line_config: the settings are copied, so one object serves every line.
    if (gpiod_line_config_add_line_settings(lines, &request->offsets[i], 1, settings) < 0) {
      goto done;
    }
  }
  // v2 gpiod.h chips: NULL + EBUSY when a line is held, EINVAL for a bad offset or config.
  request->request = gpiod_chip_request_lines(request->owner->chip, config, lines);
  if (request->request == NULL) goto done;
  request->owner->references++;
  result = 0;
done:;
  int saved = errno;
  gpiod_request_config_free(config);
  gpiod_line_config_free(lines);
  errno = saved;
  return result;
}

cgpio_request *cgpio_request_inputs(
    cgpio_chip *chip, const char *consumer, const unsigned int *offsets, size_t count,
    cgpio_bias bias, int active_low, cgpio_edge edges) {
  cgpio_request *request = new_request(chip, offsets, count, edges);
  if (request == NULL) return NULL;
  struct gpiod_line_settings *settings = gpiod_line_settings_new();
  if (settings == NULL) {
    free(request);
    errno = ENOMEM;
    return NULL;
  }
  // v2 gpiod.h line_settings: defaults are AS_IS direction, no edges, AS_IS bias, monotonic
  // clock; the clock is set anyway to state the contract of cgpio_event.timestamp_ns.
  gpiod_line_settings_set_direction(settings, GPIOD_LINE_DIRECTION_INPUT);
  gpiod_line_settings_set_bias(settings, v2_bias(bias));
  gpiod_line_settings_set_active_low(settings, active_low != 0);
  gpiod_line_settings_set_edge_detection(settings, v2_edge(edges));
  gpiod_line_settings_set_event_clock(settings, GPIOD_LINE_CLOCK_MONOTONIC);
  int result = request_lines(request, consumer, settings, NULL);
  int saved = errno;
  gpiod_line_settings_free(settings);
  if (result < 0) {
    free(request);
    errno = saved;
    return NULL;
  }
  if (edges != CGPIO_EDGE_NONE) {
    // v2 gpiod.h edge_event: a buffer the events are read into (capacity clamped to 1...1024).
    request->buffer = gpiod_edge_event_buffer_new(CGPIO_EVENT_BUFFER);
    if (request->buffer == NULL) {
      free_request(request);
      return NULL;
    }
  }
  return request;
}

cgpio_request *cgpio_request_outputs(
    cgpio_chip *chip, const char *consumer, const unsigned int *offsets, size_t count,
    int active_low, const int *initial_values) {
  cgpio_request *request = new_request(chip, offsets, count, CGPIO_EDGE_NONE);
  if (request == NULL) return NULL;
  struct gpiod_line_settings *settings = gpiod_line_settings_new();
  if (settings == NULL) {
    free(request);
    errno = ENOMEM;
    return NULL;
  }
  // libgpiod.md §3: the default direction is AS_IS, which does not make a line an output.
  gpiod_line_settings_set_direction(settings, GPIOD_LINE_DIRECTION_OUTPUT);
  gpiod_line_settings_set_drive(settings, GPIOD_LINE_DRIVE_PUSH_PULL);
  gpiod_line_settings_set_active_low(settings, active_low != 0);
  int result = request_lines(request, consumer, settings, initial_values);
  int saved = errno;
  gpiod_line_settings_free(settings);
  if (result < 0) {
    free(request);
    errno = saved;
    return NULL;
  }
  return request;
}

void cgpio_request_release(cgpio_request *request) { free_request(request); }

int cgpio_request_fd(cgpio_request *request) {
  // v2 gpiod.h line_request: gpiod_line_request_get_fd() never fails; the request owns it.
  if (request->edges == CGPIO_EDGE_NONE) return -1;
  return gpiod_line_request_get_fd(request->request);
}

int cgpio_request_read_events(cgpio_request *request, cgpio_event *events, size_t capacity) {
  if (request->edges == CGPIO_EDGE_NONE || capacity == 0) return 0;
  // v2 gpiod.h line_request: a zero timeout only checks; reading with nothing queued would block.
  int pending = gpiod_line_request_wait_edge_events(request->request, 0);
  if (pending <= 0) return pending;
  size_t wanted = capacity < CGPIO_EVENT_BUFFER ? capacity : CGPIO_EVENT_BUFFER;
  int got = gpiod_line_request_read_edge_events(request->request, request->buffer, wanted);
  if (got < 0) return -1;
  for (int i = 0; i < got; i++) {
    // v2 gpiod.h edge_event: the events belong to the buffer and are overwritten next read.
    struct gpiod_edge_event *raw = gpiod_edge_event_buffer_get_event(request->buffer, (unsigned long)i);
    events[i].offset = gpiod_edge_event_get_line_offset(raw);
    events[i].rising = gpiod_edge_event_get_event_type(raw) == GPIOD_EDGE_EVENT_RISING_EDGE;
    events[i].timestamp_ns = gpiod_edge_event_get_timestamp_ns(raw);
  }
  return got;
}

int cgpio_request_get_values(cgpio_request *request, int *values) {
  // v2 gpiod.h line_request: values in the order of the requested offsets, logical.
  enum gpiod_line_value raw[CGPIO_MAX_LINES];
  if (gpiod_line_request_get_values(request->request, raw) < 0) return -1;
  for (size_t i = 0; i < request->count; i++) values[i] = raw[i] == GPIOD_LINE_VALUE_ACTIVE;
  return 0;
}

int cgpio_request_set_value(cgpio_request *request, unsigned int offset, int value) {
  if (index_of_offset(request, offset) < 0) return -1;
  return gpiod_line_request_set_value(
      request->request, offset, value ? GPIOD_LINE_VALUE_ACTIVE : GPIOD_LINE_VALUE_INACTIVE);
}

int cgpio_request_set_values(cgpio_request *request, const int *values) {
  enum gpiod_line_value raw[CGPIO_MAX_LINES];
  for (size_t i = 0; i < request->count; i++) {
    raw[i] = values[i] ? GPIOD_LINE_VALUE_ACTIVE : GPIOD_LINE_VALUE_INACTIVE;
  }
  return gpiod_line_request_set_values(request->request, raw);
}

#endif
