/// The hooks of a plugin that the pipeline runs besides ``Plugin/modifyRequest(_:endpoint:)`` and
/// ``Plugin/willPerformRequest(_:endpoint:)``, which always run.
///
/// Swift cannot tell which methods a subclass overrides, so a plugin of the app's own has all three unless it says
/// otherwise (``Plugin/implementedHooks``). Each costs something per request even when it does nothing: `prepare`
/// and `process` run in a task each, `process` is handed an ``Attempt`` off the transport's thread, and
/// `didPerformRequest` is handed an `HTTPURLResponse` (on Linux, FoundationNetworking's initializer copies and
/// checks every header field). A plugin that says which hooks it has pays only for those.
public struct PluginHooks: OptionSet, Sendable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// ``Plugin/prepare(_:endpoint:)``.
    public static let prepare = PluginHooks(rawValue: 1 << 0)
    /// ``Plugin/process(_:endpoint:)``.
    public static let process = PluginHooks(rawValue: 1 << 1)
    /// ``Plugin/didPerformRequest(urlSessionResult:typedResult:endpoint:)``.
    public static let didPerformRequest = PluginHooks(rawValue: 1 << 2)

    /// All three: what a plugin of the app's own has unless it says otherwise.
    public static let all: PluginHooks = [.prepare, .process, .didPerformRequest]
}

/// A provider's plugins by the hooks they have, each list in the provider's order.
struct PluginRoles<EndpointType: Endpoint>: Sendable {
    /// Those whose `prepare` runs before each sending.
    let preparing: [Plugin<EndpointType>]
    /// Those whose `process` judges each answer.
    let judging: [Plugin<EndpointType>]
    /// Those whose `didPerformRequest` sees the outcome.
    let receivingResults: [Plugin<EndpointType>]

    /// The hooks at least one plugin has.
    var hooks: PluginHooks {
        var hooks: PluginHooks = []
        if !preparing.isEmpty { hooks.insert(.prepare) }
        if !judging.isEmpty { hooks.insert(.process) }
        if !receivingResults.isEmpty { hooks.insert(.didPerformRequest) }
        return hooks
    }

    init(_ plugins: [Plugin<EndpointType>]) {
        preparing = plugins.filter { $0.implementedHooks.contains(.prepare) }
        judging = plugins.filter { $0.implementedHooks.contains(.process) }
        receivingResults = plugins.filter { $0.implementedHooks.contains(.didPerformRequest) }
    }
}
