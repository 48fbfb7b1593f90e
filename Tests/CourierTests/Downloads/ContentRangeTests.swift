import Testing

@testable import Courier

/// `Content-Range` as a `206` answer gives it, and what is refused rather than guessed.
@Suite struct ContentRangeTests {
    @Test(arguments: [
        ("bytes 100-199/1000", 100 as Int64?, 1_000 as Int64?),
        ("bytes 0-0/*", 0, nil),
        ("  BYTES 5-9/10 ", 5, 10),
    ])
    func aRangeParses(value: String, start: Int64?, total: Int64?) {
        let range = ContentRange(value)
        #expect(range?.start == start)
        #expect(range?.total == total)
    }

    @Test(arguments: ["items 1-2/3", "bytes 1-2", "bytes -5-9/10", "bytes x-9/10", "bytes */10", ""])
    func aMalformedRangeIsRefused(value: String) {
        #expect(ContentRange(value) == nil)
    }
}
