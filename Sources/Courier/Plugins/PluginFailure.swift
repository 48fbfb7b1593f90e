/// A plugin failed the request; the pipeline reports it as ``ApiError/pluginFailed(plugin:error:)``.
struct PluginFailure: Error {
    let plugin: String
    let error: Error

    /// Names `plugin` by its type without generic arguments, e.g. `TokenRefreshPlugin`.
    init(by plugin: AnyObject, error: Error) {
        self.plugin = Self.name(of: plugin)
        self.error = error
    }

    /// A plugin's type name without generic arguments, e.g. `TokenRefreshPlugin`.
    static func name(of plugin: AnyObject) -> String {
        let name = String(describing: type(of: plugin))
        return name.split(separator: "<", maxSplits: 1).first.map(String.init) ?? name
    }
}
