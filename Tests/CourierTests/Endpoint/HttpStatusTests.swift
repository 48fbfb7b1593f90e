import Courier
import Testing

@Suite struct HttpStatusTests {
    @Test(
        arguments: [
            (HttpStatus.ok, 200, "OK"), (.created, 201, "Created"), (.noContent, 204, "No Content"),
            (.notFound, 404, "Not Found"), (.tooManyRequests, 429, "Too Many Requests"),
            (.internalServerError, 500, "Internal Server Error"), (HttpStatus(code: 499), 499, "Client Error"),
            (HttpStatus(code: 799), 799, "Unknown Status"), (299, 299, "Success"),
        ] as [(HttpStatus, Int, String)]
    )
    func codeAndReasonPhrase(status: HttpStatus, code: Int, phrase: String) {
        #expect(status.code == code)
        #expect(status.reasonPhrase == phrase)
        #expect(status.description == "\(code) \(phrase)")
    }

    @Test func namedCodesMatchInSwitches() {
        let status: HttpStatus = 404
        switch status {
        case .notFound: break
        default: Issue.record("404 did not match .notFound")
        }
        #expect(HttpStatus.ok.isSuccess)
        #expect(!HttpStatus.notFound.isSuccess)
    }
}
