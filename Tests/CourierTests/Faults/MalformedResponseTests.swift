import Foundation
import Testing

@testable import Courier

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The framing checks and libcurl's words, without a server: the cases the hostile server cannot make happen on
/// demand (a reset reported as `.unknown`, a status line reported without text, answers without a body).
@Suite struct MalformedResponseTests {
    @Test(
        arguments: [
            ("7", nil, 200, false, false),
            ("7 \t", nil, 200, false, false),
            ("7, 8", nil, 200, false, true),
            ("7, 7", nil, 200, false, true),
            ("3", "chunked", 200, false, true),
            ("-1", nil, 200, false, true),
            ("", nil, 200, false, true),
            ("7, 8", nil, 200, true, false),
            ("3", "chunked", 204, false, false),
            ("7, 8", nil, 304, false, false),
            ("7, 8", nil, 103, false, false),
        ] as [(String?, String?, Int, Bool, Bool)]
    )
    func framing(contentLength: String?, transferEncoding: String?, status: Int, isHead: Bool, refused: Bool) {
        let problem = MalformedResponse.framingProblem(
            contentLength: contentLength,
            transferEncoding: transferEncoding,
            statusCode: status,
            isHead: isHead
        )
        #expect((problem != nil) == refused, "\(String(describing: problem))")
    }

    static let url = URL(string: "http://127.0.0.1:9/fault")

    static func libcurl(_ code: URLError.Code, _ text: String?) -> URLError {
        var userInfo: [String: Any] = [NSURLErrorFailingURLErrorKey: url as Any]
        userInfo[NSLocalizedDescriptionKey] = text
        return URLError(code, userInfo: userInfo)
    }

    @Test(
        arguments: [
            (URLError.Code.unknown, "Recv failure: Connection reset by peer", URLError.Code.networkConnectionLost),
            (.unknown, "transfer closed with 3 bytes remaining to read", .networkConnectionLost),
            (.unknown, "Send failure: Broken pipe", .networkConnectionLost),
            (.unknown, "Illegal or missing hexadecimal sequence in chunked-encoding", .badServerResponse),
            (.unknown, "Too large response headers: 307755 > 307200", .badServerResponse),
            (.unknown, "Error while processing content unencoding: invalid block type", .cannotDecodeContentData),
            (.unsupportedURL, "Unsupported response code in HTTP response", .badServerResponse),
            (.unsupportedURL, nil, .badServerResponse),
            (.unsupportedURL, "Protocol \"https\" not supported or disabled in libcurl", .unsupportedURL),
            (.unknown, "Out of memory", .unknown),
            (.timedOut, "transfer closed with 3 bytes remaining to read", .timedOut),
        ] as [(URLError.Code, String?, URLError.Code)]
    )
    func libcurlWords(code: URLError.Code, text: String?, reported: URLError.Code) throws {
        let classified = try #require(MalformedResponse.classifyingLibcurlError(Self.libcurl(code, text)) as? URLError)
        #expect(classified.code == reported)
        // The failing URL goes along, so that the caller's message still names it.
        #expect(classified.failingURL == Self.url)
    }
}
