// SPDX-License-Identifier: MIT
// Tiny C helpers for what Swift cannot call directly; see CLinux.h for why each one exists.
// _GNU_SOURCE exposes accept4, pipe2, struct ucred, strerrorname_np and openpty
// (feature_test_macros(7)).
#define _GNU_SOURCE
#include "CLinux.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <pty.h>
#include <signal.h>
#include <stddef.h>
#include <string.h>
#include <sys/ioctl.h>
#include <net/if.h>
#include <sys/timex.h>
#include <netdb.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>
#include <linux/i2c.h>
#include <linux/i2c-dev.h>
#include <linux/spi/spidev.h>

extern char **environ;

// MARK: errno

const char *clinux_errno_name(int error) {
  // strerrorname_np(3) exists since glibc 2.32 (Debian 12 ships 2.36).
  return strerrorname_np(error);
}

const char *clinux_errno_message(int error) {
  const char *message = strerrordesc_np(error);
  return message != NULL ? message : "Unknown error";
}

// MARK: file descriptors

int clinux_get_status_flags(int fd) { return fcntl(fd, F_GETFL); }
int clinux_set_status_flags(int fd, int flags) { return fcntl(fd, F_SETFL, flags); }
int clinux_get_descriptor_flags(int fd) { return fcntl(fd, F_GETFD); }
int clinux_set_descriptor_flags(int fd, int flags) { return fcntl(fd, F_SETFD, flags); }

int clinux_pipe(int fds[2], int nonBlocking) {
  return pipe2(fds, O_CLOEXEC | (nonBlocking ? O_NONBLOCK : 0));
}

int clinux_is_socket_path(const char *path) {
  struct stat status;
  if (lstat(path, &status) != 0) return 0;
  return S_ISSOCK(status.st_mode) ? 1 : 0;
}

// MARK: Unix-domain sockets

int clinux_unix_socket(int datagram, int nonBlocking) {
  int type = (datagram ? SOCK_DGRAM : SOCK_STREAM) | SOCK_CLOEXEC;
  if (nonBlocking) type |= SOCK_NONBLOCK;
  return socket(AF_UNIX, type, 0);
}

// Builds the address for `path` as unix(7) describes it: a pathname socket counts the
// terminating NUL in its length; an abstract one ('@' in the text, NUL in sun_path[0]) does not.
static int make_address(const char *path, struct sockaddr_un *address, socklen_t *length) {
  size_t count = strlen(path);
  memset(address, 0, sizeof(*address));
  address->sun_family = AF_UNIX;
  if (count == 0 || count >= sizeof(address->sun_path)) {
    errno = count == 0 ? EINVAL : ENAMETOOLONG;
    return -1;
  }
  memcpy(address->sun_path, path, count);
  if (path[0] == '@') {
    address->sun_path[0] = '\0';
    *length = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + count);
  } else {
    *length = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + count + 1);
  }
  return 0;
}

int clinux_unix_bind(int fd, const char *path) {
  struct sockaddr_un address;
  socklen_t length;
  if (make_address(path, &address, &length) != 0) return -1;
  return bind(fd, (const struct sockaddr *)&address, length);
}

int clinux_unix_connect(int fd, const char *path) {
  struct sockaddr_un address;
  socklen_t length;
  if (make_address(path, &address, &length) != 0) return -1;
  return connect(fd, (const struct sockaddr *)&address, length);
}

ssize_t clinux_unix_sendto(int fd, const void *bytes, size_t count, const char *path) {
  struct sockaddr_un address;
  socklen_t length;
  if (make_address(path, &address, &length) != 0) return -1;
  // MSG_DONTWAIT: never block even on a blocking socket; MSG_NOSIGNAL: no SIGPIPE (send(2)).
  return sendto(fd, bytes, count, MSG_DONTWAIT | MSG_NOSIGNAL, (const struct sockaddr *)&address,
                length);
}

int clinux_accept(int fd) { return accept4(fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK); }

int clinux_peer_credentials(int fd, pid_t *pid, uid_t *uid, gid_t *gid) {
  struct ucred credentials;
  socklen_t length = sizeof(credentials);
  if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0) return -1;
  *pid = credentials.pid;
  *uid = credentials.uid;
  *gid = credentials.gid;
  return 0;
}

int clinux_socket_error(int fd) {
  int error = 0;
  socklen_t length = sizeof(error);
  if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) != 0) return -1;
  return error;
}

// MARK: signals

void clinux_signal_set(sigset_t *set, const int *signals, int count) {
  sigemptyset(set);
  for (int i = 0; i < count; i++) sigaddset(set, signals[i]);
}

int clinux_signal_mask(int block, const int *signals, int count) {
  sigset_t set;
  clinux_signal_set(&set, signals, count);
  return pthread_sigmask(block ? SIG_BLOCK : SIG_UNBLOCK, &set, NULL);
}

int clinux_signal_ignore(int signal, int ignore) {
  struct sigaction action;
  memset(&action, 0, sizeof(action));
  action.sa_handler = ignore ? SIG_IGN : SIG_DFL;
  sigemptyset(&action.sa_mask);
  return sigaction(signal, &action, NULL);
}

int clinux_signal_raise_in_thread(int signal) { return pthread_kill(pthread_self(), signal); }

// MARK: processes

int clinux_wait_exited(int status) { return WIFEXITED(status); }
int clinux_wait_exit_code(int status) { return WEXITSTATUS(status); }
int clinux_wait_signaled(int status) { return WIFSIGNALED(status); }
int clinux_wait_term_signal(int status) { return WTERMSIG(status); }

int clinux_pidfd_open(pid_t pid) {
#ifdef SYS_pidfd_open
  // pidfd_open(2), Linux 5.3; the descriptor is always close-on-exec.
  return (int)syscall(SYS_pidfd_open, pid, 0);
#else
  (void)pid;
  errno = ENOSYS;
  return -1;
#endif
}

char **clinux_environment(void) { return environ; }

// MARK: terminals

int clinux_window_size(int fd, unsigned short *rows, unsigned short *cols) {
  struct winsize size;
  if (ioctl(fd, TIOCGWINSZ, &size) != 0) return -1;
  *rows = size.ws_row;
  *cols = size.ws_col;
  return 0;
}

// One saved slot is enough: the daemon only ever puts its own standard input into raw mode.
// It is static so that the restore path needs no allocation and stays async-signal-safe.
static struct termios saved_termios;
static int saved_fd = -1;

int clinux_terminal_enter_raw(int fd) {
  struct termios settings;
  if (tcgetattr(fd, &settings) != 0) return -1;
  struct termios raw = settings;
  // termios(3): clearing ICANON delivers bytes without waiting for Enter, clearing ECHO stops
  // the terminal from printing them. ISIG stays on so Ctrl-C still raises SIGINT.
  raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
  raw.c_cc[VMIN] = 1;
  raw.c_cc[VTIME] = 0;
  if (tcsetattr(fd, TCSANOW, &raw) != 0) return -1;
  saved_termios = settings;
  saved_fd = fd;
  return 0;
}

int clinux_terminal_restore(void) {
  int fd = saved_fd;
  if (fd < 0) return 0;
  // Forget the slot first: after the restore the descriptor may be closed and its number
  // reused, and a later restore must not apply old settings to an unrelated file.
  saved_fd = -1;
  return tcsetattr(fd, TCSANOW, &saved_termios);
}

int clinux_terminal_modes(int fd, int *canonical, int *echo) {
  struct termios settings;
  if (tcgetattr(fd, &settings) != 0) return -1;
  *canonical = (settings.c_lflag & ICANON) != 0;
  *echo = (settings.c_lflag & ECHO) != 0;
  return 0;
}

int clinux_open_pty(int *primary, int *secondary, char *name, size_t nameCapacity) {
  // openpty(3) writes the name without a length bound, so ask ttyname_r(3) instead.
  if (openpty(primary, secondary, NULL, NULL, NULL) != 0) return -1;
  // openpty has no O_CLOEXEC flag; set it at once so spawned children do not inherit the pair.
  fcntl(*primary, F_SETFD, FD_CLOEXEC);
  fcntl(*secondary, F_SETFD, FD_CLOEXEC);
  int error = ttyname_r(*secondary, name, nameCapacity);
  if (error != 0) {
    close(*primary);
    close(*secondary);
    errno = error;
    return -1;
  }
  return 0;
}

// MARK: serial ports

static speed_t clinux_baud_constant(unsigned int baud) {
  switch (baud) {
    case 1200: return B1200;
    case 2400: return B2400;
    case 4800: return B4800;
    case 9600: return B9600;
    case 19200: return B19200;
    case 38400: return B38400;
    case 57600: return B57600;
    case 115200: return B115200;
    case 230400: return B230400;
    case 460800: return B460800;
    case 500000: return B500000;
    case 921600: return B921600;
    case 1000000: return B1000000;
    default: return 0;
  }
}

static long clinux_baud_value(speed_t speed) {
  static const unsigned int known[] = {1200,   2400,   4800,   9600,   19200,  38400,  57600,
                                       115200, 230400, 460800, 500000, 921600, 1000000};
  for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
    if (clinux_baud_constant(known[i]) == speed) return (long)known[i];
  }
  return 0;
}

/* The kernel's struct termios2 (include/uapi/asm-generic/termbits.h), declared here because
 * <asm/termbits.h> clashes with glibc's <termios.h>. Its c_ispeed/c_ospeed carry any rate when
 * CBAUD is BOTHER: how Linux sets rates outside the Bnnn table (1 000 000 and 1 500 000 for
 * WLED, 250 000 for DMX-style controllers). Same layout on arm, arm64 and x86. */
struct clinux_termios2 {
  tcflag_t c_iflag, c_oflag, c_cflag, c_lflag;
  cc_t c_line;
  cc_t c_cc[19];
  speed_t c_ispeed, c_ospeed;
};
#define CLINUX_TCGETS2 _IOR('T', 0x2A, struct clinux_termios2)
#define CLINUX_TCSETS2 _IOW('T', 0x2B, struct clinux_termios2)
#define CLINUX_BOTHER 0010000
#define CLINUX_CBAUD 0010017
#define CLINUX_IBSHIFT 16

static int clinux_serial_set_other_rate(int fd, unsigned int baud) {
  struct clinux_termios2 settings;
  if (ioctl(fd, CLINUX_TCGETS2, &settings) != 0) return -1;
  settings.c_cflag &= ~(tcflag_t)(CLINUX_CBAUD | (CLINUX_CBAUD << CLINUX_IBSHIFT));
  settings.c_cflag |= CLINUX_BOTHER | (CLINUX_BOTHER << CLINUX_IBSHIFT);
  settings.c_ispeed = baud;
  settings.c_ospeed = baud;
  return ioctl(fd, CLINUX_TCSETS2, &settings);
}

int clinux_serial_configure(int fd, unsigned int baud) {
  speed_t speed = clinux_baud_constant(baud);
  if (speed == 0) {
    // Raw 8N1 through termios first (any table rate will do), then the rate through termios2.
    if (clinux_serial_configure(fd, 38400) != 0) return -1;
    return clinux_serial_set_other_rate(fd, baud);
  }
  struct termios settings;
  if (tcgetattr(fd, &settings) != 0) return -1;
  cfmakeraw(&settings);
  settings.c_cflag &= ~(CSTOPB | PARENB | CRTSCTS);
  settings.c_cflag |= CS8 | CREAD | CLOCAL;
  settings.c_cc[VMIN] = 0;
  settings.c_cc[VTIME] = 0;
  if (cfsetispeed(&settings, speed) != 0 || cfsetospeed(&settings, speed) != 0) return -1;
  return tcsetattr(fd, TCSANOW, &settings);
}

long clinux_serial_speed(int fd) {
  struct termios settings;
  if (tcgetattr(fd, &settings) != 0) return -1;
  long value = clinux_baud_value(cfgetospeed(&settings));
  if (value != 0) return value;
  struct clinux_termios2 other;
  if (ioctl(fd, CLINUX_TCGETS2, &other) != 0) return -1;
  return (long)other.c_ospeed;
}

int clinux_serial_claim(int fd) {
  // TIOCEXCL: a second open(2) of the tty fails with EBUSY (tty_ioctl(4)). Clearing HUPCL keeps
  // DTR/RTS up when the port closes, so a reopen does not reset an ESP or Arduino board.
  if (ioctl(fd, TIOCEXCL) != 0) return -1;
  struct termios settings;
  if (tcgetattr(fd, &settings) != 0) return -1;
  settings.c_cflag &= ~(tcflag_t)HUPCL;
  return tcsetattr(fd, TCSANOW, &settings);
}

// MARK: IPv4 and IPv6 sockets

int clinux_inet_parse(const char *text, unsigned char address[16]) {
  memset(address, 0, 16);
  if (inet_pton(AF_INET, text, address) == 1) return AF_INET;
  if (inet_pton(AF_INET6, text, address) == 1) return AF_INET6;
  return 0;
}

int clinux_inet_format(int family, const unsigned char address[16], char *text, size_t capacity) {
  return inet_ntop(family, address, text, (socklen_t)capacity) != NULL ? 0 : -1;
}

unsigned int clinux_interface_index(const char *name) { return if_nametoindex(name); }

// Fills `storage` with the address; returns its length, or 0 (EAFNOSUPPORT) for another family.
static socklen_t make_inet_address(int family, const unsigned char address[16],
                                   unsigned int scope, int port,
                                   struct sockaddr_storage *storage) {
  memset(storage, 0, sizeof(*storage));
  if (family == AF_INET) {
    struct sockaddr_in *ipv4 = (struct sockaddr_in *)storage;
    ipv4->sin_family = AF_INET;
    ipv4->sin_port = htons((unsigned short)port);
    memcpy(&ipv4->sin_addr, address, 4);
    return sizeof(*ipv4);
  }
  if (family == AF_INET6) {
    struct sockaddr_in6 *ipv6 = (struct sockaddr_in6 *)storage;
    ipv6->sin6_family = AF_INET6;
    ipv6->sin6_port = htons((unsigned short)port);
    ipv6->sin6_scope_id = scope;
    memcpy(&ipv6->sin6_addr, address, 16);
    return sizeof(*ipv6);
  }
  errno = EAFNOSUPPORT;
  return 0;
}

// The reverse of make_inet_address; -1 (EAFNOSUPPORT) for a family other than the two.
static int read_inet_address(const struct sockaddr_storage *storage, int *family,
                             unsigned char address[16], unsigned int *scope, int *port) {
  memset(address, 0, 16);
  *scope = 0;
  if (storage->ss_family == AF_INET) {
    const struct sockaddr_in *ipv4 = (const struct sockaddr_in *)storage;
    *family = AF_INET;
    memcpy(address, &ipv4->sin_addr, 4);
    *port = ntohs(ipv4->sin_port);
    return 0;
  }
  if (storage->ss_family == AF_INET6) {
    const struct sockaddr_in6 *ipv6 = (const struct sockaddr_in6 *)storage;
    *family = AF_INET6;
    memcpy(address, &ipv6->sin6_addr, 16);
    *scope = ipv6->sin6_scope_id;
    *port = ntohs(ipv6->sin6_port);
    return 0;
  }
  errno = EAFNOSUPPORT;
  return -1;
}

int clinux_inet_connect(int family, int stream, const unsigned char address[16],
                        unsigned int scope, int port, int *inProgress) {
  *inProgress = 0;
  struct sockaddr_storage storage;
  socklen_t length = make_inet_address(family, address, scope, port, &storage);
  if (length == 0) return -1;
  int fd = socket(family, (stream ? SOCK_STREAM : SOCK_DGRAM) | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  if (connect(fd, (struct sockaddr *)&storage, length) == 0) return fd;
  // A non-blocking stream socket "cannot be completed immediately": the handshake goes on, and
  // the socket turns writable when it is done (connect(2), EINPROGRESS). A signal that lands
  // during connect leaves it going on as well (EINTR); retrying would fail with EALREADY.
  if (stream && (errno == EINPROGRESS || errno == EINTR)) {
    *inProgress = 1;
    return fd;
  }
  int saved = errno;
  close(fd);
  errno = saved;
  return -1;
}

int clinux_inet_bind(int family, int stream, const unsigned char address[16], unsigned int scope,
                     int *port, int backlog) {
  struct sockaddr_storage storage;
  socklen_t length = make_inet_address(family, address, scope, *port, &storage);
  if (length == 0) return -1;
  int fd = socket(family, (stream ? SOCK_STREAM : SOCK_DGRAM) | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  int one = 1;
  socklen_t bound = sizeof storage;
  if ((stream && setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0) ||
      bind(fd, (struct sockaddr *)&storage, length) != 0 ||
      (stream && listen(fd, backlog) != 0) ||
      getsockname(fd, (struct sockaddr *)&storage, &bound) != 0) {
    int saved = errno;
    close(fd);
    errno = saved;
    return -1;
  }
  int boundFamily;
  unsigned char boundAddress[16];
  unsigned int boundScope;
  if (read_inet_address(&storage, &boundFamily, boundAddress, &boundScope, port) != 0) {
    close(fd);
    errno = EAFNOSUPPORT;
    return -1;
  }
  return fd;
}

int clinux_inet_accept(int fd, int *family, unsigned char address[16], unsigned int *scope,
                       int *port) {
  struct sockaddr_storage storage;
  socklen_t length = sizeof storage;
  int accepted = accept4(fd, (struct sockaddr *)&storage, &length, SOCK_CLOEXEC | SOCK_NONBLOCK);
  if (accepted < 0) return -1;
  if (read_inet_address(&storage, family, address, scope, port) != 0) {
    int saved = errno;
    close(accepted);
    errno = saved;
    return -1;
  }
  return accepted;
}

int clinux_inet_peer(int fd, int *family, unsigned char address[16], unsigned int *scope,
                     int *port) {
  struct sockaddr_storage storage;
  socklen_t length = sizeof storage;
  if (getpeername(fd, (struct sockaddr *)&storage, &length) != 0) return -1;
  return read_inet_address(&storage, family, address, scope, port);
}

int clinux_socket_buffer(int fd, int sending, int bytes) {
  return setsockopt(fd, SOL_SOCKET, sending ? SO_SNDBUF : SO_RCVBUF, &bytes, sizeof bytes);
}

int clinux_socket_shutdown_writing(int fd) { return shutdown(fd, SHUT_WR); }

int clinux_udp_bind_loopback(int *port) {
  int fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  struct sockaddr_in address;
  memset(&address, 0, sizeof address);
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons((unsigned short)*port);
  socklen_t length = sizeof address;
  if (bind(fd, (struct sockaddr *)&address, sizeof address) != 0 ||
      getsockname(fd, (struct sockaddr *)&address, &length) != 0) {
    int saved = errno;
    close(fd);
    errno = saved;
    return -1;
  }
  *port = ntohs(address.sin_port);
  return fd;
}

// MARK: name lookup (getaddrinfo)

int clinux_resolve(const char *host, int *families, unsigned char *addresses,
                   unsigned int *scopes, int capacity, int *count) {
  *count = 0;
  struct addrinfo hints;
  memset(&hints, 0, sizeof hints);
  hints.ai_family = AF_UNSPEC;
  // One entry per address: without a socket type getaddrinfo lists each address once per type.
  // No AI_ADDRCONFIG: it drops every address of "localhost" on a host whose only configured
  // addresses are loopback ones (getaddrinfo(3)); the caller tries the addresses in turn.
  hints.ai_socktype = SOCK_STREAM;
  struct addrinfo *found = NULL;
  int status = getaddrinfo(host, NULL, &hints, &found);
  if (status != 0) return status;
  for (struct addrinfo *entry = found; entry != NULL && *count < capacity;
       entry = entry->ai_next) {
    if (entry->ai_addrlen > sizeof(struct sockaddr_storage)) continue;
    struct sockaddr_storage storage;
    memset(&storage, 0, sizeof storage);
    memcpy(&storage, entry->ai_addr, entry->ai_addrlen);
    int port;
    if (read_inet_address(&storage, &families[*count], addresses + 16 * *count, &scopes[*count],
                          &port) == 0) {
      *count += 1;
    }
  }
  freeaddrinfo(found);
  return 0;
}

const char *clinux_resolve_error_name(int code) {
  switch (code) {
  case EAI_AGAIN: return "EAI_AGAIN";
  case EAI_BADFLAGS: return "EAI_BADFLAGS";
  case EAI_FAIL: return "EAI_FAIL";
  case EAI_FAMILY: return "EAI_FAMILY";
  case EAI_MEMORY: return "EAI_MEMORY";
  case EAI_NONAME: return "EAI_NONAME";
  case EAI_SERVICE: return "EAI_SERVICE";
  case EAI_SOCKTYPE: return "EAI_SOCKTYPE";
  case EAI_SYSTEM: return "EAI_SYSTEM";
  case EAI_OVERFLOW: return "EAI_OVERFLOW";
#ifdef EAI_NODATA
  case EAI_NODATA: return "EAI_NODATA";
#endif
#ifdef EAI_ADDRFAMILY
  case EAI_ADDRFAMILY: return "EAI_ADDRFAMILY";
#endif
  default: return NULL;
  }
}

const char *clinux_resolve_error_message(int code) { return gai_strerror(code); }

int clinux_serial_is_raw(int fd) {
  struct termios settings;
  if (tcgetattr(fd, &settings) != 0) return -1;
  return (settings.c_lflag & (ICANON | ECHO)) == 0 && (settings.c_oflag & OPOST) == 0 &&
         (settings.c_cflag & CSIZE) == CS8;
}

// MARK: I2C (i2c-dev)

static int clinux_smbus(int fd, char direction, unsigned char command, int size,
                        union i2c_smbus_data *data) {
  struct i2c_smbus_ioctl_data arguments = {
      .read_write = direction, .command = command, .size = size, .data = data};
  return ioctl(fd, I2C_SMBUS, &arguments);
}

int clinux_i2c_set_address(int fd, int address) { return ioctl(fd, I2C_SLAVE, (long)address); }

long clinux_i2c_functions(int fd) {
  unsigned long functions = 0;
  if (ioctl(fd, I2C_FUNCS, &functions) != 0) return -1;
  return (long)functions;
}

int clinux_i2c_smbus_send_byte(int fd, unsigned char value) {
  return clinux_smbus(fd, I2C_SMBUS_WRITE, value, I2C_SMBUS_BYTE, NULL);
}

int clinux_i2c_smbus_write_block(int fd, unsigned char command, const unsigned char *data,
                                 int length) {
  if (length < 1 || length > I2C_SMBUS_BLOCK_MAX) {
    errno = EINVAL;
    return -1;
  }
  union i2c_smbus_data block;
  block.block[0] = (unsigned char)length;
  memcpy(&block.block[1], data, (size_t)length);
  return clinux_smbus(fd, I2C_SMBUS_WRITE, command, I2C_SMBUS_I2C_BLOCK_DATA, &block);
}

int clinux_i2c_smbus_read_block(int fd, unsigned char command, unsigned char *data, int length) {
  if (length < 1 || length > I2C_SMBUS_BLOCK_MAX) {
    errno = EINVAL;
    return -1;
  }
  union i2c_smbus_data block;
  block.block[0] = (unsigned char)length;
  if (clinux_smbus(fd, I2C_SMBUS_READ, command, I2C_SMBUS_I2C_BLOCK_DATA, &block) != 0) return -1;
  int count = block.block[0] < length ? block.block[0] : length;
  memcpy(data, &block.block[1], (size_t)count);
  return count;
}

int clinux_i2c_can_write_blocks(long functions) {
  unsigned long bits = (unsigned long)functions;
  return (bits & I2C_FUNC_SMBUS_WRITE_BYTE) != 0 && (bits & I2C_FUNC_SMBUS_WRITE_I2C_BLOCK) != 0;
}

// MARK: SPI (spidev)

int clinux_spi_configure(int fd, int mode, unsigned int speed) {
  unsigned char spiMode = (unsigned char)mode;
  unsigned char bits = 8;
  unsigned char lsbFirst = 0;
  if (ioctl(fd, SPI_IOC_WR_MODE, &spiMode) != 0) return -1;
  if (ioctl(fd, SPI_IOC_WR_LSB_FIRST, &lsbFirst) != 0) return -1;
  if (ioctl(fd, SPI_IOC_WR_BITS_PER_WORD, &bits) != 0) return -1;
  return ioctl(fd, SPI_IOC_WR_MAX_SPEED_HZ, &speed);
}

int clinux_clock_synchronized(void) {
  struct timex state = {0};
  state.modes = 0;
  int result = adjtimex(&state);
  if (result < 0) return -1;
  return result != TIME_ERROR && (state.status & STA_UNSYNC) == 0 ? 1 : 0;
}

int clinux_clock_mark_synchronized(int synchronized) {
  struct timex state = {0};
  state.modes = 0;
  if (adjtimex(&state) < 0) return -1;
  state.modes = ADJ_STATUS | ADJ_MAXERROR | ADJ_ESTERROR;
  if (synchronized) {
    state.status &= ~STA_UNSYNC;
    state.maxerror = 1000;
    state.esterror = 100;
  } else {
    state.status |= STA_UNSYNC;
    state.maxerror = 16000000;
    state.esterror = 16000000;
  }
  return adjtimex(&state) < 0 ? -1 : 0;
}
