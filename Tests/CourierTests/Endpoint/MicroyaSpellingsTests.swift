import Courier
import CourierTestServer
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An endpoint file as Microya 0.7 and its main branch have users write it: no base URL, Microya's body helpers,
/// mocks through Microya's initializers.
enum MicroyaStyleApi {
    case create(note: Note)
    case rename(id: Int, note: Note)
    case search(terms: [URLQueryItem])
    case tag(id: Int, terms: [URLQueryItem])
    case show(id: Int)
}

struct Note: Codable, Equatable, Sendable {
    var title: String
}

extension MicroyaStyleApi: Endpoint {
    typealias ClientErrorType = EmptyBodyResponse

    var subpath: String {
        switch self {
        case .create, .search: "echo/notes"
        case .rename(let id, _), .tag(let id, _), .show(let id): "echo/notes/\(id)"
        }
    }

    var method: HttpMethod {
        switch self {
        case .create(let note): (try? post(encodable: note)) ?? .post()
        case .rename(_, let note): (try? patch(encodable: note)) ?? .patch()
        case .search(let terms): post(queryItemsToWwwUrlEncode: terms)
        case .tag(_, let terms): patch(queryItemsToWwwUrlEncode: terms)
        case .show: .get
        }
    }

    var mockedResponse: MockedResponse? {
        switch self {
        case .show(let id): MockedResponse(subpath: subpath, statusCode: 200, bodyJson: #"{"title":"note \#(id)"}"#)
        case .create(let note): MockedResponse(subpath: subpath, statusCode: 201, bodyData: Data(note.title.utf8))
        case .rename, .search, .tag: nil
        }
    }
}

/// The names Microya code uses, with the meaning it expects, against the loopback server over each transport.
@Suite struct MicroyaSpellingsTests {
    @Test(arguments: TransportKind.allCases)
    func encodableHelpersSendJsonEncodedByTheEndpointsEncoder(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            let note = Note(title: "Zoë \"quoted\"")
            let (created, renamed) = try await kind.withProvider(MicroyaStyleApi.self, baseUrl: server.baseUrl) {
                provider in
                (
                    try await provider.response(on: .create(note: note), decodeBodyTo: ReceivedRequest.self).get(),
                    try await provider.response(on: .rename(id: 4, note: note), decodeBodyTo: ReceivedRequest.self)
                        .get()
                )
            }
            for (received, method) in [(created, "POST"), (renamed, "PATCH")] {
                #expect(received.method == method)
                #expect(received.header("Content-Type") == "application/json")
                #expect(try JSONDecoder().decode(Note.self, from: received.body) == note)
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func queryItemHelpersSendAFormInOrderWithAnEmptyValueForNil(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            let terms = [
                URLQueryItem(name: "q", value: "a b&c=d+é"),
                URLQueryItem(name: "empty", value: nil),
                URLQueryItem(name: "q", value: "2"),
            ]
            let (searched, tagged) = try await kind.withProvider(MicroyaStyleApi.self, baseUrl: server.baseUrl) {
                provider in
                (
                    try await provider.response(on: .search(terms: terms), decodeBodyTo: ReceivedRequest.self).get(),
                    try await provider.response(on: .tag(id: 1, terms: terms), decodeBodyTo: ReceivedRequest.self)
                        .get()
                )
            }
            let expected: [ReceivedRequest.Field] = [
                .init(name: "q", value: "a b&c=d+é"), .init(name: "empty", value: ""), .init(name: "q", value: "2"),
            ]
            for (received, method) in [(searched, "POST"), (tagged, "PATCH")] {
                #expect(received.method == method)
                #expect(received.header("Content-Type") == "application/x-www-form-urlencoded")
                #expect(received.formFields == expected)
            }
        }
    }

    @Test func microyasMockInitializersAnswerWithTheirStatusAndBody() async throws {
        let provider = ApiProvider<MicroyaStyleApi>(
            baseUrl: URL(string: "https://api.example.com"),
            mockingBehavior: MockingBehavior()
        )
        #expect(try await provider.response(on: .show(id: 3), decodeBodyTo: Note.self).get() == Note(title: "note 3"))
        let full = await provider.fullResponse(on: .create(note: Note(title: "x")), decodeBodyTo: Data.self)
        #expect(full.statusCode == 201)
        #expect(full.body == Data("x".utf8))
        #expect(full.httpUrlResponse?.url?.absoluteString == "https://api.example.com/echo/notes")
        #expect(MicroyaStyleApi.show(id: 3).mockedResponse?.subpath == "echo/notes/3")
        #expect(MicroyaStyleApi.show(id: 3).mock(status: .ok).subpath == "echo/notes/3")
    }

    @Test func aMockWithoutBodyReachesThePluginsAsNilAsInMicroya() async throws {
        let seen = ResponseLog()
        let provider = ApiProvider<MicroyaStyleApi>(
            baseUrl: URL(string: "https://api.example.com"),
            plugins: [ResponseLoggerPlugin { seen.record($0.data) }],
            mockingBehavior: MockingBehavior { endpoint in
                MockedResponse(subpath: endpoint.subpath, statusCode: 204)
            }
        )
        #expect(await provider.response(on: .show(id: 1)) == .success(EmptyBodyResponse()))
        #expect(await provider.rawDataResponse(on: .show(id: 1)) == .success(Data()))
        #expect(seen.bodies == [nil, nil])
    }

    @Test func aDispatchQueueErasedToAnySchedulerDeliversTheMockOnThatQueue() async throws {
        let queue = DispatchQueue(label: "microya.mocks")
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        let provider = ApiProvider<MicroyaStyleApi>(
            baseUrl: URL(string: "https://api.example.com"),
            mockingBehavior: MockingBehavior(delay: .zero, scheduler: queue.eraseToAnyScheduler())
        )
        let (title, onQueue) = await withCheckedContinuation { continuation in
            provider.performRequest(on: .show(id: 8), decodeBodyTo: Note.self) { result in
                continuation.resume(returning: ((try? result.get())?.title, DispatchQueue.getSpecific(key: key)))
            }
        }
        #expect(title == "note 8")
        #expect(onQueue == true)
    }

    @Test func statusesKeepMicroyasSpellings() {
        #expect(HttpStatus.custom(code: 299) == HttpStatus(code: 299))
        #expect(HttpStatus(statusCode: 404) == .notFound)
        #expect(HttpStatus.custom(code: 599).description == "599 Server Error")
    }
}

/// The bodies a `ResponseLoggerPlugin` was handed, in order.
final class ResponseLog: Sendable {
    private let log = EventLog<Data?>()

    func record(_ body: Data?) { log.append(body) }

    var bodies: [Data?] { log.events }
}
