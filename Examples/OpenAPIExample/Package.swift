// swift-tools-version:6.2
import Foundation
import PackageDescription

// A client generated from openapi.yaml at build time by swift-openapi-generator's plugin, as users generate theirs,
// calling the examples' to-do server through Courier. A package of its own so that only those who run it build the
// generator (OpenAPIKit, Yams, ArgumentParser): `swift run --package-path Examples/OpenAPIExample`.

// Courier is this repository's root. A package found by its path is known by the name of its folder, which is the
// clone's (not always "Courier"), so the product below names the package by that folder.
let courier = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().deletingLastPathComponent()

let package = Package(
    name: "OpenAPIExample",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [
        .package(path: courier.path, traits: ["OpenAPI"]),
        .package(path: "../TodoServer"),
        .package(url: "https://github.com/apple/swift-openapi-generator", from: "1.14.3"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
    ],
    targets: [
        .executableTarget(
            name: "OpenAPIExample",
            dependencies: [
                .product(name: "Courier", package: courier.lastPathComponent),
                .product(name: "CourierOpenAPI", package: courier.lastPathComponent),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "TodoServer", package: "TodoServer"),
            ],
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
        .testTarget(
            name: "OpenAPIExampleTests",
            dependencies: [
                "OpenAPIExample",
                .product(name: "Courier", package: courier.lastPathComponent),
                .product(name: "CourierOpenAPI", package: courier.lastPathComponent),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "TodoServer", package: "TodoServer"),
            ],
            swiftSettings: [.treatAllWarnings(as: .error)]
        ),
    ],
    swiftLanguageModes: [.v6]
)
