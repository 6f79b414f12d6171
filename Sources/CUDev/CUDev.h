// SPDX-License-Identifier: MIT
// The libudev header (libudev(3)): enumeration, device properties and the netlink monitor.
#include <libudev.h>
