@testable import Courier
import CourierTestServer
import CourierTestServerTLS
import Foundation
import Testing

/// Public-key pinning: over libcurl the server's key is compared after its chain and host; the transports that
/// cannot compare it refuse the request instead of sending it unpinned.
@Suite struct PinningTests {
    static let certificates = TestCertificates.shared

    static func pinned(_ pins: [String]) throws -> TlsOptions {
        var tls = try TlsOptions.testAuthority()
        tls.pinnedPublicKeys = Set(pins.map { TlsPublicKeyPin(sha256: $0) })
        return tls
    }

    @Test func theServersKeyIsAcceptedAloneOrBesideTheNextOneAndAnotherKeyIsAMismatchBeforeAnythingIsSent()
        async throws
    {
        let attempts = Locked(0)
        let retry = RetryPlugin<HttpsApi>(policy: RetryPolicy(maximumAttempts: 3, initialDelay: .milliseconds(1)))
        let counter = AttemptRecorder<HttpsApi> { _ in attempts.withLock { $0 += 1 } }
        let current = Self.certificates.trusted.publicKeyPin
        let another = Self.certificates.expired.publicKeyPin
        try await TestServer.withServer(tls: .init()) { server in
            // The transport's pin is another key; each endpoint's options replace the transport's whole.
            let mismatch = try await HttpsTests.withProvider(
                .curl,
                server,
                tls: try Self.pinned([another]),
                plugins: [retry, counter]
            ) { provider in
                let alone = await provider.response(
                    on: .echoWith(tls: try Self.pinned([current])),
                    decodeBodyTo: ReceivedRequest.self
                )
                #expect(alone.failure == nil, "\(alone)")
                let beside = await provider.response(
                    on: .echoWith(tls: try Self.pinned(["sha256//" + another, current])),
                    decodeBodyTo: ReceivedRequest.self
                )
                #expect(beside.failure == nil, "\(beside)")
                attempts.withLock { $0 = 0 }
                return await provider.response(on: .echo(), decodeBodyTo: ReceivedRequest.self)
            }
            #expect(mismatch.failure?.tlsFailure == .publicKeyMismatch, "\(mismatch)")
            #expect(attempts.withLock { $0 } == 1)
            guard case .failure(.noResponseReceived(let error?)) = mismatch else { return }
            #expect(error.localizedDescription.contains("pinned public key"), "\(error.localizedDescription)")
            #expect(await server.receivedRequests().count == 2)
        }
    }

    /// A connection opened without the pin is not reused for a request that has one.
    @Test func aPinnedRequestDoesNotReuseAConnectionOpenedWithoutThePin() async throws {
        try await TestServer.withServer(tls: .init()) { server in
            let (unpinned, pinned) = try await HttpsTests.withProvider(.curl, server, tls: nil) { provider in
                (
                    await provider.response(on: .echoWith(tls: try .testAuthority()), decodeBodyTo: Data.self),
                    await provider.response(
                        on: .echoWith(tls: try Self.pinned([Self.certificates.client.publicKeyPin])),
                        decodeBodyTo: Data.self
                    )
                )
            }
            #expect(unpinned.failure == nil)
            #expect(pinned.failure?.tlsFailure == .publicKeyMismatch, "\(pinned)")
            #expect(await server.receivedRequests().count == 1)
        }
    }

    /// The chain and host are checked first: the right key on a certificate for another host is still that.
    @Test func aPinnedKeyDoesNotMakeACertificateForAnotherHostAcceptable() async throws {
        try await TestServer.withServer(tls: .init(certificate: .wrongHost)) { server in
            let result = try await HttpsTests.withProvider(
                .curl,
                server,
                tls: try Self.pinned([Self.certificates.wrongHost.publicKeyPin])
            ) { provider in
                await provider.response(on: .echo(), decodeBodyTo: Data.self)
            }
            #expect(result.failure?.tlsFailure == .wrongHost, "\(result)")
            #expect(await server.receivedRequests().isEmpty)
        }
    }

    @Test func aPinThatIsNotASha256DigestIsAnInvalidRequestAndTheTransportsThatCannotPinRefuseTheRequest()
        async throws
    {
        let current = Self.certificates.trusted.publicKeyPin
        let malformed = [
            "not base64!",
            Data(repeating: 7, count: 20).base64EncodedString(),
            // A second pin smuggled into one: libcurl separates its pins with semicolons.
            "\(current);sha256//\(Self.certificates.expired.publicKeyPin)",
        ]
        try await TestServer.withServer(tls: .init()) { server in
            try await HttpsTests.withProvider(.curl, server, tls: nil) { provider in
                for pin in malformed {
                    let result = await provider.response(
                        on: .echoWith(tls: try Self.pinned([current, pin])),
                        decodeBodyTo: Data.self
                    )
                    let reason = result.invalidRequestReason ?? "\(result)"
                    #expect(reason.contains("is not the base64 of a SHA-256 digest"), "\(reason)")
                    #expect(reason.contains(pin), "\(reason)")
                }
            }
            #if AsyncHTTPClient
            let client = try await HttpsTests.withProvider(.asyncHTTPClient, server, tls: nil) { provider in
                await provider.response(on: .echoWith(tls: try Self.pinned([current])), decodeBodyTo: Data.self)
            }
            #expect(client.invalidRequestReason?.contains("CurlTransport") == true, "\(client)")
            #endif
            let session = ApiProvider<HttpsApi>(baseUrl: server.baseUrl, transport: URLSessionTransport())
            let refused = await session.response(
                on: .echoWith(tls: TlsOptions(pinnedPublicKeys: [TlsPublicKeyPin(sha256: current)])),
                decodeBodyTo: Data.self
            )
            #expect(refused.invalidRequestReason?.contains("CurlTransport") == true, "\(refused)")
            #expect(await server.receivedRequests().isEmpty)
        }
    }

    @Test func aPinReadsTheSameFromItsTextWithOrWithoutPrefixAndFromItsBytes() throws {
        let digest = Data((0..<32).map { UInt8($0) })
        let text = digest.base64EncodedString()
        let pins = [
            TlsPublicKeyPin(sha256: digest), TlsPublicKeyPin(sha256: text), TlsPublicKeyPin(sha256: "sha256//" + text),
        ]
        #expect(Set(pins).count == 1)
        #expect(pins[0].description == "sha256//" + text)
        #expect(pins[0].base64Sha256 == text)
    }
}
