import Courier
import CourierTestServer
import Foundation
import Testing

#if AsyncHTTPClient
import AsyncHTTPClient
import CourierAsyncHTTPClient
#endif
#if Combine
import CourierCombine
#endif

/// Every fault of the hostile server, on every transport and through every door, ends as the fault table says, and
/// the server received the request once (a refused connection: never; a sending the client's timeout ended: at most
/// once).
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct FaultTableTests {
    /// The pipeline's three doors and the Combine publisher.
    enum FaultDoor: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case completion, wait, async
        #if Combine
        case combine
        #endif
        var testDescription: String { rawValue }
    }

    /// The faults the server never ends, which only the client's timeout ends.
    static let heldUntilTheClientLeaves: Set<Fault> = [.silence, .drip]

    static let survivable = Fault.allCases.flatMap { fault in
        TransportKind.allCases.filter { !FaultTable.accepted(fault, on: $0.faultTableColumn).isEmpty }.map {
            (fault, $0)
        }
    }

    @Test(arguments: survivable)
    func eachFaultEndsAsTheTableSays(fault: Fault, transport: TransportKind) async throws {
        try await HostileServer.withServer { server in
            try await transport.withProvider(FaultApi.self, baseUrl: nil) { provider in
                let accepted = FaultTable.accepted(fault, on: transport.faultTableColumn)
                for door in FaultDoor.allCases {
                    let before = server.requestCounts[fault] ?? 0
                    let outcome = await Self.outcome(of: FaultApi(fault, on: server), through: door, on: provider)
                    #expect(accepted.contains(outcome), "\(fault) over \(transport) through \(door): \(outcome)")
                    if Self.heldUntilTheClientLeaves.contains(fault) {
                        // The client's timeout, not the server, ended it: the server sees the connection close, and
                        // it read whatever request the connection carried before that, however late its event loop
                        // got to it.
                        await server.waitUntilAllConnectionsClose()
                    }
                    let sent = (server.requestCounts[fault] ?? 0) - before
                    if fault == .refuse {
                        #expect(sent == 0, "\(fault) through \(door): requests")
                    } else if Self.heldUntilTheClientLeaves.contains(fault) {
                        // The short timeout may end a sending while a busy machine's connection is still being
                        // made, before the request is written (seen under ThreadSanitizer with AsyncHTTPClient);
                        // what must hold then is that a timed-out sending is never sent again.
                        #expect(sent <= 1, "\(fault) through \(door): requests")
                    } else {
                        #expect(sent == 1, "\(fault) through \(door): requests")
                    }
                }
            }
        }
    }

    #if AsyncHTTPClient
    /// The table's AsyncHTTPClient column is for a client as configured by default, which does not decompress; one
    /// told to reports a body that does not inflate as libcurl's is.
    @Test func aDecompressingClientReportsCorruptGzipAsURLSessionDoes() async throws {
        try await HostileServer.withServer { server in
            var configuration = HTTPClient.Configuration()
            configuration.decompression = .enabled(limit: .none)
            try await withHTTPClient(configuration) { client in
                let provider = ApiProvider<FaultApi>(transport: AsyncHTTPClientTransport(client: client))
                let result = await provider.response(on: FaultApi(.corruptGzip, on: server), decodeBodyTo: [Int].self)
                #expect(FaultOutcome(result) == FaultTable.accepted(.corruptGzip, on: .urlSession).first)
            }
        }
    }
    #endif

    @Test func theArticlesTableIsThisTable() throws {
        let article = try String(contentsOf: Self.repositoryRoot.appendingPathComponent(Self.article), encoding: .utf8)
        let rows = article.split(separator: "\n").filter { $0.hasPrefix("| `") && $0.contains("` |") }
        var documented: [String: [String]] = [:]
        for row in rows {
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 4 else { continue }
            documented[cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))] = Array(cells[1...3])
        }
        for fault in Fault.allCases {
            let row = try #require(documented[fault.rawValue], "\(Self.article) has no row for \(fault)")
            #expect(row[0] == FaultTable.cell(fault, on: .urlSession), "\(fault) over URLSession")
            #expect(row[1] == FaultTable.cell(fault, on: .asyncHTTPClient), "\(fault) over AsyncHTTPClient")
            #expect(row[2] == FaultTable.cell(fault, on: .curl), "\(fault) over libcurl")
        }
    }

    static let article = "Sources/Courier/Courier.docc/WhenTheServerMisbehaves.md"

    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func outcome(
        of endpoint: FaultApi,
        through door: FaultDoor,
        on provider: ApiProvider<FaultApi>
    ) async
        -> FaultOutcome
    {
        switch door {
        case .completion:
            FaultOutcome(await provider.result(through: .completion, on: endpoint, decodeBodyTo: [Int].self))
        case .wait: FaultOutcome(await provider.result(through: .wait, on: endpoint, decodeBodyTo: [Int].self))
        case .async: FaultOutcome(await provider.result(through: .async, on: endpoint, decodeBodyTo: [Int].self))
        #if Combine
        case .combine:
            await {
                let published = await provider.publisher(on: endpoint, decodeBodyTo: [Int].self).outcome()
                if let failure = published.failure { return FaultOutcome(.failure(failure)) }
                guard published.finishedWithOneValue, let value = published.values.first else {
                    return .other("the publisher sent \(published.values.count) values")
                }
                return FaultOutcome(.success(value))
            }()
        #endif
        }
    }
}

extension TransportKind {
    var faultTableColumn: FaultTable.Transport {
        switch self {
        case .urlSession: .urlSession
        #if AsyncHTTPClient
        case .asyncHTTPClient: .asyncHTTPClient
        #endif
        case .curl: .curl
        }
    }
}
