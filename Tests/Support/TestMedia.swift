import Foundation

/// Media files for tests, made by `scripts/make-test-media.sh` with the ffmpeg CLI (an
/// independent encoder). `make test` makes them first and passes VRENDER_TEST_MEDIA; a plain
/// `swift test` makes them on first use.
public enum TestMedia {
    /// The repository's root, found from this source file's location.
    public static let repositoryRoot: String = {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
    }()

    /// The folder of test media, created (idempotently) the first time it is asked for.
    public static let directory: String = {
        let directory = ProcessInfo.processInfo.environment["VRENDER_TEST_MEDIA"]
            ?? repositoryRoot + "/.build/test-media"
        let result = ProgramRun.run("/bin/bash", [repositoryRoot + "/scripts/make-test-media.sh", directory])
        precondition(result.status == 0, "making test media failed: \(result.standardError)")
        return directory
    }()

    public static func path(_ name: String) -> String { directory + "/" + name }

    /// A fresh empty folder for one test's outputs.
    public static func scratchDirectory() -> String {
        let path = NSTemporaryDirectory() + "vrender-test-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Files whose names contain `fragment` in `directory` (to find leftover temporary files).
    public static func files(in directory: String, containing fragment: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.contains(fragment) }
    }
}

/// Runs a program to completion and captures its output.
public struct ProgramRun: Sendable {
    /// The pid of a child that has exited and been waited for: no process has it now (what a
    /// test needs to fake a killed vrender's leftovers).
    public static func deadPid() throws -> Int32 {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/true")
        try child.run()
        child.waitUntilExit()
        return child.processIdentifier
    }

    public var status: Int32
    public var standardOutput: String
    public var standardError: String

    public static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                           currentDirectory: String? = nil) -> ProgramRun {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch {
            return ProgramRun(status: -1, standardOutput: "", standardError: "cannot start \(executable): \(error)")
        }
        // Read both pipes to the end before waiting, so a chatty child never blocks on a full pipe.
        let errorData = ReadAll(err.fileHandleForReading)
        let outputData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return ProgramRun(status: process.terminationStatus,
                          standardOutput: String(decoding: outputData, as: UTF8.self),
                          standardError: String(decoding: errorData.wait(), as: UTF8.self))
    }

    /// Runs an `ffprobe -show_entries ENTRIES` query and returns the first value printed.
    public static func ffprobe(_ file: String, stream: String, entries: String, countFrames: Bool = false) -> String {
        var arguments = ["-v", "error", "-select_streams", stream, "-show_entries", entries, "-of", "default=nw=1:nk=1"]
        if countFrames { arguments.insert("-count_frames", at: 0) }
        let result = run("/usr/bin/ffprobe", arguments + [file])
        return result.standardOutput.split(separator: "\n").first.map(String.init) ?? ""
    }
}

/// Reads a pipe to its end on a background thread.
final class ReadAll: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }.start()
    }

    func wait() -> Data {
        done.wait()
        return data
    }
}

/// A fresh empty folder for one test, removed with everything in it when the test's suite
/// instance goes (Swift Testing makes one instance per test).
public final class ScratchFolder {
    public let path: String

    public init() {
        path = TestMedia.scratchDirectory()
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Makes `name` here with `ffmpeg -v error -y ARGUMENTS... name` (a file the way users'
    /// files are made); returns its path, or throws ffmpeg's complaint naming the file.
    public func ffmpeg(_ name: String, _ arguments: [String]) throws -> String {
        let file = path + "/" + name
        let run = ProgramRun.run("/usr/bin/ffmpeg", ["-v", "error", "-y"] + arguments + [file])
        guard run.status == 0 else { throw FFmpegRunFailure(description: "ffmpeg making \(name): \(run.standardError)") }
        return file
    }
}

public struct FFmpegRunFailure: Error, CustomStringConvertible {
    public let description: String
}
