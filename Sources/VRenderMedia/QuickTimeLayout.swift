import Foundation
import VRenderCore

/// The top-level boxes ("atoms") of a QuickTime/MP4 file, read from their headers alone (a few
/// bytes per box, nothing decoded), to tell whether its writer finished it.
///
/// Why: a fragmented file (`movflags empty_moov+frag_…`) plays up to its last whole fragment
/// whether or not it was finished, so FFmpeg opening it proves nothing. What finishing adds is
/// the trailer: `av_write_trailer` ends a fragmented file with an `mfra` box. A file whose
/// writer was killed, lost power or ran out of disk has none, and its last box may be cut short.
public struct QuickTimeLayout: Sendable, Equatable {
    public struct Box: Sendable, Equatable {
        /// The four-character type (`ftyp`, `moov`, `moof`, `mdat`, `mfra`, …).
        public var type: String
        public var offset: Int64
        /// The size the header claims, header included.
        public var size: Int64
    }

    /// The boxes that lie wholly inside the file, in file order.
    public let boxes: [Box]
    /// The box the end of the file cuts short (or whose header is damaged), if any.
    public let cutBox: Box?
    public let fileSize: Int64
    /// True when `moov` holds an `mvex` box: the media lies in movie fragments (`moof`).
    public let isFragmented: Bool

    /// Finished: every box whole and, for a fragmented file, the trailer's `mfra` last; for a
    /// plain one, a `moov` (which such a file gets only when it is finished).
    public var isFinished: Bool {
        guard cutBox == nil else { return false }
        return isFragmented ? boxes.last?.type == "mfra" : boxes.contains { $0.type == "moov" }
    }

    /// How much of the file a demuxer should be given: all of it, or only up to a box the end
    /// of the file cuts short, because FFmpeg parses every fragment's header when it opens a
    /// file and refuses the whole file when one is cut (a `moof` cut in its sample table). A
    /// cut `mdat` is kept: the samples it holds whole are still readable.
    public var readableLength: Int64 {
        guard let cutBox, cutBox.type != "mdat" else { return fileSize }
        return cutBox.offset
    }

    /// Box types a QuickTime-family file may start with; anything else is another format.
    static let leadingTypes: Set<String> = ["ftyp", "moov", "mdat", "free", "skip", "wide", "pnot"]

    /// Reads the layout of the file at `path`; nil when it does not start like a QuickTime-family
    /// file (a Matroska take, a text file). Throws `VRenderError.input` naming the file when it
    /// cannot be opened or is not a regular file (a FIFO there is refused, never waited on).
    ///
    /// By path, links followed: `takes recover`, its one caller, reads and rewrites the take by
    /// path throughout (the demuxer, the salvage's copy), so a folder-handle open here alone
    /// would guard nothing.
    public static func read(_ path: String) throws -> QuickTimeLayout? {
        let held: HeldFile
        do {
            held = try HeldFile.open(path: path)
        } catch {
            throw error.error(as: .input)
        }
        return withExtendedLifetime(held) { layout(of: BoxReader(descriptor: held.descriptor, size: Int64(held.size))) }
    }

    private static func layout(of file: BoxReader) -> QuickTimeLayout? {
        let (boxes, cut) = file.boxes(from: 0, to: file.size)
        guard let first = boxes.first ?? cut, leadingTypes.contains(first.type) else { return nil }
        let fragmented = boxes.first { $0.type == "moov" }.map { moov in
            file.boxes(from: moov.offset + 8, to: moov.offset + moov.size).whole.contains { $0.type == "mvex" }
        } ?? false
        return QuickTimeLayout(boxes: boxes, cutBox: cut, fileSize: file.size, isFragmented: fragmented)
    }
}

/// Box headers read with `pread`, so a file of any length costs one small read per box.
private struct BoxReader {
    let descriptor: Int32
    let size: Int64

    /// The boxes from `start` to `end`: those wholly inside, and the one cut off by `end` (or
    /// whose header makes no sense: a size smaller than its own header), where the walk stops.
    func boxes(from start: Int64, to end: Int64) -> (whole: [QuickTimeLayout.Box], cut: QuickTimeLayout.Box?) {
        var boxes: [QuickTimeLayout.Box] = []
        var offset = start
        while offset < end {
            guard let (type, size, headerSize) = header(at: offset, end: end) else {
                return (boxes, QuickTimeLayout.Box(type: "", offset: offset, size: end - offset))
            }
            let box = QuickTimeLayout.Box(type: type, offset: offset, size: size)
            guard size >= headerSize, offset + size <= end else { return (boxes, box) }
            boxes.append(box)
            offset += size
        }
        return (boxes, nil)
    }

    /// Type, size and header length of the box at `offset`: a 32-bit size and type, then a
    /// 64-bit size when the first is 1; size 0 means "to the end". Nil when the header is cut.
    private func header(at offset: Int64, end: Int64) -> (type: String, size: Int64, headerSize: Int64)? {
        var bytes = [UInt8](repeating: 0, count: 16)
        let available = Int(Swift.min(16, end - offset))
        guard available >= 8, bytes.withUnsafeMutableBytes({
            try? Syscall.pread(descriptor, into: UnsafeMutableRawBufferPointer(rebasing: $0.prefix(available)), at: offset)
        }) == available else { return nil }
        let type = String(decoding: bytes[4..<8].map { (0x20..<0x7F).contains($0) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
        let short = Int64(bigEndian: bytes[0..<4])
        switch short {
        case 0: return (type, end - offset, 8)
        case 1:
            guard available >= 16 else { return nil }
            return (type, Int64(bigEndian: bytes[8..<16]), 16)
        default: return (type, short, 8)
        }
    }
}

private extension Int64 {
    /// A big-endian unsigned integer from 4 or 8 bytes (a 64-bit size past Int64.max is
    /// clamped: it cannot fit in any file anyway).
    init(bigEndian bytes: ArraySlice<UInt8>) {
        let value = bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        self = Int64(clamping: value)
    }
}
