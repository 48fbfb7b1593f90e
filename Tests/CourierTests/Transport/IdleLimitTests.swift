import CourierTestServer
import Foundation
import Testing

@testable import Courier

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request's `timeoutInterval` over libcurl: how long the server may leave it without a byte, as over URLSession;
/// a body's producer that takes its time is the caller's pace, not the server's silence.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct IdleLimitTests {
    final class IdleLimit: Plugin<FreeEndpoint>, @unchecked Sendable {
        override func modifyRequest(_ request: inout URLRequest, endpoint: FreeEndpoint) {
            request.timeoutInterval = 1
        }
    }

    /// The producer waits twice the idle limit between its parts: the upload waits with it, and is not ended. What
    /// proves it is that the producer was asked for its end and the server received the whole body; the answer after
    /// it is the server's to send within the limit, which a machine stalled for a second (ThreadSanitizer on two busy
    /// cores) can miss, so the call may end either way, but only with the answer or with a timeout after the body.
    @Test func aProducerSlowerThanTheIdleLimitIsNotCutOff() async throws {
        actor Producer {
            private(set) var made = 0
            func next() async throws -> Data? {
                made += 1
                switch made {
                case 1: return Data("first".utf8)
                case 2:
                    try await Task.sleep(for: .seconds(2))
                    return Data(", second".utf8)
                default: return nil
                }
            }
        }
        try await TestServer.withServer { server in
            let producer = Producer()
            let body = RequestBodyStream(length: nil, iteration: .once, replayLimit: 0) {
                { try await producer.next() }
            }
            let echo = FreeEndpoint(
                subpath: "echo",
                method: .post(),
                headers: ["Content-Type": "application/octet-stream"]
            )
            let provider = ApiProvider<FreeEndpoint>(
                baseUrl: server.baseUrl,
                plugins: [IdleLimit()],
                transport: CurlTransport()
            )
            let result = await provider.rawExchange(on: echo, body: body)
            // Asked for its end: the whole body was taken. An upload ended during the producer's wait never is.
            let asked = await producer.made
            #expect(asked == 3)
            guard asked == 3 else { return }
            // Recorded once its body has arrived whole.
            await server.waitForRequests(count: 1)
            let received = await server.receivedRequests()
            #expect(received.map(\.body) == [Data("first, second".utf8)])
            switch result {
            case .success(let answer): #expect(answer.statusCode == 200)
            case .failure(let failure): #expect(failure == .noResponseReceived(error: URLError(.timedOut)))
            }
        }
    }

    /// A server that sends nothing is left after the idle limit, and sees the connection close.
    @Test func aSilentServerIsLeftAfterTheIdleLimit() async throws {
        try await TestServer.withServer { server in
            let provider = ApiProvider<FreeEndpoint>(
                baseUrl: server.baseUrl,
                plugins: [IdleLimit()],
                transport: CurlTransport()
            )
            let result = await provider.rawDataResponse(on: FreeEndpoint(subpath: "silent/idle"))
            #expect(result.failure == .noResponseReceived(error: URLError(.timedOut)))
            await server.waitForDisconnect(of: "idle")
        }
    }
}
