// swift-tools-version: 6.1
// vrender's libFuzzer targets: a package of its own so that the main package never links
// libFuzzer and its normal builds stay uninstrumented. Every executable here is a fuzz target
// (libFuzzer supplies `main`; each target defines `LLVMFuzzerTestOneInput`).
//
//     scripts/fuzz.sh              (or `make fuzz`: builds once, runs each target ~60 s; CI runs it)
//     scripts/fuzz.sh media 600    (one target, ten minutes)
//
// Built with `swift build --sanitize=fuzzer --sanitize=address`: SwiftPM applies the sanitizers to
// every target it compiles, vrender's libraries included, so libFuzzer sees coverage of
// vrender's own code (FFmpeg and Foundation are Debian's uninstrumented binaries).
import PackageDescription

let package = Package(
    name: "vrender-fuzz",
    dependencies: [
        // The main package, named so the products resolve whatever the checkout's folder is called.
        .package(name: "vrender", path: ".."),
    ],
    targets: [
        .target(name: "FuzzSupport", path: "Sources/FuzzSupport"),
        .executableTarget(
            name: "FuzzMedia",
            dependencies: [
                "FuzzSupport",
                .product(name: "VRenderMedia", package: "vrender"),
            ],
            path: "Sources/FuzzMedia"
        ),
        .executableTarget(
            name: "FuzzActionScript",
            dependencies: [
                "FuzzSupport",
                .product(name: "VRenderCapture", package: "vrender"),
                .product(name: "VRenderCore", package: "vrender"),
            ],
            path: "Sources/FuzzActionScript"
        ),
        .executableTarget(
            name: "FuzzTakesManifest",
            dependencies: [
                "FuzzSupport",
                .product(name: "VRenderTakes", package: "vrender"),
            ],
            path: "Sources/FuzzTakesManifest"
        ),
        .executableTarget(
            name: "FuzzChunkPlan",
            dependencies: [
                "FuzzSupport",
                .product(name: "VRenderScale", package: "vrender"),
                .product(name: "VRenderCore", package: "vrender"),
            ],
            path: "Sources/FuzzChunkPlan"
        ),
    ],
    swiftLanguageModes: [.v6]
)
