import Courier
import CourierTestServer
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A `206` part that a download cannot place is refused, and nothing is written as the file.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct FaultyPartTests {
    @Test(arguments: TransportKind.allCases)
    func aPartPastItsLengthIsRefusedAndNotWrittenAsTheFile(kind: TransportKind) async throws {
        try await HostileServer.withServer { server in
            try await TemporaryDirectory.with { directory in
                let destination = directory.file("data.json")
                let result = try await kind.withProvider(FaultApi.self, baseUrl: nil) { provider in
                    await provider.download(on: FaultApi(.unplaceablePart, on: server), to: destination)
                }
                guard case .failure(.noResponseReceived(let error as URLError)) = result else {
                    Issue.record("got \(result)")
                    return
                }
                #expect(error.code == .badServerResponse)
                #expect(error.localizedDescription.contains("bytes 4-20/20"))
                #expect(!FileManager.default.fileExists(atPath: destination.path))
                #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == [])
            }
        }
    }

    #if AsyncHTTPClient
    /// `Content-Range: bytes 4-10/*` with a `Content-Length` of `Int64.max`: the part's end, 4 + `Int64.max`,
    /// overflowed and trapped when a resumed download added them. Over AsyncHTTPClient only: FoundationNetworking
    /// traps on that length itself (see the fault table).
    @Test func aPartWhoseEndOverflowsIsTooLargeNotATrap() async throws {
        let kind = TransportKind.asyncHTTPClient
        try await HostileServer.withServer { server in
            try await TemporaryDirectory.with { directory in
                let destination = directory.file("data.json")
                // Ten bytes kept from an earlier try, so that a part from byte 4 continues them.
                let partial = directory.file(".data.json.courier-partial")
                try Data(count: 10).write(to: partial)
                let result = try await kind.withProvider(FaultApi.self, baseUrl: nil) { provider in
                    await provider.download(
                        on: FaultApi(.overflowingPart, on: server),
                        to: destination,
                        options: DownloadOptions(resumable: true)
                    )
                }
                guard case .failure(.responseBodyTooLarge) = result else {
                    Issue.record("got \(result)")
                    return
                }
                #expect(!FileManager.default.fileExists(atPath: destination.path))
            }
        }
    }
    #endif
}
