import Courier
import CourierTestServer
import Foundation
import Testing

@testable import TodoExample

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What the server receives for every method and every body kind.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct RequestRoundTripTests {
    enum BodyKind: String, CaseIterable, Sendable {
        case json, form, formEncodable, multipart, multipartWithFile, data, file
    }

    static let methodsWithBody: [String] = ["POST", "PUT", "PATCH", "DELETE", "PROPFIND"]
    static let query: [(key: String, value: QueryParameterValue)] = [("q", "a+b c&d=e"), ("n", 2)]
    static let fileContents = Data((0..<3_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })

    func method(_ name: String, body: HttpBody) -> HttpMethod {
        switch name {
        case "POST": .post(body: body)
        case "PUT": .put(body: body)
        case "PATCH": .patch(body: body)
        case "DELETE": .delete(body: body)
        default: .custom(verb: name, body: body)
        }
    }

    func body(_ kind: BodyKind, file: URL) -> HttpBody {
        switch kind {
        case .json: .json(Todo(id: 7, title: "Zoë's \"list\"", done: true))
        case .form: .form(["title": "a+b c&d=e", "é": "ü"])
        case .formEncodable: .formEncodable(SignupForm())
        case .multipart:
            .multipart([.text(name: "title", value: "x"), .data(name: "f", data: Data("{}".utf8), filename: "f.json")])
        case .multipartWithFile: .multipart([.text(name: "title", value: "x"), .file(name: "upload", url: file)])
        case .data: .data(Data([0, 1, 2, 255]), contentType: "application/octet-stream")
        case .file: .file(file)
        }
    }

    @Test(arguments: methodsWithBody, BodyKind.allCases)
    func theServerReceivesTheMethodQueryHeadersAndBodyAsWritten(methodName: String, kind: BodyKind) async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-\(UUID().uuidString).bin")
        try Self.fileContents.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        try await TestServer.withServer { server in
            let endpoint = FreeEndpoint(
                subpath: "echo/items",
                method: method(methodName, body: body(kind, file: file)),
                ordered: Self.query
            )
            let provider = ApiProvider<FreeEndpoint>(baseUrl: server.baseUrl)
            #expect(await provider.rawDataResponse(on: endpoint).failureDescription == nil)

            let received = try #require(await server.receivedRequests().last)
            #expect(received.method == methodName)
            #expect(received.path == "/echo/items")
            #expect(received.query == "q=a%2Bb%20c%26d%3De&n=2")
            #expect(received.decodedQuery == [.init(name: "q", value: "a+b c&d=e"), .init(name: "n", value: "2")])
            #expect(received.header("Content-Length") == String(received.body.count))
            #expect(received.header("Transfer-Encoding") == nil)
            #expect(received.headerValues("Content-Type").count == 1)
            try expectBody(kind, received: received)
        }
    }

    func expectBody(_ kind: BodyKind, received: ReceivedRequest) throws {
        let contentType = received.header("Content-Type") ?? ""
        switch kind {
        case .json:
            #expect(contentType == "application/json")
            #expect(
                try JSONDecoder().decode(Todo.self, from: received.body)
                    == Todo(id: 7, title: "Zoë's \"list\"", done: true)
            )
        case .form:
            #expect(contentType == "application/x-www-form-urlencoded")
            #expect(received.formFields == [.init(name: "title", value: "a+b c&d=e"), .init(name: "é", value: "ü")])
        case .formEncodable:
            #expect(contentType == "application/x-www-form-urlencoded")
            #expect(
                received.formFields.map(\.name) == [
                    "name", "age", "newsletter", "score", "tags", "tags", "homepage", "joined",
                ]
            )
            #expect(received.formFields.first == .init(name: "name", value: "Zoë Ann"))
        case .multipart, .multipartWithFile:
            #expect(contentType.hasPrefix("multipart/form-data; boundary=courier-"))
            let parts = try #require(received.multipartParts)
            #expect(parts.first?.name == "title")
            #expect(parts.first?.body == Data("x".utf8))
            if kind == .multipartWithFile {
                #expect(parts.last?.filename?.hasSuffix(".bin") == true)
                #expect(parts.last?.contentType == "application/octet-stream")
                #expect(parts.last?.body == Self.fileContents)
            } else {
                #expect(parts.last?.contentType == "application/json")
            }
        case .data:
            #expect(contentType == "application/octet-stream")
            #expect(received.body == Data([0, 1, 2, 255]))
        case .file:
            #expect(contentType == "application/octet-stream")
            #expect(received.body == Self.fileContents)
        }
    }

    @Test(arguments: ["GET", "HEAD", "OPTIONS", "DELETE"])
    func methodsWithoutBodySendNoBodyAndNoContentType(methodName: String) async throws {
        try await TestServer.withServer { server in
            let method: HttpMethod =
                switch methodName {
                case "GET": .get
                case "HEAD": .head
                case "OPTIONS": .options
                default: .delete
                }
            let provider = ApiProvider<FreeEndpoint>(baseUrl: server.baseUrl)
            let endpoint = FreeEndpoint(subpath: "echo", method: method, headers: ["X-Api": "3", "accept": "text/csv"])
            let result = await provider.response(on: endpoint)
            #expect(result == .success(EmptyBodyResponse()))
            let received = try #require(await server.receivedRequests().last)
            #expect(received.method == methodName)
            #expect(received.body.isEmpty)
            #expect(received.header("Content-Type") == nil)
            #expect([nil, "0"].contains(received.header("Content-Length")))
            #expect(received.headerValues("Accept") == ["text/csv"])
            #expect(received.header("X-Api") == "3")
        }
    }

    @Test func urlAndQueryRulesHoldOnTheWire() async throws {
        try await TestServer.withServer { server in
            let provider = ApiProvider<FreeEndpoint>(baseUrl: nil)
            let endpoint = FreeEndpoint(
                baseUrl: server.url("/echo/api/?key=1"),
                subpath: "/items/a?b#c",
                ordered: [
                    ("tag", .array(["x", "y,z"], style: .bracketedKey)),
                    ("ids", .array(["1", "2"], style: .commaSeparated)),
                    ("page", 2), ("draft", false), ("ratio", 0.0000001), ("none", .array([])), ("tag", "again"),
                ]
            )
            _ = await provider.response(on: endpoint)
            let received = try #require(await server.receivedRequests().last)
            #expect(received.path == "/echo/api/items/a%3Fb%23c")
            #expect(
                received.query
                    == "key=1&tag%5B%5D=x&tag%5B%5D=y%2Cz&ids=1,2&page=2&draft=false&ratio=0.0000001&tag=again"
            )
        }
    }

    @Test func aDictionaryQueryArrivesSortedByKey() async throws {
        try await TestServer.withServer { server in
            let provider = ApiProvider<FreeEndpoint>(baseUrl: server.baseUrl)
            _ = await provider.response(
                on: FreeEndpoint(subpath: "echo", queryParameters: ["b": "2", "é": "3", "a": "1"])
            )
            #expect(await server.receivedRequests().last?.query == "a=1&b=2&%C3%A9=3")
        }
    }

    @Test func anExplicitContentTypeIsTheOnlyOneOnTheWire() async throws {
        try await TestServer.withServer { server in
            let provider = ApiProvider<FreeEndpoint>(baseUrl: server.baseUrl)
            let endpoint = FreeEndpoint(
                subpath: "echo",
                method: .post(body: .json(["a": 1])),
                headers: ["content-type": "application/vnd.api+json"]
            )
            _ = await provider.response(on: endpoint)
            #expect(await server.receivedRequests().last?.headerValues("Content-Type") == ["application/vnd.api+json"])
        }
    }

    @Test func aHeadAnswerDecodesAsEmptyEvenWhenTheServerNamesALength() async throws {
        try await TestServer.withServer { server in
            let provider = ApiProvider<FreeEndpoint>(baseUrl: server.baseUrl)
            let result = await provider.rawDataResponse(on: FreeEndpoint(subpath: "echo", method: .head))
            #expect(result == .success(Data()))
        }
    }

    @Test func theRequestToBeSentCanBeInspectedWithoutSendingIt() async throws {
        try await TestServer.withServer { server in
            let provider = ApiProvider<FreeEndpoint>(
                baseUrl: server.baseUrl,
                plugins: [HttpAuthPlugin(scheme: .bearer) { "t0ken" }]
            )
            let endpoint = FreeEndpoint(subpath: "echo", method: .post(body: .form(["a": "1"])), ordered: Self.query)
            let request = try provider.urlRequest(for: endpoint).get()
            #expect(request.url == server.url("/echo?q=a%2Bb%20c%26d%3De&n=2"))
            #expect(request.httpMethod == "POST")
            #expect(request.httpBody == Data("a=1".utf8))
            #expect(request.value(forHTTPHeaderField: "Authorization") == "Bearer t0ken")
            #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/x-www-form-urlencoded")
            #expect(await server.receivedRequests().isEmpty)
            #expect(
                provider.urlRequest(for: FreeEndpoint(subpath: "../x")).failureDescription?.contains("segment") == true
            )
        }
    }
}
