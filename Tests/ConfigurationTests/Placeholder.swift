// SPDX-License-Identifier: MIT
// Placeholder so the test target builds before its first real test lands.
