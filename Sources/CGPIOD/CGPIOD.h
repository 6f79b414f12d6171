// SPDX-License-Identifier: MIT
// The libgpiod header, v1 or v2 (see Sources/CGPIOShim for how the two are told apart).
#include <gpiod.h>
