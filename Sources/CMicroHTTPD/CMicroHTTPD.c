// SPDX-License-Identifier: MIT
// libmicrohttpd through dlopen (header: Debian's <microhttpd.h>, 0.9.75).
//
// Why not linked: a process that links libmicrohttpd.so.12 maps GnuTLS and 8 more libraries
// at every start, +2.8 MB resident (1.36 -> 4.19 MB measured in a bare C program that only
// calls MHD_get_version), whether or not a web server is configured; the daemon's budget is
// 10 MB without the web interface. So the library is loaded the first time a server starts,
// RTLD_LOCAL so that none of its symbols (nor GnuTLS's) can interpose on the program's, and
// every function used is resolved here by name.

#define _GNU_SOURCE
#include "CMicroHTTPD.h"

#include "CDynamicLibrary.h"

#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <microhttpd.h>

_Static_assert(CMHD_TERMINATED_TIMEOUT_REACHED == MHD_REQUEST_TERMINATED_TIMEOUT_REACHED &&
                   CMHD_TERMINATED_DAEMON_SHUTDOWN == MHD_REQUEST_TERMINATED_DAEMON_SHUTDOWN &&
                   CMHD_TERMINATED_CLIENT_ABORT == MHD_REQUEST_TERMINATED_CLIENT_ABORT &&
                   CMHD_HEADER == MHD_HEADER_KIND && CMHD_QUERY == MHD_GET_ARGUMENT_KIND,
               "the shim's constants are libmicrohttpd's");

#define LIBRARY_NAME "libmicrohttpd.so.12"

// The functions used, resolved from the library; the types are the header's own, so a
// mismatch is a compile error, not a crash.
static struct {
  __typeof__(&MHD_start_daemon) start_daemon;
  __typeof__(&MHD_stop_daemon) stop_daemon;
  __typeof__(&MHD_run) run;
  __typeof__(&MHD_get_timeout) get_timeout;
  __typeof__(&MHD_get_daemon_info) get_daemon_info;
  __typeof__(&MHD_get_connection_values_n) get_connection_values_n;
  __typeof__(&MHD_get_connection_info) get_connection_info;
  __typeof__(&MHD_set_connection_option) set_connection_option;
  __typeof__(&MHD_create_response_from_buffer) create_response_from_buffer;
  __typeof__(&MHD_create_response_from_callback) create_response_from_callback;
  __typeof__(&MHD_create_response_from_fd_at_offset64) create_response_from_fd_at_offset64;
  __typeof__(&MHD_add_response_header) add_response_header;
  __typeof__(&MHD_queue_response) queue_response;
  __typeof__(&MHD_destroy_response) destroy_response;
  __typeof__(&MHD_suspend_connection) suspend_connection;
  __typeof__(&MHD_resume_connection) resume_connection;
} mhd;

// Loaded once by cmhd_load (CDynamicLibrary.h); cmhd_start asks cdl_loaded first.
static struct cdl_library library = {.name = LIBRARY_NAME};

int cmhd_load(char *message, size_t size) {
#define SYMBOL(field, symbol) CDL_SYMBOL(mhd, field, symbol)
  static const struct cdl_symbol symbols[] = {
      SYMBOL(start_daemon, MHD_start_daemon),
      SYMBOL(stop_daemon, MHD_stop_daemon),
      SYMBOL(run, MHD_run),
      SYMBOL(get_timeout, MHD_get_timeout),
      SYMBOL(get_daemon_info, MHD_get_daemon_info),
      SYMBOL(get_connection_values_n, MHD_get_connection_values_n),
      SYMBOL(get_connection_info, MHD_get_connection_info),
      SYMBOL(set_connection_option, MHD_set_connection_option),
      SYMBOL(create_response_from_buffer, MHD_create_response_from_buffer),
      SYMBOL(create_response_from_callback, MHD_create_response_from_callback),
      SYMBOL(create_response_from_fd_at_offset64, MHD_create_response_from_fd_at_offset64),
      SYMBOL(add_response_header, MHD_add_response_header),
      SYMBOL(queue_response, MHD_queue_response),
      SYMBOL(destroy_response, MHD_destroy_response),
      SYMBOL(suspend_connection, MHD_suspend_connection),
      SYMBOL(resume_connection, MHD_resume_connection),
  };
#undef SYMBOL
  // No set-up after the look-ups: each server is configured when it starts.
  return cdl_load(&library, symbols, sizeof symbols / sizeof symbols[0], NULL, message, size);
}

struct cmhd_server {
  struct MHD_Daemon *daemon;
  struct cmhd_settings settings;
};

// A stream response's reader context, freed by MHD with the response.
struct stream_reader {
  struct cmhd_server *server;
  uint64_t stream;
};

static enum MHD_Result access_trampoline(void *cls, struct MHD_Connection *connection,
                                         const char *url, const char *method,
                                         const char *version, const char *upload_data,
                                         size_t *upload_data_size, void **con_cls) {
  (void)version;
  struct cmhd_server *server = cls;
  int result = server->settings.request(server->settings.context, connection, url, method,
                                        upload_data, upload_data_size, con_cls);
  return result ? MHD_YES : MHD_NO;
}

static void completed_trampoline(void *cls, struct MHD_Connection *connection, void **con_cls,
                                 enum MHD_RequestTerminationCode toe) {
  struct cmhd_server *server = cls;
  server->settings.completed(server->settings.context, connection, con_cls, (int)toe);
}

static void connection_trampoline(void *cls, struct MHD_Connection *connection,
                                  void **socket_context, enum MHD_ConnectionNotificationCode toe) {
  (void)socket_context;
  struct cmhd_server *server = cls;
  server->settings.connection(server->settings.context, connection,
                              toe == MHD_CONNECTION_NOTIFY_CLOSED);
}

__attribute__((format(printf, 2, 0))) static void log_trampoline(void *cls, const char *format,
                                                                 va_list arguments) {
  struct cmhd_server *server = cls;
  char line[512];
  int length = vsnprintf(line, sizeof line, format, arguments);
  if (length < 0) return;
  size_t end = strnlen(line, sizeof line);
  while (end > 0 && (line[end - 1] == '\n' || line[end - 1] == '\r')) line[--end] = '\0';
  server->settings.log(server->settings.context, line);
}

static ssize_t stream_trampoline(void *cls, uint64_t pos, char *buf, size_t max) {
  (void)pos;
  struct stream_reader *reader = cls;
  struct cmhd_server *server = reader->server;
  return server->settings.stream_read(server->settings.context, reader->stream, buf, max);
}

static void stream_free(void *cls) { free(cls); }

struct cmhd_server *cmhd_start(const struct cmhd_settings *settings) {
  if (!cdl_loaded(&library)) return NULL;
  struct cmhd_server *server = calloc(1, sizeof *server);
  if (server == NULL) return NULL;
  server->settings = *settings;
  // Without MHD_USE_ERROR_LOG the library writes nothing anywhere; with it, every line goes
  // to the logger below, never to stderr.
  unsigned int flags = MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME;
  if (settings->log != NULL) flags |= MHD_USE_ERROR_LOG;
  struct MHD_OptionItem options[9];
  size_t count = 0;
  // The logger comes first: options before it would log through the library's default logger,
  // which writes to stderr (MHD 0.9.75 says so in a warning of its own).
  if (settings->log != NULL)
    options[count++] = (struct MHD_OptionItem){MHD_OPTION_EXTERNAL_LOGGER,
                                               (intptr_t)log_trampoline, server};
  options[count++] = (struct MHD_OptionItem){MHD_OPTION_LISTEN_SOCKET, settings->listen_socket,
                                             NULL};
  options[count++] = (struct MHD_OptionItem){MHD_OPTION_CONNECTION_LIMIT,
                                             (intptr_t)settings->connection_limit, NULL};
  options[count++] = (struct MHD_OptionItem){MHD_OPTION_PER_IP_CONNECTION_LIMIT,
                                             (intptr_t)settings->per_address_limit, NULL};
  options[count++] = (struct MHD_OptionItem){MHD_OPTION_CONNECTION_MEMORY_LIMIT,
                                             (intptr_t)settings->connection_memory_limit, NULL};
  options[count++] = (struct MHD_OptionItem){MHD_OPTION_CONNECTION_TIMEOUT,
                                             (intptr_t)settings->connection_timeout_seconds, NULL};
  options[count++] = (struct MHD_OptionItem){MHD_OPTION_NOTIFY_COMPLETED,
                                             (intptr_t)completed_trampoline, server};
  if (settings->connection != NULL)
    options[count++] = (struct MHD_OptionItem){MHD_OPTION_NOTIFY_CONNECTION,
                                               (intptr_t)connection_trampoline, server};
  options[count++] = (struct MHD_OptionItem){MHD_OPTION_END, 0, NULL};
  // MHD_OPTION_ARRAY takes the options as a list of items: the one varargs call is made here.
  server->daemon = mhd.start_daemon(flags, 0, NULL, NULL, access_trampoline, server,
                                    MHD_OPTION_ARRAY, options, MHD_OPTION_END);
  if (server->daemon == NULL) {
    free(server);
    return NULL;
  }
  return server;
}

void cmhd_stop(struct cmhd_server *server) {
  mhd.stop_daemon(server->daemon);
  free(server);
}

int cmhd_epoll_descriptor(struct cmhd_server *server) {
  const union MHD_DaemonInfo *info = mhd.get_daemon_info(server->daemon,
                                                         MHD_DAEMON_INFO_EPOLL_FD);
  return info != NULL ? info->epoll_fd : -1;
}

unsigned int cmhd_connection_count(struct cmhd_server *server) {
  const union MHD_DaemonInfo *info = mhd.get_daemon_info(server->daemon,
                                                         MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
  return info != NULL ? info->num_connections : 0;
}

int cmhd_run(struct cmhd_server *server) { return mhd.run(server->daemon) == MHD_YES ? 0 : -1; }

int cmhd_timeout(struct cmhd_server *server, uint64_t *milliseconds) {
  MHD_UNSIGNED_LONG_LONG value = 0;
  if (mhd.get_timeout(server->daemon, &value) != MHD_YES) return 0;
  *milliseconds = (uint64_t)value;
  return 1;
}

struct values_context {
  cmhd_value_fn each;
  void *context;
};

static enum MHD_Result values_iterator(void *cls, enum MHD_ValueKind kind, const char *key,
                                       size_t key_size, const char *value, size_t value_size) {
  (void)kind;
  struct values_context *values = cls;
  values->each(values->context, key, key_size, value, value_size);
  return MHD_YES;
}

void cmhd_values(struct MHD_Connection *connection, int kind, cmhd_value_fn each, void *context) {
  struct values_context values = {each, context};
  mhd.get_connection_values_n(connection, (enum MHD_ValueKind)kind, values_iterator, &values);
}

int cmhd_client_address(struct MHD_Connection *connection, int *family, unsigned char address[16],
                        unsigned int *scope, int *port) {
  const union MHD_ConnectionInfo *info =
      mhd.get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
  if (info == NULL || info->client_addr == NULL) return -1;
  memset(address, 0, 16);
  *scope = 0;
  const struct sockaddr *peer = info->client_addr;
  if (peer->sa_family == AF_INET) {
    const struct sockaddr_in *ipv4 = (const struct sockaddr_in *)(const void *)peer;
    *family = AF_INET;
    memcpy(address, &ipv4->sin_addr, 4);
    *port = ntohs(ipv4->sin_port);
    return 0;
  }
  if (peer->sa_family == AF_INET6) {
    const struct sockaddr_in6 *ipv6 = (const struct sockaddr_in6 *)(const void *)peer;
    *family = AF_INET6;
    memcpy(address, &ipv6->sin6_addr, 16);
    *scope = ipv6->sin6_scope_id;
    *port = ntohs(ipv6->sin6_port);
    return 0;
  }
  return -1;
}

int cmhd_connection_socket(struct MHD_Connection *connection) {
  const union MHD_ConnectionInfo *info =
      mhd.get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
  return info != NULL ? info->connect_fd : -1;
}

void cmhd_set_connection_timeout(struct MHD_Connection *connection, unsigned int seconds) {
  mhd.set_connection_option(connection, MHD_CONNECTION_OPTION_TIMEOUT, seconds);
}

struct MHD_Response *cmhd_response_from_bytes(const void *bytes, size_t size, int persistent) {
  return mhd.create_response_from_buffer(size, (void *)(uintptr_t)bytes,
                                         persistent ? MHD_RESPMEM_PERSISTENT
                                                    : MHD_RESPMEM_MUST_COPY);
}

struct MHD_Response *cmhd_response_from_file(int fd, uint64_t offset, uint64_t size) {
  return mhd.create_response_from_fd_at_offset64(size, fd, offset);
}

struct MHD_Response *cmhd_stream_response(struct cmhd_server *server, uint64_t stream,
                                          size_t block_size) {
  struct stream_reader *reader = malloc(sizeof *reader);
  if (reader == NULL) return NULL;
  reader->server = server;
  reader->stream = stream;
  struct MHD_Response *response = mhd.create_response_from_callback(
      MHD_SIZE_UNKNOWN, block_size, stream_trampoline, reader, stream_free);
  if (response == NULL) free(reader);
  return response;
}

int cmhd_add_header(struct MHD_Response *response, const char *name, const char *value) {
  return mhd.add_response_header(response, name, value) == MHD_YES ? 0 : -1;
}

int cmhd_queue_response(struct MHD_Connection *connection, unsigned int status,
                        struct MHD_Response *response) {
  return mhd.queue_response(connection, status, response) == MHD_YES ? 0 : -1;
}

void cmhd_destroy_response(struct MHD_Response *response) { mhd.destroy_response(response); }

void cmhd_suspend(struct MHD_Connection *connection) { mhd.suspend_connection(connection); }

void cmhd_resume(struct MHD_Connection *connection) { mhd.resume_connection(connection); }
