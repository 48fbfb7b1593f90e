import Testing

/// The suites that move hundreds of megabytes or send a thousand requests at once, one suite at a time.
///
/// `.ci/run` runs them as a step of their own, after the rest (`swift test --skip CourierTests.Heavy`, then
/// `swift test --filter CourierTests.Heavy`), so that they never share the two cores with tests that wait on
/// loopback answers; a plain `swift test` runs them too, beside the rest.
@Suite(.serialized) enum Heavy {}
