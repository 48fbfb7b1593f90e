#if canImport(CCourierCurl)
import CCourierCurl
import CLibcurl
import Foundation

/// `TlsOptions` as libcurl's options: trust roots and the client identity as in-memory blobs, the oldest version,
/// pinned keys. libcurl keeps a connection for a request with the same options alone (its pinned keys and blobs are
/// among what it compares), so a pin is never skipped on a connection opened without it.
enum CurlTls {
    static func apply(_ tls: TlsOptions, to easy: UnsafeMutableRawPointer) throws {
        let version = tls.minimumVersion == .tls13 ? CURL_SSLVERSION_TLSv1_3 : CURL_SSLVERSION_TLSv1_2
        _ = courier_curl_set_long(easy, CURLOPT_SSLVERSION, Int(version))
        switch tls.trustRoots {
        case .system:
            break
        case .only(let certificates):
            try setBlob(pem(of: certificates), CURLOPT_CAINFO_BLOB, on: easy)
            // Nothing else: neither the system's bundle nor its directory of certificates.
            _ = courier_curl_set_pointer(easy, CURLOPT_CAINFO, nil)
            _ = courier_curl_set_pointer(easy, CURLOPT_CAPATH, nil)
        case .systemAnd(let certificates):
            try setBlob(systemBundle(of: easy) + pem(of: certificates), CURLOPT_CAINFO_BLOB, on: easy)
        }
        if let identity = tls.clientIdentity {
            try setBlob(Data(identity.certificateChainPem.utf8), CURLOPT_SSLCERT_BLOB, on: easy)
            try setBlob(Data(identity.privateKeyPem.utf8), CURLOPT_SSLKEY_BLOB, on: easy)
            _ = "PEM".withCString { courier_curl_set_pointer(easy, CURLOPT_SSLCERTTYPE, $0) }
            _ = "PEM".withCString { courier_curl_set_pointer(easy, CURLOPT_SSLKEYTYPE, $0) }
        }
        if !tls.pinnedPublicKeys.isEmpty {
            let pins = try tls.pinnedPublicKeys.map { try $0.checked() }
            let code = pins.sorted().joined(separator: ";").withCString {
                courier_curl_set_pointer(easy, CURLOPT_PINNEDPUBLICKEY, $0)
            }
            guard code == CURLE_OK else {
                throw InvalidRequestError(
                    reason: "libcurl cannot pin public keys: \(String(cString: curl_easy_strerror(code)))"
                )
            }
        }
    }

    private static func setBlob(_ bytes: Data, _ option: CURLoption, on easy: UnsafeMutableRawPointer) throws {
        let code = bytes.withUnsafeBytes { courier_curl_set_blob(easy, option, $0.baseAddress, $0.count) }
        guard code == CURLE_OK else {
            throw InvalidRequestError(
                reason: "libcurl refused the TLS options: \(String(cString: curl_easy_strerror(code)))"
            )
        }
    }

    /// Certificates as one PEM text: DER ones are wrapped.
    static func pem(of certificates: [TlsCertificate]) -> Data {
        var text = Data()
        for certificate in certificates {
            switch certificate.encoding {
            case .pem:
                text.append(certificate.bytes)
                text.append(UInt8(ascii: "\n"))
            case .der:
                let base64 = certificate.bytes.base64EncodedString(options: [
                    .lineLength64Characters, .endLineWithLineFeed,
                ])
                text.append(Data("-----BEGIN CERTIFICATE-----\n\(base64)\n-----END CERTIFICATE-----\n".utf8))
            }
        }
        return text
    }

    /// The bundle of authorities libcurl trusts by default, to add certificates to.
    private static func systemBundle(of easy: UnsafeMutableRawPointer) throws -> Data {
        var path: UnsafePointer<CChar>?
        guard courier_curl_info_string(easy, CURLINFO_CAINFO, &path) == CURLE_OK, let path else { return Data() }
        let file = URL(fileURLWithPath: String(cString: path))
        do {
            return try Data(contentsOf: file) + Data("\n".utf8)
        } catch {
            throw InvalidRequestError(reason: "the system's trust roots at \(file.path) could not be read: \(error)")
        }
    }
}
#endif
