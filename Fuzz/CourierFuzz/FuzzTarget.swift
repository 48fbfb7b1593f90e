#if DEBUG
import Foundation

/// One parser or encoder under fuzzing: a name (also its seed corpus folder, `Fuzz/Corpus/<name>`) and a check
/// that crashes when a property fails for an input.
struct FuzzTarget: Sendable {
    /// The environment variable that names the target of a run.
    static let environmentVariable = "COURIER_FUZZ_TARGET"

    /// Every target, in the order `Fuzz/run` runs them by default.
    static let all: [FuzzTarget] = [
        .retryAfter, .contentType, .url, .form, .multipart, .apiError, .eventStream, .contentRange,
    ]

    let name: String
    /// Checks the properties for one input; crashes with `preconditionFailure` when one fails.
    let run: @Sendable ([UInt8]) -> Void
}

/// The target named by `COURIER_FUZZ_TARGET`, read once: an environment lookup per input would slow the fuzzer.
let selectedFuzzTarget: FuzzTarget? = {
    let name = ProcessInfo.processInfo.environment[FuzzTarget.environmentVariable]
    return FuzzTarget.all.first { $0.name == name }
}()
#endif
