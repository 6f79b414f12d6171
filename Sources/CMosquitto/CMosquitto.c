// SPDX-License-Identifier: MIT
// libmosquitto through dlopen (header: Debian's <mosquitto.h>, 2.0.11).
//
// Why not linked: a process that links libmosquitto.so.1 maps libssl and libcrypto with it at
// every start, +1.9 MB resident (1.45 -> 3.40 MB measured in a bare C program that only calls
// mosquitto_lib_version), whether or not an `mqtt:` section is configured. So the library is
// loaded the first time a client is made, RTLD_LOCAL so that none of its symbols (nor
// OpenSSL's) can interpose on the program's, and every function used is resolved here by name.
//
// The library's callbacks run inside the calls below (the loop calls, connect, publish ...), on
// the caller's thread: each appends to the client's queue, bounded, and copies what it keeps
// (the library frees a message when its callback returns).

#define _GNU_SOURCE
#include "CMosquitto.h"

#include "CDynamicLibrary.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mosquitto.h>
#include <mqtt_protocol.h>

// The header's values, compared as ints (the two are different enums).
#define SAME(name) ((int)CMOSQ_ERR_##name == (int)MOSQ_ERR_##name)
_Static_assert(SAME(CONN_PENDING) &&
                   SAME(SUCCESS) &&
                   SAME(NOMEM) &&
                   SAME(PROTOCOL) &&
                   SAME(INVAL) &&
                   SAME(NO_CONN) &&
                   SAME(CONN_REFUSED) &&
                   SAME(NOT_FOUND) &&
                   SAME(CONN_LOST) &&
                   SAME(TLS) &&
                   SAME(PAYLOAD_SIZE) &&
                   SAME(NOT_SUPPORTED) &&
                   SAME(AUTH) &&
                   SAME(ACL_DENIED) &&
                   SAME(UNKNOWN) &&
                   SAME(ERRNO) &&
                   SAME(EAI) &&
                   SAME(MALFORMED_UTF8) &&
                   SAME(KEEPALIVE) &&
                   SAME(OVERSIZE_PACKET),
               "the shim's constants are libmosquitto's");
#undef SAME

#define LIBRARY_NAME "libmosquitto.so.1"

// The functions used, resolved from the library; the types are the header's own, so a
// mismatch is a compile error, not a crash.
static struct {
  __typeof__(&mosquitto_lib_init) lib_init;
  __typeof__(&mosquitto_new) new_client;
  __typeof__(&mosquitto_destroy) destroy;
  __typeof__(&mosquitto_int_option) int_option;
  __typeof__(&mosquitto_username_pw_set) username_pw_set;
  __typeof__(&mosquitto_will_set) will_set;
  __typeof__(&mosquitto_tls_set) tls_set;
  __typeof__(&mosquitto_connect_bind_async) connect_bind_async;
  __typeof__(&mosquitto_reconnect_async) reconnect_async;
  __typeof__(&mosquitto_disconnect) disconnect;
  __typeof__(&mosquitto_socket) socket;
  __typeof__(&mosquitto_want_write) want_write;
  __typeof__(&mosquitto_loop_read) loop_read;
  __typeof__(&mosquitto_loop_write) loop_write;
  __typeof__(&mosquitto_loop_misc) loop_misc;
  __typeof__(&mosquitto_publish) publish;
  __typeof__(&mosquitto_subscribe) subscribe;
  __typeof__(&mosquitto_unsubscribe) unsubscribe;
  __typeof__(&mosquitto_connect_with_flags_callback_set) connect_callback_set;
  __typeof__(&mosquitto_disconnect_callback_set) disconnect_callback_set;
  __typeof__(&mosquitto_message_callback_set) message_callback_set;
  __typeof__(&mosquitto_publish_callback_set) publish_callback_set;
  __typeof__(&mosquitto_subscribe_callback_set) subscribe_callback_set;
  __typeof__(&mosquitto_unsubscribe_callback_set) unsubscribe_callback_set;
  __typeof__(&mosquitto_log_callback_set) log_callback_set;
  __typeof__(&mosquitto_strerror) strerror;
  __typeof__(&mosquitto_reason_string) reason_string;
  __typeof__(&mosquitto_pub_topic_check2) pub_topic_check2;
  __typeof__(&mosquitto_sub_topic_check2) sub_topic_check2;
} mosq;

// Loaded once by cmosq_load (CDynamicLibrary.h); every wrapper below asks cdl_loaded first.
static struct cdl_library library = {.name = LIBRARY_NAME};

// After the look-ups: the library's global set-up, which 2.0.11 asks for before any client.
static int initialize(char *error, size_t size) {
  if (mosq.lib_init() == MOSQ_ERR_SUCCESS) return 0;
  snprintf(error, size, "%s: mosquitto_lib_init failed", LIBRARY_NAME);
  return -1;
}

int cmosq_load(char *message, size_t size) {
#define SYMBOL(field, symbol) CDL_SYMBOL(mosq, field, symbol)
  static const struct cdl_symbol symbols[] = {
      SYMBOL(lib_init, mosquitto_lib_init),
      SYMBOL(new_client, mosquitto_new),
      SYMBOL(destroy, mosquitto_destroy),
      SYMBOL(int_option, mosquitto_int_option),
      SYMBOL(username_pw_set, mosquitto_username_pw_set),
      SYMBOL(will_set, mosquitto_will_set),
      SYMBOL(tls_set, mosquitto_tls_set),
      SYMBOL(connect_bind_async, mosquitto_connect_bind_async),
      SYMBOL(reconnect_async, mosquitto_reconnect_async),
      SYMBOL(disconnect, mosquitto_disconnect),
      SYMBOL(socket, mosquitto_socket),
      SYMBOL(want_write, mosquitto_want_write),
      SYMBOL(loop_read, mosquitto_loop_read),
      SYMBOL(loop_write, mosquitto_loop_write),
      SYMBOL(loop_misc, mosquitto_loop_misc),
      SYMBOL(publish, mosquitto_publish),
      SYMBOL(subscribe, mosquitto_subscribe),
      SYMBOL(unsubscribe, mosquitto_unsubscribe),
      SYMBOL(connect_callback_set, mosquitto_connect_with_flags_callback_set),
      SYMBOL(disconnect_callback_set, mosquitto_disconnect_callback_set),
      SYMBOL(message_callback_set, mosquitto_message_callback_set),
      SYMBOL(publish_callback_set, mosquitto_publish_callback_set),
      SYMBOL(subscribe_callback_set, mosquitto_subscribe_callback_set),
      SYMBOL(unsubscribe_callback_set, mosquitto_unsubscribe_callback_set),
      SYMBOL(log_callback_set, mosquitto_log_callback_set),
      SYMBOL(strerror, mosquitto_strerror),
      SYMBOL(reason_string, mosquitto_reason_string),
      SYMBOL(pub_topic_check2, mosquitto_pub_topic_check2),
      SYMBOL(sub_topic_check2, mosquitto_sub_topic_check2),
  };
#undef SYMBOL
  return cdl_load(&library, symbols, sizeof symbols / sizeof symbols[0], initialize, message,
                  size);
}

struct cmosq_client {
  struct mosquitto *mosquitto;
  struct cmosq_event *events;
  size_t capacity;
  size_t first;
  size_t count;
  size_t maximum_payload;
  uint64_t dropped_events;
  uint64_t dropped_oversize;
  char last_log[512];
};

// Appends `event` (whose topic and payload become the queue's), or drops and counts it.
static void enqueue(struct cmosq_client *client, struct cmosq_event *event) {
  if (client->count == client->capacity) {
    client->dropped_events++;
    cmosq_event_free(event);
    return;
  }
  client->events[(client->first + client->count) % client->capacity] = *event;
  client->count++;
}

static void on_connect(struct mosquitto *m, void *context, int reason_code, int flags) {
  (void)m;
  struct cmosq_event event = {.kind = CMOSQ_EVENT_CONNECT, .code = reason_code, .flags = flags};
  enqueue(context, &event);
}

static void on_disconnect(struct mosquitto *m, void *context, int code) {
  (void)m;
  // errno is still the failed call's here: the library closes the socket and calls back
  // without a system call between that could set it.
  struct cmosq_event event = {
      .kind = CMOSQ_EVENT_DISCONNECT, .code = code, .error_number = errno};
  enqueue(context, &event);
}

static void on_message(struct mosquitto *m, void *context,
                       const struct mosquitto_message *message) {
  (void)m;
  struct cmosq_client *client = context;
  if (message == NULL || message->topic == NULL || message->payloadlen < 0) return;
  if ((size_t)message->payloadlen > client->maximum_payload) {
    client->dropped_oversize++;
    return;
  }
  if (client->count == client->capacity) {
    client->dropped_events++;
    return;
  }
  size_t topic_length = strlen(message->topic);
  size_t payload_length = (size_t)message->payloadlen;
  struct cmosq_event event = {.kind = CMOSQ_EVENT_MESSAGE,
                              .message_id = message->mid,
                              .qos = message->qos,
                              .retain = message->retain,
                              .topic = malloc(topic_length + 1),
                              .topic_length = topic_length,
                              .payload = malloc(payload_length > 0 ? payload_length : 1),
                              .payload_length = payload_length};
  if (event.topic == NULL || event.payload == NULL) {
    client->dropped_events++;
    cmosq_event_free(&event);
    return;
  }
  memcpy(event.topic, message->topic, topic_length + 1);
  if (message->payloadlen > 0) memcpy(event.payload, message->payload, event.payload_length);
  enqueue(client, &event);
}

static void on_publish(struct mosquitto *m, void *context, int message_id) {
  (void)m;
  struct cmosq_event event = {.kind = CMOSQ_EVENT_PUBLISH, .message_id = message_id};
  enqueue(context, &event);
}

static void on_subscribe(struct mosquitto *m, void *context, int message_id, int count,
                         const int *granted) {
  (void)m;
  struct cmosq_event event = {.kind = CMOSQ_EVENT_SUBSCRIBE,
                              .message_id = message_id,
                              .qos = count > 0 && granted != NULL ? granted[0] : 0x80};
  enqueue(context, &event);
}

static void on_unsubscribe(struct mosquitto *m, void *context, int message_id) {
  (void)m;
  struct cmosq_event event = {.kind = CMOSQ_EVENT_UNSUBSCRIBE, .message_id = message_id};
  enqueue(context, &event);
}

static void on_log(struct mosquitto *m, void *context, int level, const char *line) {
  (void)m;
  struct cmosq_client *client = context;
  if (line == NULL || (level & (MOSQ_LOG_ERR | MOSQ_LOG_WARNING)) == 0) return;
  snprintf(client->last_log, sizeof client->last_log, "%s", line);
}

struct cmosq_client *cmosq_new(const char *client_id, bool protocol_v5, size_t queue_capacity,
                               size_t maximum_payload, int *error) {
  *error = MOSQ_ERR_NOMEM;
  if (!cdl_loaded(&library) || queue_capacity == 0) {
    *error = MOSQ_ERR_INVAL;
    return NULL;
  }
  struct cmosq_client *client = calloc(1, sizeof *client);
  if (client == NULL) return NULL;
  client->events = calloc(queue_capacity, sizeof *client->events);
  if (client->events == NULL) {
    free(client);
    return NULL;
  }
  client->capacity = queue_capacity;
  client->maximum_payload = maximum_payload;
  errno = 0;
  client->mosquitto = mosq.new_client(client_id, true, client);
  if (client->mosquitto == NULL) {
    // mosquitto_new says which with errno: ENOMEM, or EINVAL for an id that is not UTF-8.
    *error = errno == EINVAL ? MOSQ_ERR_INVAL : MOSQ_ERR_NOMEM;
    free(client->events);
    free(client);
    return NULL;
  }
  if (protocol_v5) {
    int result = mosq.int_option(client->mosquitto, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V5);
    if (result != MOSQ_ERR_SUCCESS) {
      *error = result;
      cmosq_destroy(client);
      return NULL;
    }
  }
  mosq.connect_callback_set(client->mosquitto, on_connect);
  mosq.disconnect_callback_set(client->mosquitto, on_disconnect);
  mosq.message_callback_set(client->mosquitto, on_message);
  mosq.publish_callback_set(client->mosquitto, on_publish);
  mosq.subscribe_callback_set(client->mosquitto, on_subscribe);
  mosq.unsubscribe_callback_set(client->mosquitto, on_unsubscribe);
  mosq.log_callback_set(client->mosquitto, on_log);
  *error = MOSQ_ERR_SUCCESS;
  return client;
}

void cmosq_destroy(struct cmosq_client *client) {
  if (client == NULL) return;
  mosq.destroy(client->mosquitto);
  struct cmosq_event event;
  while (cmosq_next_event(client, &event)) cmosq_event_free(&event);
  free(client->events);
  free(client);
}

int cmosq_credentials(struct cmosq_client *client, const char *username, const char *password) {
  return mosq.username_pw_set(client->mosquitto, username, password);
}

int cmosq_will(struct cmosq_client *client, const char *topic, const void *payload,
               size_t length, int qos, bool retain) {
  if (length > (size_t)MQTT_MAX_PAYLOAD) return MOSQ_ERR_PAYLOAD_SIZE;
  return mosq.will_set(client->mosquitto, topic, (int)length, payload, qos, retain);
}

int cmosq_tls(struct cmosq_client *client, const char *ca_file) {
  return mosq.tls_set(client->mosquitto, ca_file, NULL, NULL, NULL, NULL);
}

int cmosq_connect(struct cmosq_client *client, const char *host, int port, int keepalive,
                  int *error_number) {
  errno = 0;
  int result = mosq.connect_bind_async(client->mosquitto, host, port, keepalive, NULL);
  *error_number = errno;
  return result;
}

int cmosq_reconnect(struct cmosq_client *client, int *error_number) {
  errno = 0;
  int result = mosq.reconnect_async(client->mosquitto);
  *error_number = errno;
  return result;
}

int cmosq_disconnect(struct cmosq_client *client) { return mosq.disconnect(client->mosquitto); }

int cmosq_socket(struct cmosq_client *client) { return mosq.socket(client->mosquitto); }

bool cmosq_want_write(struct cmosq_client *client) { return mosq.want_write(client->mosquitto); }

// max_packets is unused by 2.0.11 (it reads what the socket and TLS have), but must be >= 1.
int cmosq_loop_read(struct cmosq_client *client) { return mosq.loop_read(client->mosquitto, 1); }

int cmosq_loop_write(struct cmosq_client *client) { return mosq.loop_write(client->mosquitto, 1); }

int cmosq_loop_misc(struct cmosq_client *client) { return mosq.loop_misc(client->mosquitto); }

int cmosq_publish(struct cmosq_client *client, int *message_id, const char *topic,
                  const void *payload, size_t length, int qos, bool retain) {
  if (length > (size_t)MQTT_MAX_PAYLOAD) return MOSQ_ERR_PAYLOAD_SIZE;
  return mosq.publish(client->mosquitto, message_id, topic, (int)length, payload, qos, retain);
}

int cmosq_subscribe(struct cmosq_client *client, int *message_id, const char *filter, int qos) {
  return mosq.subscribe(client->mosquitto, message_id, filter, qos);
}

int cmosq_unsubscribe(struct cmosq_client *client, int *message_id, const char *filter) {
  return mosq.unsubscribe(client->mosquitto, message_id, filter);
}

int cmosq_next_event(struct cmosq_client *client, struct cmosq_event *event) {
  if (client->count == 0) return 0;
  *event = client->events[client->first];
  client->first = (client->first + 1) % client->capacity;
  client->count--;
  return 1;
}

void cmosq_event_free(struct cmosq_event *event) {
  free(event->topic);
  free(event->payload);
  event->topic = NULL;
  event->payload = NULL;
}

uint64_t cmosq_dropped_events(struct cmosq_client *client) { return client->dropped_events; }

uint64_t cmosq_dropped_oversize(struct cmosq_client *client) { return client->dropped_oversize; }

const char *cmosq_last_log(struct cmosq_client *client) { return client->last_log; }

void cmosq_clear_last_log(struct cmosq_client *client) { client->last_log[0] = '\0'; }

const char *cmosq_error_string(int error) {
  if (!cdl_loaded(&library)) return "";
  const char *text = mosq.strerror(error);
  return text != NULL ? text : "";
}

const char *cmosq_reason_string(int reason_code) {
  if (!cdl_loaded(&library)) return "";
  const char *text = mosq.reason_string(reason_code);
  return text != NULL ? text : "";
}

int cmosq_check_publish_topic(const char *topic, size_t length) {
  if (!cdl_loaded(&library)) return MOSQ_ERR_INVAL;
  return mosq.pub_topic_check2(topic, length);
}

int cmosq_check_subscription(const char *filter, size_t length) {
  if (!cdl_loaded(&library)) return MOSQ_ERR_INVAL;
  return mosq.sub_topic_check2(filter, length);
}
