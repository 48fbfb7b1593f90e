import CourierTestServer
import Foundation
import Testing

@testable import TodoExample

@testable import Courier

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A form body as a user writes it: declaration order, optionals, arrays and the scalar kinds.
struct SignupForm: Encodable, Sendable {
    var name = "Zoë Ann"
    var age = 42
    var nickname: String? = nil
    var newsletter = true
    var score = 0.0000001
    var tags = ["a&b", "c d"]
    var homepage = URL(string: "https://example.com/~zoe?x=1")!
    var joined = Date(timeIntervalSince1970: 1_790_000_000)
}

/// Writes a nested object by hand, through `nestedContainer`, which a form cannot hold either.
struct HandWrittenNesting: Encodable, Sendable {
    enum Keys: String, CodingKey { case name, inner, city }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode("a", forKey: .name)
        var inner = container.nestedContainer(keyedBy: Keys.self, forKey: .inner)
        try inner.encode("Berlin", forKey: .city)
    }
}

struct NestedForm: Encodable, Sendable {
    struct Address: Encodable, Sendable { var city = "Berlin" }
    var name = "a"
    var address = Address()
}

/// Each body kind: its bytes, its `Content-Type`, and what it refuses, without the network.
@Suite struct RequestBodyTests {
    func post(_ body: HttpBody, headers: [String: String] = ["Accept": "application/json"]) throws -> URLRequest {
        try FreeEndpoint(method: .post(body: body), headers: headers).built().get()
    }

    @Test func theReadmesBodyKindsBuildWithTheirContentTypes() throws {
        let todo = Todo(id: 1, title: "Buy milk")
        let signup = SignupForm()
        let photoUrl = FileManager.default.temporaryDirectory.appendingPathComponent("courier-\(UUID().uuidString).jpg")
        let videoUrl = FileManager.default.temporaryDirectory.appendingPathComponent("courier-\(UUID().uuidString).mp4")
        let bytes = Data("%PDF".utf8)
        try Data([0xFF, 0xD8]).write(to: photoUrl)
        try Data([0, 0, 0, 24]).write(to: videoUrl)
        defer { for file in [photoUrl, videoUrl] { try? FileManager.default.removeItem(at: file) } }
        // snippet: body kinds
        let methods: [HttpMethod] = [
            .post(body: .json(todo)),  // the endpoint's encoder, application/json
            .post(body: .form(["q": "a b", "page": "2"])),  // application/x-www-form-urlencoded, in this order
            .post(body: .formEncodable(signup)),  // a struct's properties as form fields
            .post(body: .multipart([.text(name: "title", value: "Beach"), .file(name: "photo", url: photoUrl)])),
            .put(body: .file(videoUrl)),  // the whole body streamed from disk, type from the extension
            .put(body: .data(bytes, contentType: "application/pdf")),  // raw bytes
            .post(body: bytes),  // Microya's spelling: raw bytes as application/json
        ]
        // end snippet
        let contentTypes = try methods.map {
            try FreeEndpoint(method: $0).built().get().value(forHTTPHeaderField: "Content-Type") ?? ""
        }
        #expect(contentTypes[0] == "application/json")
        #expect(contentTypes[1] == "application/x-www-form-urlencoded")
        #expect(contentTypes[2] == "application/x-www-form-urlencoded")
        #expect(contentTypes[3].hasPrefix("multipart/form-data; boundary=courier-"))
        #expect(Array(contentTypes[4...]) == ["video/mp4", "application/pdf", "application/json"])
    }

    @Test func rawDataKeepsMicroyasJsonTypeUnlessATypeIsGiven() throws {
        let untyped = try post(.data(Data("x".utf8)))
        #expect(untyped.httpBody == Data("x".utf8))
        #expect(untyped.value(forHTTPHeaderField: "Content-Type") == "application/json")
        let typed = try post(.data(Data("x".utf8), contentType: "text/plain; charset=utf-8"))
        #expect(typed.value(forHTTPHeaderField: "Content-Type") == "text/plain; charset=utf-8")
    }

    @Test func jsonUsesTheEndpointsEncoder() throws {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = .sortedKeys
        let endpoint = FreeEndpoint(
            method: .post(body: .json(Todo(id: 1, title: "Buy milk", done: false))),
            encoder: encoder
        )
        let request = try endpoint.built().get()
        #expect(request.httpBody == Data(#"{"done":false,"id":1,"title":"Buy milk"}"#.utf8))
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json")
    }

    @Test func formFieldsAreEncodedAsHtmlFormsDoInTheOrderGiven() throws {
        let request = try post(.form(["q": "a b+c&d=e", "é": "~*-._!", "empty": ""]))
        #expect(
            String(decoding: request.httpBody ?? Data(), as: UTF8.self) == "q=a+b%2Bc%26d%3De&%C3%A9=%7E*-._%21&empty="
        )
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/x-www-form-urlencoded")
    }

    @Test func anEncodableFormKeepsDeclarationOrderAndWritesScalarsPlainly() throws {
        let request = try post(.formEncodable(SignupForm()))
        #expect(
            String(decoding: request.httpBody ?? Data(), as: UTF8.self)
                == "name=Zo%C3%AB+Ann&age=42&newsletter=true&score=0.0000001&tags=a%26b&tags=c+d"
                + "&homepage=https%3A%2F%2Fexample.com%2F%7Ezoe%3Fx%3D1&joined=2026-09-21T14%3A13%3A20Z"
        )
    }

    @Test func multipartHasTheRfc7578ShapeWithEscapedNamesAndInferredTypes() throws {
        let request = try post(
            .multipart([
                .text(name: "title", value: "Holiday\r\nphotos"),
                .data(name: "photo", data: Data([0xFF, 0xD8, 0x0D, 0x0A]), filename: "beach \"day\".JPG"),
                .data(
                    name: "na\"me\r\nX-Injected: 1",
                    data: Data("{}".utf8),
                    filename: "a.json",
                    mediaType: "text/x-custom"
                ),
            ])
        )
        let contentType = try #require(request.value(forHTTPHeaderField: "Content-Type"))
        let boundary = try #require(contentType.components(separatedBy: "boundary=").last)
        #expect(contentType == "multipart/form-data; boundary=\(boundary)")
        #expect(boundary.hasPrefix("courier-") && boundary.count == 40)
        let parts = try #require(ReceivedPart.parse(request.httpBody ?? Data(), boundary: boundary))
        #expect(parts.map(\.name) == ["title", "photo", "na%22me%0D%0AX-Injected: 1"])
        #expect(parts.map(\.filename) == [nil, "beach %22day%22.JPG", "a.json"])
        #expect(parts.map(\.contentType) == [nil, "image/jpeg", "text/x-custom"])
        #expect(
            parts.map(\.body) == [Data("Holiday\r\nphotos".utf8), Data([0xFF, 0xD8, 0x0D, 0x0A]), Data("{}".utf8)]
        )
    }

    @Test func namesThatStartWithACombiningScalarKeepTheirQuotes() throws {
        let names = ["\u{FE00}", "\u{0301}x", "\"\u{0301}"]
        let request = try post(.multipart(names.map { .text(name: $0, value: $0) }))
        let boundary = try #require(
            request.value(forHTTPHeaderField: "Content-Type")?.components(separatedBy: "boundary=").last
        )
        let parts = try #require(ReceivedPart.parse(request.httpBody ?? Data(), boundary: boundary))
        #expect(
            parts.map { Array(($0.name ?? "").utf8) } == [
                [0xEF, 0xB8, 0x80], [0xCC, 0x81, 0x78], Array("%22\u{0301}".utf8),
            ]
        )
        #expect(parts.map(\.body) == names.map { Data($0.utf8) })
    }

    @Test func aFileBodyIsStreamedFromDiskWithATypeFromItsExtension() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-\(UUID().uuidString).csv")
        try Data("a,b\n1,2\n".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let endpoint = FreeEndpoint(method: .put(body: .file(file)))
        let sending = try RequestBuilder.request(for: endpoint, baseUrl: nil).get()
        #expect(sending.bodyFile?.url == file)
        #expect(sending.bodyFile?.isTemporary == false)
        #expect(sending.request.httpBody == nil)
        #expect(sending.request.value(forHTTPHeaderField: "Content-Type") == "text/csv")
        #expect(try endpoint.built().get().httpBodyStream != nil)
    }

    @Test func multipartWithAFilePartGoesToATemporaryFileForSending() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-\(UUID().uuidString).png")
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let endpoint = FreeEndpoint(method: .post(body: .multipart([.file(name: "icon", url: file)])))
        let built = try RequestBuilder.request(for: endpoint, baseUrl: nil).get()
        let bodyFile = try #require(built.bodyFile)
        defer { try? FileManager.default.removeItem(at: bodyFile.url) }
        #expect(bodyFile.isTemporary)
        let contentType = try #require(built.request.value(forHTTPHeaderField: "Content-Type"))
        let boundary = try #require(contentType.components(separatedBy: "boundary=").last)
        let parts = try #require(ReceivedPart.parse(try Data(contentsOf: bodyFile.url), boundary: boundary))
        #expect(parts.map(\.filename) == [file.lastPathComponent])
        #expect(parts.map(\.contentType) == ["image/png"])
        #expect(parts.map(\.body) == [Data([0x89, 0x50, 0x4E, 0x47])])
    }

    @Test func anExplicitContentTypeInAnyCaseReplacesTheBodysAndIsSentOnce() throws {
        let request = try post(.json(["a": 1]), headers: ["content-type": "application/vnd.api+json"])
        let contentTypes = (request.allHTTPHeaderFields ?? [:]).filter { $0.key.lowercased() == "content-type" }
        #expect(contentTypes.count == 1)
        #expect(contentTypes.values.first == "application/vnd.api+json")
    }

    @Test func endpointHeadersAreLaidOverTheDefaultsCaseInsensitively() throws {
        let added = try FreeEndpoint(headers: ["X-Api": "3"]).built().get().allHTTPHeaderFields ?? [:]
        #expect(added.filter { $0.key.lowercased() == "accept" }.map(\.value) == ["application/json"])
        #expect(added["X-Api"] == "3")
        let replaced = try FreeEndpoint(headers: ["accept": "text/csv"]).built().get().allHTTPHeaderFields ?? [:]
        #expect(replaced.filter { $0.key.lowercased() == "accept" }.map(\.value) == ["text/csv"])
    }

    @Test func aDictionaryFormIsSentSortedByKeyAsItHasNoOrderOfItsOwn() throws {
        let request = try post(.formEncodable(["b": ["2", "1"], "a": ["x"], "é": ["3"], "c": ["4"]]))
        #expect(String(decoding: request.httpBody ?? Data(), as: UTF8.self) == "a=x&b=2&b=1&c=4&%C3%A9=3")
    }

    @Test(arguments: [
        (1e300, "1" + String(repeating: "0", count: 300)),
        (Double.leastNonzeroMagnitude, "0." + String(repeating: "0", count: 323) + "5"),
        (-1.5e-7, "-0.00000015"), (1.2345678901234568e+20, "123456789012345680000"), (2.0, "2"), (-0.5, "-0.5"),
        (100.0, "100"), (1e16, "10000000000000000"),
    ])
    func doublesAreWrittenOutWithoutExponent(value: Double, text: String) {
        #expect(ScalarText.text(value) == text)
        #expect(Double(text) == value)
    }

    @Test func aBoundaryFoundInAFileAcrossAChunkEdgeIsReplaced() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-\(UUID().uuidString).bin")
        var contents = Data(repeating: UInt8(ascii: "x"), count: MultipartWriter.chunkSize - 5)
        contents.append(Data("--courier-collides".utf8))  // straddles the end of the first 1 MiB chunk
        try contents.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let boundaries = Locked(["courier-collides", "courier-fresh"])
        var writer = MultipartWriter(parts: [.file(name: "f", url: file)])
        writer.makeBoundary = { boundaries.withLock { $0.removeFirst() } }
        let (body, boundary) = try writer.temporaryFile()
        defer { try? FileManager.default.removeItem(at: body) }
        #expect(boundary == "courier-fresh")
        #expect(!FileManager.default.fileExists(atPath: MultipartWriter.temporaryFile(for: "courier-collides").path))
        let parts = try #require(ReceivedPart.parse(try Data(contentsOf: body), boundary: boundary))
        #expect(parts.map(\.body) == [contents])
        #if !os(Windows)
        let permissions = try FileManager.default.attributesOfItem(atPath: body.path)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
        #endif
    }

    @Test func aRequestWithoutBodyHasNoContentType() throws {
        let request = try FreeEndpoint(headers: [:]).built().get()
        #expect(request.value(forHTTPHeaderField: "Content-Type") == nil)
        #expect(request.value(forHTTPHeaderField: "Accept") == "application/json")
    }

    @Test func idleTimeoutAndCachePolicyComeFromTheEndpoint() throws {
        let request = try FreeEndpoint(idleTimeout: .milliseconds(2_500), cachePolicy: .reloadIgnoringLocalCacheData)
            .built()
            .get()
        #if canImport(FoundationNetworking)
        #expect(request.timeoutInterval == 3)
        #else
        #expect(request.timeoutInterval == 2.5)
        #endif
        #expect(request.cachePolicy == .reloadIgnoringLocalCacheData)
        #expect(
            try FreeEndpoint().built().get().timeoutInterval
                == URLRequest(url: URL(string: "http://a")!).timeoutInterval
        )
    }

    static let refusals: [(FreeEndpoint, String)] = [
        (FreeEndpoint(method: .custom(verb: "GET", body: .data(Data("x".utf8)))), "a GET request cannot carry a body"),
        (FreeEndpoint(subpath: "files/../admin"), "has a \".\" or \"..\" segment"),
        (FreeEndpoint(subpath: "./todos"), "has a \".\" or \"..\" segment"),
        (FreeEndpoint(baseUrl: URL(string: "https://api.example.com/v1/..")!), "has a \".\" or \"..\" segment"),
        (FreeEndpoint(headers: ["Accept": "a", "accept": "b"]), "is given twice"),
        (FreeEndpoint(method: .post(body: .formEncodable(NestedForm()))), "address is a nested object"),
        (FreeEndpoint(method: .post(body: .json(Double.nan))), "the JSON body Double could not be encoded"),
        (
            FreeEndpoint(method: .post(body: .file(URL(fileURLWithPath: "/nonexistent/courier.bin")))),
            "the body file \"file:///nonexistent/courier.bin\" is not a readable local file"
        ),
        (
            FreeEndpoint(method: .post(body: .file(URL(string: "https://example.com/etc/hostname")!))),
            "not a readable local file"
        ),
        (FreeEndpoint(method: .post(body: .file(FileManager.default.temporaryDirectory))), "not a readable local file"),
        (FreeEndpoint(method: .post(body: .multipart([]))), "a multipart body needs at least one part"),
        (FreeEndpoint(method: .post(body: .formEncodable(HandWrittenNesting()))), "inner is a nested object"),
        (
            FreeEndpoint(method: .post(body: .data(Data(), contentType: "text/plain\r\nX-Injected: 1"))),
            "the value of header \"Content-Type\" contains CR, LF or NUL"
        ),
        (
            FreeEndpoint(
                method: .post(body: .multipart([.data(name: "a", data: Data(), filename: "a", mediaType: "x\r\ny")]))
            ),
            "the media type of multipart part \"a\" contains CR, LF or NUL"
        ),
        (
            FreeEndpoint(
                method: .post(body: .multipart([.file(name: "a", url: URL(fileURLWithPath: "/nonexistent/a.png"))]))
            ),
            "the file /nonexistent/a.png of multipart part \"a\" cannot be read"
        ),
    ]

    @Test(arguments: refusals)
    func refusesBodiesAndPathsThatWouldNotArriveAsWritten(endpoint: FreeEndpoint, reason: String) {
        switch RequestBuilder.request(for: endpoint, baseUrl: nil) {
        case .success(let built): Issue.record("built \(built.request) where it should refuse")
        case .failure(let error): #expect(error.reason.contains(reason), "\(error.reason)")
        }
    }
}
