import Glibc
import VRenderCore

/// Where `vrender camera -o` streams: standard output (`-`), a FIFO or character device opened
/// as it is (a reader is at its other end), or a regular file, written to a hidden temporary
/// beside its name and renamed when complete (`AtomicFile`), so a feed that fails leaves no half
/// file under the name asked for.
final class StreamDestination {
    /// What messages call it: "standard output" or the path.
    let name: String
    let descriptor: Int32
    /// Set for a regular file.
    private let file: AtomicFile?
    /// True when this value opened `descriptor` and closes it.
    private let ownsDescriptor: Bool

    private init(name: String, descriptor: Int32, file: AtomicFile?, ownsDescriptor: Bool) {
        self.name = name
        self.descriptor = descriptor
        self.file = file
        self.ownsDescriptor = ownsDescriptor
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    /// `-o output`. A FIFO waits until a reader opens its other end (`beforeWaiting` is told
    /// first), or until `stopped()` says to give up (Ctrl-C: a plain blocking open could not be
    /// interrupted). Throws `VRenderError.option("-o", …)` for standard output on a terminal or a
    /// folder, `VRenderError.output` for what cannot be written or a wait given up.
    static func open(_ output: String, beforeWaiting: (String) -> Void,
                     stopped: () -> Bool) throws -> StreamDestination {
        if output == "-" {
            guard isatty(STDOUT_FILENO) == 0 else {
                throw VRenderError.option("-o", "standard output is a terminal: pipe it into a reader "
                                          + "(vrender camera ... -o - | ffmpeg -i - ...) or give a file")
            }
            return StreamDestination(name: "standard output", descriptor: STDOUT_FILENO, file: nil, ownsDescriptor: false)
        }
        var status = stat()
        if stat(output, &status) == 0 {
            switch status.st_mode & S_IFMT {
            case S_IFDIR:
                throw VRenderError.option("-o", "\(output) is a folder; give a file name, a FIFO or -")
            case S_IFIFO, S_IFCHR, S_IFSOCK:
                let isFIFO = status.st_mode & S_IFMT == S_IFIFO
                // Held open until the stream's own descriptor is: a FIFO whose writers all close
                // gives its reader the end of the stream.
                let probe = isFIFO ? try waitForReader(output, stopped: stopped, beforeWaiting: beforeWaiting) : nil
                defer { if let probe { close(probe) } }
                do {
                    let descriptor = try Syscall.open(output, O_WRONLY | O_CLOEXEC | O_NOCTTY)
                    return StreamDestination(name: output, descriptor: descriptor, file: nil, ownsDescriptor: true)
                } catch {
                    throw VRenderError.output(output, error.reason("cannot write"))
                }
            default:
                break
            }
        }
        let file = AtomicFile(path: output)
        try file.checkTarget()
        return StreamDestination(name: output, descriptor: try file.open(), file: file, ownsDescriptor: false)
    }

    /// Waits until the FIFO `path` has a reader: a non-blocking open for writing fails (ENXIO)
    /// until then, and is tried every 50 ms. Returns that open descriptor.
    private static func waitForReader(_ path: String, stopped: () -> Bool,
                                      beforeWaiting: (String) -> Void) throws -> Int32 {
        beforeWaiting("waiting for a reader to open the FIFO \(path)")
        while true {
            do {
                return try Syscall.open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
            } catch where error.code == ENXIO {
                if stopped() { throw VRenderError.output(path, "no reader opened the FIFO before the feed was stopped") }
                usleep(50_000)
            } catch {
                throw VRenderError.output(path, error.reason("cannot write"))
            }
        }
    }

    /// A finished stream: a regular file takes its name.
    func commit() throws {
        try file?.commit()
    }

    /// A failed stream: a regular file's temporary is removed, its name left as it was.
    func discard() {
        file?.discard()
    }
}
