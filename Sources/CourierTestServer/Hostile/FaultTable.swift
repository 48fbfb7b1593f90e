import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What each fault gives a caller with no plugins, on each transport: the table of the article *When the server
/// misbehaves*, which a test compares with this.
public enum FaultTable {
    /// The transports the table has a column for.
    public enum Transport: Sendable {
        case urlSession
        case asyncHTTPClient
        /// Courier's `CurlTransport`: libcurl driven directly.
        case curl
    }

    /// The outcomes a caller may get; one, except where the transport itself races (see `answerBeforeBody`).
    /// Empty where the fault is not survivable on that transport (see ``overflowingPart``'s row), so not tested there.
    public static func accepted(_ fault: Fault, on transport: Transport) -> [FaultOutcome] {
        if fault == .overflowingPart, transport == .urlSession {
            // FoundationNetworking reads the length as a Double and converts it back to Int64: 2^63 - 1 rounds up to
            // 2^63, and the conversion traps in libcurl's header callback, before any delegate is asked.
            return []
        }
        if fault == .answerBeforeBody, transport == .asyncHTTPClient {
            // AsyncHTTPClient closes the connection once a >= 300 answer has ended, and the part of the upload still
            // queued then fails the exchange, often before the answer reaches the delegate.
            return [expected(fault, on: transport), .noResponse(.networkConnectionLost)]
        }
        return [expected(fault, on: transport)]
    }

    /// The table's cell: the accepted outcomes joined by "or".
    public static func cell(_ fault: Fault, on transport: Transport) -> String {
        let accepted = accepted(fault, on: transport)
        return accepted.isEmpty ? "the process traps" : accepted.map(\.tableCell).joined(separator: " or ")
    }

    private static func expected(_ fault: Fault, on transport: Transport) -> FaultOutcome {
        switch fault {
        case .none, .informationalFirst, .closeDelimitedBody: .value([1, 2, 3])
        case .refuse: .noResponse(.cannotConnectToHost)
        case .silence, .drip: .noResponse(.timedOut)
        case .resetBeforeStatusLine, .resetAfterHeaders, .resetMidBody, .shortBody: .noResponse(.networkConnectionLost)
        case .conflictingContentLengths, .repeatedContentLength, .contentLengthWithChunked, .invalidChunkSize,
            .malformedStatusLine,
            .invalidHeaderBytes, .megabyteOfHeaders:
            .noResponse(.badServerResponse)
        case .endlessHeader:
            // libcurl reports a header line over its 100 KB limit as "Out of memory", which is not told apart from
            // running out of memory.
            transport == .urlSession ? .noResponse(.unknown) : .noResponse(.badServerResponse)
        case .corruptGzip:
            // libcurl asks for and inflates compressed answers; AsyncHTTPClient passes them on as they came unless
            // its client is configured to decompress.
            transport == .asyncHTTPClient ? .conversionFailed : .noResponse(.cannotDecodeContentData)
        // A plain request reads a 206 as any 2xx; a download refuses it (see the download tests).
        case .unplaceablePart: .value([1, 2, 3])
        case .overflowingPart: .tooLarge
        case .answerBeforeBody: .clientError(413, FaultMessage(message: "too large"))
        case .staleToken: .clientError(401, FaultMessage(message: "stale token"))
        }
    }
}
