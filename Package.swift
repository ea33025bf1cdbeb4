// swift-tools-version: 6.1
// vrender: record video takes and render them offline on Linux, fast.
//
// Layout (docs/how-it-works.md draws the data flow). Each module imports only modules listed
// before it here:
//   CFFmpeg, CPNG, CVulkan, CV4L2, CALSA, CPulse, CVidStab   C libraries and shims (FFmpeg, libpng,
//                     Vulkan loader, V4L2 ioctls, ALSA, PulseAudio, libvidstab)
//   CBuildInfo        the version and commit of the build (`vrender --version`)
//   CRowKernels       the AVX2 and AVX-512 row kernels of the filters and tone mapper (C, chosen at run time)
//   VRenderCore       pure Swift: errors, parsing, geometry, chroma geometry, picture views and
//                     ops, bounded queues/locks, pools, stage threads, atomic file writes, the
//                     camera position, checks of the fields of files read back (FieldCheck),
//                     Slurm's commands on PATH
//   CFreeType         FreeType (the teleprompter's text)
//   CHarfBuzz         HarfBuzz (burned-in captions shaped: ligatures, Arabic forms, marks)
//   CFriBidi          GNU FriBidi (burned-in captions' right-to-left text in reading order)
//   CEBUR128          libebur128 (an export's loudness, `concat --loudness`)
//   CCrypto           OpenSSL's libcrypto (the SHA-256 of chunk files)
//   CEspeak           espeak-ng (speech synthesis), plus memfd_create for handing it a voice
//   VRenderImaging    RGB pictures, PNG read/write (libpng), bitmap text, FreeType text
//                     layout and text/box blending onto YUV pictures                <- Core
//   VRenderPrompter   the teleprompter: settings, pure scroll model, per-take scroll
//                     record, box geometry, the overlay drawn onto frames, the script's
//                     words, the order lines reach the reader, the presenter's record <- Core, Imaging
//   VRenderSpeech     espeak-ng behind one lock, deterministic: words to samples with each
//                     word's start; voices by language, a script's language guessed  <- Core, CEspeak
//   VRenderFilters    filter descriptors, colour programs, CPU kernels, tone map   <- Core
//   VRenderMedia      FFmpeg only: probe, demux, decode, one swscale wrapper, normalize,
//                     audio conversion, encode, mux, thumbnails                    <- Core, Imaging
//   VRenderTakes      the takes folder through its takes.json: entries, checks, atomic saves,
//                     listing, rm/trim/order, contact sheet, recovery, reading a take back,
//                     a take file's tags and layout                     <- Media, Imaging, Prompter
//   VRenderVulkan     Vulkan context, devices, GPU filter engine and executor      <- Core, Filters
//   VRenderCapture    CaptureSource, device factory, V4L2 and synthetic cameras,
//                     AudioSource, the ALSA microphone, the synthetic microphone and its
//                     presenter (reads the prompter's script aloud), action scripts <- Media, Prompter, Speech
//   VRenderRecording  frame ring, take scheduler, take writer, takes.json while a capture
//                     writes it, the capture job                                   <- Capture, Takes, Media, Imaging
//   VRenderAlignment  a script aligned to a take's sound: espeak-ng's reading of each line
//                     found by DTW on MFCC frames, in windows the prompter's scroll gives <- Media, Prompter, Speech
//   VRenderExport     plan, timeline, stream copy, transcode pipeline, audio aligner,
//                     loudness (measure, gain, limiter), captions, filter previews <- Takes, Vulkan, Alignment, ...
//   VRenderScale      chunked exports: the chunk plan, the work folder, chunk workers, the
//                     local and Slurm engines                                <- Export, Media, CCrypto, ...
//                     Neither Export nor Scale reaches Capture or Recording (no V4L2, ALSA or
//                     PulseAudio in a chunk worker): scripts/check-imports.sh fails if one does.
//   VRenderWorkerCommands  the chunk job steps (render, sound, join) as both executables parse
//                     and run them, and the terminal output and error reporting every command
//                     shares (progress, --json, Ctrl-C, exit statuses)   <- Scale, Export, Filters, Core
//   VRenderWorker     `vrender-worker`, what the engines start: those steps and nothing else. Its
//                     closure is Scale and below only (no Capture, Recording, Studio, Demo, V4L2,
//                     ALSA, PulseAudio or Hummingbird): scripts/check-imports.sh    <- WorkerCommands
//   VRenderDemo       `vrender demo`: three synthetic takes recorded, then exported <- Recording, Export
//   VRenderVerify     golden frames: per-frame hash lines, reference PNGs, PSNR/SSIM,
//                     heat-map diffs (record, check, diff); sound against picture from the
//                     synthetic clapper (`vrender sync`)                  <- Media, Imaging, Takes, Core
//   VRenderDoctor     `vrender doctor` (encoders, Vulkan, V4L2, audio, Slurm, fonts, disk) and
//                     `vrender --version` (the build, FFmpeg, Vulkan loader, FreeType) <- Media, Vulkan, Capture
//   VRenderBench      `vrender bench`: runs concat/capture/filter with stage timings,
//                     renders the report (JSON schema, SVG plot)                   <- Export, Recording, Demo
//   VRenderStudio     `vrender studio`'s session: capture job, live preview, takes,
//                     playable copies, exports, the page's API as types             <- Export, Recording, ...
//   VRenderStudioServer  its Hummingbird HTTP/WebSocket server and the page          <- Studio
//   vrender           the command line: parses, calls one entry point, prints      <- Export, Demo, Studio, WorkerCommands, ...
import Foundation
import PackageDescription

let package = Package(
    name: "vrender",
    products: [
        .executable(name: "vrender", targets: ["vrender"]),
        // The chunk worker the engines run, installed beside vrender (VRenderWorker).
        .executable(name: "vrender-worker", targets: ["VRenderWorker"]),
        // The library API (documented with DocC, used by Examples/; semantic versioning from 1.0):
        // exporting takes, recording them, and checking exports against golden frames. Only their
        // `public` declarations are API; the rest of the package is `package` or internal.
        .library(name: "VRenderExport", targets: ["VRenderExport"]),
        .library(name: "VRenderCapture", targets: ["VRenderCapture"]),
        .library(name: "VRenderRecording", targets: ["VRenderRecording"]),
        .library(name: "VRenderVerify", targets: ["VRenderVerify"]),
        // Supporting products, not covered by any stability promise: the modules whose types the
        // API above shows (filters, media info, prompter settings, takes entries, errors, ...), and
        // what this repository's own Benchmarks/ and Fuzz/ packages reach (they depend on vrender
        // by path, and `package` declarations are invisible to another package).
        .library(name: "VRenderCore", targets: ["VRenderCore"]),
        .library(name: "VRenderFilters", targets: ["VRenderFilters"]),
        .library(name: "VRenderImaging", targets: ["VRenderImaging"]),
        .library(name: "VRenderPrompter", targets: ["VRenderPrompter"]),
        .library(name: "VRenderMedia", targets: ["VRenderMedia"]),
        .library(name: "VRenderTakes", targets: ["VRenderTakes"]),
        .library(name: "VRenderVulkan", targets: ["VRenderVulkan"]),
        .library(name: "VRenderScale", targets: ["VRenderScale"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // `vrender studio`: the HTTP server and its WebSocket (the preview, the state).
        // One trait, named: its default two reach swiftc as -D flags in an order that changes
        // with the root package, so a benchmark build in the shared .build made `make release`
        // compile Hummingbird again. ConfigurationSupport (swift-configuration) is not used here.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: ["FullFoundation"]),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        // `make docs`: the DocC catalogs of the library products, built into a static site (build-time plugin only).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // FFmpeg's libraries through pkg-config, plus a header-only shim for the macros
        // Swift cannot import (AVERROR, AV_NOPTS_VALUE, ...).
        .systemLibrary(
            name: "CFFmpeg",
            pkgConfig: "libavformat",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswscale-dev",
                              "libswresample-dev", "libavutil-dev"])]
        ),
        // libpng for thumbnails, contact sheets and previews (VRenderImaging).
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        // FreeType for the teleprompter's text (VRenderImaging).
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(name: "CHarfBuzz", pkgConfig: "harfbuzz", providers: [.apt(["libharfbuzz-dev"])]),
        .systemLibrary(name: "CFriBidi", pkgConfig: "fribidi", providers: [.apt(["libfribidi-dev"])]),
        // Vulkan's loader through pkg-config, plus a header-only shim for the version macros.
        .systemLibrary(name: "CVulkan", pkgConfig: "vulkan", providers: [.apt(["libvulkan-dev"])]),
        // V4L2: a fixed-signature ioctl wrapper (Swift cannot call variadic C), request codes and
        // fourccs, with struct sizes checked at compile time.
        .target(name: "CV4L2"),
        // ALSA (libasound) for microphones, plus a header-only shim for its variadic error handler.
        .systemLibrary(name: "CALSA", pkgConfig: "alsa", providers: [.apt(["libasound2-dev"])]),
        // PulseAudio's client library (PipeWire's pipewire-pulse speaks it too): the microphone.
        // No pkgConfig: libpulse.pc's -D_REENTRANT -pthread make SwiftPM warn; the headers are in
        // /usr/include and the module map links libpulse.
        .systemLibrary(name: "CPulse", providers: [.apt(["libpulse-dev"])]),
        // libebur128: integrated loudness and true peak (ITU-R BS.1770 / EBU R128) for `--loudness`.
        .systemLibrary(name: "CEBUR128", pkgConfig: "libebur128", providers: [.apt(["libebur128-dev"])]),
        // libvidstab: motion detection and the warp behind `concat --stabilize` (VRenderExport).
        .systemLibrary(name: "CVidStab", pkgConfig: "vidstab", providers: [.apt(["libvidstab-dev"])]),
        // OpenSSL's libcrypto: SHA-256 of chunk files (VRenderScale), 4x libavutil's with SHA-NI.
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // espeak-ng: the synthetic presenter's voice and the speech captions are aligned against.
        .systemLibrary(name: "CEspeak", pkgConfig: "espeak-ng", providers: [.apt(["libespeak-ng-dev"])]),
        .target(name: "VRenderCore"),
        // The version and commit this binary was built from (scripts/build-info.sh writes them).
        .target(name: "CBuildInfo"),
        // The filters' and tone mapper's AVX2 and AVX-512 row kernels, chosen at run time
        // (RowInstructions, VRENDER_CPU): C, for intrinsics and a per-function target while the
        // package builds for baseline x86-64.
        .target(name: "CRowKernels"),
        // Optimized in debug builds too: its tests check every filter against a per-pixel
        // reference (`ColorProgram.referenceApply`) at 1080p, which unoptimized spends most of
        // `make test`'s filter time retaining and releasing (-O: those suites' 275 CPU-seconds
        // become 64, Vulkan parity included).
        .target(name: "VRenderFilters", dependencies: ["CRowKernels", "VRenderCore"],
                swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]),
        .target(name: "VRenderImaging", dependencies: ["CPNG", "CFreeType", "CHarfBuzz", "CFriBidi", "VRenderCore"]),
        .target(name: "VRenderPrompter", dependencies: ["VRenderCore", "VRenderImaging"]),
        .target(name: "VRenderSpeech", dependencies: ["CEspeak", "VRenderCore"]),
        .target(name: "VRenderMedia", dependencies: ["CFFmpeg", "VRenderCore", "VRenderImaging"]),
        .target(name: "VRenderCapture",
                dependencies: ["CV4L2", "CALSA", "CPulse", "VRenderCore", "VRenderMedia", "VRenderPrompter", "VRenderSpeech"]),
        // The takes folder through its takes.json, without the capture stack: what exports and
        // chunk workers read a folder with (scripts/check-imports.sh keeps them off VRenderCapture).
        .target(name: "VRenderTakes", dependencies: ["VRenderCore", "VRenderImaging", "VRenderMedia", "VRenderPrompter"]),
        .target(name: "VRenderRecording",
                dependencies: ["VRenderCore", "VRenderImaging", "VRenderMedia", "VRenderCapture", "VRenderPrompter",
                               "VRenderSpeech", "VRenderTakes"]),
        .target(name: "VRenderVulkan", dependencies: ["CVulkan", "VRenderCore", "VRenderFilters"]),
        // Captions: a script aligned to a take's sound (espeak-ng's reading of it, found by
        // dynamic time warping), below the export that will put the captions in. Optimized in
        // debug builds too, as VRenderFilters: unoptimized, the warping's inner loop (millions of
        // cells a line) makes its test suites several times slower in `make test`.
        .target(name: "VRenderAlignment",
                dependencies: ["VRenderCore", "VRenderImaging", "VRenderMedia", "VRenderPrompter", "VRenderSpeech", "VRenderTakes"],
                swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]),
        // Export reads a takes folder through its manifest (VRenderTakes' TakesFolder); it links
        // no capture code, nor do the chunk workers above it.
        .target(name: "VRenderExport",
                dependencies: ["CEBUR128", "CVidStab", "VRenderCore", "VRenderImaging", "VRenderMedia", "VRenderFilters", "VRenderVulkan",
                               "VRenderPrompter", "VRenderTakes", "VRenderAlignment", "VRenderSpeech"]),
        // Chunked exports (`concat --engine local|slurm`, `vrender chunk`): one export rendered
        // as chunks by child processes or a Slurm job array, joined by stream copy.
        .target(name: "VRenderScale",
                dependencies: ["CCrypto", "VRenderCore", "VRenderMedia", "VRenderFilters", "VRenderPrompter", "VRenderExport"]),
        // The chunk job steps both executables run (`vrender chunk render`, `vrender-worker render`),
        // and the terminal output and error reporting the command lines share.
        .target(name: "VRenderWorkerCommands",
                dependencies: ["VRenderCore", "VRenderExport", "VRenderFilters", "VRenderScale",
                               .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        // `vrender-worker`: those steps alone; scripts/check-imports.sh keeps its closure off the
        // capture stack, the studio and its web server.
        .executableTarget(name: "VRenderWorker",
                          dependencies: ["VRenderWorkerCommands", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        // `vrender demo`: a capture job with the synthetic camera, then exports of its takes.
        .target(name: "VRenderDemo",
                dependencies: ["VRenderCore", "VRenderFilters", "VRenderMedia", "VRenderPrompter", "VRenderCapture",
                               "VRenderTakes", "VRenderRecording", "VRenderExport"]),
        // Golden frames: what `vrender golden` and testdata/golden/ check exports with.
        .target(name: "VRenderVerify", dependencies: ["VRenderCore", "VRenderImaging", "VRenderMedia", "VRenderTakes"]),
        // `vrender doctor` and `vrender --version`: what this machine can do, and what it runs with.
        .target(name: "VRenderDoctor",
                dependencies: ["CBuildInfo", "VRenderCore", "VRenderImaging", "VRenderMedia", "VRenderFilters", "VRenderVulkan",
                               "VRenderCapture"]),
        // `vrender bench`: the real pipelines, run with stage timings, and their report.
        .target(name: "VRenderBench",
                dependencies: ["VRenderCore", "VRenderMedia", "VRenderFilters", "VRenderCapture", "VRenderTakes", "VRenderRecording",
                               "VRenderExport", "VRenderDemo"]),
        // `vrender studio`, the app's screen in a browser: a session drives the capture job, the
        // takes folder and the exporter (the calls the CLI makes), makes the live preview, the
        // takes' playable copies and the exports...
        .target(name: "VRenderStudio",
                dependencies: ["VRenderCore", "VRenderImaging", "VRenderMedia", "VRenderFilters", "VRenderCapture",
                               "VRenderTakes", "VRenderRecording", "VRenderPrompter", "VRenderExport", "VRenderAlignment"]),
        // ...and a Hummingbird server serves it: the page (compiled into the binary: no files to
        // install, nothing fetched), the preview over a WebSocket, the actions as POSTs.
        .target(name: "VRenderStudioServer",
                dependencies: ["VRenderCore", "VRenderStudio",
                               .product(name: "Hummingbird", package: "hummingbird"),
                               .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket")],
                resources: [.embedInCode("Page/index.html"), .embedInCode("Page/studio.css"),
                            .embedInCode("Page/studio.js")]),
        .executableTarget(
            name: "vrender",
            dependencies: [
                "VRenderCore", "VRenderFilters", "VRenderExport", "VRenderCapture", "VRenderTakes", "VRenderRecording",
                "VRenderAlignment", "VRenderDemo", "VRenderVulkan", "VRenderVerify", "VRenderBench", "VRenderPrompter", "VRenderScale", "VRenderStudio", "VRenderStudioServer",
                "VRenderDoctor", "VRenderWorkerCommands",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Test helpers shared by the test targets: test media, running programs, ffprobe.
        .target(name: "VRenderTestSupport", path: "Tests/Support"),
        .testTarget(name: "VRenderCoreTests", dependencies: ["VRenderCore", "VRenderTestSupport"]),
        .testTarget(name: "VRenderImagingTests", dependencies: ["VRenderImaging", "VRenderCore", "VRenderTestSupport"]),
        .testTarget(name: "VRenderSpeechTests", dependencies: ["VRenderSpeech", "VRenderCore"]),
        .testTarget(name: "VRenderAlignmentTests",
                    dependencies: ["VRenderAlignment", "VRenderRecording", "VRenderCapture", "VRenderTakes", "VRenderPrompter",
                                   "VRenderSpeech", "VRenderImaging", "VRenderCore", "VRenderTestSupport"]),
        .testTarget(name: "VRenderPrompterTests",
                    dependencies: ["VRenderPrompter", "VRenderImaging", "VRenderCore", "VRenderTestSupport"]),
        // -O in debug as VRenderFilters: the suites' 1080p test frames are made and compared here.
        .testTarget(name: "VRenderFiltersTests", dependencies: ["VRenderFilters", "VRenderCore"],
                    swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]),
        .testTarget(name: "VRenderMediaTests",
                    dependencies: ["VRenderMedia", "VRenderCore", "CFFmpeg", "VRenderTestSupport"]),
        .testTarget(name: "VRenderExportTests",
                    dependencies: ["VRenderExport", "VRenderTakes", "VRenderRecording", "VRenderPrompter", "VRenderVulkan",
                                   "VRenderMedia", "VRenderFilters", "VRenderCore", "VRenderTestSupport"]),
        .testTarget(name: "VRenderScaleTests",
                    dependencies: ["VRenderScale", "VRenderExport", "VRenderMedia", "VRenderFilters", "VRenderPrompter", "VRenderCore", "VRenderTestSupport"]),
        .testTarget(name: "VRenderCaptureTests",
                    dependencies: ["VRenderCapture", "VRenderMedia", "VRenderCore", "VRenderPrompter", "VRenderSpeech", "CV4L2",
                                   "VRenderTestSupport"]),
        .testTarget(name: "VRenderRecordingTests",
                    dependencies: ["VRenderRecording", "VRenderTakes", "VRenderCapture", "VRenderMedia", "VRenderCore",
                                   "VRenderTestSupport"]),
        .testTarget(name: "VRenderVulkanTests", dependencies: ["VRenderVulkan", "VRenderFilters", "VRenderCore"]),
        .testTarget(name: "VRenderVerifyTests",
                    dependencies: ["VRenderVerify", "VRenderDemo", "VRenderExport", "VRenderRecording", "VRenderCapture", "VRenderFilters",
                                   "VRenderImaging", "VRenderMedia", "VRenderCore", "VRenderTestSupport"]),
        .testTarget(name: "VRenderBenchTests",
                    dependencies: ["VRenderBench", "VRenderExport", "VRenderTakes", "VRenderRecording", "VRenderCapture", "VRenderFilters",
                                   "VRenderCore", "VRenderTestSupport"]),
        .testTarget(name: "VRenderStudioTests",
                    dependencies: ["VRenderStudio", "VRenderExport", "VRenderTakes", "VRenderRecording", "VRenderCapture", "VRenderPrompter",
                                   "VRenderFilters", "VRenderImaging", "VRenderMedia", "VRenderCore", "VRenderTestSupport"]),
        .testTarget(name: "VRenderDoctorTests", dependencies: ["VRenderDoctor"]),
        .testTarget(name: "VRenderStudioServerTests", dependencies: ["VRenderStudioServer", "VRenderStudio", "VRenderTestSupport"]),
        // Runs the built binary; imports the command line itself only to check how it reads its words.
        .testTarget(name: "vrenderTests", dependencies: ["vrender", "VRenderWorkerCommands", "VRenderCore", "VRenderTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)

// scripts/sanitize.sh sets VRENDER_SANITIZE to the test targets whose suites it runs. Its two
// builds (ASan, TSan) then compile only those and what they build on: not the studio's server,
// SwiftNIO, the command line or the other test targets, which would add minutes to every CI run
// for nothing the sanitizers check.
if let sanitizedTargets = ProcessInfo.processInfo.environment["VRENDER_SANITIZE"] {
    let sanitized = sanitizedTargets.split(separator: " ").map(String.init)
    precondition(sanitized.allSatisfy { name in package.targets.contains { $0.name == name } },
                 "VRENDER_SANITIZE names test targets of this package (scripts/sanitize.sh sets it): \(sanitizedTargets)")
    var needed = Set<String>()
    var unvisited = sanitized
    while let name = unvisited.popLast() {
        guard needed.insert(name).inserted, let target = package.targets.first(where: { $0.name == name }) else { continue }
        for dependency in target.dependencies {
            switch dependency {
            case .targetItem(let name, _), .byNameItem(let name, _): unvisited.append(name)
            case .productItem: break
            @unknown default: break
            }
        }
    }
    package.targets.removeAll { !needed.contains($0.name) && $0.type != .plugin }
    package.products.removeAll { product in
        let targets = (product as? Product.Library)?.targets ?? (product as? Product.Executable)?.targets ?? []
        return targets.contains { !needed.contains($0) }
    }
    package.dependencies.removeAll { dependency in
        if case .sourceControl(_, let location, _) = dependency.kind { return location.contains("hummingbird") }
        return false
    }
}
