#if AsyncHTTPClient && OpenAPI
import Courier
import Foundation

/// One item of the benchmark's JSON lists: a 1 KB body holds 10 of them.
struct Item: Codable, Sendable {
    let id: Int
    let title: String
    let done: Bool
    let tags: [String]
}

/// The benchmark server's routes as a Courier API.
enum BenchApi: Endpoint {
    typealias ClientErrorType = EmptyBodyResponse

    case tiny
    case items(size: BodySize)

    var baseUrl: URL { URL(string: "http://127.0.0.1:1")! }

    var subpath: String {
        switch self {
        case .tiny: "tiny"
        case .items(let size): "items/\(size.rawValue)"
        }
    }

    var method: HttpMethod { .get }

    var mockedResponse: MockedResponse? {
        switch self {
        case .tiny: MockedResponse(status: .ok, bodyData: Bodies.tiny)
        case .items(let size): MockedResponse(status: .ok, bodyData: Bodies.items(size))
        }
    }
}

/// The answer sizes measured.
enum BodySize: String, CaseIterable, Sendable {
    case oneKilobyte = "1k"
    case oneMegabyte = "1m"

    var itemCount: Int {
        switch self {
        case .oneKilobyte: 10
        case .oneMegabyte: 10_000
        }
    }
}

/// The bodies the server sends and the mocks answer with, built once.
enum Bodies {
    static let tiny = Data(#"{"ok":true}"#.utf8)
    static let oneKilobyte = encode(count: BodySize.oneKilobyte.itemCount)
    static let oneMegabyte = encode(count: BodySize.oneMegabyte.itemCount)

    static func items(_ size: BodySize) -> Data {
        switch size {
        case .oneKilobyte: oneKilobyte
        case .oneMegabyte: oneMegabyte
        }
    }

    struct Tiny: Codable, Sendable { let ok: Bool }

    private static func encode(count: Int) -> Data {
        let items = (0..<count).map {
            Item(id: $0, title: "Item number \($0) to do", done: $0 % 2 == 0, tags: ["home", "later"])
        }
        return (try? JSONEncoder().encode(items)) ?? Data()
    }
}
#endif
