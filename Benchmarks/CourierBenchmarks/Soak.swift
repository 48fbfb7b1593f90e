#if AsyncHTTPClient && OpenAPI
import AsyncHTTPClient
import Foundation

/// Many requests over the AsyncHTTPClient transport, to see whether resident memory grows with their number.
enum Soak {
    static func run(port: Int, total: Int) async throws -> String {
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        let operation = Loopback.request(.courierAsyncHttpClient, port: port, httpClient: client)
        let warmed = await send(10_000, operation)
        let before = Measure.procStatus("VmRSS")
        let sent = await send(total, operation)
        let after = Measure.procStatus("VmRSS")
        try await client.shutdown()
        return "before \(before) after \(after) ok \(warmed + sent)"
    }

    private static func send(_ count: Int, _ operation: @escaping @Sendable () async -> Bool) async -> Int {
        await withTaskGroup(of: Int.self) { group in
            for lane in 0..<16 {
                group.addTask {
                    var done = 0
                    for _ in stride(from: lane, to: count, by: 16) where await operation() { done += 1 }
                    return done
                }
            }
            return await group.reduce(0, +)
        }
    }
}
#endif
