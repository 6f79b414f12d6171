// SPDX-License-Identifier: MIT
// wodclockctl: controls a running wodclockd. Everything lives in WodclockClient so it is tested.

import Glibc
import WodclockClient

exit(ClientMain.run(Array(CommandLine.arguments.dropFirst())))
