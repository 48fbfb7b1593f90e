#if canImport(CCourierCurl)
import Foundation

/// The engines of one ``CurlTransport``: each exchange goes to the least busy, and a new engine (a multi handle and
/// its thread) is made only when every engine has work and the limit is not reached. A transport used one request at
/// a time therefore keeps to its first engine and its connections, as with a single engine; one under load spreads
/// over up to the limit, so that one provider is not held to one thread's worth of libcurl's work.
final class CurlEngines: Sendable {
    /// The most engines the transport makes.
    let limit: Int
    private let cookieJar: CurlCookieJar?
    /// The engines made so far, the first made with the transport; only ever grows, until ``close()``.
    private let engines: Locked<[CurlEngine]>

    /// The transport's engines, or `nil` when libcurl cannot make even the first multi handle.
    init?(limit: Int) {
        self.limit = max(limit, 1)
        cookieJar = CurlCookieJar()
        guard let first = CurlEngine.make(cookieJar: cookieJar, name: Self.name(0)) else { return nil }
        engines = Locked([first])
    }

    /// The engine for the next request, counted in its load (``CurlEngine/reserve()``) before the lock is let go, so
    /// that requests arriving together see each other: an idle one (the first made, of several), else a new one
    /// while below the limit, else the one with the fewest requests.
    func next() -> CurlEngine {
        let chosen = engines.withLock { engines in
            // The first engine is made in `init` and none is ever removed before `close()`.
            var chosen = engines[0]
            var least = chosen.load
            for engine in engines.dropFirst() where least > 0 {
                let load = engine.load
                if load < least { (chosen, least) = (engine, load) }
            }
            guard least > 0, engines.count < limit,
                let made = CurlEngine.make(cookieJar: cookieJar, name: Self.name(engines.count))
            else {
                chosen.reserve()
                return chosen
            }
            engines.append(made)
            made.reserve()
            return made
        }
        return chosen
    }

    /// How many engines have a thread: for the tests of how exchanges spread.
    var running: Int { engines.withLock { $0 }.filter(\.hasThread).count }

    /// Ends every engine once what it runs has ended.
    func close() {
        for engine in engines.withLock({ $0 }) { engine.close() }
    }

    /// "Courier curl 0" and on: within the 15 characters Linux keeps of a thread's name.
    private static func name(_ number: Int) -> String { "Courier curl \(number)" }
}
#endif
