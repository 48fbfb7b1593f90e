#if AsyncHTTPClient
import AsyncHTTPClient
import Courier
import CourierNIO
import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// AsyncHTTPClient's errors as the `URLError` codes URLSession reports for the same failures, so that callers get the
/// same `ApiError` whatever the transport; NIO's own are `NIOErrors`, shared with the other products on NIO.
enum TransportErrors {
    static func urlError(for error: Error, limit: Int) -> Error {
        if error is NIOTooManyBytesError {
            return ResponseBodyTooLargeError(limit: limit)
        }
        if let clientError = error as? HTTPClientError {
            switch clientError {
            case .cancelled, .requestStreamCancelled: return URLError(.cancelled)
            case .connectTimeout: return URLError(.timedOut, underlying: error)
            case .deadlineExceeded, .readTimeout, .writeTimeout: return URLError(.timedOut, underlying: error)
            case .remoteConnectionClosed: return URLError(.networkConnectionLost, underlying: error)
            case .redirectLimitReached, .redirectCycleDetected:
                return URLError(.httpTooManyRedirects, underlying: error)
            default: return URLError(.unknown, underlying: error)
            }
        }
        // A client configured to decompress: a body that does not inflate, as libcurl's is reported.
        if let decompression = error as? NIOHTTPDecompression.DecompressionError {
            let code: URLError.Code = decompression == .limit ? .dataLengthExceedsMaximum : .cannotDecodeContentData
            return URLError(code, underlying: error)
        }
        if error is NIOHTTPDecompression.ExtraDecompressionError {
            return URLError(.cannotDecodeContentData, underlying: error)
        }
        return NIOErrors.urlError(for: error)
    }
}
#endif
