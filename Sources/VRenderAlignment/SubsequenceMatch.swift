import Foundation

/// Where a short stretch of speech (a line of the script, synthesized) is said in a longer one
/// (a window of the take's sound): dynamic time warping with a free start and end in the longer
/// one, on feature frames with each side's mean taken away (so a quieter room or another voice
/// colour shifts nothing).
///
/// Steps: one frame on both sides, or one on either; a frame of the take may stand for several
/// of the reference and back, so speech twice as fast or half as fast as the reference is
/// followed. Every step weighs the same (each cell of the path counts once): were a diagonal
/// to count twice, as in DTW between two whole sequences, a path could save by starting late
/// and piling a line's first word onto one frame of the take, which the free start lets it do
/// (a 30 s take lost a line's first word so). The cost is the path's summed distance over its
/// cells: comparable between lines and windows.
struct SubsequenceMatch {
    /// The take's frames the line was found in (from the window's first frame).
    var start: Int
    var end: Int
    /// Mean distance per step along the path.
    var cost: Float
    /// `cost` over the median of the best costs ending at each frame of the window: well
    /// under 1 where the line stands out from the rest of the window, near 1 where nothing does.
    var contrast: Float
    /// For each reference frame, the first window frame matched with it.
    var frames: [Int]

    /// The best place for `reference` in `window` (each at least one frame). Memory: one byte
    /// per pair of frames, for the way back.
    static func find(_ reference: SpeechFeatures, in window: ArraySlice<Float>) -> SubsequenceMatch {
        let width = SpeechFeatures.count
        let rows = reference.frameCount
        let columns = window.count / width
        precondition(rows > 0 && columns > 0)
        // Silence against silence costs a quarter, and is not counted in the path's length: a
        // pause in the take longer than the script's reading has is crossed rather than a word
        // squeezed out to avoid it, and a path is no cheaper per step for running on through
        // the silence after a line (a take's end, where the presenter had finished).
        let refQuiet = quiet(reference.values[...])
        let takeQuiet = quiet(window)
        let ref = centred(reference.values[...], quiet: refQuiet)
        let take = centred(window, quiet: takeQuiet)
        var steps = [UInt8](repeating: 0, count: rows * columns)
        var previous = Row(columns: columns)
        var current = Row(columns: columns)
        var distances = [Float](repeating: 0, count: columns)
        var counted = [Float](repeating: 0, count: columns)
        ref.withUnsafeBufferPointer { ref in
            take.withUnsafeBufferPointer { take in
                for row in 0..<rows {
                    for column in 0..<columns {
                        let silent = refQuiet[row] && takeQuiet[column]
                        distances[column] = distance(ref, row, take, column, width) * (silent ? 0.25 : 1)
                        counted[column] = silent ? 0 : 1
                    }
                    if row == 0 {
                        current.begin(distances, counted)
                    } else {
                        steps.withUnsafeMutableBufferPointer { all in
                            current.advance(from: previous, distances, counted, steps: UnsafeMutableBufferPointer(rebasing: all[row * columns..<(row + 1) * columns]))
                        }
                    }
                    swap(&previous, &current)
                }
            }
        }
        return finish(previous, steps: steps, rows: rows, columns: columns)
    }

    /// One row of accumulated costs: for each window frame, the best path's summed distance,
    /// its length (the cells not silence against silence) and the window frame it started on.
    private struct Row {
        var cost: [Float]
        var length: [Float]
        var start: [Int32]

        init(columns: Int) {
            cost = [Float](repeating: 0, count: columns)
            length = cost
            start = [Int32](repeating: 0, count: columns)
        }

        /// The first row: the line may begin on any frame of the window.
        mutating func begin(_ distances: [Float], _ counted: [Float]) {
            for column in distances.indices {
                cost[column] = distances[column]
                length[column] = counted[column]
                start[column] = Int32(column)
            }
        }

        /// The row after `previous`, recording in `steps` the step into each cell: 0 diagonal,
        /// 1 from the row above (the reference advances), 2 from the column before (the take does).
        mutating func advance(from previous: Row, _ distances: [Float], _ counted: [Float], steps: UnsafeMutableBufferPointer<UInt8>) {
            for column in distances.indices {
                let (distance, count) = (distances[column], counted[column])
                var (best, weighted, first, step) = (previous.cost[column] + distance, previous.length[column] + count,
                                                     previous.start[column], UInt8(1))
                if column > 0 {
                    let diagonal = previous.cost[column - 1] + distance
                    if diagonal <= best {
                        (best, weighted, first, step) = (diagonal, previous.length[column - 1] + count, previous.start[column - 1], 0)
                    }
                    let left = cost[column - 1] + distance
                    if left < best { (best, weighted, first, step) = (left, length[column - 1] + count, start[column - 1], 2) }
                }
                (cost[column], length[column], start[column], steps[column]) = (best, weighted, first, step)
            }
        }
    }

    /// The free end, the cheapest per step of the last row, and the path back from it.
    private static func finish(_ last: Row, steps: [UInt8], rows: Int, columns: Int) -> SubsequenceMatch {
        let perStep = (0..<columns).map { last.cost[$0] / Swift.max(1, last.length[$0]) }
        let end = perStep.indices.min { perStep[$0] < perStep[$1] } ?? 0
        let median = perStep.sorted()[columns / 2]
        return SubsequenceMatch(start: Int(last.start[end]), end: end, cost: perStep[end],
                                contrast: median > 0 ? perStep[end] / median : 1,
                                frames: path(steps, rows: rows, columns: columns, end: end))
    }

    /// Each reference frame's first window frame, walking the steps back from the last row's `end`.
    private static func path(_ steps: [UInt8], rows: Int, columns: Int, end: Int) -> [Int] {
        var frames = [Int](repeating: 0, count: rows)
        var row = rows - 1
        var column = end
        while true {
            frames[row] = column
            switch steps[row * columns + column] {
            case 0 where row > 0 && column > 0:
                row -= 1
                column -= 1
            case 1 where row > 0:
                row -= 1
            case 2 where column > 0:
                column -= 1
            default:
                return frames
            }
        }
    }

    /// Euclidean distance between frame `row` of `a` and frame `column` of `b`.
    @inline(__always)
    private static func distance(_ a: UnsafeBufferPointer<Float>, _ row: Int, _ b: UnsafeBufferPointer<Float>, _ column: Int,
                                 _ width: Int) -> Float {
        var sum: Float = 0
        for index in 1..<width {   // c0, the loudness, left out
            let difference = a[row * width + index] - b[column * width + index]
            sum += difference * difference
        }
        return sum.squareRoot()
    }

    /// Frames whose every filter is at the energy floor (c0 within 10% of the floor's): silence.
    private static func quiet(_ values: ArraySlice<Float>) -> [Bool] {
        let width = SpeechFeatures.count
        let floor = Float(Double(SpeechFeatures.filters) * log(FeatureExtractor.floor))
        return stride(from: values.startIndex, to: values.endIndex, by: width).map { values[$0] < floor * 0.9 }
    }

    /// The frames with the mean of their sounding frames taken away (of all, when all are
    /// quiet): the mean of a window that is mostly silence (a take's last seconds) is silence's,
    /// and it would set every frame of speech in it apart from the script's.
    private static func centred(_ values: ArraySlice<Float>, quiet: [Bool]) -> [Float] {
        let width = SpeechFeatures.count
        let frames = values.count / width
        let counted = quiet.contains(false) ? quiet.indices.filter { !quiet[$0] } : Array(0..<frames)
        var mean = [Float](repeating: 0, count: width)
        for frame in counted {
            for index in 0..<width { mean[index] += values[values.startIndex + frame * width + index] }
        }
        for index in 0..<width { mean[index] /= Float(Swift.max(1, counted.count)) }
        return values.enumerated().map { $0.element - mean[$0.offset % width] }
    }
}
