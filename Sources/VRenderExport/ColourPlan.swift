import VRenderImaging
import VRenderMedia

/// The colours of a transcode: one description for the whole output, and how each take gets
/// there. A description is never dropped: it is kept, converted, or the conversion announced.
package struct ColourPlan: Sendable, Equatable {
    /// The luma drawn text takes (the prompter, captions): nominal white in SDR; in an HDR
    /// output, whose nominal white is the format's peak, graphics white.
    package var textLevel: Double {
        output.isPQ ? YUVOverlay.GraphicsWhite.pq : output.isHLG ? YUVOverlay.GraphicsWhite.hlg : 1
    }

    /// What the output's pictures mean, written into the bitstream and the container.
    package var output: ColourDescription
    /// 10-bit canvas and encoder (HDR takes stay HDR).
    package var tenBit: Bool
    /// Per take: HDR pictures tone-mapped to SDR before anything else.
    package var toneMapped: [Bool]
    /// Per take: the take's own (resolved) description, the scaler's input.
    package var sources: [ColourDescription]
    /// What was done, for the plan's notices; nil when every take already matched.
    package var notice: String?

    /// Decides the output description for a transcode of `takes`.
    /// - All HDR with one transfer, no filter and a codec with a 10-bit profile: HDR kept.
    /// - Any HDR otherwise: HDR takes tone-mapped to SDR BT.709 (our filters are 8-bit SDR).
    /// - All SDR with the same colours: kept (range becomes limited).
    /// - SDR takes that differ: matrix and range converted to BT.709.
    static func make(takes: [MediaInfo], filtered: Bool, codec: VideoCodecChoice) -> ColourPlan {
        let sources = takes.map(\.video.resolvedColour)
        let hdr = sources.map(\.isHDR)
        let first = sources[0]
        let tenBitCodec = [.auto, .hevc].contains(codec)
        if hdr.allSatisfy({ $0 }), sources.allSatisfy({ $0.transfer == first.transfer }), !filtered, tenBitCodec {
            var output = first
            output.fullRange = false
            return ColourPlan(output: output, tenBit: true, toneMapped: hdr.map { _ in false }, sources: sources, notice: nil)
        }
        if hdr.contains(true) {
            let why = filtered ? "filters work on SDR pictures"
                : !tenBitCodec ? "--codec \(codec.rawValue) has no 10-bit HDR profile here"
                : hdr.allSatisfy({ $0 }) ? "the takes mix PQ and HLG" : "HDR and SDR takes are joined"
            let names = zip(takes, hdr).filter(\.1).map(\.0.path)
            return ColourPlan(output: .bt709, tenBit: false, toneMapped: hdr, sources: sources,
                              notice: "HDR tone-mapped to SDR BT.709 (\(why)): \(names.joined(separator: ", "))")
        }
        if sources.allSatisfy({ $0.sameColours(as: first) }) {
            var output = first
            output.fullRange = false
            return ColourPlan(output: output, tenBit: false, toneMapped: hdr, sources: sources, notice: nil)
        }
        let differing = zip(takes, sources).filter { !$0.1.sameColours(as: .bt709) }
            .map { "\($0.0.path) is \($0.1.description)" }
        return ColourPlan(output: .bt709, tenBit: false, toneMapped: hdr, sources: sources,
                          notice: "colours converted to BT.709 (takes differ): \(differing.joined(separator: "; "))")
    }

    /// A plan that changes nothing (stream copy keeps every take's own description).
    static func copied(_ takes: [MediaInfo]) -> ColourPlan {
        let sources = takes.map(\.video.resolvedColour)
        return ColourPlan(output: takes[0].video.colour, tenBit: false, toneMapped: sources.map { _ in false },
                          sources: sources, notice: nil)
    }
}
