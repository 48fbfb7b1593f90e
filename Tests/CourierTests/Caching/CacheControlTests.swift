import Testing

@testable import Courier

/// Reading `Cache-Control` (RFC 9111, section 5.2) and `Cache-Status` (RFC 9211).
@Suite struct CacheControlTests {
    @Test func directivesAreReadWithTheirArguments() {
        let control = CacheControl(#"Max-Age=60, no-cache="Set-Cookie, X-Other", must-revalidate, stale-if-error="30""#)
        #expect(control.maxAge == 60)
        #expect(control.noCache)
        #expect(control.mustRevalidate)
        #expect(control.staleIfError == 30)
        #expect(!control.noStore)
    }

    @Test func theFirstOfARepeatedDirectiveCounts() {
        #expect(CacheControl("max-age=5, max-age=500").maxAge == 5)
    }

    /// Section 1.2.2: too large means 2^31 seconds; not a number means stale.
    @Test func deltaSecondsAreCappedAndAnInvalidMaxAgeIsStale() {
        #expect(CacheControl("max-age=99999999999999999999999").maxAge == CacheControl.greatestDeltaSeconds)
        #expect(CacheControl("max-age=-1").maxAge == 0)
        #expect(CacheControl("max-age=soon").maxAge == 0)
        #expect(CacheControl("max-stale").maxStale == Int.max)
        #expect(CacheControl(nil) == CacheControl())
    }

    @Test func cacheStatusReadsCouriersOwnMember() {
        for status: CacheStatus in [.hit, .revalidated, .miss, .stale(.offline), .stale(.whileRevalidating)] {
            #expect(CacheStatus(field: "CDN; hit, " + status.member()) == status)
        }
        #expect(CacheStatus(field: "CDN; hit") == nil)
        #expect(CacheStatus(field: CacheStatus.miss.member(stored: true)) == .miss)
    }
}
