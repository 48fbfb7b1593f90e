#if AsyncHTTPClient || WebSocket
import Courier
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// SwiftNIO's and swift-nio-ssl's errors as the `URLError` codes URLSession reports for the same failures, for every
/// product that speaks over NIO, so that callers get the same `ApiError` whatever carries their requests.
package enum NIOErrors {
    /// `error` as a `URLError` (or as Courier's own error it already is).
    package static func urlError(for error: Error) -> Error {
        if error is ResponseBodyTooLargeError || error is URLError { return error }
        if error is CancellationError { return URLError(.cancelled) }
        if let invalid = error as? InvalidRequestError { return invalid }
        if let tlsFailure = TlsFailures.urlError(for: error) { return tlsFailure }
        if let parserError = error as? HTTPParserError {
            // The connection ended before the announced body was whole: lost, as a reset mid-body is.
            if case .invalidEOFState = parserError { return URLError(.networkConnectionLost, underlying: error) }
            return URLError(.badServerResponse, underlying: error)
        }
        if let connection = error as? NIOConnectionError {
            let refused = connection.connectionErrors.contains { ($0.error as? IOError)?.errnoCode == ECONNREFUSED }
            if refused { return URLError(.cannotConnectToHost, underlying: error) }
            if connection.dnsAError != nil || connection.dnsAAAAError != nil {
                return URLError(.cannotFindHost, underlying: error)
            }
            return URLError(.cannotConnectToHost, underlying: error)
        }
        if let ioError = error as? IOError {
            if ioError.errnoCode == ECONNREFUSED { return URLError(.cannotConnectToHost, underlying: error) }
            if ioError.errnoCode == ECONNRESET || ioError.errnoCode == EPIPE {
                return URLError(.networkConnectionLost, underlying: error)
            }
        }
        if let channelError = error as? ChannelError {
            switch channelError {
            case .connectTimeout: return URLError(.timedOut, underlying: error)
            case .eof, .ioOnClosedChannel, .alreadyClosed, .outputClosed:
                return URLError(.networkConnectionLost, underlying: error)
            default: return URLError(.unknown, underlying: error)
            }
        }
        return URLError(.unknown, underlying: error)
    }
}

extension URLError {
    /// The code, with the transport's own error kept for whoever wants the detail.
    package init(_ code: Code, underlying: Error) {
        self.init(code, userInfo: [NSUnderlyingErrorKey: underlying, NSLocalizedDescriptionKey: "\(underlying)"])
    }
}
#endif
