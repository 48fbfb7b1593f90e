/// The `async` and outcome hooks a plugin overrides, which the pipeline then runs: every one for a plugin of the
/// app's own (the pipeline cannot tell which it overrides), only its own for a built-in one. A hook nobody overrides
/// costs nothing: no task for `prepare` or `process`, no ``Attempt``, and no `HTTPURLResponse` made for
/// `didPerformRequest` (on Linux, FoundationNetworking's initializer copies and checks every header field, about 7 µs
/// per request, which a provider whose plugins only observe would otherwise pay for an answer nobody reads).
struct PluginHooks: OptionSet, Sendable {
    let rawValue: UInt8

    /// ``Plugin/prepare(_:endpoint:)``.
    static let prepare = PluginHooks(rawValue: 1 << 0)
    /// ``Plugin/process(_:endpoint:)``.
    static let process = PluginHooks(rawValue: 1 << 1)
    /// ``Plugin/didPerformRequest(urlSessionResult:typedResult:endpoint:)``.
    static let results = PluginHooks(rawValue: 1 << 2)

    static let all: PluginHooks = [.prepare, .process, .results]
}

/// A provider's plugins by the hooks they have, each list in the provider's order.
struct PluginRoles<EndpointType: Endpoint>: Sendable {
    /// Those whose `prepare` runs before each sending.
    let preparing: [Plugin<EndpointType>]
    /// Those whose `process` judges each answer.
    let judging: [Plugin<EndpointType>]
    /// Those whose `didPerformRequest` sees the outcome.
    let receivingResults: [Plugin<EndpointType>]

    init(_ plugins: [Plugin<EndpointType>]) {
        preparing = plugins.filter { $0.hooks.contains(.prepare) }
        judging = plugins.filter { $0.hooks.contains(.process) }
        receivingResults = plugins.filter { $0.hooks.contains(.results) }
    }
}
