// The libFuzzer entry points. Built with `--sanitize=fuzzer`, SwiftPM compiles this file as a library and libFuzzer
// brings `main`; so this file holds declarations only, and in a plain build the executable simply does nothing.
// `Fuzz/run` builds and runs every target. The targets reach Courier's internals with `@testable import`, which only
// a debug build allows: a release build of the whole package compiles them away.

#if DEBUG
import Foundation

/// Called once by libFuzzer before the first input: refuses to start without a known `COURIER_FUZZ_TARGET`, so a
/// misspelt name does not fuzz nothing for the whole run.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> Int32 {
    guard selectedFuzzTarget != nil else {
        let given = ProcessInfo.processInfo.environment[FuzzTarget.environmentVariable] ?? "(not set)"
        let names = FuzzTarget.all.map(\.name).joined(separator: "\n  ")
        FileHandle.standardError.write(
            Data("\(FuzzTarget.environmentVariable)=\(given) names no fuzz target; the targets are:\n  \(names)\n".utf8)
        )
        exit(2)
    }
    return 0
}

/// Called by libFuzzer with each input; a property violation crashes inside the target, which is how libFuzzer
/// learns of it and saves the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    // libFuzzer may pass a null pointer with size 0 for the empty input.
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    selectedFuzzTarget?.run(input)
    return 0
}
#endif
