internal import CFFmpeg

/// How a video's samples map to colours: the four fields FFmpeg carries in `AVCodecParameters`
/// (`color_primaries`, `color_trc`, `color_space`, `color_range`), with FFmpeg's own numbering
/// (the ITU-T H.273 code points), so they pass to encoders and muxers unchanged.
public struct ColourDescription: Sendable, Hashable, Codable, CustomStringConvertible {
    public var primaries: Int32
    public var transfer: Int32
    public var matrix: Int32
    /// True for full ("JPEG", 0–255) range, false for limited ("TV", 16–235) range.
    public var fullRange: Bool

    public init(primaries: Int32, transfer: Int32, matrix: Int32, fullRange: Bool) {
        self.primaries = primaries
        self.transfer = transfer
        self.matrix = matrix
        self.fullRange = fullRange
    }

    /// H.273 code points vrender names: "unspecified" is 2 for all three.
    static let unspecified: Int32 = 2

    /// SDR HD: BT.709 primaries, transfer and matrix, limited range. What mixed takes become.
    public static let bt709 = ColourDescription(primaries: 1, transfer: 1, matrix: 1, fullRange: false)
    /// SDR SD: SMPTE 170M (BT.601 525-line), limited range.
    public static let bt601 = ColourDescription(primaries: 6, transfer: 6, matrix: 6, fullRange: false)

    /// PQ (SMPTE ST 2084) or HLG (ARIB STD-B67): an HDR transfer.
    public var isHDR: Bool { isPQ || isHLG }
    public var isPQ: Bool { transfer == Int32(AVCOL_TRC_SMPTE2084.rawValue) }
    public var isHLG: Bool { transfer == Int32(AVCOL_TRC_ARIB_STD_B67.rawValue) }
    /// BT.2100 HDR as phones record it: BT.2020 primaries and matrix with PQ or HLG.
    public static func hdr(pq: Bool) -> ColourDescription {
        ColourDescription(primaries: 9, transfer: pq ? 16 : 18, matrix: 9, fullRange: false)
    }

    /// The description a player would assume for what a file leaves unspecified: BT.709 for HD
    /// (1280 wide or more than 576 lines, either way up), SMPTE 170M for SD, as mpv and most
    /// players guess; range limited unless the pixel format is a full-range one (`yuvj*`).
    public func resolved(width: Int, height: Int, pixelFormatIsFullRange: Bool) -> ColourDescription {
        let isHD = Swift.max(width, height) >= 1280 || Swift.min(width, height) > 576
        let guess = isHD ? Self.bt709 : Self.bt601
        var result = self
        if primaries == Self.unspecified || primaries == 0 { result.primaries = guess.primaries }
        if transfer == Self.unspecified || transfer == 0 { result.transfer = guess.transfer }
        if matrix == Self.unspecified || matrix == 0 { result.matrix = guess.matrix }
        if pixelFormatIsFullRange { result.fullRange = true }
        return result
    }

    /// Same colours on screen: matrix, primaries and transfer equal (range is a sample
    /// encoding, converted freely). SMPTE 170M and BT.470BG share one matrix.
    public func sameColours(as other: ColourDescription) -> Bool {
        primaries == other.primaries && transfer == other.transfer && Self.matrixFamily(matrix) == Self.matrixFamily(other.matrix)
    }

    /// BT.601's two names (BT.470BG = 5, SMPTE 170M = 6) are one matrix.
    static func matrixFamily(_ matrix: Int32) -> Int32 { matrix == 5 ? 6 : matrix }

    public var primariesName: String { Self.name(av_color_primaries_name(AVColorPrimaries(rawValue: UInt32(primaries)))) }
    public var transferName: String { Self.name(av_color_transfer_name(AVColorTransferCharacteristic(rawValue: UInt32(transfer)))) }
    public var matrixName: String { Self.name(av_color_space_name(AVColorSpace(rawValue: UInt32(matrix)))) }
    public var rangeName: String { fullRange ? "full" : "limited" }

    /// "bt709/bt709/bt709 limited", as primaries/transfer/matrix (ffprobe's names).
    public var description: String { "\(primariesName)/\(transferName)/\(matrixName) \(rangeName)" }

    private static func name(_ pointer: UnsafePointer<CChar>?) -> String {
        pointer.map { String(cString: $0) } ?? "unknown"
    }
}
