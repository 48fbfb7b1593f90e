#if canImport(CCourierCurl)
import CLibcurl

/// What an engine keeps for its next exchanges: the easy handles of ended ones, reset (making one allocates and sets
/// up several kilobytes), those that kept cookies apart, since libcurl's cookie engine stays on in a handle once it
/// has been switched on; and the header lists made last, for the next request with the same fields.
final class CurlSpares: Sendable {
    private struct State {
        var handles: [CurlHandle] = []
        var cookieHandles: [CurlHandle] = []
        var lastHeaderLists: CurlHeaderLists?
        /// The engine has ended: a handle given back is freed, not kept.
        var closed = false
    }

    private let state = Locked(State())
    private static let mostHandles = 64

    /// A handle that keeps cookies or one that never has: a spare one, or a new one; `nil` when libcurl cannot make
    /// one.
    func handle(keepingCookies: Bool) -> CurlHandle? {
        state.withLock { keepingCookies ? $0.cookieHandles.popLast() : $0.handles.popLast() } ?? CurlHandle.make()
    }

    /// Takes back the handle of an exchange that has ended (or never started): reset, it serves the next one.
    /// - Parameter cookieEngineOn: Whether libcurl's cookie engine is known to be on in the handle
    ///   (``CurlHandle/cookieEngineOn``).
    func recycle(_ handle: CurlHandle, keepingCookies: Bool, cookieEngineOn: Bool) {
        var handle = handle
        curl_easy_reset(handle.easy)
        handle.clearErrorWords()
        let kept = state.withLock { state in
            guard !state.closed else { return false }
            if keepingCookies {
                guard state.cookieHandles.count < Self.mostHandles else { return false }
                handle.cookieEngineOn = cookieEngineOn
                state.cookieHandles.append(handle)
            } else {
                guard state.handles.count < Self.mostHandles else { return false }
                state.handles.append(handle)
            }
            return true
        }
        if !kept { handle.cleanup() }
    }

    /// The header lists for `fields`: the last ones made when they serve, else new ones, kept for the next request.
    /// A client's requests mostly carry the same fields, and a list costs two allocations a field. The last lists,
    /// credentials among their fields, are kept until a request with other fields comes or the engine ends.
    func headerLists(for fields: [String: String], hasBody: Bool, usesPost: Bool) -> CurlHeaderLists {
        if let last = state.withLock({ $0.lastHeaderLists }), last.serve(fields, hasBody: hasBody, usesPost: usesPost) {
            return last
        }
        let made = CurlHeaderLists(fields: fields, hasBody: hasBody, usesPost: usesPost)
        state.withLock { $0.lastHeaderLists = made }
        return made
    }

    /// Frees the spare handles and lets the lists go; a handle given back from now on is freed at once.
    func close() {
        let spares = state.withLock { state in
            state.closed = true
            state.lastHeaderLists = nil
            defer { (state.handles, state.cookieHandles) = ([], []) }
            return state.handles + state.cookieHandles
        }
        for handle in spares { handle.cleanup() }
    }
}
#endif
