#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import VRenderCore
@testable import VRenderCapture

/// The ALSA microphone on a real kernel driver: snd-aloop's Loopback card, which exists in the
/// qemu guest of scripts/vivid-tests.sh (MODULES=snd-aloop). That script sets
/// VRENDER_ALSA_LOOPBACK to the capture side ("hw:Loopback,1") and runs this suite there.
/// The loop's capture side from the environment (nil: no loop here).
private let loopbackDevice = ProcessInfo.processInfo.environment["VRENDER_ALSA_LOOPBACK"]

// Serialized: the tests open the same subdevices, and one of them holds one to see it busy.
@Suite(.serialized, .enabled(if: loopbackDevice != nil,
                 "needs an snd-aloop card: set VRENDER_ALSA_LOOPBACK=hw:Loopback,1 (scripts/vivid-tests.sh does, in qemu)"))
struct ALSALoopbackTests {
    static let device = loopbackDevice

    static func monotonicNow() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return ALSAClock.seconds(seconds: now.tv_sec, nanoseconds: now.tv_nsec)
    }

    /// A second of periods: 48 kHz stereo S16 (Loopback's first choice), each period starting
    /// where the one before ended, stamped on the monotonic clock of now, not of read time.
    @Test func periodsAbutOnTheMonotonicClock() throws {
        let microphone = try ALSAMicrophone(device: try #require(Self.device))
        #expect(microphone.format == AudioFormat(sampleRate: 48_000, channels: 2, sampleFormat: .s16))
        #expect(microphone.name == "alsa:\(Self.device ?? "")")
        let opened = Self.monotonicNow()
        try microphone.start()
        var times: [Double] = [], frames: [Int] = []
        while frames.reduce(0, +) < 48_000, let period = try microphone.read() {
            #expect(period.samples.count == period.frames * 4)
            times.append(period.time)
            frames.append(period.frames)
        }
        microphone.stop()
        let first = try #require(times.first), last = try #require(times.last)
        #expect(first > opened - 0.1 && first < opened + 1, "first period at \(first - opened) s after opening")
        // Each period begins where the one before ended. snd-aloop moves its position once a
        // jiffy (4 ms at the kernel's HZ=250) but stamps it with the exact time it is asked, so a
        // stamp can be late, never early: measured in qemu over 5 s, stamps lie on the device's
        // line to 0.3 ms with outliers up to 9 ms late. The lead's clock (a DLL) smooths that.
        var position = 0
        var onTheLine: [Double] = []  // each stamp minus its sample position's time
        for k in times.indices {
            onTheLine.append(times[k] - Double(position) / 48_000)
            position += frames[k]
        }
        let earliest = try #require(onTheLine.min())
        for (k, offset) in onTheLine.enumerated() {
            #expect(offset - earliest < 0.015, "period \(k): \((offset - earliest) * 1000) ms late for the device's pace")
        }
        // Over the whole second the stamps keep the device's pace.
        let span = Double(frames.dropLast().reduce(0, +)) / 48_000
        #expect(abs((last - first) - span) < 0.015, "\(last - first) s of stamps for \(span) s of sound")
        #expect(microphone.overruns == 0)
    }

    /// stop() from another thread ends a read without waiting for the device; the source says
    /// it was stopped, not gone.
    @Test func stopFromAnotherThreadEndsReading() throws {
        let microphone = try ALSAMicrophone(device: try #require(Self.device))
        try microphone.start()
        _ = try microphone.read()
        let stopper = Thread { microphone.stop() }
        stopper.start()
        var periods = 0
        while try microphone.read() != nil { periods += 1 }
        #expect(periods < 1_000)
        #expect(microphone.endReason == nil)
    }

    /// An overrun (the ring, up to 2 s, overflowed while nobody read) restarts the device and
    /// reading goes on; the next period reports it (`AudioLoss.restart`) and its time shows the
    /// sound that was lost, so the recorder can fill exactly that much with silence.
    @Test func anOverrunRestartsAndTheGapShowsInTheTimes() throws {
        let microphone = try ALSAMicrophone(device: try #require(Self.device))
        try microphone.start()
        let before = try #require(try microphone.read())
        var endOfSound = before.time + Double(before.frames) / 48_000
        // Not a wait for something to happen: not reading for longer than the ring is the fault
        // being tested.
        usleep(3_000_000)
        var resumedAt: Double?
        while resumedAt == nil {
            let period = try #require(try microphone.read())
            if microphone.overruns > 0 {
                #expect(period.loss == .restart)
                resumedAt = period.time
            } else {  // periods still in the ring before the overrun was met
                endOfSound = period.time + Double(period.frames) / 48_000
            }
        }
        microphone.stop()
        #expect(microphone.overruns == 1)
        #expect(microphone.endReason == nil)
        // Everything in the ring is dropped by the restart: the gap is what the ring did not hold.
        let gap = try #require(resumedAt) - endOfSound
        #expect(gap > 0.2 && gap < 3.5, "gap \(gap) s")
    }

    /// One subdevice held: a second open of it fails at once, naming it as busy.
    @Test func aHeldSubdeviceIsBusy() throws {
        let subdevice = try #require(Self.device) + ",0"
        let holder = try ALSAMicrophone(device: subdevice)
        #expect(holder.format.sampleRate == 48_000)
        #expect {
            _ = try ALSAMicrophone(device: subdevice)
        } throws: { error in
            guard let error = error as? VRenderError else { return false }
            return error.subject == "alsa:\(subdevice)" && error.reason.hasPrefix("is in use by another program")
        }
    }

    /// The listing finds the Loopback card's capture PCMs with what they record.
    @Test func listingShowsLoopback() throws {
        let loop = ALSADevices.captureDevices().filter { $0.cardID == "Loopback" }
        #expect(loop.map(\.pcm) == [0, 1])
        for pcm in loop {
            let capabilities = try #require(pcm.capabilities, "\(pcm.problem ?? "")")
            #expect(capabilities.readableFormats == [.s16, .s32, .f32])
            #expect(capabilities.minRate <= 8_000 && capabilities.maxRate >= 192_000)
        }
    }
}
