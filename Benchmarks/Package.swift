// swift-tools-version: 6.1
// vrender's benchmarks: a package of its own so that the main package neither depends on
// ordo-one/benchmark nor pays for building it (see Benchmarks/README.md).
//
//     cd Benchmarks && swift package --disable-sandbox benchmark     (or `make bench` at the root)
//     Benchmarks/bench-ci.sh                                         (or `make bench-ci`: the CI gate)
//
// The harness runs every executable target whose folder sits in a folder named Benchmarks (here
// Benchmarks/Benchmarks/*) as a suite; BenchGate (Tools/BenchGate, out of its way) checks a
// run's results against Tools/BenchGate/GateRules.swift.
import PackageDescription

let package = Package(
    name: "vrender-benchmarks",
    dependencies: [
        // The main package, named so the products below resolve whatever the checkout's folder
        // is called (a path dependency's identity is otherwise its folder name).
        .package(name: "vrender", path: ".."),
        // Its default traits need a package that is not mirrored here; MallocInterposer alone works.
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .target(
            name: "BenchmarkSupport",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "VRenderCore", package: "vrender"),
            ],
            path: "Benchmarks/BenchmarkSupport"
        ),
        .executableTarget(
            name: "FilterBenchmarks",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "VRenderCore", package: "vrender"),
                .product(name: "VRenderFilters", package: "vrender"),
            ],
            path: "Benchmarks/FilterBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "CaptureBenchmarks",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "VRenderCapture", package: "vrender"),
                .product(name: "VRenderMedia", package: "vrender"),
                .product(name: "VRenderRecording", package: "vrender"),
            ],
            path: "Benchmarks/CaptureBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "VulkanBenchmarks",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "VRenderCore", package: "vrender"),
                .product(name: "VRenderFilters", package: "vrender"),
                .product(name: "VRenderVulkan", package: "vrender"),
            ],
            path: "Benchmarks/VulkanBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "ExportBenchmarks",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "VRenderCore", package: "vrender"),
                .product(name: "VRenderFilters", package: "vrender"),
                .product(name: "VRenderMedia", package: "vrender"),
                .product(name: "VRenderExport", package: "vrender"),
                .product(name: "VRenderScale", package: "vrender"),
            ],
            path: "Benchmarks/ExportBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "BenchGate",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Benchmark", package: "benchmark"),
                // Which row kernels this machine runs picks the CPU filters' cost limits.
                .product(name: "VRenderFilters", package: "vrender"),
            ],
            path: "Tools/BenchGate"
        ),
    ],
    swiftLanguageModes: [.v6]
)
