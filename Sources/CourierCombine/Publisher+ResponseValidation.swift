#if Combine
import Courier
import Foundation

#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// CombineRequest's operators on a stream of whole answers (`ApiProvider/dataResponsePublisher(on:)`): each fails
/// the stream with a ``PublisherValidationError`` that says what was expected and what came, and passes the answer
/// on otherwise, so that they chain and end in `decode(type:decoder:)`.
extension Publisher where Output == DataResponseTuple {
    /// Fails the stream unless the answer's status is in `statusCodes`: any `Sequence` of `Int`, e.g. `200..<300`,
    /// `[200, 204]` or a `Set`.
    public func validateStatusCode<Codes: Sequence>(
        in statusCodes: Codes
    ) -> Publishers.TryMap<Self, DataResponseTuple> where Codes.Element == Int {
        tryMap { answer in
            guard statusCodes.contains(answer.response.statusCode) else {
                throw PublisherValidationError.unexpectedStatusCode(
                    answer.response.statusCode,
                    expected: String(describing: statusCodes)
                )
            }
            return answer
        }
    }

    /// Fails the stream unless the answer's `Content-Type` is `expectedType`, compared without regard to case, with
    /// or without a `charset` parameter: `hasContentType("application/json")` accepts `application/json` and
    /// `Application/JSON; charset=utf-8`, and refuses `application/json; version=2` and `text/json`.
    ///
    /// An answer with an empty body passes whatever its type, as in CombineRequest: a `204 No Content` has none.
    public func hasContentType(_ expectedType: String) -> Publishers.TryMap<Self, DataResponseTuple> {
        tryMap { answer in
            guard !answer.data.isEmpty else { return answer }
            let contentType = answer.response.value(forHTTPHeaderField: "Content-Type")
            guard let contentType, ContentTypeMatch.matches(contentType, expected: expectedType) else {
                throw PublisherValidationError.unexpectedContentType(contentType, expected: expectedType)
            }
            return answer
        }
    }

    /// Decodes the answer's body, as Combine's `decode(type:decoder:)` does for a stream of `Data`.
    public func decode<Item: Decodable, Coder: TopLevelDecoder>(
        type: Item.Type,
        decoder: Coder
    ) -> Publishers.TryMap<Self, Item> where Coder.Input == Data {
        tryMap { answer in try decoder.decode(type, from: answer.data) }
    }
}

/// The comparison behind `hasContentType(_:)`.
enum ContentTypeMatch {
    static func matches(_ contentType: String, expected: String) -> Bool {
        guard MediaType.essence(of: contentType) == MediaType.essence(of: expected) else { return false }
        let sent = parameters(of: contentType)
        let wanted = parameters(of: expected)
        // An expected charset must be the one sent; otherwise a charset is the only parameter allowed.
        if wanted.isEmpty { return sent.allSatisfy { $0.name == "charset" } }
        return sent == wanted
    }

    private struct Parameter: Equatable {
        let name: String
        let value: String
    }

    /// The parameters after the media type, lowercased (charset values are case-insensitive too) and unquoted.
    private static func parameters(of value: String) -> [Parameter] {
        value.split(separator: ";", omittingEmptySubsequences: false).dropFirst().map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        .filter { !$0.isEmpty }
        .map { piece in
            let pair = piece.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            let value = pair.count > 1 ? pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")) : ""
            return Parameter(name: pair.first ?? "", value: value)
        }
    }
}
#endif
