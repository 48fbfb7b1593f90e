import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension ApiError: CustomStringConvertible, CustomDebugStringConvertible {
    /// The case and what it carries, for developers: `print(error)`, string interpolation, test failures and log
    /// lines show which case to match, e.g. `ApiError.clientError(statusCode: 404, clientError: TodoError(…))`.
    ///
    /// The sentence for the people using the app is ``errorDescription`` (and `localizedDescription`).
    public var description: String { debugDescription }

    /// The case and what it carries, written as the case is matched or built: strings quoted, an underlying
    /// `URLError` as `URLError(.timedOut)`, a response by its URL.
    public var debugDescription: String {
        "ApiError." + caseDescription
    }

    private var caseDescription: String {
        switch self {
        case .invalidRequest(let reason):
            return "invalidRequest(reason: \(reason.debugDescription))"
        case .noResponseReceived(let error):
            return "noResponseReceived(error: \(error.map(Self.describe) ?? "nil"))"
        case .cancelled:
            return "cancelled"
        case .noDataInResponse(let statusCode):
            return "noDataInResponse(statusCode: \(statusCode))"
        case .responseDataConversionFailed(let type, let error):
            return "responseDataConversionFailed(type: \(type.debugDescription), error: \(Self.describe(error)))"
        case .clientError(let statusCode, let clientError):
            let decoded = clientError.map { String(describing: $0) } ?? "nil"
            return "clientError(statusCode: \(statusCode), clientError: \(decoded))"
        case .serverError(let statusCode):
            return "serverError(statusCode: \(statusCode))"
        case .unexpectedStatusCode(let statusCode):
            return "unexpectedStatusCode(statusCode: \(statusCode))"
        case .unexpectedResponseType(let response):
            return "unexpectedResponseType(response: \(response.url?.absoluteString.debugDescription ?? "nil"))"
        case .responseBodyTooLarge(let limit):
            return "responseBodyTooLarge(limit: \(limit))"
        case .fileError(let url, let error):
            return "fileError(url: \(url.path.debugDescription), error: \(Self.describe(error)))"
        case .pluginFailed(let plugin, let error):
            return "pluginFailed(plugin: \(plugin.debugDescription), error: \(Self.describe(error)))"
        case .emptyMockedResponse(let endpoint):
            return "emptyMockedResponse(endpoint: \(endpoint.debugDescription))"
        }
    }

    /// A `URLError` as it is built (its code by name where Foundation names it), anything else as it describes itself.
    private static func describe(_ error: Error) -> String {
        guard let urlError = error as? URLError else { return String(describing: error) }
        guard let name = URLError.Code.names.first(where: { $0.code == urlError.code })?.name else {
            return "URLError(code: \(urlError.errorCode))"
        }
        return "URLError(.\(name))"
    }
}

extension URLError.Code {
    /// The names of the codes a request can end with, as Foundation spells them.
    static let names: [(code: URLError.Code, name: String)] = [
        (.unknown, "unknown"),
        (.cancelled, "cancelled"),
        (.badURL, "badURL"),
        (.timedOut, "timedOut"),
        (.unsupportedURL, "unsupportedURL"),
        (.cannotFindHost, "cannotFindHost"),
        (.cannotConnectToHost, "cannotConnectToHost"),
        (.networkConnectionLost, "networkConnectionLost"),
        (.dnsLookupFailed, "dnsLookupFailed"),
        (.httpTooManyRedirects, "httpTooManyRedirects"),
        (.resourceUnavailable, "resourceUnavailable"),
        (.notConnectedToInternet, "notConnectedToInternet"),
        (.redirectToNonExistentLocation, "redirectToNonExistentLocation"),
        (.badServerResponse, "badServerResponse"),
        (.userCancelledAuthentication, "userCancelledAuthentication"),
        (.userAuthenticationRequired, "userAuthenticationRequired"),
        (.zeroByteResource, "zeroByteResource"),
        (.cannotDecodeRawData, "cannotDecodeRawData"),
        (.cannotDecodeContentData, "cannotDecodeContentData"),
        (.cannotParseResponse, "cannotParseResponse"),
        (.dataLengthExceedsMaximum, "dataLengthExceedsMaximum"),
        (.cannotOpenFile, "cannotOpenFile"),
        (.secureConnectionFailed, "secureConnectionFailed"),
        (.serverCertificateHasBadDate, "serverCertificateHasBadDate"),
        (.serverCertificateUntrusted, "serverCertificateUntrusted"),
        (.serverCertificateHasUnknownRoot, "serverCertificateHasUnknownRoot"),
        (.serverCertificateNotYetValid, "serverCertificateNotYetValid"),
        (.clientCertificateRejected, "clientCertificateRejected"),
        (.clientCertificateRequired, "clientCertificateRequired"),
        (.cannotLoadFromNetwork, "cannotLoadFromNetwork"),
        (.appTransportSecurityRequiresSecureConnection, "appTransportSecurityRequiresSecureConnection"),
        (.callIsActive, "callIsActive"),
        (.dataNotAllowed, "dataNotAllowed"),
        (.internationalRoamingOff, "internationalRoamingOff"),
        (.backgroundSessionWasDisconnected, "backgroundSessionWasDisconnected"),
    ]
}
