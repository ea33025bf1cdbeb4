// swift-tools-version: 6.1
// A program of your own that uses vrender's library products: what the DocC tutorial "Export
// takes from your own Swift program" builds, step by step. `make examples` (in the repository
// root) builds it, runs it and checks its export against golden/.
import PackageDescription

let package = Package(
    name: "vrender-examples",
    dependencies: [
        // vrender, by path: this repository's root.
        .package(name: "vrender", path: ".."),
    ],
    targets: [
        .executableTarget(
            name: "export-takes",
            dependencies: [
                .product(name: "VRenderCapture", package: "vrender"),
                .product(name: "VRenderRecording", package: "vrender"),
                .product(name: "VRenderFilters", package: "vrender"),
                .product(name: "VRenderExport", package: "vrender"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
