// SPDX-License-Identifier: MIT
// Linux system calls that the Swift Glibc module does not expose (timerfd, epoll, signalfd,
// pseudo-terminals). Keep this header to declarations and tiny inline helpers.
//
// The header deliberately does not define _GNU_SOURCE: Swift also imports the same system headers
// through its Glibc module, built without it, and a second, differently configured copy of
// `fd_set` makes the two modules clash. Everything that needs _GNU_SOURCE is wrapped in CLinux.c.
#ifndef WODCLOCK_CLINUX_H
#define WODCLOCK_CLINUX_H
#include <signal.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/random.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <sys/types.h>

// The helpers below are defined in CLinux.c. They exist because Swift cannot call variadic C
// functions (ioctl, fcntl with an argument), cannot expand function-like macros (WIFEXITED,
// sigaddset on some libcs), and does not see functions that glibc hides behind _GNU_SOURCE
// (accept4, pipe2, strerrorname_np) when they come through the Glibc module.

// MARK: errno

/// Returns the symbolic name of `error` ("ENODEV"), or NULL when glibc does not know it.
/// Thread-safe: strerrorname_np(3) returns a pointer to static storage.
const char *clinux_errno_name(int error);

/// Returns the English description of `error` ("No such device"), never NULL.
/// Thread-safe, unlike strerror(3) for unknown numbers: strerrordesc_np(3) uses static storage.
const char *clinux_errno_message(int error);

// MARK: file descriptors

/// fcntl(fd, F_GETFL) / fcntl(fd, F_SETFL, flags); fcntl(2) is variadic.
int clinux_get_status_flags(int fd);
int clinux_set_status_flags(int fd, int flags);

/// fcntl(fd, F_GETFD) / fcntl(fd, F_SETFD, flags); fcntl(2) is variadic.
int clinux_get_descriptor_flags(int fd);
int clinux_set_descriptor_flags(int fd, int flags);

/// pipe2(fds, O_CLOEXEC | (nonBlocking ? O_NONBLOCK : 0)); pipe2(2) needs _GNU_SOURCE.
int clinux_pipe(int fds[2], int nonBlocking);

/// Returns 1 if `path` names a socket file (lstat, S_ISSOCK is a macro), 0 otherwise.
int clinux_is_socket_path(const char *path);

// MARK: Unix-domain sockets

/// socket(AF_UNIX, type | SOCK_CLOEXEC | SOCK_NONBLOCK?, 0). `datagram` selects SOCK_DGRAM
/// instead of SOCK_STREAM. The SOCK_* constants are an enum in glibc that imports awkwardly.
int clinux_unix_socket(int datagram, int nonBlocking);

/// bind(2), connect(2) and sendto(2) with a `struct sockaddr_un` built from `path`. A leading
/// '@' selects the Linux abstract namespace (unix(7)): it becomes a NUL byte and the address
/// length counts no trailing NUL. Paths too long for sun_path fail with ENAMETOOLONG.
int clinux_unix_bind(int fd, const char *path);
int clinux_unix_connect(int fd, const char *path);
ssize_t clinux_unix_sendto(int fd, const void *bytes, size_t count, const char *path);

/// accept4(fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK); accept4(2) needs _GNU_SOURCE.
int clinux_accept(int fd);

/// getsockopt(fd, SOL_SOCKET, SO_PEERCRED); struct ucred needs _GNU_SOURCE.
int clinux_peer_credentials(int fd, pid_t *pid, uid_t *uid, gid_t *gid);

/// getsockopt(fd, SOL_SOCKET, SO_ERROR): the pending error of a socket, or -1.
int clinux_socket_error(int fd);

// MARK: signals

/// Fills `set` with the `count` signals in `signals` (sigemptyset + sigaddset).
void clinux_signal_set(sigset_t *set, const int *signals, int count);

/// pthread_sigmask(how, set, NULL) for the signals in `signals`; returns an errno value.
/// `block` non-zero means SIG_BLOCK, zero means SIG_UNBLOCK.
int clinux_signal_mask(int block, const int *signals, int count);

/// Sets `signal` to SIG_IGN (ignore != 0) or SIG_DFL through sigaction(2).
int clinux_signal_ignore(int signal, int ignore);

/// Sends `signal` to the calling thread only (pthread_kill(pthread_self(), signal)).
int clinux_signal_raise_in_thread(int signal);

// MARK: processes

/// The wait-status macros of wait(2).
int clinux_wait_exited(int status);
int clinux_wait_exit_code(int status);
int clinux_wait_signaled(int status);
int clinux_wait_term_signal(int status);

/// pidfd_open(2) through syscall(2): glibc 2.36 has no wrapper in every configuration.
int clinux_pidfd_open(pid_t pid);

/// The process environment, for posix_spawn(3) when the caller passes none.
char **clinux_environment(void);

// MARK: terminals

/// ioctl(fd, TIOCGWINSZ); ioctl(2) is variadic. Returns 0 and fills rows/cols, or -1.
int clinux_window_size(int fd, unsigned short *rows, unsigned short *cols);

/// Saves the termios of `fd` into a static slot, then switches it to non-canonical, no-echo
/// input (VMIN 1, VTIME 0). Returns 0 or -1 with errno.
int clinux_terminal_enter_raw(int fd);

/// Restores the termios saved by clinux_terminal_enter_raw, if any, once: the slot is emptied,
/// so later calls do nothing. Async-signal-safe
/// (tcsetattr is listed in signal-safety(7)), so it may run inside a signal handler.
int clinux_terminal_restore(void);

/// Reads the ICANON and ECHO bits of `fd`'s local modes. Returns 0 or -1 with errno.
int clinux_terminal_modes(int fd, int *canonical, int *echo);

/// openpty(3) and ttyname_r(3) of the secondary side; both ends get FD_CLOEXEC.
int clinux_open_pty(int *primary, int *secondary, char *name, size_t nameCapacity);


// MARK: serial ports

/// Puts the tty `fd` in raw mode (cfmakeraw: no echo, no line editing, no output processing),
/// 8 data bits, no parity, one stop bit, receiver on, modem lines ignored (CLOCAL), at `baud`
/// bits per second in both directions. Rates termios has no constant for are set through
/// termios2 and BOTHER. Returns 0, or -1 with errno.
int clinux_serial_configure(int fd, unsigned int baud);

/// The output baud rate of the tty `fd` in bits per second, or -1 with errno.
long clinux_serial_speed(int fd);

/// Whether the tty `fd` is in the raw mode clinux_serial_configure sets (ICANON, ECHO, OPOST
/// off, CS8). Returns 1, 0, or -1 with errno.
int clinux_serial_is_raw(int fd);

/// Claims a configured tty for one writer: TIOCEXCL (further opens fail with EBUSY) and HUPCL
/// cleared (closing does not drop DTR/RTS, which resets ESP and Arduino boards).
int clinux_serial_claim(int fd);

// MARK: IPv4 and IPv6 sockets
//
// Addresses cross this boundary as a family (AF_INET or AF_INET6), 16 bytes in network order
// (the first 4 for IPv4), an IPv6 scope id (the interface of a link-local address, RFC 4007)
// and a port: struct sockaddr_in and sockaddr_in6 are unions of awkwardly imported fields.

/// inet_pton(3) for AF_INET, then for AF_INET6: the bytes of the address `text` spells. Never
/// looks a name up. Returns AF_INET or AF_INET6, or 0 when `text` is no address literal.
int clinux_inet_parse(const char *text, unsigned char address[16]);

/// inet_ntop(3): the text form of an address (`capacity` of at least 46, INET6_ADDRSTRLEN).
/// Returns 0, or -1 with errno.
int clinux_inet_format(int family, const unsigned char address[16], char *text, size_t capacity);

/// if_nametoindex(3): the index of the interface `name` (an IPv6 zone such as "eth0"), or 0.
unsigned int clinux_interface_index(const char *name);

/// A non-blocking, close-on-exec socket (SOCK_STREAM when `stream`, else SOCK_DGRAM) that
/// connects to the address and `port`. A stream socket's handshake goes on after the call
/// returns: then `*inProgress` is 1 (connect(2), EINPROGRESS). Returns the descriptor, or -1
/// with errno (the socket is closed then).
int clinux_inet_connect(int family, int stream, const unsigned char address[16],
                        unsigned int scope, int port, int *inProgress);

/// A non-blocking, close-on-exec socket bound to the address and `*port` (0: a free port,
/// written back); a stream socket gets SO_REUSEADDR and listens with `backlog`. Returns the
/// descriptor, or -1 with errno.
int clinux_inet_bind(int family, int stream, const unsigned char address[16], unsigned int scope,
                     int *port, int backlog);

/// accept4(2) with SOCK_CLOEXEC | SOCK_NONBLOCK, and the peer's address. Returns the new
/// descriptor, or -1 with errno (EAGAIN when nobody waits).
int clinux_inet_accept(int fd, int *family, unsigned char address[16], unsigned int *scope,
                       int *port);

/// getpeername(2): the connected peer's address; -1 with errno (ENOTCONN while a non-blocking
/// connect is on its way).
int clinux_inet_peer(int fd, int *family, unsigned char address[16], unsigned int *scope,
                     int *port);

/// setsockopt(2) SO_SNDBUF (`sending`) or SO_RCVBUF to `bytes` (the kernel doubles it,
/// socket(7)). Returns 0, or -1 with errno.
int clinux_socket_buffer(int fd, int sending, int bytes);

/// shutdown(2) of the writing side (SHUT_WR): the peer reads the end of the stream.
int clinux_socket_shutdown_writing(int fd);

/// A non-blocking UDP socket bound to 127.0.0.1:`*port` (0: any free port, written back).
int clinux_udp_bind_loopback(int *port);

// MARK: name lookup (getaddrinfo)

/// getaddrinfo(3) of `host` for stream sockets of any family, in the order it gives them
/// (RFC 6724): up to `capacity` addresses into `families`, `addresses` (16 bytes each) and
/// `scopes`, their number into `*count`. May wait for seconds: only the resolver's child
/// process calls it. Returns 0 or an EAI_* code (EAI_SYSTEM: see errno).
int clinux_resolve(const char *host, int *families, unsigned char *addresses,
                   unsigned int *scopes, int capacity, int *count);

/// The name of an EAI_* code ("EAI_NONAME"), or NULL for one this header does not know.
const char *clinux_resolve_error_name(int code);

/// gai_strerror(3): getaddrinfo's words for an EAI_* code ("Name or service not known").
const char *clinux_resolve_error_message(int code);

// MARK: I2C (i2c-dev)

/// ioctl(fd, I2C_SLAVE, address): address the 7-bit `address` on the following transfers.
int clinux_i2c_set_address(int fd, int address);

/// ioctl(fd, I2C_FUNCS): the adapter's functionality bits (I2C_FUNC_*), or -1 with errno.
long clinux_i2c_functions(int fd);

/// SMBus "send byte" (I2C_SMBUS_WRITE, I2C_SMBUS_BYTE): one byte after the address.
int clinux_i2c_smbus_send_byte(int fd, unsigned char value);

/// SMBus "write I2C block data" (I2C_SMBUS_I2C_BLOCK_DATA): `command`, then `length` bytes
/// (1–32), in one transfer. On the wire: START, address+W, command, data…, STOP.
int clinux_i2c_smbus_write_block(int fd, unsigned char command, const unsigned char *data,
                                 int length);

/// SMBus "read I2C block data": `length` bytes (1–32) from register `command`. Returns the
/// count read or -1 with errno.
int clinux_i2c_smbus_read_block(int fd, unsigned char command, unsigned char *data, int length);

/// Whether the functionality bits have SMBus send byte and I2C block write (1) or not (0).
int clinux_i2c_can_write_blocks(long functions);

// MARK: SPI (spidev)

/// Sets SPI mode `mode` (0–3), MSB first, 8-bit words and `speed` Hz on a spidev descriptor.
int clinux_spi_configure(int fd, int mode, unsigned int speed);

// MARK: clock synchronization

/// Whether the kernel considers the system clock synchronized to a time source: 1 when
/// adjtimex(2) (modes 0: read only) reports a clock state other than TIME_ERROR and the status
/// lacks STA_UNSYNC, 0 when not, -1 with errno when the call fails. This is the kernel's NTP
/// status that `timedatectl` shows as "System clock synchronized" (NTPSynchronized); a time
/// daemon (systemd-timesyncd, chrony, ntpd) clears STA_UNSYNC once it has synchronized.
int clinux_clock_synchronized(void);

/// Sets the kernel's NTP status as a time daemon does: `synchronized` 1 clears STA_UNSYNC and
/// sets the maximum error to 1 ms and the estimated error to 100 µs (chrony's figures on a
/// LAN); 0 sets STA_UNSYNC and both errors to 16 s, the kernel's NTP_PHASE_LIMIT, as after a
/// boot. The other status bits are kept. 0 on success, -1 with errno (EPERM without
/// CAP_SYS_TIME). adjtimex(2): ADJ_STATUS, ADJ_MAXERROR, ADJ_ESTERROR.
int clinux_clock_mark_synchronized(int synchronized);

#endif
