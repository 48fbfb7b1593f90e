#if AsyncHTTPClient && OpenAPI && WebSocket
import Courier
import CourierTestServerWebSocket
import CourierWebSocket
import Foundation
import Logging
import NIOConcurrencyHelpers
import WSClient

/// WebSocket echo round trips through Courier beside raw swift-websocket `WSClient`, resident memory per idle
/// connection, and memory across a million messages, against the loopback WebSocket server in a child process.
enum WebSocketBench {
    enum Api: Endpoint {
        typealias ClientErrorType = EmptyBodyResponse
        case echo
        case push(count: Int)

        var subpath: String {
            switch self {
            case .echo: "ws/echo"
            case .push: "ws/push"
            }
        }

        var method: HttpMethod { .get }

        var queryParameters: [String: QueryParameterValue] {
            guard case .push(let count) = self else { return [:] }
            return ["count": .int(count)]
        }
    }

    typealias Connection = WebSocketConnection<CourierWebSocket.WebSocketMessage, CourierWebSocket.WebSocketMessage>

    /// The message each round trip sends, as a chat message or a subscription would be.
    static let payload = #"{"author":"ada","text":"hello, room seven"}"#

    /// serve-websocket: the loopback WebSocket server alone; prints "websocket <port>".
    static func serve() async throws {
        try await WebSocketTestServer.withServer { server in
            FileHandle.standardOutput.write(Data("websocket \(server.baseUrl.port ?? 0)\n".utf8))
            while true { try await Task.sleep(for: .seconds(3_600)) }
        }
    }

    static func provider(port: Int) -> ApiProvider<Api> {
        ApiProvider<Api>(baseUrl: URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/"))
    }

    /// The table: round trips per second at 1 and 64 connections, each pass alternating the clients, then the
    /// memory figures from child processes.
    static func report(duration: Duration) async throws {
        let (server, port) = try Measure.startServer(["serve-websocket"])
        defer { server.terminate() }
        print("| Connections | raw WSClient | Courier | Courier / raw | Courier CPU µs per round trip | raw CPU µs |")
        print("| --- | --- | --- | --- | --- | --- |")
        for connections in [1, 64] {
            var ratios: [Double] = []
            var courier: [Measure.Flight] = []
            var raw: [Measure.Flight] = []
            for pass in 0..<4 {
                let order = pass % 2 == 0 ? [true, false] : [false, true]
                var flights: [Bool: Measure.Flight] = [:]
                for throughCourier in order {
                    flights[throughCourier] =
                        throughCourier
                        ? try await courierEcho(port: port, connections: connections, duration: duration)
                        : try await rawEcho(port: port, connections: connections, duration: duration)
                }
                guard let mine = flights[true], let theirs = flights[false] else { continue }
                courier.append(mine)
                raw.append(theirs)
                ratios.append(mine.rate / theirs.rate)
            }
            let median = { (flights: [Measure.Flight], path: KeyPath<Measure.Flight, Double>) in
                Report.median(flights.map { $0[keyPath: path] })
            }
            print(
                "| \(connections) | \(Report.rate(median(raw, \.rate))) | \(Report.rate(median(courier, \.rate))) | "
                    + String(
                        format: "%.2f× | %.1f | %.1f |",
                        Report.median(ratios),
                        median(courier, \.cpuMicrosecondsPerRequest),
                        median(raw, \.cpuMicrosecondsPerRequest)
                    )
            )
        }
        print("")
        print(try Measure.child(["websocket-idle", String(port), "1000"]).stdout, terminator: "")
        print(try Measure.child(["websocket-flood", String(port), "1000000"]).stdout, terminator: "")
    }

    /// Round trips per second over `connections` Courier connections, each sending and awaiting its echo in turn.
    static func courierEcho(port: Int, connections: Int, duration: Duration) async throws -> Measure.Flight {
        let provider = provider(port: port)
        var opened: [Connection] = []
        for _ in 0..<connections {
            opened.append(try await provider.webSocket(on: .echo).get())
        }
        let connections = opened
        let flight = try await flight(over: connections.count, duration: duration) { index, deadline in
            let connection = connections[index]
            var messages = connection.makeAsyncIterator()
            var done = 0
            while ContinuousClock.now < deadline {
                try await connection.send(.text(payload))
                guard try await messages.next() != nil else { throw BenchmarkError.badResponse }
                done += 1
            }
            return done
        }
        for connection in opened { await connection.close() }
        return flight
    }

    /// The same over raw `WSClient` connections, each running its round trips in its handler.
    static func rawEcho(port: Int, connections: Int, duration: Duration) async throws -> Measure.Flight {
        let logger = Logger(label: "bench.wsclient")
        return try await flight(over: connections, duration: duration) { _, deadline in
            let done = NIOLockedValueBox(0)
            try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/ws/echo", logger: logger) {
                inbound,
                outbound,
                _ in
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                var count = 0
                while ContinuousClock.now < deadline {
                    try await outbound.write(.text(payload))
                    guard try await messages.next() != nil else { break }
                    count += 1
                }
                done.withLockedValue { $0 = count }
                try await outbound.close(.normalClosure, reason: nil)
            }
            return done.withLockedValue { $0 }
        }
    }

    /// Runs `body` once per connection, concurrently, until a deadline `duration` away; the round trips per second
    /// and this process's CPU per round trip.
    private static func flight(
        over connections: Int,
        duration: Duration,
        _ body: @escaping @Sendable (Int, ContinuousClock.Instant) async throws -> Int
    ) async throws -> Measure.Flight {
        let cpuBefore = Measure.cpuSeconds()
        let start = ContinuousClock.now
        let deadline = start + duration
        let total = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<connections { group.addTask { try await body(index, deadline) } }
            return try await group.reduce(0, +)
        }
        let elapsed = Measure.seconds(start.duration(to: .now))
        let cpu = Measure.cpuSeconds() - cpuBefore
        return Measure.Flight(
            rate: Double(total) / elapsed,
            cpuMicrosecondsPerRequest: cpu * 1e6 / Double(max(total, 1))
        )
    }

    /// websocket-idle <port> <count>: resident memory per open idle Courier connection, after ten opened and closed
    /// so that what every connection shares is in place.
    static func idle(port: Int, count: Int) async throws {
        let provider = provider(port: port)
        for _ in 0..<10 { await (try await provider.webSocket(on: .echo).get() as Connection).close() }
        let before = Measure.procStatus("VmRSS")
        var opened: [Connection] = []
        for _ in 0..<count { opened.append(try await provider.webSocket(on: .echo).get()) }
        let after = Measure.procStatus("VmRSS")
        print(
            "\(count) idle connections: \(String(format: "%.1f", Double(after - before) / Double(count) / 1024)) KiB "
                + "resident each (\((after - before) >> 20) MiB in all)"
        )
        for connection in opened { await connection.close() }
    }

    /// websocket-flood <port> <count>: `count` messages pushed through one connection as fast as the reader takes
    /// them; resident memory after the first tenth and at the end.
    static func flood(port: Int, count: Int) async throws {
        // As the fault soak holds glibc (see there): two arenas and fixed thresholds, so that resident memory shows
        // what is kept rather than how busy the busiest moment was, and what is free is given back before each look.
        #if os(Linux)
        _ = mallopt(-8 /* M_ARENA_MAX */, 2)
        _ = mallopt(-3 /* M_MMAP_THRESHOLD */, 128 << 10)
        _ = mallopt(-1 /* M_TRIM_THRESHOLD */, 128 << 10)
        #endif
        let connection: Connection = try await provider(port: port).webSocket(on: .push(count: count)).get()
        var received = 0
        var atTenth = 0
        let start = ContinuousClock.now
        for try await _ in connection {
            received += 1
            if received == count / 10 {
                #if os(Linux)
                _ = mallocTrim(0)
                #endif
                atTenth = Measure.procStatus("VmRSS")
            }
        }
        let elapsed = Measure.seconds(start.duration(to: .now))
        #if os(Linux)
        _ = mallocTrim(0)
        #endif
        let end = Measure.procStatus("VmRSS")
        print(
            "\(received) messages through one connection at \(Report.rate(Double(received) / elapsed)): resident "
                + String(format: "%+.1f MiB", Double(end - atTenth) / 1_048_576) + " from the first tenth to the end"
        )
    }
}
#endif
