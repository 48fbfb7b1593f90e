// swift-tools-version:6.2
import PackageDescription

// The to-do API the examples call, served on 127.0.0.1 by the example itself. A package of its own so that the
// OpenAPI example, which is one too, serves the same API without a copy. FlyingFox builds in seconds, where a server on
// SwiftNIO takes minutes: running the 30-second example builds little more than Courier.
let package = Package(
    name: "TodoServer",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [.library(name: "TodoServer", targets: ["TodoServer"])],
    dependencies: [.package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1")],
    targets: [.target(name: "TodoServer", dependencies: [.product(name: "FlyingFox", package: "FlyingFox")])],
    swiftLanguageModes: [.v6]
)
