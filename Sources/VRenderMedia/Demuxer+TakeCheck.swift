internal import CFFmpeg
import VRenderCore

extension Demuxer {
    /// How this file's streams differ from `take`, what an earlier probe of it found (maybe in
    /// another process: a chunk plan carries its takes' probes, and a plan is a file anyone may
    /// have edited), in words; nil when every stream the take names is there, of its kind,
    /// with its codec, picture size and pixel format, sample rate, channels and clock.
    ///
    /// Cheap (the codec parameters the open already read), so it runs wherever a take is
    /// opened for its packets: a stream index that is not there would otherwise index past
    /// FFmpeg's stream array, and a changed file would be decoded as something it is not.
    public func difference(from take: MediaInfo) -> String? {
        let video = take.video
        if let wrong = streamDifference(video.index, kind: AVMEDIA_TYPE_VIDEO, codec: video.codecName, timeBase: video.timeBase) {
            return wrong
        }
        let parameters = stream(video.index).pointee.codecpar.pointee
        let found = "\(parameters.width)x\(parameters.height) \(pixelFormatName(ofStream: video.index))"
        let probed = "\(video.width)x\(video.height) \(video.pixelFormat)"
        if found != probed { return "its video (stream \(video.index)) is \(found), not \(probed)" }
        for audio in take.audioTracks {
            if let wrong = streamDifference(audio.index, kind: AVMEDIA_TYPE_AUDIO, codec: audio.codecName, timeBase: audio.timeBase) {
                return wrong
            }
            let parameters = stream(audio.index).pointee.codecpar.pointee
            let found = "\(parameters.sample_rate) Hz \(parameters.ch_layout.nb_channels) channel(s)"
            let probed = "\(audio.sampleRate) Hz \(audio.channels) channel(s)"
            if found != probed { return "its audio (stream \(audio.index)) is \(found), not \(probed)" }
        }
        for subtitle in take.side.subtitles {
            if let wrong = streamDifference(subtitle.index, kind: AVMEDIA_TYPE_SUBTITLE, codec: subtitle.codecName, timeBase: nil) {
                return wrong
            }
        }
        return nil
    }

    /// Whether stream `index` is there, of `kind`, with `codec` and (when given) `timeBase`.
    private func streamDifference(_ index: Int, kind: AVMediaType, codec: String, timeBase: Rational?) -> String? {
        let wanted = "\(Self.name(of: kind)), \(codec)"
        guard index >= 0, index < Int(context.pointee.nb_streams) else {
            return "it has no stream \(index) (\(wanted)): it has \(context.pointee.nb_streams) stream(s)"
        }
        let parameters = stream(index).pointee.codecpar.pointee
        let found = "\(Self.name(of: parameters.codec_type)), \(String(cString: avcodec_get_name(parameters.codec_id)))"
        guard found == wanted else { return "its stream \(index) is \(found), not \(wanted)" }
        if let timeBase, self.timeBase(ofStream: index) != timeBase {
            return "its stream \(index) counts time in units of \(self.timeBase(ofStream: index)) s, not \(timeBase) s"
        }
        return nil
    }
}
