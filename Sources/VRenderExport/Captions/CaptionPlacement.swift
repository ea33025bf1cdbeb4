import VRenderAlignment

/// Where a take's aligned words fall in an export: pure arithmetic over the part of the take
/// one piece of the timeline shows (a take, or what a trim or a silence cut left of it).
enum CaptionPlacement {
    /// One piece of the export's timeline.
    struct Piece: Equatable {
        /// Seconds from the take's first picture to the piece's first picture (its in point).
        var sourceStart: Double
        /// Where the piece starts in the output, and the part of it the viewer sees alone: with
        /// a dissolve, each piece gives up half of the overlap on each side to its neighbour.
        var outputStart: Double
        var visible: Range<Double>
    }

    /// `piece`'s pieces of `timeline` (`SideStreamPlan.spans`: each piece's offset and length
    /// in the output), their overlaps split in the middle.
    static func pieces(sourceStarts: [Double], spans: [(offset: Double, length: Double)]) -> [Piece] {
        spans.indices.map { index in
            let span = spans[index]
            let before = index > 0 ? Swift.max(0, spans[index - 1].offset + spans[index - 1].length - span.offset) : 0
            let after = index + 1 < spans.count ? Swift.max(0, span.offset + span.length - spans[index + 1].offset) : 0
            let visible = (span.offset + before / 2)..<Swift.max(span.offset + before / 2, span.offset + span.length - after / 2)
            return Piece(sourceStart: sourceStarts[index], outputStart: span.offset, visible: visible)
        }
    }

    /// The words `piece` shows, on the output's clock: a word is kept when its middle is in
    /// the visible part, and cut to it (a word a cut splits is shown while it is heard).
    static func place(_ words: [ScriptAlignment.Word], in piece: Piece) -> [ScriptAlignment.Word] {
        words.compactMap { word in
            let shift = piece.outputStart - piece.sourceStart
            let (start, end) = (word.start + shift, word.end + shift)
            guard piece.visible.contains((start + end) / 2) else { return nil }
            var placed = word
            placed.start = Swift.max(start, piece.visible.lowerBound)
            placed.end = Swift.min(end, piece.visible.upperBound)
            return placed
        }
    }

    /// The export's cues: each piece's words as cues that end with the piece, joined.
    static func cues(pieces: [Piece], words: [[ScriptAlignment.Word]], scripts: [[String]]) -> [CaptionCue] {
        CaptionCues.joined(pieces.indices.map { index in
            CaptionCues.cues(for: place(words[index], in: pieces[index]), script: scripts[index],
                             until: pieces[index].visible.upperBound)
        })
    }
}
