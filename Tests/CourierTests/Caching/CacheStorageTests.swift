import CourierTestServer
import Foundation
import Testing

@testable import Courier

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where entries are kept: in memory or in a directory, each within its byte limit; a directory's entries outlive
/// the cache and the provider, and one that cannot be read is dropped, not failed on.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct CacheStorageTests {
    enum StorageKind: String, CaseIterable, CustomTestStringConvertible {
        case memory
        case directory

        var testDescription: String { rawValue }

        func cache(byteLimit: Int, in directory: TemporaryDirectory) throws -> HttpCache {
            switch self {
            case .memory: HttpCache(byteLimit: byteLimit)
            case .directory: try HttpCache(directory: directory.url, byteLimit: byteLimit)
            }
        }
    }

    /// Answers `max-age=600` with a kilobyte-long body naming the key and the request's number.
    static func behavior() -> MockingBehavior<CachedResource> {
        MockingBehavior { endpoint, _, number in
            let padding = String(repeating: "x", count: 1000)
            return MockedResponse(
                status: .ok,
                headers: ["Cache-Control": "max-age=600"],
                bodyData: Data(#"{"key":"\#(endpoint.key)","version":\#(number),"varied":"\#(padding)"}"#.utf8)
            )
        }
    }

    static func versions(_ provider: ApiProvider<CachedResource>, _ keys: [String]) async -> [CacheStatus?] {
        var statuses: [CacheStatus?] = []
        for key in keys { statuses.append(await provider.version(of: CachedResource(key: key)).status) }
        return statuses
    }

    /// Two entries fit in 3000 bytes, three do not: the least recently used goes.
    @Test(arguments: StorageKind.allCases)
    func theLeastRecentlyUsedEntryGoesFirst(kind: StorageKind) async throws {
        try await TemporaryDirectory.with { directory in
            let provider = ApiProvider(
                mockingBehavior: Self.behavior(),
                cache: try kind.cache(byteLimit: 3000, in: directory)
            )
            #expect(await Self.versions(provider, ["a", "b", "a", "c"]) == [.miss, .miss, .hit, .miss])
            // `b` was used least recently when `c` came.
            #expect(await Self.versions(provider, ["a", "c", "b"]) == [.hit, .hit, .miss])
        }
    }

    @Test func aDirectorysEntriesOutliveTheCache() async throws {
        try await TemporaryDirectory.with { directory in
            let first = ApiProvider(mockingBehavior: Self.behavior(), cache: try HttpCache(directory: directory.url))
            #expect(await Self.versions(first, ["kept"]) == [.miss])
            let behavior = Self.behavior()
            let second = ApiProvider(mockingBehavior: behavior, cache: try HttpCache(directory: directory.url))
            #expect(await second.version(of: CachedResource(key: "kept")) == (1, .hit))
            #expect(behavior.answeredRequests.withLock { $0 } == 0)
        }
    }

    @Test func anEntryThatCannotBeReadIsFetchedAnew() async throws {
        try await TemporaryDirectory.with { directory in
            let first = ApiProvider(mockingBehavior: Self.behavior(), cache: try HttpCache(directory: directory.url))
            #expect(await Self.versions(first, ["torn"]) == [.miss])
            let files = try directory.contents()
            #expect(files.count == 1)
            for name in files {
                let file = directory.file(name)
                let bytes = try Data(contentsOf: file)
                try bytes.prefix(bytes.count / 2).write(to: file)
            }
            let behavior = Self.behavior()
            let second = ApiProvider(mockingBehavior: behavior, cache: try HttpCache(directory: directory.url))
            #expect(await second.version(of: CachedResource(key: "torn")) == (1, .miss))
            #expect(await second.version(of: CachedResource(key: "torn")) == (1, .hit))
            #expect(behavior.answeredRequests.withLock { $0 } == 1)
        }
    }

    @Test func theCodingReadsBackWhatItWroteAndNothingElse() {
        let key = CacheKey(partition: "alice", url: "https://api.example.com/todos?page=1")
        let stored = StoredResponse(
            statusCode: 200,
            httpVersion: "HTTP/1.1",
            headerFields: ["Cache-Control": "max-age=60", "Vary": "Accept-Language", "ETag": "\"é\""],
            body: Data([0, 1, 2, 255]),
            varyNames: ["accept-language"],
            varyValues: ["accept-language": "de"],
            requestTime: Date(timeIntervalSinceReferenceDate: 1000.25),
            responseTime: Date(timeIntervalSinceReferenceDate: 1001.5),
            freshnessLifetime: 60
        )
        let data = CacheEntryCoding.encode([stored, stored], for: key)
        #expect(CacheEntryCoding.decode(data, for: key) == [stored, stored])
        #expect(CacheEntryCoding.decode(data, for: CacheKey(partition: "bob", url: key.url)) == nil)
        for length in [0, 10, data.count / 2, data.count - 1] {
            #expect(CacheEntryCoding.decode(data.prefix(length), for: key) == nil)
        }
        #expect(CacheEntryCoding.decode(data + Data([0]), for: key) == nil)
    }
}
