import Foundation

/// A PulseAudio server of the test's own: `pulseaudio -n` (no default script) with one null sink
/// `vrender_test` at 48 kHz stereo and a native socket in a fresh folder, anonymous access, no
/// shared memory, runtime and state dirs in that folder. Root may run it (it only warns) as
/// long as it is not asked for `--system`. Killed and its folder removed by `stop()`/deinit.
public final class PrivatePulseServer {
    public let folder: String
    /// `unix:FOLDER/native`: what PULSE_SERVER or `server:` takes.
    public let server: String
    public let sink = "vrender_test"
    public var monitor: String { sink + ".monitor" }
    /// Spawned with posix_spawn, not Foundation's Process: Foundation's child watcher blocks in
    /// waitpid on a child that never exits, and then no other Process's exit is ever noticed.
    private var pid: pid_t = 0

    /// Nil when `pulseaudio` is not installed or did not answer within 10 s.
    public init?() {
        folder = TestMedia.scratchDirectory()
        server = "unix:\(folder)/native"
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/pulseaudio") else { return nil }
        for dir in ["run", "home", "state"] {
            try? FileManager.default.createDirectory(atPath: "\(folder)/\(dir)", withIntermediateDirectories: true,
                                                     attributes: [.posixPermissions: 0o700])
        }
        let arguments = ["/usr/bin/pulseaudio", "-n", "--daemonize=no", "--exit-idle-time=-1", "--disable-shm",
                         "--use-pid-file=no", "-L", "module-null-sink sink_name=\(sink) rate=48000 channels=2",
                         "-L", "module-native-protocol-unix socket=\(folder)/native auth-anonymous=1"]
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = "\(folder)/home"
        environment["XDG_RUNTIME_DIR"] = "\(folder)/run"
        environment["PULSE_RUNTIME_PATH"] = "\(folder)/run"
        environment["PULSE_STATE_PATH"] = "\(folder)/state"
        guard let pid = Self.spawn(arguments, environment: environment.map { "\($0.key)=\($0.value)" }) else { return nil }
        self.pid = pid
        // Ready when a client gets an answer: poll `pactl info` (a readiness check, not a delay).
        for _ in 0..<100 {
            if pactl(["info"]).status == 0 { return }
            guard waitpid(pid, nil, WNOHANG) == 0 else { self.pid = 0; break }
            usleep(100_000)
        }
        stop()
        return nil
    }

    deinit { stop() }

    /// Ends the server (SIGTERM, then reaped) and removes its folder.
    public func stop() {
        if pid > 0 {
            kill(pid, SIGTERM)
            waitpid(pid, nil, 0)
            pid = 0
        }
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// `pactl --server=… ARGS`.
    @discardableResult
    public func pactl(_ arguments: [String]) -> ProgramRun {
        ProgramRun.run("/usr/bin/pactl", ["--server=\(server)"] + arguments)
    }

    /// Starts `paplay` playing `file` into the null sink; the caller waits for it.
    public func play(_ file: String) throws -> Process {
        let player = Process()
        player.executableURL = URL(fileURLWithPath: "/usr/bin/paplay")
        player.arguments = ["--server=\(server)", "--device=\(sink)", file]
        player.standardInput = FileHandle.nullDevice
        try player.run()
        return player
    }

    /// Waits until a player's stream is connected to the sink (polling `pactl`, up to 5 s).
    public func waitForPlayback() -> Bool {
        for _ in 0..<100 {
            if !pactl(["list", "short", "sink-inputs"]).standardOutput.isEmpty { return true }
            usleep(50_000)
        }
        return false
    }

    /// posix_spawn with stdin, stdout and stderr on /dev/null.
    private static func spawn(_ arguments: [String], environment: [String]) -> pid_t? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor in Int32(0)...2 {
            posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, arguments[0], &actions, nil, argv, envp) == 0 else { return nil }
        return pid
    }
}

/// A 48 kHz stereo s16 WAV of silence with a 1 ms full-scale click every second, starting at
/// `first` seconds: the clap track the sound-device tests play and look for.
public enum ClapTrack {
    public static func write(to path: String, seconds: Double, first: Double = 0.5, rate: Int = 48_000) throws {
        let frames = Int(seconds * Double(rate))
        var samples = [Int16](repeating: 0, count: frames * 2)
        var click = first
        while click < seconds {
            let start = Int((click * Double(rate)).rounded())
            for frame in start..<min(start + rate / 1000, frames) {
                let value: Int16 = frame % 2 == 0 ? 30_000 : -30_000
                samples[2 * frame] = value
                samples[2 * frame + 1] = value
            }
            click += 1
        }
        var data = Data()
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        let bytes = samples.count * 2
        data.append(contentsOf: Array("RIFF".utf8)); append(UInt32(36 + bytes))
        data.append(contentsOf: Array("WAVEfmt ".utf8)); append(UInt32(16)); append(UInt16(1)); append(UInt16(2))
        append(UInt32(rate)); append(UInt32(rate * 4)); append(UInt16(4)); append(UInt16(16))
        data.append(contentsOf: Array("data".utf8)); append(UInt32(bytes))
        samples.withUnsafeBytes { data.append(contentsOf: $0) }
        try data.write(to: URL(fileURLWithPath: path))
    }
}
