import Courier
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a caller got from a ``Fault``, reduced to what the fault table states: the `ApiError` case and, for
/// `noResponseReceived`, the `URLError` code.
public enum FaultOutcome: Equatable, Sendable, CustomStringConvertible {
    /// The body `[1,2,3]`, decoded.
    case value([Int])
    /// `noResponseReceived`, with the `URLError` code of its error.
    case noResponse(URLError.Code?)
    /// `clientError`, with the status and the decoded body.
    case clientError(Int, FaultMessage?)
    /// `responseDataConversionFailed`.
    case conversionFailed
    /// `responseBodyTooLarge`.
    case tooLarge
    /// `cancelled`.
    case cancelled
    /// Any other error, as it prints.
    case other(String)

    /// The outcome of what a caller got.
    public init(_ result: Result<[Int], ApiError<FaultMessage>>) {
        switch result {
        case .success(let value): self = .value(value)
        case .failure(.noResponseReceived(let error)): self = .noResponse((error as? URLError)?.code)
        case .failure(.clientError(let status, let message)): self = .clientError(status, message)
        case .failure(.responseDataConversionFailed): self = .conversionFailed
        case .failure(.responseBodyTooLarge): self = .tooLarge
        case .failure(.cancelled): self = .cancelled
        case .failure(let error): self = .other("\(error)")
        }
    }

    /// The outcome as the fault table (the article *When the server misbehaves*) writes it.
    public var tableCell: String {
        switch self {
        case .value(let value): "`\(value)`"
        case .noResponse(let code?): "`.\(Self.names[code] ?? "\(code.rawValue)")`"
        case .noResponse(nil): "no error"
        case .clientError(let status, _): "`clientError(\(status))`"
        case .conversionFailed: "`responseDataConversionFailed`"
        case .tooLarge: "`responseBodyTooLarge`"
        case .cancelled: "`cancelled`"
        case .other(let text): text
        }
    }

    public var description: String { tableCell }

    private static let names: [URLError.Code: String] = [
        .cannotConnectToHost: "cannotConnectToHost", .timedOut: "timedOut",
        .networkConnectionLost: "networkConnectionLost", .badServerResponse: "badServerResponse",
        .cannotDecodeContentData: "cannotDecodeContentData", .unknown: "unknown",
    ]
}
