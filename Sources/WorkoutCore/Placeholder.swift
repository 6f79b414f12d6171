// SPDX-License-Identifier: MIT
// Placeholder so the target builds before its first real file lands.
enum WorkoutCorePlaceholder {}
