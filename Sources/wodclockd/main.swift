// SPDX-License-Identifier: MIT
// wodclockd: the gym clock daemon. Everything lives in WodclockDaemon so it can be tested.

import Glibc
import WodclockDaemon

exit(DaemonMain.run(Array(CommandLine.arguments.dropFirst())))
