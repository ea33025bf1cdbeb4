import VRenderCore
import VRenderFilters
import VRenderMedia

/// Turns a take's HDR pictures (PQ or HLG, 10/12-bit BT.2020) into 8-bit BT.709 SDR pictures of
/// the same size, before scaling and filtering: used when HDR takes are filtered (our filters
/// work on SDR) or joined with SDR takes. Owns one reusable 8-bit frame. One thread.
final class ToneMapStep {
    private let colour: ColourDescription
    private let threads: Int
    private var mapper: HDRToneMapper?
    private var output: Frame?

    init(colour: ColourDescription, threads: Int) {
        self.colour = colour
        self.threads = threads
    }

    /// The SDR picture for `decoded`; valid until the next call.
    func map(_ decoded: Frame, path: String) throws -> Frame {
        guard decoded.isHighBitDepth else {
            throw VRenderError.input(path, "is tagged HDR (\(colour.transferName)) but decodes to 8-bit pictures; cannot tone-map it")
        }
        let source = decoded.yuvImage16()
        let mapper = try self.mapper ?? makeMapper(source, path: path)
        self.mapper = mapper
        let picture: Frame
        if let output, output.width == decoded.width, output.height == decoded.height {
            picture = output
        } else {
            picture = try Frame.picture(width: decoded.width, height: decoded.height)
            output = picture
        }
        try picture.makeWritable()
        mapper.convert(source, into: picture.yuvImage())
        return picture
    }

    private func makeMapper(_ source: YUVImage16, path: String) throws -> HDRToneMapper {
        let subsampling = source.chroma
        do {
            return try HDRToneMapper(transfer: colour.isPQ ? .pq : .hlg, fullRange: colour.fullRange,
                                     bitDepth: source.bitDepth, subsampling: subsampling, threads: threads)
        } catch {
            throw VRenderError.input(path, "cannot tone-map it: \(error)")
        }
    }
}
