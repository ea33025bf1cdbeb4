import VRenderCore
import VRenderMedia

/// One piece of a smart render as `StreamCopy` writes it: the re-encoded packets before and
/// after its copied groups of pictures (`SpanEncodings`), and which of its packets are copied.
struct SmartPieceCopy {
    /// Re-encoded packets not yet written: the head goes before the piece's copied packets,
    /// the tail when the copy reaches the end of its last group.
    var head: [Packet] = []
    var tail: [Packet] = []
    /// Seconds from the piece's first picture (`PacketRetimer.Placement.videoWindow`) of the
    /// packets copied (by pts, from half a frame before the first copied picture); empty when
    /// the piece is re-encoded whole.
    let copyWindow: Range<Double>

    /// Nil for a piece copied whole (its packets are copied as any stream copy's).
    init?(_ render: SmartRender, piece index: Int, take: MediaInfo, encodings: SpanEncodings) throws {
        let piece = render.pieces[index]
        guard piece.spans.contains(where: { $0.kind == .encode }) else { return nil }
        let copied = piece.spans.first { $0.kind == .copy }
        for (number, span) in piece.spans.enumerated() where span.kind == .encode {
            let packets = try encodings.packets(SpanEncodings.Key(piece: index, span: number))
            if number == 0 { head = packets } else { tail = packets }
        }
        let half = 0.5 / take.video.frameRate.doubleValue
        copyWindow = copied.map { ($0.start - piece.offset - half)..<($0.end - piece.offset - half) } ?? (-half)..<(-half)
    }

    /// The packets to write before copied packet `seconds` (its pts, from the piece's first
    /// picture): the tail once the copy has passed its window's end, else none.
    mutating func due(before seconds: Double?) -> [Packet] {
        guard let seconds, seconds >= copyWindow.upperBound, !copyWindow.isEmpty else { return [] }
        defer { tail = [] }
        return tail
    }
}
