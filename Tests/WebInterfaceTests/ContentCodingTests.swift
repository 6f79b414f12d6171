// SPDX-License-Identifier: MIT
// Which requests are sent gzip (RFC 9110 §12.5.3): what browsers send, and the weights that
// refuse it.

import Testing
import WebInterface

@Suite struct ContentCodingTests {
  @Test func browsersTakeGzip() {
    #expect(ContentCoding.acceptsGzip("gzip, deflate, br"))
    #expect(ContentCoding.acceptsGzip("gzip, deflate, br, zstd"))
    #expect(ContentCoding.acceptsGzip("deflate, GZIP;q=0.5"))
    #expect(ContentCoding.acceptsGzip("x-gzip"))
    #expect(ContentCoding.acceptsGzip("br;q=1.0, *;q=0.1"))
  }

  @Test func noHeaderOrAZeroWeightMeansTheIdentity() {
    #expect(!ContentCoding.acceptsGzip(nil))
    #expect(!ContentCoding.acceptsGzip(""))
    #expect(!ContentCoding.acceptsGzip("identity"))
    #expect(!ContentCoding.acceptsGzip("gzip;q=0"))
    #expect(!ContentCoding.acceptsGzip("gzip; q=0.000, identity"))
    #expect(!ContentCoding.acceptsGzip("*;q=0"))
    // An explicit refusal wins over the wildcard.
    #expect(!ContentCoding.acceptsGzip("*, gzip;q=0"))
    #expect(!ContentCoding.acceptsGzip("br, deflate"))
  }
}
