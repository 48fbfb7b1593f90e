import Foundation
import Testing

@testable import Courier

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What the fuzzers of `Fuzz/` found, kept as tests; each input is also a seed in `Fuzz/Corpus/<target>/`.
@Suite struct FuzzFindingsTests {
    /// RFC 9110, section 14.4: first <= last < complete length, all plain digits. These were accepted, and a negative
    /// length passed a download's size check.
    @Test(arguments: ["bytes 0-1/-5", "bytes 5-3/10", "bytes 0-9/5", "Bytes 0-2/1", "bytes 0-abc/10", "bytes 0-9/+10"])
    func anInvalidContentRangeIsRefused(value: String) {
        #expect(ContentRange(value) == nil)
    }

    /// U+0602 joins with the ";" after it into one Character, so splitting at Characters kept the parameters.
    @Test func aMarkBeforeTheSemicolonDoesNotKeepTheParameters() {
        #expect(MediaType.essence(of: "\u{602};charset=utf-8") == "\u{602}")
        #expect(MediaType.essence(of: "application/json\u{301};charset=utf-8") == "application/json\u{301}")
    }

    /// U+037E, the Greek question mark, is canonically equivalent to ";", so `String.contains(";")` finds it; it is no
    /// parameter separator, and the essence keeps it byte for byte.
    @Test func aGreekQuestionMarkIsNoParameterSeparator() {
        let essence = MediaType.essence(of: "text/plain\u{37E}charset=utf-8")
        #expect(essence.utf8.elementsEqual("text/plain\u{37E}charset=utf-8".utf8))
        #expect(!essence.utf8.contains(UInt8(ascii: ";")))
    }

    /// A combining mark after a leading "/" made one Character with it, so the slash was kept and the path got two.
    @Test func aLeadingSlashBeforeACombiningMarkIsDropped() throws {
        let url = try FreeEndpoint(subpath: "/\u{301}x").built().get().url
        #expect(url?.path(percentEncoded: true).hasSuffix("/%CC%81x") == true)
        #expect(url?.path(percentEncoded: true).contains("//") == false)
    }

    /// A combining mark after "/" (or a prepended mark before it) hid the "/" from a Character split, and with it a
    /// ".." segment that the transport would then have resolved away.
    @Test(arguments: ["a/../\u{301}", "x\u{602}/../y"])
    func aDotSegmentHiddenByAMarkIsRefused(subpath: String) throws {
        let endpoint = FreeEndpoint(subpath: subpath)
        guard case .failure(let error) = endpoint.built() else {
            Issue.record(
                "\(subpath.unicodeScalars.map { "\($0)" }) was sent as \(String(describing: try? endpoint.built().get().url))"
            )
            return
        }
        #expect(error.reason.contains("\"..\" segment"))
    }

    /// swift-corelibs-foundation's `NSString.pathExtension` traps on "//" before a non-ASCII character; a file part
    /// named so crashed the caller while Courier inferred its media type.
    @Test(arguments: [
        ("///\u{FFFD}/", "application/octet-stream"), ("a//é", "application/octet-stream"),
        ("photos//é.JPG", "image/jpeg"), ("report.pdf/", "application/pdf"), ("archive.tar.gz", "application/gzip"),
        (".json", "application/octet-stream"), ("notes.", "application/octet-stream"),
        ("a.txt\u{301}", "application/octet-stream"),
    ])
    func aFileNameWithDoubleSlashesAndNonAsciiInfersItsMediaType(filename: String, mediaType: String) throws {
        #expect(MultipartPart.data(name: "f", data: Data(), filename: filename).mediaType == mediaType)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("courier-unsent.bin")
        #expect(MultipartPart.file(name: "f", url: url, filename: filename).mediaType == mediaType)
    }

    /// swift-corelibs-foundation's DateFormatter traps on a letter followed by a combining mark; a server could crash
    /// the client with such a `Retry-After` or `Date`.
    @Test(arguments: ["F\u{301}", "F\u{5bb}", "Sun\u{301}, 06 Nov 1994 08:49:37 GMT"])
    func aRetryAfterThatIsNotAsciiIsIgnored(value: String) throws {
        #expect(HttpDate.parse(value) == nil)
        let url = try #require(URL(string: "http://127.0.0.1/"))
        let response = try #require(
            HTTPURLResponse(
                url: url,
                statusCode: 503,
                httpVersion: nil,
                headerFields: ["Retry-After": value, "Date": value]
            )
        )
        #expect(RetryAfter.delay(in: response, now: Date()) == nil)
    }
}
