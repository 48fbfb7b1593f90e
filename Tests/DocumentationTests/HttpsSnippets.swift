import Courier
import CourierTestServer
import CourierTestServerTLS
import Foundation
import Testing

#if AsyncHTTPClient
import CourierAsyncHTTPClient
#endif

// snippet: payments api
enum PaymentsApi: Endpoint {
    typealias ClientErrorType = PaymentsError

    case balance
    case settle(batch: Int)

    var subpath: String {
        switch self {
        case .balance: "echo/balance"
        case .settle(let batch): "echo/settlements/\(batch)"
        }
    }

    var method: HttpMethod {
        switch self {
        case .balance: .get
        case .settle: .post(body: .data(Data()))
        }
    }
}

struct PaymentsError: Decodable {
    let message: String
}
// end snippet

#if AsyncHTTPClient
// snippet: mutual tls provider
func paymentsProvider(
    baseUrl: URL,
    authorityPem: String,
    clientCertificatePem: String,
    clientKeyPem: String
) -> ApiProvider<PaymentsApi> {
    let tls = TlsOptions(
        // Only the private authority: a certificate from any other, a public one included, is refused.
        trustRoots: .only([TlsCertificate(pem: authorityPem)]),
        clientIdentity: TlsClientIdentity(certificateChainPem: clientCertificatePem, privateKeyPem: clientKeyPem),
        minimumVersion: .tls13
    )
    return ApiProvider<PaymentsApi>(baseUrl: baseUrl, transport: AsyncHTTPClientTransport(tls: tls))
}
// end snippet
#endif

// snippet: pinned provider
func pinnedPaymentsProvider(
    baseUrl: URL,
    authorityPem: String,
    currentKey: String,
    nextKey: String
) -> ApiProvider<PaymentsApi> {
    let tls = TlsOptions(
        trustRoots: .systemAnd([TlsCertificate(pem: authorityPem)]),
        // The server's key and the one it moves to next: base64 SHA-256 digests of each SubjectPublicKeyInfo.
        pinnedPublicKeys: [TlsPublicKeyPin(sha256: currentKey), TlsPublicKeyPin(sha256: nextKey)]
    )
    return ApiProvider<PaymentsApi>(baseUrl: baseUrl, transport: CurlTransport(tls: tls))
}
// end snippet

// snippet: tls failure
func balanceText(from provider: ApiProvider<PaymentsApi>) async -> String {
    switch await provider.response(on: .balance, decodeBodyTo: Data.self) {
    case .success(let body):
        return "\(body.count) bytes"
    case .failure(let error) where error.tlsFailure == .clientCertificateRequired:
        return "this client has no certificate for the payments server"
    case .failure(let error) where error.tlsFailure != nil:
        return "not the payments server: \(error.localizedDescription)"
    case .failure(let error):
        return error.localizedDescription
    }
}
// end snippet

/// The HTTPS article's snippets, against the loopback HTTPS server with the test authority.
@Suite struct HttpsSnippets {
    #if AsyncHTTPClient
    @Test func mutualTlsWithAPrivateAuthorityGetsInAndEveryoneElseIsToldWhy() async throws {
        let certificates = TestCertificates.shared
        try await TestServer.withServer(tls: .init(requiresClientCertificate: true, minimumVersion: .tlsv13)) {
            server in
            let provider = paymentsProvider(
                baseUrl: server.baseUrl,
                authorityPem: certificates.authority,
                clientCertificatePem: certificates.client.certificate,
                clientKeyPem: certificates.client.privateKey
            )
            let admitted = await balanceText(from: provider)
            #expect(admitted.hasSuffix("bytes"))
            let settled = await provider.response(on: .settle(batch: 7), decodeBodyTo: ReceivedRequest.self)
            #expect((try? settled.get())?.path == "/echo/settlements/7")

            let anonymous = ApiProvider<PaymentsApi>(
                baseUrl: server.baseUrl,
                transport: AsyncHTTPClientTransport(
                    tls: TlsOptions(trustRoots: .only([TlsCertificate(pem: certificates.authority)]))
                )
            )
            let refused = await balanceText(from: anonymous)
            #expect(refused == "this client has no certificate for the payments server")

            let stranger = ApiProvider<PaymentsApi>(baseUrl: server.baseUrl, transport: AsyncHTTPClientTransport())
            let untrusted = await balanceText(from: stranger)
            #expect(untrusted.contains("The server's certificate is not from a trusted certificate authority"))
            #expect(await server.receivedRequests().count == 2)
        }
    }
    #endif

    @Test func aPinnedProviderReachesTheServerWithThatKeyAndNoOther() async throws {
        let certificates = TestCertificates.shared
        try await TestServer.withServer(tls: .init()) { server in
            let pinned = pinnedPaymentsProvider(
                baseUrl: server.baseUrl,
                authorityPem: certificates.authority,
                currentKey: certificates.trusted.publicKeyPin,
                nextKey: certificates.wrongHost.publicKeyPin
            )
            #expect(await balanceText(from: pinned).hasSuffix("bytes"))
            let elsewhere = pinnedPaymentsProvider(
                baseUrl: server.baseUrl,
                authorityPem: certificates.authority,
                currentKey: certificates.expired.publicKeyPin,
                nextKey: certificates.wrongHost.publicKeyPin
            )
            let refused = await balanceText(from: elsewhere)
            #expect(refused.contains("does not have a pinned public key"), "\(refused)")
            #expect(await server.receivedRequests().count == 1)
        }
    }
}
