import Foundation
import Testing

@testable import Courier

/// HTTP's field rules, each written once for every transport: tokens, announced lengths, joined fields and what a
/// redirect to another origin drops. Tables, no sockets; the transports' suites prove each rule on the wire.
@Suite struct FieldRulesTests {
    static let tokens: [(name: String, isToken: Bool)] = [
        ("Content-Type", true), ("X-Api-Key", true), ("!#$%&'*+-.^_`|~", true), ("PATCH", true),
        ("", false), ("Bad Name", false), ("Name:", false), ("Ünicode", false), ("a\"b", false), ("(x)", false),
    ]

    @Test(arguments: tokens)
    func aTokenIsNonEmptyAndOfRfc9110sCharacters(name: String, isToken: Bool) {
        #expect(HeaderFields.isToken(name.utf8) == isToken)
    }

    static let lengths: [(contentLength: String?, contentEncoding: String?, announced: Int64?)] = [
        ("7", nil, 7), (" 7\t", nil, 7), ("7", "identity", 7), ("7", "IDENTITY", 7), (nil, nil, nil),
        ("7, 7", nil, nil), ("seven", nil, nil), ("7", "gzip", nil), ("7", "GZIP", nil), ("7", "br", nil),
    ]

    /// A compressed body arrives decompressed, so its announced length says nothing of what is received.
    @Test(arguments: lengths)
    func theAnnouncedLengthIsTheBodysAsItArrives(contentLength: String?, contentEncoding: String?, announced: Int64?) {
        let read = HeaderFields.announcedLength(contentLength: contentLength, contentEncoding: contentEncoding)
        #expect(read == announced)
        var fields: [String: String] = [:]
        fields["content-length"] = contentLength
        fields["Content-Encoding"] = contentEncoding
        #expect(HeaderFields.contentLength(in: fields) == announced)
    }

    @Test func aRepeatedFieldIsJoinedWithACommaAsUrlSessionJoinsIt() {
        var fields: [String: String] = [:]
        HeaderFields.add("a=1", named: "Set-Cookie", to: &fields)
        HeaderFields.add("b=2", named: "Set-Cookie", to: &fields)
        HeaderFields.add("no-store", named: "Cache-Control", to: &fields)
        #expect(fields == ["Set-Cookie": "a=1, b=2", "Cache-Control": "no-store"])
    }

    static let redirects: [(from: String, to: String, dropsCredentials: Bool)] = [
        ("http://a.example/x", "http://a.example/y", false),
        ("http://a.example/x", "http://A.EXAMPLE:80/y", false),
        ("https://a.example/x", "https://a.example:443/y", false),
        ("https://a.example/x", "http://a.example/y", true),
        ("http://a.example/x", "http://a.example:8080/y", true),
        ("http://a.example/x", "http://b.example/x", true),
    ]

    /// Credentials stay with their origin: scheme, host without case, port with its scheme's default. libcurl sends
    /// `Proxy-Authorization` to the proxy alone, which a redirect keeps; URLSession sends it to the server.
    @Test(arguments: redirects)
    func aRedirectToAnotherOriginDropsTheCredentials(from: String, to: String, dropsCredentials: Bool) {
        let origin = URL(string: from)
        let target = URL(string: to)
        let toServer = RedirectPolicy.fieldsToDrop(from: origin, to: target, proxyCredentials: .toServer)
        let toProxy = RedirectPolicy.fieldsToDrop(from: origin, to: target, proxyCredentials: .toProxyAlone)
        #expect(toServer == (dropsCredentials ? ["Authorization", "Cookie", "Proxy-Authorization"] : []))
        #expect(toProxy == (dropsCredentials ? ["Authorization", "Cookie"] : []))
    }

    @Test func aPluginsBodyStreamIsReadToItsEnd() throws {
        let data = Data(repeating: 7, count: 200_000)
        #expect(try InputStream(data: data).readAll() == data)
        #expect(try InputStream(data: Data()).readAll().isEmpty)
    }
}
