/// How a copied H.264 or HEVC stream frames its NAL units, read from its codec setup: each
/// unit after a big-endian length (avcC/hvcC extradata, .mp4/.mov/.mkv), or after an Annex-B
/// start code (extradata that is itself Annex B, as from MPEG-TS). Smart rendering writes the
/// re-encoded frames (an encoder's Annex B) in the copied stream's form, with parameter sets
/// in band: the re-encoded span's own before its frames, and the copied stream's again before
/// the first copied keyframe after it (the new ones reuse the ids, so they would stay active).
struct NALFormat: Equatable {
    enum Codec: Equatable { case h264, hevc }

    let codec: Codec
    /// Bytes of each unit's length prefix; nil: Annex-B start codes.
    let lengthSize: Int?
    /// The copied stream's parameter sets (HEVC: VPS, SPS, PPS; H.264: SPS, PPS), in the order
    /// its setup lists them, without prefixes.
    let parameterSets: [[UInt8]]

    /// Nil when `extradata` cannot be read as avcC/hvcC or Annex B, or holds no parameter set.
    init?(codec: Codec, extradata: [UInt8]) {
        self.codec = codec
        if extradata.starts(with: [0, 0, 1]) || extradata.starts(with: [0, 0, 0, 1]) {
            lengthSize = nil
            parameterSets = Self.annexBUnits(extradata).filter { Self.isParameterSet($0, codec) }
        } else if let parsed = codec == .h264 ? Self.avcC(extradata) : Self.hvcC(extradata) {
            (lengthSize, parameterSets) = (parsed.lengthSize, parsed.units.filter { Self.isParameterSet($0, codec) })
        } else {
            return nil
        }
        if parameterSets.isEmpty { return nil }
    }

    /// An encoder's Annex-B packet in this stream's form.
    func packed(annexB: [UInt8]) -> [UInt8] {
        pack(Self.annexBUnits(annexB))
    }

    /// A copied keyframe's packet with the copied stream's parameter sets put before its
    /// slices (after an access unit delimiter, which must come first).
    func withParameterSets(_ packet: [UInt8]) -> [UInt8] {
        var units = unpack(packet)
        let delimiter = units.first.map(isDelimiter) == true ? 1 : 0
        units.insert(contentsOf: parameterSets, at: delimiter)
        return pack(units)
    }

    func pack(_ units: [[UInt8]]) -> [UInt8] {
        var out: [UInt8] = []
        for unit in units {
            if let lengthSize {
                for shift in stride(from: 8 * (lengthSize - 1), through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: unit.count >> shift)) }
            } else {
                out += [0, 0, 0, 1]
            }
            out += unit
        }
        return out
    }

    /// The units of a packet in this stream's form (a damaged length ends the list).
    func unpack(_ packet: [UInt8]) -> [[UInt8]] {
        guard let lengthSize else { return Self.annexBUnits(packet) }
        var units: [[UInt8]] = []
        var at = 0
        while at + lengthSize <= packet.count {
            let length = packet[at..<(at + lengthSize)].reduce(0) { $0 << 8 | Int($1) }
            at += lengthSize
            guard length > 0, at + length <= packet.count else { break }
            units.append(Array(packet[at..<(at + length)]))
            at += length
        }
        return units
    }

    private func isDelimiter(_ unit: [UInt8]) -> Bool {
        guard let first = unit.first else { return false }
        return codec == .h264 ? first & 0x1F == 9 : (first >> 1) & 0x3F == 35
    }

    /// H.264 SPS (7), PPS (8); HEVC VPS (32), SPS (33), PPS (34).
    private static func isParameterSet(_ unit: [UInt8], _ codec: Codec) -> Bool {
        guard let first = unit.first else { return false }
        return codec == .h264 ? [7, 8].contains(first & 0x1F) : (32...34).contains((first >> 1) & 0x3F)
    }

    /// The units between Annex-B start codes (3 or 4 bytes), trailing zero bytes dropped.
    static func annexBUnits(_ bytes: [UInt8]) -> [[UInt8]] {
        var starts: [(code: Int, data: Int)] = []
        var index = 0
        while index + 2 < bytes.count {
            if bytes[index] == 0, bytes[index + 1] == 0, bytes[index + 2] == 1 {
                let code = index > 0 && bytes[index - 1] == 0 ? index - 1 : index
                starts.append((code, index + 3))
                index += 3
            } else {
                index += 1
            }
        }
        return starts.enumerated().compactMap { number, start in
            var end = number + 1 < starts.count ? starts[number + 1].code : bytes.count
            while end > start.data, bytes[end - 1] == 0 { end -= 1 }
            return end > start.data ? Array(bytes[start.data..<end]) : nil
        }
    }

    /// avcC: version 1, profile, compatibility, level, 0xFC | length size − 1, 0xE0 | SPS count,
    /// each SPS (16-bit length, bytes), PPS count, each PPS.
    private static func avcC(_ bytes: [UInt8]) -> (lengthSize: Int, units: [[UInt8]])? {
        guard bytes.count > 6, bytes[0] == 1 else { return nil }
        var reader = ByteReader(bytes: bytes, at: 6)
        var units: [[UInt8]] = []
        do {
            for _ in 0..<Int(bytes[5] & 0x1F) { units.append(try reader.unit()) }
            guard let ppsCount = reader.byte() else { return nil }
            for _ in 0..<Int(ppsCount) { units.append(try reader.unit()) }
        } catch {
            return nil
        }
        return (Int(bytes[4] & 3) + 1, units)
    }

    /// hvcC: 22 bytes of profile and settings (byte 21: length size − 1), an array count, each
    /// array (NAL type byte, 16-bit unit count, each unit: 16-bit length, bytes).
    private static func hvcC(_ bytes: [UInt8]) -> (lengthSize: Int, units: [[UInt8]])? {
        guard bytes.count > 23, bytes[0] == 1 else { return nil }
        var reader = ByteReader(bytes: bytes, at: 23)
        var units: [[UInt8]] = []
        for _ in 0..<Int(bytes[22]) {
            guard reader.byte() != nil, let high = reader.byte(), let low = reader.byte() else { return nil }
            for _ in 0..<(Int(high) << 8 | Int(low)) {
                guard let unit = try? reader.unit() else { return nil }
                units.append(unit)
            }
        }
        return (Int(bytes[21] & 3) + 1, units)
    }
}

/// Reads a codec setup record front to back.
private struct ByteReader {
    struct Truncated: Error {}
    let bytes: [UInt8]
    var at: Int

    mutating func byte() -> UInt8? {
        guard at < bytes.count else { return nil }
        defer { at += 1 }
        return bytes[at]
    }

    /// A 16-bit length and that many bytes.
    mutating func unit() throws -> [UInt8] {
        guard let high = byte(), let low = byte() else { throw Truncated() }
        let length = Int(high) << 8 | Int(low)
        guard at + length <= bytes.count else { throw Truncated() }
        defer { at += length }
        return Array(bytes[at..<(at + length)])
    }
}
