#if WebSocket
import Courier
import CourierTestServer
import CourierTestServerTLS
import CourierTestServerWebSocket
import CourierWebSocket
import Foundation
import Testing

/// `wss` against the loopback server with a private authority: the endpoint's TLS options honoured, and each refusal
/// the typed TLS failure a request gets, with no upgrade reaching the server.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct TlsTests {
    @Test func theEndpointsTrustRootsAreHonoured() async throws {
        try await WebSocketTestServer.withServer(tls: .init()) { server in
            let socket = try await server.provider()
                .webSocket(on: .echoOver(tls: try .testAuthority()), receiving: Line.self, sending: Line.self).get()
            let line = Line(author: "a", text: "over TLS")
            try await socket.send(line)
            var iterator = socket.makeAsyncIterator()
            #expect(try await iterator.next() == line)
            await socket.close()
        }
    }

    @Test func aServerOfAnUntrustedAuthorityIsAnUntrustedCertificate() async throws {
        try await WebSocketTestServer.withServer(tls: .init()) { server in
            // Without the endpoint's options: the system's roots, which do not hold the private authority.
            let outcome = await server.provider().webSocket(
                on: .echoOver(tls: nil),
                receiving: Line.self,
                sending: Line.self
            )
            #expect(outcome.failure?.tlsFailure == .untrustedCertificate)
            #expect(await server.receivedUpgrades().isEmpty)
        }
    }

    @Test func aCertificateForAnotherHostIsAWrongHost() async throws {
        try await WebSocketTestServer.withServer(tls: .init(certificate: .wrongHost)) { server in
            let outcome = await server.provider()
                .webSocket(on: .echoOver(tls: try .testAuthority()), receiving: Line.self, sending: Line.self)
            #expect(outcome.failure?.tlsFailure == .wrongHost)
            #expect(await server.receivedUpgrades().isEmpty)
        }
    }

    @Test func pinnedKeysAreRefusedAsAnInvalidRequestAndNothingIsSent() async throws {
        try await WebSocketTestServer.withServer(tls: .init()) { server in
            let pinned = TlsOptions(
                trustRoots: .only([TlsCertificate(pem: TestCertificates.shared.authority)]),
                pinnedPublicKeys: [TlsPublicKeyPin(sha256: TestCertificates.shared.trusted.publicKeyPin)]
            )
            let outcome = await server.provider()
                .webSocket(on: .echoOver(tls: pinned), receiving: Line.self, sending: Line.self)
            guard case .invalidRequest(let reason) = outcome.failure else {
                Issue.record("not refused: \(String(describing: outcome.failure))")
                return
            }
            #expect(reason.contains("CourierWebSocket cannot check pinned public keys"))
            #expect(await server.receivedUpgrades().isEmpty)
        }
    }

    @Test func mutualTlsPresentsTheClientIdentityAndFailsTypedWithoutOne() async throws {
        try await WebSocketTestServer.withServer(tls: .init(requiresClientCertificate: true)) { server in
            let without = await server.provider()
                .webSocket(on: .echoOver(tls: try .testAuthority()), receiving: Line.self, sending: Line.self)
            #expect(without.failure?.tlsFailure == .clientCertificateRequired)
            #expect(await server.receivedUpgrades().isEmpty)
            let socket = try await server.provider()
                .webSocket(
                    on: .echoOver(tls: try .testAuthorityWithClientIdentity()),
                    receiving: Line.self,
                    sending: Line.self
                ).get()
            try await socket.send(Line(author: "a", text: "known"))
            var iterator = socket.makeAsyncIterator()
            #expect(try await iterator.next() == Line(author: "a", text: "known"))
            await socket.close()
            #expect(await server.receivedUpgrades().count == 1)
        }
    }
}
#endif
