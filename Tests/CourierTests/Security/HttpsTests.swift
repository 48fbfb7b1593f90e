@testable import Courier
import CourierTestServer
import CourierTestServerTLS
import Foundation
import Testing

#if AsyncHTTPClient
import AsyncHTTPClient
import CourierAsyncHTTPClient
#endif

/// HTTPS against the loopback server with certificates made at test time: what each transport can do, and the
/// same typed failure for the same fault.
@Suite struct HttpsTests {
    /// The transports that apply `TlsOptions` (URLSession on Linux refuses them).
    static let applyingOptions = TransportKind.notURLSession

    /// Runs `body` with a provider over `kind` with `tls`: AsyncHTTPClient on a client of its own that speaks HTTP/2
    /// when offered, or libcurl.
    static func withProvider<Result>(
        _ kind: TransportKind,
        _ server: TestServer,
        tls: TlsOptions?,
        plugins: [Plugin<HttpsApi>] = [],
        _ body: (ApiProvider<HttpsApi>) async throws -> Result
    ) async throws -> Result {
        switch kind {
        case .curl:
            return try await body(
                ApiProvider<HttpsApi>(baseUrl: server.baseUrl, plugins: plugins, transport: CurlTransport(tls: tls))
            )
        case .urlSession:
            // Not among `applyingOptions`: URLSession takes no options of its own (its refusal is tested apart).
            return try await body(
                ApiProvider<HttpsApi>(baseUrl: server.baseUrl, plugins: plugins, transport: URLSessionTransport())
            )
        #if AsyncHTTPClient
        case .asyncHTTPClient:
            var configuration = HTTPClient.Configuration()
            configuration.connectionPool.retryConnectionEstablishment = false
            // The handshake counts towards the connect timeout, and under ThreadSanitizer the parallel suite has made
            // a loopback request take 12 s.
            configuration.timeout.connect = .seconds(Int64(HangGuard.seconds))
            return try await withHTTPClient(configuration) { client in
                try await body(
                    ApiProvider<HttpsApi>(
                        baseUrl: server.baseUrl,
                        plugins: plugins,
                        transport: AsyncHTTPClientTransport(client: client, tls: tls)
                    )
                )
            }
        #endif
        }
    }

    @Test(arguments: Self.applyingOptions, [false, true])
    func aTrustedServerAnswersOverHttp1AndHttp2(kind: TransportKind, http2: Bool) async throws {
        try await TestServer.withServer(tls: .init(http2: http2)) { server in
            let received = try await Self.withProvider(kind, server, tls: try .testAuthority()) { provider in
                try await provider.response(on: .echo(headers: ["X-Probe": "1"]), decodeBodyTo: ReceivedRequest.self)
                    .get()
            }
            #expect(received.header("X-Probe") == "1")
            #expect(await server.receivedRequests().count == 1)
        }
    }

    /// The authority given as PEM beside the system's, as DER, and as a bundle file that starts with a comment.
    @Test(arguments: Self.applyingOptions) func theAuthorityIsTrustedInEveryFormItCanBeGivenIn(
        kind: TransportKind
    ) async throws {
        let pem = TestCertificates.shared.authority
        let base64 = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        let der = try #require(Data(base64Encoded: base64))
        let bundle = FileManager.default.temporaryDirectory.appendingPathComponent(
            "courier-ca-\(UUID().uuidString).pem"
        )
        try Data(("# the test authority\n" + pem).utf8).write(to: bundle)
        defer { try? FileManager.default.removeItem(at: bundle) }
        let fromFile = try TlsCertificate(contentsOf: bundle)
        #expect(fromFile.encoding == .pem)
        let forms: [TlsOptions] = [
            TlsOptions(trustRoots: .systemAnd([TlsCertificate(pem: pem)])),
            TlsOptions(trustRoots: .only([TlsCertificate(der: der)])),
            TlsOptions(trustRoots: .only([fromFile])),
        ]
        try await TestServer.withServer(tls: .init()) { server in
            try await Self.withProvider(kind, server, tls: nil) { provider in
                for tls in forms {
                    let result = await provider.response(on: .echoWith(tls: tls), decodeBodyTo: ReceivedRequest.self)
                    #expect(result.failure == nil, "\(tls.trustRoots)")
                }
            }
            #expect(await server.receivedRequests().count == forms.count)
        }
    }

    @Test(arguments: Self.applyingOptions) func eachCertificateProblemIsItsOwnTypedFailureAndNothingIsSent(
        kind: TransportKind
    ) async throws {
        let certificates = TestCertificates.shared
        let onlyTheClientAuthority = TlsOptions(trustRoots: .only([TlsCertificate(pem: certificates.clientAuthority)]))
        let cases: [(TestServer.TLS.Certificate, TlsOptions?, TlsFailure)] = [
            (.trusted, nil, .untrustedCertificate),
            (.trusted, onlyTheClientAuthority, .untrustedCertificate),
            (.wrongHost, try .testAuthority(), .wrongHost),
            // swift-nio-ssl reports every failed chain check alike (see TlsFailures); OpenSSL tells the reason.
            (.expired, try .testAuthority(), kind == .curl ? .expiredCertificate : .untrustedCertificate),
        ]
        for (certificate, tls, expected) in cases {
            try await TestServer.withServer(tls: .init(certificate: certificate)) { server in
                let result = try await Self.withProvider(kind, server, tls: tls) { provider in
                    await provider.response(on: .echo(), decodeBodyTo: ReceivedRequest.self)
                }
                #expect(result.failure?.tlsFailure == expected, "\(certificate) with \(String(describing: tls))")
                #expect(await server.receivedRequests().isEmpty)
            }
        }
    }

    @Test func urlSessionReportsAPrivateAuthorityAsUntrustedWithLibcurlsReason() async throws {
        try await TestServer.withServer(tls: .init()) { server in
            let provider = ApiProvider<HttpsApi>(baseUrl: server.baseUrl, transport: URLSessionTransport())
            let result = await provider.response(on: .echo(), decodeBodyTo: ReceivedRequest.self)
            #expect(result.failure?.tlsFailure == .untrustedCertificate)
            guard case .failure(.noResponseReceived(let error?)) = result else { return }
            #expect(error.localizedDescription.contains("unable to get local issuer certificate"))
            #expect(await server.receivedRequests().isEmpty)
        }
    }

    @Test(arguments: TransportKind.allCases) func aServerThatDoesNotSpeakTlsIsAFailedHandshake(
        kind: TransportKind
    ) async throws {
        try await TestServer.withServer { plain in
            let https = try #require(URL(string: "https://127.0.0.1:\(plain.port)"))
            let result = try await kind.withProvider(HttpsApi.self, baseUrl: https) { provider in
                await provider.response(on: .echo(), decodeBodyTo: ReceivedRequest.self)
            }
            #expect(result.failure?.tlsFailure == .handshakeFailed, "\(result)")
        }
    }

    @Test(arguments: Self.applyingOptions) func mutualTlsSucceedsWithTheIdentityAndFailsClearlyWithoutOrWithAnother(
        kind: TransportKind
    ) async throws {
        let certificates = TestCertificates.shared
        try await TestServer.withServer(tls: .init(requiresClientCertificate: true)) { server in
            try await Self.withProvider(kind, server, tls: try .testAuthority()) { provider in
                let without = await provider.response(on: .echo(), decodeBodyTo: ReceivedRequest.self)
                #expect(without.failure?.tlsFailure == .clientCertificateRequired)
                // The endpoint's options replace the transport's: with the identity, the same provider gets in.
                let with = await provider.response(
                    on: .echoWith(tls: try .testAuthorityWithClientIdentity()),
                    decodeBodyTo: ReceivedRequest.self
                )
                #expect(with.failure == nil)
                // A certificate from the server's authority is not one the server takes from clients.
                var another = try TlsOptions.testAuthority()
                another.clientIdentity = TlsClientIdentity(
                    certificateChainPem: certificates.trusted.certificate,
                    privateKeyPem: certificates.trusted.privateKey
                )
                let rejected = await provider.response(on: .echoWith(tls: another), decodeBodyTo: ReceivedRequest.self)
                #expect(rejected.failure?.tlsFailure == .clientCertificateRejected)
            }
            #expect(await server.receivedRequests().count == 1)
        }
    }

    @Test(arguments: Self.applyingOptions) func tlsOptionsThatCannotBeReadAreAnInvalidRequestAndNothingIsSent(
        kind: TransportKind
    ) async throws {
        let certificates = TestCertificates.shared
        let mismatched = TlsOptions(
            trustRoots: .only([TlsCertificate(pem: certificates.authority)]),
            clientIdentity: TlsClientIdentity(
                certificateChainPem: certificates.client.certificate,
                privateKeyPem: certificates.trusted.privateKey
            )
        )
        let cases: [(TlsOptions, String)] = [
            (TlsOptions(trustRoots: .only([TlsCertificate(pem: "not a certificate")])), "trust roots"),
            (TlsOptions(trustRoots: .systemAnd([TlsCertificate(der: Data([1, 2, 3]))])), "could not be read"),
            (mismatched, "cannot be used"),
        ]
        try await TestServer.withServer(tls: .init()) { server in
            try await Self.withProvider(kind, server, tls: nil) { provider in
                for (tls, expected) in cases {
                    let result = await provider.response(on: .echoWith(tls: tls), decodeBodyTo: ReceivedRequest.self)
                    let reason = result.invalidRequestReason ?? "\(result)"
                    #expect(reason.contains(expected), "\(reason)")
                }
            }
            #if AsyncHTTPClient
            // Given to the transport over Courier's own client, the same options fail every request the same way.
            let shared = ApiProvider<HttpsApi>(
                baseUrl: server.baseUrl,
                transport: AsyncHTTPClientTransport(tls: cases[0].0)
            )
            let unreadable = await shared.response(on: .echo(), decodeBodyTo: Data.self)
            #expect(unreadable.invalidRequestReason?.contains("trust roots") == true)
            #endif
            let session = ApiProvider<HttpsApi>(baseUrl: server.baseUrl, transport: URLSessionTransport())
            let refused = await session.response(on: .echoWith(tls: try .testAuthority()), decodeBodyTo: Data.self)
            #expect(refused.invalidRequestReason?.contains("AsyncHTTPClientTransport") == true)
            #expect(await server.receivedRequests().isEmpty)
        }
    }

    @Test(arguments: Self.applyingOptions) func aMinimumOfTls13IsNegotiatedWhereOfferedAndRefusesAServerStuckAtTls12(
        kind: TransportKind
    ) async throws {
        var tls = try TlsOptions.testAuthority()
        tls.minimumVersion = .tls13
        try await TestServer.withServer(tls: .init(minimumVersion: .tlsv13)) { server in
            let result = try await Self.withProvider(kind, server, tls: tls) { provider in
                await provider.response(on: .echo(), decodeBodyTo: ReceivedRequest.self)
            }
            #expect(result.failure == nil)
        }
        try await TestServer.withServer(tls: .init(maximumVersion: .tlsv12)) { server in
            let (old, modern) = try await Self.withProvider(kind, server, tls: tls) { provider in
                (
                    await provider.response(on: .echo(), decodeBodyTo: ReceivedRequest.self),
                    await provider.response(
                        on: .echoWith(tls: try .testAuthority()),
                        decodeBodyTo: ReceivedRequest.self
                    )
                )
            }
            #expect(old.failure?.tlsFailure == .handshakeFailed)
            #expect(modern.failure == nil)
            #expect(await server.receivedRequests().count == 1)
        }
    }

    @Test(arguments: Self.applyingOptions) func retryNeverRetriesATlsFailure(kind: TransportKind) async throws {
        let attempts = Locked(0)
        let retry = RetryPlugin<HttpsApi>(policy: RetryPolicy(maximumAttempts: 3, initialDelay: .milliseconds(1)))
        let counter = AttemptRecorder<HttpsApi> { _ in attempts.withLock { $0 += 1 } }
        try await TestServer.withServer(tls: .init(certificate: .wrongHost)) { server in
            let result = try await Self.withProvider(
                kind,
                server,
                tls: try .testAuthority(),
                plugins: [retry, counter]
            ) {
                await $0.response(on: .echo(), decodeBodyTo: ReceivedRequest.self)
            }
            #expect(result.failure?.tlsFailure == .wrongHost)
        }
        #expect(attempts.withLock { $0 } == 1)
    }

    @Test(arguments: Self.applyingOptions) func anHttpsToHttpRedirectCarriesNoCredential(
        kind: TransportKind
    ) async throws {
        try await TestServer.withServer { plain in
            try await TestServer.withServer(tls: .init()) { secure in
                let credentials = [
                    "Authorization": "Bearer secret", "Proxy-Authorization": "Basic c2VjcmV0",
                    "Cookie": "session=secret",
                ]
                let received = try await Self.withProvider(kind, secure, tls: try .testAuthority()) { provider in
                    try await provider.response(
                        on: .redirect(to: plain.url("/echo"), headers: credentials.merging(["X-Kept": "1"]) { $1 }),
                        decodeBodyTo: ReceivedRequest.self
                    ).get()
                }
                #expect(received.header("X-Kept") == "1")
                for name in credentials.keys { #expect(received.header(name) == nil, "\(name)") }
                #expect(await secure.receivedRequests().first?.header("Authorization") == "Bearer secret")
            }
        }
    }
}
