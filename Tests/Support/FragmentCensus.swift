import Foundation

/// What a fragmented QuickTime file holds, counted from its boxes by a parser of its own (the
/// test's independent count, not vrender's `QuickTimeLayout`): top-level boxes, and per movie
/// fragment its samples (`trun`) and where their bytes lie. Reads any prefix of a file, so a
/// test can ask what a file cut at some offset still holds whole. Samples are the video's
/// (track 1, the stream a take writes first); a take's sound (track 2) is not counted.
public struct FragmentCensus {
    public struct Box: Equatable {
        public var type: String
        public var offset: Int
        public var size: Int
        public var end: Int { offset + size }
    }

    /// Top-level boxes wholly inside the data.
    public private(set) var boxes: [Box] = []
    /// Samples of fragments whose `moof` and following `mdat` are both whole.
    public private(set) var framesInCompleteFragments = 0
    /// Fragments whose `moof` and following `mdat` are both whole.
    public private(set) var completeFragments = 0
    /// Samples whose bytes lie wholly inside the data, in fragments whose `moof` is whole.
    public private(set) var wholeSamples = 0

    public init(_ data: Data) {
        let bytes = [UInt8](data)
        var offset = 0
        while offset + 8 <= bytes.count {
            var size = Self.u32(bytes, offset)
            if size == 1, offset + 16 <= bytes.count { size = Self.u64(bytes, offset + 8) }
            if size == 0 { size = bytes.count - offset }
            guard size >= 8, offset + size <= bytes.count else { break }
            boxes.append(Box(type: Self.type(bytes, offset + 4), offset: offset, size: size))
            offset += size
        }
        for (index, box) in boxes.enumerated() where box.type == "moof" {
            let samples = Self.sampleSpans(bytes, moof: box)
            wholeSamples += samples.filter { $0.upperBound <= bytes.count }.count
            if index + 1 < boxes.count, boxes[index + 1].type == "mdat" {
                completeFragments += 1
                framesInCompleteFragments += samples.count
            }
        }
    }

    public init(contentsOf path: String) throws {
        self.init(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// The boxes of one type, in file order.
    public func boxes(_ type: String) -> [Box] { boxes.filter { $0.type == type } }

    /// Byte ranges of a fragment's samples: `traf` → `tfhd` (defaults, base offset) and
    /// `trun` (count, data offset, per-sample sizes), of track `track` only.
    static func sampleSpans(_ bytes: [UInt8], moof: Box, track: Int = 1) -> [Range<Int>] {
        var spans: [Range<Int>] = []
        for traf in children(bytes, of: moof) where traf.type == "traf" {
            var base = moof.offset, defaultSize = 0
            for child in children(bytes, of: traf) {
                if child.type == "tfhd", u32(bytes, child.offset + 12) != track { break }   // another track's
                var cursor = child.offset + 8
                let flags = u32(bytes, cursor) & 0xFF_FFFF
                cursor += 4
                if child.type == "tfhd" {
                    cursor += 4                                               // track ID
                    if flags & 0x1 != 0 { base = u64(bytes, cursor); cursor += 8 }
                    if flags & 0x2 != 0 { cursor += 4 }                       // sample description
                    if flags & 0x8 != 0 { cursor += 4 }                       // default duration
                    if flags & 0x10 != 0 { defaultSize = u32(bytes, cursor) }
                } else if child.type == "trun" {
                    let count = u32(bytes, cursor)
                    cursor += 4
                    var position = base
                    if flags & 0x1 != 0 { position = base + Int(Int32(truncatingIfNeeded: u32(bytes, cursor))); cursor += 4 }
                    if flags & 0x4 != 0 { cursor += 4 }                       // first sample flags
                    for _ in 0..<count {
                        if flags & 0x100 != 0 { cursor += 4 }                 // duration
                        var size = defaultSize
                        if flags & 0x200 != 0 { size = u32(bytes, cursor); cursor += 4 }
                        if flags & 0x400 != 0 { cursor += 4 }                 // flags
                        if flags & 0x800 != 0 { cursor += 4 }                 // composition offset
                        spans.append(position..<(position + size))
                        position += size
                    }
                }
            }
        }
        return spans
    }

    private static func children(_ bytes: [UInt8], of box: Box) -> [Box] {
        var found: [Box] = []
        var offset = box.offset + 8
        while offset + 8 <= box.end {
            let size = u32(bytes, offset)
            guard size >= 8, offset + size <= box.end else { break }
            found.append(Box(type: type(bytes, offset + 4), offset: offset, size: size))
            offset += size
        }
        return found
    }

    private static func u32(_ bytes: [UInt8], _ at: Int) -> Int {
        bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
    }

    private static func u64(_ bytes: [UInt8], _ at: Int) -> Int {
        bytes[at..<at + 8].reduce(0) { $0 << 8 | Int($1) }
    }

    private static func type(_ bytes: [UInt8], _ at: Int) -> String {
        String(decoding: bytes[at..<at + 4], as: UTF8.self)
    }
}
