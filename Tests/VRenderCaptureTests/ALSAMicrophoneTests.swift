#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import VRenderCore
@testable import VRenderCapture

/// The ALSA microphone's arithmetic and refusals, without a sound card.
@Suite struct ALSAMicrophoneTests {
    // MARK: time of the first sample

    @Test func firstSampleIsBeforeTheStampByWhatWasReadAndWhatWaits() {
        // 480 frames read, 96 more waiting at the stamp: the first was captured 576/48000 s
        // (12 ms) before it.
        let time = ALSAClock.firstSampleTime(timestamp: 1_000.5, available: 96, framesRead: 480, sampleRate: 48_000)
        #expect(abs(time - (1_000.5 - 0.012)) < 1e-12)
        // Nothing waiting: exactly one period back.
        #expect(abs(ALSAClock.firstSampleTime(timestamp: 10, available: 0, framesRead: 441, sampleRate: 44_100) - 9.99) < 1e-12)
    }

    @Test func consecutivePeriodsAbutWhenTheDeviceKeepsTime() {
        // A device at 48 kHz stamping every position update: period k+1 starts where period k
        // ended, whatever is waiting at each stamp.
        let rate = 48_000, period = 480
        var previous: Double?
        for k in 0..<50 {
            let waiting = (k * 37) % 200
            let capturedThrough = Double((k + 1) * period + waiting) / Double(rate)
            let time = ALSAClock.firstSampleTime(timestamp: 500 + capturedThrough, available: waiting,
                                                 framesRead: period, sampleRate: rate)
            if let previous { #expect(abs(time - previous - Double(period) / Double(rate)) < 1e-9) }
            previous = time
        }
    }

    @Test func timespecBecomesSeconds() {
        #expect(ALSAClock.seconds(seconds: 12, nanoseconds: 500_000_000) == 12.5)
        #expect(ALSAClock.seconds(seconds: 0, nanoseconds: 0) == 0)
    }

    // MARK: read errors

    @Test func readErrorsSayWhetherToGoOn() {
        #expect(ALSAReadOutcome.classify(-Int(EAGAIN)) == .again)
        #expect(ALSAReadOutcome.classify(-Int(EINTR)) == .again)
        #expect(ALSAReadOutcome.classify(-Int(EPIPE)) == .overrun)
        for gone in [ENODEV, ESTRPIPE, EBADFD, EIO] {
            #expect(ALSAReadOutcome.classify(-Int(gone)) == .gone)
        }
        #expect(ALSAReadOutcome.classify(-Int(EINVAL)) == .failed)
    }

    // MARK: choosing a format

    static let usbMicrophone = ALSACapabilities(formats: ["S16_LE"], minRate: 16_000, maxRate: 48_000, minChannels: 1, maxChannels: 1)

    @Test func prefersS16ThenS32ThenFloat() throws {
        let all = ALSACapabilities(formats: ["FLOAT_LE", "S32_LE", "S16_LE"], minRate: 8_000, maxRate: 192_000,
                                   minChannels: 1, maxChannels: 8)
        #expect(try ALSAFormatChoice.choose(from: all, request: AudioRequest(), subject: "alsa:x").sampleFormat == .s16)
        var noS16 = all
        noS16.formats = ["S24_3LE", "FLOAT_LE", "S32_LE"]
        #expect(try ALSAFormatChoice.choose(from: noS16, request: AudioRequest(), subject: "alsa:x").sampleFormat == .s32)
        noS16.formats = ["FLOAT_LE"]
        #expect(try ALSAFormatChoice.choose(from: noS16, request: AudioRequest(), subject: "alsa:x").sampleFormat == .f32)
    }

    @Test func defaultsTo48kStereoWithinWhatTheDeviceOffers() throws {
        let wide = ALSACapabilities(formats: ["S16_LE"], minRate: 8_000, maxRate: 192_000, minChannels: 1, maxChannels: 32)
        #expect(try ALSAFormatChoice.choose(from: wide, request: AudioRequest(), subject: "alsa:x")
            == AudioFormat(sampleRate: 48_000, channels: 2, sampleFormat: .s16))
        // A mono 16–48 kHz microphone: stereo is not there, so mono.
        #expect(try ALSAFormatChoice.choose(from: Self.usbMicrophone, request: AudioRequest(), subject: "alsa:x")
            == AudioFormat(sampleRate: 48_000, channels: 1, sampleFormat: .s16))
        // Requests are brought to the nearest the device has.
        let asked = AudioRequest(sampleRate: 96_000, channels: 6)
        #expect(try ALSAFormatChoice.choose(from: Self.usbMicrophone, request: asked, subject: "alsa:x")
            == AudioFormat(sampleRate: 48_000, channels: 1, sampleFormat: .s16))
        // More than 8 channels offered: at most 8; a 32-channel minimum is refused below.
        #expect(try ALSAFormatChoice.choose(from: wide, request: AudioRequest(channels: 16), subject: "alsa:x").channels == 8)
    }

    @Test func refusalsNameTheDeviceAndWhatItOffers() {
        let subject = "alsa:hw:3,0"
        let onlyS24 = ALSACapabilities(formats: ["S24_3LE"], minRate: 48_000, maxRate: 48_000, minChannels: 2, maxChannels: 2)
        #expect(refusal(onlyS24).map { $0.subject == subject && $0.reason.contains("S24_3LE") } == true)
        var tooFast = Self.usbMicrophone
        (tooFast.minRate, tooFast.maxRate) = (384_000, 768_000)
        #expect(refusal(tooFast).map { $0.reason.contains("384000–768000 Hz") && $0.kind == .input } == true)
        var tooWide = Self.usbMicrophone
        (tooWide.minChannels, tooWide.maxChannels) = (32, 64)
        #expect(refusal(tooWide).map { $0.reason.contains("32–64 channels") } == true)

        func refusal(_ offered: ALSACapabilities) -> VRenderError? {
            do {
                _ = try ALSAFormatChoice.choose(from: offered, request: AudioRequest(), subject: subject)
                return nil
            } catch {
                return error as? VRenderError
            }
        }
    }

    // MARK: opening

    @Test func openFailuresSayWhatToDo() {
        #expect(ALSAPCM.openFailure(code: -Int(EBUSY)).hasPrefix("is in use by another program"))
        #expect(ALSAPCM.openFailure(code: -Int(ENOENT)).hasPrefix("no such ALSA capture device"))
        #expect(ALSAPCM.openFailure(code: -Int(EACCES)).contains("audio"))
    }

    /// Real libasound: names that are no device are refused before anything records, and the
    /// error names them as the user wrote them.
    @Test func unknownDevicesAreRefusedByName() {
        for device in ["hw:97,0", "vrender_no_such_pcm", ""] {
            do {
                _ = try ALSAMicrophone(device: device)
                Issue.record("alsa:\(device) opened")
            } catch let error as VRenderError {
                #expect(error.subject == "alsa:\(device)")
                #expect(error.kind == .input)
                #expect(error.reason.contains(device.isEmpty ? "names no device" : "no such ALSA capture device"), "\(error)")
            } catch {
                Issue.record("not a VRenderError: \(error)")
            }
        }
    }

    // MARK: listing

    @Test func listingLinesNameTheDeviceCardAndFormats() throws {
        let loop = ALSADeviceInfo(card: 0, pcm: 1, cardID: "Loopback", cardName: "Loopback", pcmName: "Loopback PCM",
                                  capabilities: ALSACapabilities(formats: ["S8", "U8", "S16_LE", "S16_BE", "U16_LE", "U16_BE", "S32_LE", "FLOAT_LE"],
                                                                 minRate: 8_000, maxRate: 192_000, minChannels: 1, maxChannels: 32))
        #expect(loop.device == "alsa:hw:0,1")
        #expect(loop.listingLine == "alsa:hw:0,1  Loopback [Loopback] \"Loopback PCM\": S8 U8 S16_LE S16_BE U16_LE U16_BE +2 more, 8000–192000 Hz, 1–32 ch")
        let busy = ALSADeviceInfo(card: 2, pcm: 0, cardID: "C920", cardName: "HD Pro Webcam C920", pcmName: "USB Audio",
                                  capabilities: nil, problem: "busy: in use by another program")
        #expect(ALSADevices.listingLines([loop, busy]).last == "  alsa:hw:2,0  HD Pro Webcam C920 [C920] \"USB Audio\": busy: in use by another program")
        #expect(ALSADevices.listingLines([]).first?.hasPrefix("  none") == true)
        let decoded = try JSONDecoder().decode([ALSADeviceInfo].self, from: JSONEncoder().encode([loop, busy]))
        #expect(decoded == [loop, busy])
    }
}
