import VRenderCore

extension Probe {
    /// Describes a file vrender wrote itself (a chunked export's chunk) from its container's
    /// header alone, when that header is a whole QuickTime/MP4 one (`Demuxer.StreamInfo`):
    /// nothing decoded, its length not measured. A join opened each chunk with a full probe and
    /// again to copy it, decoding its first pictures twice: two thirds of its time besides the
    /// copy. What a header cannot state without decoding (the pixel format, the profile) is
    /// left unknown: the codec setup (`extradata`) that holds them is compared instead. Other
    /// containers (Matroska) are searched as `probe` does. Errors name the file, as `probe`'s.
    public static func header(_ path: String) throws -> MediaInfo {
        try checkReadableFile(path)
        let demuxer: Demuxer
        do {
            demuxer = try Demuxer(path: path, streamInfo: .headerWhenComplete)
        } catch {
            throw VRenderError.input(path, "cannot be read as a video (\(explain(error)))")
        }
        return try demuxer.info(measuringLength: false)
    }
}
