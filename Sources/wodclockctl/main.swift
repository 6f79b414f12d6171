// SPDX-License-Identifier: MIT
// wodclockctl: controls a running wodclockd. Everything lives in WodclockDaemon so it is tested.

import Glibc
import WodclockDaemon

exit(ControlClientMain.run(Array(CommandLine.arguments.dropFirst())))
