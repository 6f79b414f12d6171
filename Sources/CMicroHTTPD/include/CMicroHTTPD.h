// SPDX-License-Identifier: MIT
// libmicrohttpd (0.9.75, Debian's libmicrohttpd12) for HardwareKit's HTTPServer, loaded on
// demand with dlopen and given to Swift as plain, non-variadic functions: Swift cannot call
// MHD_start_daemon's or MHD_set_connection_option's varargs, and the library must not be in the
// program's DT_NEEDED (see CMicroHTTPD.c for why).
//
// One thread: the daemon is started without a thread of its own (MHD_USE_EPOLL) and every call
// here is made from the loop that owns it; the callbacks run inside cmhd_run.
#ifndef WODCLOCK_CMICROHTTPD_H
#define WODCLOCK_CMICROHTTPD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct MHD_Connection;
struct MHD_Response;
struct cmhd_server;

/// Loads libmicrohttpd.so.12 and resolves the functions used here, once; later calls return the
/// first outcome. 0 on success; -1 with the loader's message in `message` (NUL-terminated,
/// cut to `size`).
int cmhd_load(char *message, size_t size);

/// The access handler, as MHD's MHD_AccessHandlerCallback without the HTTP version: called
/// once with the headers (*upload_size 0, *request_context NULL), then with each piece of the
/// body (consume it by setting *upload_size to 0), then once more with *upload_size 0 when the
/// body is complete. Returns 1 to go on, 0 to close the connection at once.
typedef int (*cmhd_request_fn)(void *context, struct MHD_Connection *connection,
                               const char *path, const char *method, const char *upload,
                               size_t *upload_size, void **request_context);

/// A request is over (answered, the client left, timed out, the server stopped): MHD's
/// MHD_RequestCompletedCallback; `termination` is an enum MHD_RequestTerminationCode.
enum {
  CMHD_TERMINATED_COMPLETED_OK = 0,
  CMHD_TERMINATED_WITH_ERROR = 1,
  CMHD_TERMINATED_TIMEOUT_REACHED = 2,
  CMHD_TERMINATED_DAEMON_SHUTDOWN = 3,
  CMHD_TERMINATED_READ_ERROR = 4,
  CMHD_TERMINATED_CLIENT_ABORT = 5,
};
typedef void (*cmhd_completed_fn)(void *context, struct MHD_Connection *connection,
                                  void **request_context, int termination);

/// A connection was accepted (`closed` 0) or is closed (`closed` 1): MHD's
/// MHD_NotifyConnectionCallback (MHD_OPTION_NOTIFY_CONNECTION). Every accepted connection is
/// reported closed exactly once, whether or not a request came on it.
typedef void (*cmhd_connection_fn)(void *context, struct MHD_Connection *connection, int closed);

/// A line of the library's error log, formatted (no trailing newline).
typedef void (*cmhd_log_fn)(void *context, const char *message);

/// An event stream's reader: MHD's MHD_ContentReaderCallback for the stream `stream`. Returns
/// the bytes written to `buffer`, 0 after suspending the connection, CMHD_END_OF_STREAM or
/// CMHD_END_WITH_ERROR.
typedef ssize_t (*cmhd_stream_read_fn)(void *context, uint64_t stream, char *buffer, size_t max);

#define CMHD_END_OF_STREAM ((ssize_t)-1)
#define CMHD_END_WITH_ERROR ((ssize_t)-2)

/// What the server is started with. The limits are MHD's own options.
struct cmhd_settings {
  /// An already bound and listening socket (MHD_OPTION_LISTEN_SOCKET); MHD closes it at stop.
  int listen_socket;
  unsigned int connection_limit;              // MHD_OPTION_CONNECTION_LIMIT
  unsigned int per_address_limit;             // MHD_OPTION_PER_IP_CONNECTION_LIMIT
  size_t connection_memory_limit;             // MHD_OPTION_CONNECTION_MEMORY_LIMIT
  unsigned int connection_timeout_seconds;    // MHD_OPTION_CONNECTION_TIMEOUT
  void *context;                              // given to every callback
  cmhd_request_fn request;
  cmhd_completed_fn completed;
  cmhd_connection_fn connection;              // MHD_OPTION_NOTIFY_CONNECTION
  cmhd_stream_read_fn stream_read;
  cmhd_log_fn log;                            // NULL: the library logs nothing
};

/// Starts the daemon (MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME, no TLS). NULL when MHD refuses
/// (the reason went to `log`, if any); the listen socket is then still the caller's.
struct cmhd_server *cmhd_start(const struct cmhd_settings *settings);

/// Resumes nothing by itself: resume every suspended connection first (MHD's rule). Stops the
/// daemon, closes its connections and the listen socket, and frees `server`.
void cmhd_stop(struct cmhd_server *server);

/// MHD_DAEMON_INFO_EPOLL_FD: readable when cmhd_run has work.
int cmhd_epoll_descriptor(struct cmhd_server *server);

/// How many connections the server has open now (MHD_DAEMON_INFO_CURRENT_CONNECTIONS).
unsigned int cmhd_connection_count(struct cmhd_server *server);

/// MHD_run: 0 on success, -1 when MHD reports a failure.
int cmhd_run(struct cmhd_server *server);

/// MHD_get_timeout: 1 and the milliseconds until MHD must run again, or 0 for no deadline.
int cmhd_timeout(struct cmhd_server *server, uint64_t *milliseconds);

/// A header (kind CMHD_HEADER) or query argument (kind CMHD_QUERY): MHD_get_connection_values_n.
/// `value` is NULL for a query argument without `=`.
typedef void (*cmhd_value_fn)(void *context, const char *name, size_t name_length,
                              const char *value, size_t value_length);
enum { CMHD_HEADER = 1, CMHD_QUERY = 8 };
void cmhd_values(struct MHD_Connection *connection, int kind, cmhd_value_fn each, void *context);

/// The client's address (MHD_CONNECTION_INFO_CLIENT_ADDRESS) as CLinux gives addresses: the
/// family (AF_INET, AF_INET6), 16 address bytes (IPv4 in the first 4), the scope and the port.
/// 0 on success, -1 when MHD has none or the family is another.
int cmhd_client_address(struct MHD_Connection *connection, int *family, unsigned char address[16],
                        unsigned int *scope, int *port);

/// The connection's socket (MHD_CONNECTION_INFO_CONNECTION_FD), -1 if unknown. It stays MHD's.
int cmhd_connection_socket(struct MHD_Connection *connection);

/// MHD_set_connection_option(MHD_CONNECTION_OPTION_TIMEOUT): 0 turns the idle timeout off.
void cmhd_set_connection_timeout(struct MHD_Connection *connection, unsigned int seconds);

/// A response of `size` bytes at `bytes`: copied (`persistent` 0) or used in place for the
/// process's lifetime (`persistent` 1, MHD_RESPMEM_PERSISTENT). NULL on failure.
struct MHD_Response *cmhd_response_from_bytes(const void *bytes, size_t size, int persistent);

/// A response of `size` bytes of the open file `fd` from `offset`
/// (MHD_create_response_from_fd_at_offset64): the library sends them from the descriptor as the
/// client takes them (sendfile where it can, at most 128 KiB a call), never reading the file
/// into memory, and closes `fd` when the response is destroyed. NULL on failure: `fd` is then
/// still the caller's.
struct MHD_Response *cmhd_response_from_file(int fd, uint64_t offset, uint64_t size);

/// A chunked response of unknown size read from the stream `stream` through the server's
/// stream_read (MHD_create_response_from_callback with MHD_SIZE_UNKNOWN). NULL on failure.
struct MHD_Response *cmhd_stream_response(struct cmhd_server *server, uint64_t stream,
                                          size_t block_size);

/// MHD_add_response_header: 0 on success, -1 when MHD refuses the header (a CR, LF or tab in
/// it, or a header MHD sets itself).
int cmhd_add_header(struct MHD_Response *response, const char *name, const char *value);

/// MHD_queue_response: 0 when queued, -1 when MHD refuses (not allowed at this point).
int cmhd_queue_response(struct MHD_Connection *connection, unsigned int status,
                        struct MHD_Response *response);

/// MHD_destroy_response (a queued response lives on until it has been sent).
void cmhd_destroy_response(struct MHD_Response *response);

/// MHD_suspend_connection: only from within the request handler or a stream's reader.
void cmhd_suspend(struct MHD_Connection *connection);

/// MHD_resume_connection: only for a suspended connection; at any time otherwise.
void cmhd_resume(struct MHD_Connection *connection);

#endif
