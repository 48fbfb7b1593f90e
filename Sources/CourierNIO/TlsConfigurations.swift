#if AsyncHTTPClient || WebSocket
import Courier
import Foundation
import NIOConcurrencyHelpers
import NIOSSL

/// Courier's `TlsOptions` as swift-nio-ssl configurations, each made and checked once: reading certificates and
/// keys, and proving that a key matches its certificate, would otherwise cost every request.
package final class TlsConfigurations: Sendable {
    private let made = NIOLockedValueBox<[TlsOptions: Result<TLSConfiguration, InvalidRequestError>]>([:])

    private static let capacity = 64

    /// What sends with these configurations, as refusals name it, e.g. "AsyncHTTPClientTransport".
    private let sender: String

    package init(sender: String) {
        self.sender = sender
    }

    package func configuration(for options: TlsOptions) -> Result<TLSConfiguration, InvalidRequestError> {
        if let known = made.withLockedValue({ $0[options] }) { return known }
        let result = Self.made(for: options, sender: sender)
        made.withLockedValue { made in
            // Options made anew per request (a rotating identity) must not grow this without bound.
            if made.count >= Self.capacity { made.removeAll() }
            made[options] = result
        }
        return result
    }

    /// `options` as a configuration, or why they cannot be one.
    /// `options` as a configuration, or why they cannot be one; `sender` names what would send with it.
    package static func made(for options: TlsOptions, sender: String) -> Result<TLSConfiguration, InvalidRequestError> {
        Result { () throws(InvalidRequestError) in try make(options, sender: sender) }
    }

    private static func make(_ options: TlsOptions, sender: String) throws(InvalidRequestError) -> TLSConfiguration {
        guard options.pinnedPublicKeys.isEmpty else {
            // swift-nio-ssl's clients offer no verification callback to compare the server's key in.
            throw InvalidRequestError(
                reason: "\(sender) cannot check pinned public keys: trust only the server's authority instead, or, for "
                    + "a request, send it with CurlTransport (Linux's default transport), which checks them"
            )
        }
        var configuration = TLSConfiguration.makeClientConfiguration()
        switch options.trustRoots {
        case .system:
            configuration.trustRoots = .default
        case .only(let authorities):
            configuration.trustRoots = .certificates(try certificates(authorities, purpose: "trust roots"))
        case .systemAnd(let authorities):
            configuration.trustRoots = .default
            configuration.additionalTrustRoots = [
                .certificates(try certificates(authorities, purpose: "additional trust roots"))
            ]
        }
        configuration.minimumTLSVersion = options.minimumVersion == .tls13 ? .tlsv13 : .tlsv12
        if let identity = options.clientIdentity {
            let chain = try certificates(
                [TlsCertificate(pem: identity.certificateChainPem)],
                purpose: "client identity's certificate chain"
            )
            configuration.certificateChain = chain.map { .certificate($0) }
            do {
                configuration.privateKey = .privateKey(
                    try NIOSSLPrivateKey(bytes: Array(identity.privateKeyPem.utf8), format: .pem)
                )
            } catch {
                throw InvalidRequestError(
                    reason: "the client identity's private key could not be read as PEM: \(error)"
                )
            }
        }
        do {
            // Checks now what the first handshake would, e.g. that the key belongs to the certificate.
            _ = try NIOSSLContext(configuration: configuration)
        } catch {
            throw InvalidRequestError(reason: "the TLS options cannot be used: \(error)")
        }
        return configuration
    }

    private static func certificates(
        _ certificates: [TlsCertificate],
        purpose: String
    ) throws(InvalidRequestError) -> [NIOSSLCertificate] {
        var read: [NIOSSLCertificate] = []
        for (index, certificate) in certificates.enumerated() {
            do {
                switch certificate.encoding {
                case .pem: read += try NIOSSLCertificate.fromPEMBytes(Array(certificate.bytes))
                case .der: read.append(try NIOSSLCertificate(bytes: Array(certificate.bytes), format: .der))
                }
            } catch {
                throw InvalidRequestError(
                    reason: "certificate \(index + 1) of the \(purpose) could not be read: \(error)"
                )
            }
        }
        guard !read.isEmpty else { throw InvalidRequestError(reason: "the \(purpose) hold no certificate") }
        return read
    }
}
#endif
