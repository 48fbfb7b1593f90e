import Foundation
import Testing

/// What a run of one of the examples printed, and how it ended.
struct ExampleRun {
    let status: Int32
    let printed: String

    /// Runs the example executable `name` as `swift run` would; it is built beside this test bundle.
    init(_ name: String) throws {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let executable = directory.appendingPathComponent(name)
        try #require(FileManager.default.isExecutableFile(atPath: executable.path), "no \(executable.path)")
        let process = Process()
        process.executableURL = executable
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        status = process.terminationStatus
    }
}
