// SPDX-License-Identifier: MIT
// libmosquitto (2.0.11, Debian's libmosquitto1) for HardwareKit's MQTTClient, loaded on demand
// with dlopen (see CMosquitto.c for why it is not linked) and driven from the caller's loop in
// the library's external-loop mode: no thread of its own, never mosquitto_loop_start nor
// mosquitto_loop.
//
// The library's callbacks are the shim's own: each appends an event to the client's bounded
// queue, which the caller drains with cmosq_next_event after every call that may have run them
// (the loop calls, connect, publish ...). No Swift code is called from C.
#ifndef WODCLOCK_CMOSQUITTO_H
#define WODCLOCK_CMOSQUITTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cmosq_client;

/// Loads libmosquitto.so.1, resolves the functions used here and calls mosquitto_lib_init,
/// once; later calls return the first outcome. 0 on success; -1 with the loader's message in
/// `message` (NUL-terminated, cut to `size`).
int cmosq_load(char *message, size_t size);

/// The library's MOSQ_ERR_* values the Swift side tells apart (mosquitto.h's own, checked
/// against it in CMosquitto.c).
enum {
  CMOSQ_ERR_CONN_PENDING = -1,
  CMOSQ_ERR_SUCCESS = 0,
  CMOSQ_ERR_NOMEM = 1,
  CMOSQ_ERR_PROTOCOL = 2,
  CMOSQ_ERR_INVAL = 3,
  CMOSQ_ERR_NO_CONN = 4,
  CMOSQ_ERR_CONN_REFUSED = 5,
  CMOSQ_ERR_NOT_FOUND = 6,
  CMOSQ_ERR_CONN_LOST = 7,
  CMOSQ_ERR_TLS = 8,
  CMOSQ_ERR_PAYLOAD_SIZE = 9,
  CMOSQ_ERR_NOT_SUPPORTED = 10,
  CMOSQ_ERR_AUTH = 11,
  CMOSQ_ERR_ACL_DENIED = 12,
  CMOSQ_ERR_UNKNOWN = 13,
  CMOSQ_ERR_ERRNO = 14,
  CMOSQ_ERR_EAI = 15,
  CMOSQ_ERR_MALFORMED_UTF8 = 18,
  CMOSQ_ERR_KEEPALIVE = 19,
  CMOSQ_ERR_OVERSIZE_PACKET = 25,
};

/// What a queued event is.
enum cmosq_event_kind {
  /// CONNACK: `code` is its reason code (0 accepted; MQTT v5 section 3.2.2.2), `flags` its
  /// acknowledge flags (bit 0: session present).
  CMOSQ_EVENT_CONNECT = 1,
  /// The connection ended: `code` is the library's MOSQ_ERR_* (0: asked for by this side) or a
  /// DISCONNECT reason code from the broker (0x80 and up); `error_number` the errno then.
  CMOSQ_EVENT_DISCONNECT = 2,
  /// A PUBLISH arrived: `topic`, `payload`, `qos`, `retain`.
  CMOSQ_EVENT_MESSAGE = 3,
  /// A message of ours was delivered as far as its QoS goes: `message_id`.
  CMOSQ_EVENT_PUBLISH = 4,
  /// SUBACK: `message_id`, `qos` the first granted QoS (0x80 and up: refused).
  CMOSQ_EVENT_SUBSCRIBE = 5,
  /// UNSUBACK: `message_id`.
  CMOSQ_EVENT_UNSUBSCRIBE = 6,
};

struct cmosq_event {
  int kind;
  int code;
  int flags;
  int error_number;
  int message_id;
  int qos;
  bool retain;
  /// A message's topic and payload, malloc'd copies the caller frees with cmosq_event_free.
  char *topic;
  size_t topic_length;
  void *payload;
  size_t payload_length;
};

/// A client (mosquitto_new with a clean session, the id `client_id`, NUL-terminated) whose queue
/// holds at most `queue_capacity` events and takes messages of at most `maximum_payload` bytes;
/// MQTT v5 when `protocol_v5`, else 3.1.1. NULL with `*error` set (a MOSQ_ERR_*) on failure.
struct cmosq_client *cmosq_new(const char *client_id, bool protocol_v5, size_t queue_capacity,
                               size_t maximum_payload, int *error);

/// Disconnects nothing: call cmosq_disconnect first for a clean end. Frees the client and its
/// queue, closing its socket (mosquitto_destroy).
void cmosq_destroy(struct cmosq_client *client);

/// mosquitto_username_pw_set; mosquitto_will_set; mosquitto_tls_set with a CA file only.
int cmosq_credentials(struct cmosq_client *client, const char *username, const char *password);
int cmosq_will(struct cmosq_client *client, const char *topic, const void *payload,
               size_t length, int qos, bool retain);
int cmosq_tls(struct cmosq_client *client, const char *ca_file);

/// mosquitto_connect_bind_async (no bind address) and mosquitto_reconnect_async; `*error_number`
/// is errno right after the call (for MOSQ_ERR_ERRNO).
int cmosq_connect(struct cmosq_client *client, const char *host, int port, int keepalive,
                  int *error_number);
int cmosq_reconnect(struct cmosq_client *client, int *error_number);
/// mosquitto_disconnect: sends DISCONNECT, so the broker does not publish the will.
int cmosq_disconnect(struct cmosq_client *client);

/// mosquitto_socket (-1 for none) and mosquitto_want_write.
int cmosq_socket(struct cmosq_client *client);
bool cmosq_want_write(struct cmosq_client *client);

/// mosquitto_loop_read, mosquitto_loop_write, mosquitto_loop_misc.
int cmosq_loop_read(struct cmosq_client *client);
int cmosq_loop_write(struct cmosq_client *client);
int cmosq_loop_misc(struct cmosq_client *client);

/// mosquitto_publish, mosquitto_subscribe, mosquitto_unsubscribe; `*message_id` is the packet's.
int cmosq_publish(struct cmosq_client *client, int *message_id, const char *topic,
                  const void *payload, size_t length, int qos, bool retain);
int cmosq_subscribe(struct cmosq_client *client, int *message_id, const char *filter, int qos);
int cmosq_unsubscribe(struct cmosq_client *client, int *message_id, const char *filter);

/// Takes the oldest queued event into `event`: 1 when there was one, 0 when the queue is empty.
int cmosq_next_event(struct cmosq_client *client, struct cmosq_event *event);
/// Frees what an event taken by cmosq_next_event holds.
void cmosq_event_free(struct cmosq_event *event);

/// Events dropped because the queue was full, and messages dropped for their size.
uint64_t cmosq_dropped_events(struct cmosq_client *client);
uint64_t cmosq_dropped_oversize(struct cmosq_client *client);

/// The last line the library logged at MOSQ_LOG_ERR or MOSQ_LOG_WARNING ("" for none), such as
/// OpenSSL's reason for a failed handshake; cleared by cmosq_clear_last_log.
const char *cmosq_last_log(struct cmosq_client *client);
void cmosq_clear_last_log(struct cmosq_client *client);

/// mosquitto_strerror and mosquitto_reason_string (never NULL; "" before cmosq_load).
const char *cmosq_error_string(int error);
const char *cmosq_reason_string(int reason_code);

/// mosquitto_pub_topic_check2 and mosquitto_sub_topic_check2 (MOSQ_ERR_SUCCESS or
/// MOSQ_ERR_INVAL, MOSQ_ERR_MALFORMED_UTF8).
int cmosq_check_publish_topic(const char *topic, size_t length);
int cmosq_check_subscription(const char *filter, size_t length);

#endif
