// SPDX-License-Identifier: MIT
// Linux system calls that the Swift Glibc module does not expose (timerfd, epoll, signalfd,
// pseudo-terminals). Keep this header to declarations and tiny inline helpers.
#ifndef WODCLOCK_CLINUX_H
#define WODCLOCK_CLINUX_H
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <sys/timerfd.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/eventfd.h>
#include <stdlib.h>
#include <pty.h>
#endif
