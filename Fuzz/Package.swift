// swift-tools-version:6.2
import Foundation
import PackageDescription

// Courier's fuzz targets, in a package of their own: a fuzzer build instruments all it compiles, and this one compiles
// Courier and its three API packages, nothing else. `Fuzz/run` builds and runs it.

// Courier is the folder above. A package found by its path is known by the name of its folder, which is the clone's
// (not always "Courier"), so the product below names the package by that folder.
let courier = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent()

let package = Package(
    name: "CourierFuzz",
    dependencies: [.package(path: courier.path)],
    targets: [
        .executableTarget(
            name: "CourierFuzz",
            dependencies: [.product(name: "Courier", package: courier.lastPathComponent)],
            path: "CourierFuzz"
        )
    ],
    swiftLanguageModes: [.v6]
)
