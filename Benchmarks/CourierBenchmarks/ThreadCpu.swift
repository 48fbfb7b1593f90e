#if AsyncHTTPClient && OpenAPI
import Foundation

/// The CPU time of this process's threads, read from `/proc/self/task`, by thread: so that a run can say which
/// thread spent what per request, and so which thread would become the ceiling on a machine with more cores.
enum ThreadCpu {
    /// Each thread's CPU time so far in nanoseconds (its `schedstat`), by thread id, with its name.
    static func snapshot() -> [String: (name: String, nanoseconds: Double)] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        var threads: [String: (name: String, nanoseconds: Double)] = [:]
        for id in tasks {
            let directory = "/proc/self/task/\(id)/"
            guard let schedstat = try? String(contentsOfFile: directory + "schedstat", encoding: .utf8),
                let onCpu = schedstat.split(separator: " ").first.flatMap({ Double($0) })
            else { continue }
            let name = (try? String(contentsOfFile: directory + "comm", encoding: .utf8)) ?? ""
            threads[id] = (name.trimmingCharacters(in: .whitespacesAndNewlines), onCpu)
        }
        return threads
    }

    /// The CPU µs per request each group of threads spent between `before` and `after` (threads that ended in
    /// between are not counted): a libcurl engine by its name, AsyncHTTPClient's event loops together, the rest
    /// (Swift concurrency's pool, which decodes, and Dispatch's threads) together.
    static func perRequest(
        from before: [String: (name: String, nanoseconds: Double)],
        to after: [String: (name: String, nanoseconds: Double)],
        requests: Int
    ) -> [String: Double] {
        var groups: [String: Double] = [:]
        for (id, thread) in after {
            let spent = thread.nanoseconds - (before[id]?.nanoseconds ?? 0)
            groups[group(of: thread.name), default: 0] += spent / 1_000 / Double(max(requests, 1))
        }
        return groups
    }

    static let eventLoops = "event loops"
    static let rest = "rest"

    private static func group(of name: String) -> String {
        if name.hasPrefix("Courier curl") { return name }
        if name.hasPrefix("NIO-") { return eventLoops }
        return rest
    }
}
#endif
