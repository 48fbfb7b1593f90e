import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What the cache step keeps and removes: a new answer stored or the one it outdates dropped, a `304`'s fields
/// merged, what an unsafe request changed removed.
extension CacheStep {

    /// Stores the network's full answer when it may be stored, or drops the stored one it outdates.
    /// - Returns: Whether it was stored.
    func keep(
        _ answer: TransportResponse,
        status: Int,
        fields: [String: String],
        replacing stored: StoredResponse?,
        for request: URLRequest,
        _ rules: Rules,
        _ requestTime: Date,
        _ responseTime: Date
    ) -> Bool {
        // An answer that came after a redirect is the answer for another URL: the hop itself may not be stored.
        let redirected = answer.head.url.map { Self.withoutFragment($0) != rules.key.url } ?? false
        guard !redirected, CacheRules.mayStore(statusCode: status, fields: fields, request: rules.control) else {
            if let stored, status < 500 {
                // A newer answer that may not be stored outdates the stored one.
                cache.update(rules.key, since: rules.removalCount) { $0.removeAll { $0 == stored } }
            }
            return false
        }
        let response = StoredResponse(
            statusCode: status,
            httpVersion: "HTTP/1.1",
            headerFields: fields.filter { !StoredResponse.unstoredFields.contains($0.key.lowercased()) },
            body: answer.body,
            varyNames: StoredResponse.varyNames(HeaderFields.field("Vary", in: fields)),
            varyValues: [:],
            requestTime: requestTime,
            responseTime: responseTime,
            freshnessLifetime: CacheRules.freshnessLifetime(
                statusCode: status,
                fields: fields,
                receivedAt: Date(),
                heuristicFraction: cache.heuristicFreshness
            )
        )
        return store(response, replacing: stored, for: request, rules: rules)
    }

    /// Sends a request with an unsafe method, and removes what is stored for its URL, and for the URLs its
    /// `Location` and `Content-Location` name on the same origin, once it succeeds (RFC 9111, section 4.4), in every
    /// partition.
    func sendInvalidating(
        _ request: URLRequest,
        options: TransportOptions,
        next: any Transport,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> @Sendable () -> Void {
        next.send(request, options: options) { [cache] result in
            if case .success(let answer) = result, let status = answer.head.statusCode, (200..<400).contains(status),
                let url = request.url
            {
                cache.removeAll(url: Self.withoutFragment(url))
                let fields = answer.head.headerFields
                for name in ["Location", "Content-Location"] {
                    guard let value = HeaderFields.field(name, in: fields),
                        let named = URL(string: String(value.trimmingSpaces()), relativeTo: url)?.absoluteURL,
                        named.scheme == url.scheme, named.host == url.host, named.port == url.port
                    else { continue }
                    cache.removeAll(url: Self.withoutFragment(named))
                }
            }
            completion(result)
        }
    }

    /// Keeps `response` as the variant for `request`, in place of `stored` and of any variant with the same `Vary`
    /// values.
    /// - Returns: Whether it was stored.
    @discardableResult
    func store(
        _ response: StoredResponse,
        replacing stored: StoredResponse?,
        for request: URLRequest,
        rules: Rules
    ) -> Bool {
        var response = response
        for name in response.varyNames {
            if let value = StoredResponse.normalized(HeaderFields.field(name, in: rules.fields)) {
                response.varyValues[name] = value
            }
        }
        return cache.update(rules.key, since: rules.removalCount) { variants in
            // Variants made under another `Vary` are dropped: the server no longer tells them apart that way.
            variants.removeAll { variant in
                variant == stored || variant.varyNames != response.varyNames
                    || variant.varyValues == response.varyValues
            }
            variants.append(response)
        }
    }

    /// `stored` with the fields of a `304` in place of its own (RFC 9111, section 3.2), and the times of the exchange
    /// that confirmed it.
    func updating(
        _ stored: StoredResponse,
        with fields: [String: String],
        requestTime: Date,
        responseTime: Date
    ) -> StoredResponse {
        var merged = stored.headerFields
        for (name, value) in fields {
            let lowercased = name.lowercased()
            guard !StoredResponse.unstoredFields.contains(lowercased), lowercased != "content-length" else { continue }
            if let existing = merged.keys.first(where: { HeaderFields.sameName($0, name) }) {
                merged[existing] = nil
            }
            merged[name] = value
        }
        if HeaderFields.field("Age", in: fields) == nil {
            merged = merged.filter { !HeaderFields.sameName($0.key, "Age") }
        }
        var updated = stored
        // Set once: the stored response reads its directives again each time its fields change.
        updated.headerFields = merged
        updated.requestTime = requestTime
        updated.responseTime = responseTime
        updated.freshnessLifetime = CacheRules.freshnessLifetime(
            statusCode: updated.statusCode,
            fields: updated.headerFields,
            receivedAt: Date(),
            heuristicFraction: cache.heuristicFreshness
        )
        return updated
    }
}
