#if canImport(Glibc)
import Glibc
#endif
internal import CALSA
import VRenderCore

/// What `--audio alsa:DEVICE` may name: a capture device, never a plugin defined in the string.
///
/// An ALSA device string is a language: `file:PATH` copies every sample into PATH (any file the
/// user can write), `file:'|cmd'` runs cmd through the shell, `tee:`, `shm:` and `{ type … }`
/// define any plugin inline. So only these forms reach `snd_pcm_open`:
/// - `KIND:ARGS`, KIND one of the PCMs that reach a card's capture side (`hw`, `plughw`,
///   `dsnoop`, `default`, `sysdefault`, `front`) and ARGS the card, device and subdevice it
///   takes, by position (`hw:1,0`, `hw:Loopback,1,0`) or by name (`hw:CARD=C920,DEV=0`): each a
///   number or a card id (letters, digits, `_`, `-`), as `vrender devices` and `arecord -L` show them;
/// - a bare NAME (letters, digits, `_`, `-`, `.`): `default`, a card's PCM, or one the system's
///   or the user's configuration defines (`pulse`, a `pcm.mic` of ~/.asoundrc) — its arguments
///   are the configuration's own; refused when the configuration's hints call it playback only,
///   and when it is a plugin that takes a file, socket or program (`file`, `tee`, `shm`).
enum ALSADeviceName {
    /// The argument names each KIND takes, in their positional order (alsa.conf, pcm/*.conf).
    static let kinds: [String: [String]] = [
        "hw": ["CARD", "DEV", "SUBDEV"],
        "plughw": ["CARD", "DEV", "SUBDEV"],
        "dsnoop": ["CARD", "DEV", "SUBDEV", "FORMAT", "RATE"],
        "default": ["CARD"],
        "sysdefault": ["CARD"],
        "front": ["CARD", "DEV"],
    ]

    /// Plugins whose arguments are a file, a program, a socket or another device string.
    static let plugins: Set<String> = ["file", "tee", "shm", "plug"]

    private static let nameCharacters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.")
    private static let valueCharacters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")

    /// The forms, for errors.
    static let forms = "alsa:default, alsa:hw:CARD,DEVICE (alsa:hw:1,0, alsa:hw:CARD=C920,DEV=0), alsa:plughw:…, "
        + "alsa:dsnoop:…, alsa:sysdefault:CARD, or a capture PCM your ALSA configuration names (`vrender devices`, `arecord -L`)"

    /// Throws `VRenderError.option("--audio", …)` naming `subject` (`alsa:DEVICE`) when `device`
    /// is not a capture device's name (`refusal`).
    static func check(_ device: String, subject: String) throws {
        if let refusal = refusal(device) {
            throw VRenderError.option("--audio", "\"\(subject)\" \(refusal); use \(forms)")
        }
    }

    /// Nil when `device` (the part after `alsa:`) is a capture device name of the forms above;
    /// else why not, for an error naming `--audio`. `playbackOnly`: the configuration's hinted
    /// names that are playback devices (`snd_device_name_hint`, IOID Output).
    static func refusal(_ device: String, playbackOnly: () -> Set<String> = hintedPlaybackNames) -> String? {
        let parts = device.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let name = String(parts[0])
        guard !name.isEmpty, name.allSatisfy(nameCharacters.contains) else {
            return "is not an ALSA capture device name: inline definitions ({…}), quotes, spaces and `|` are refused"
        }
        if plugins.contains(name) {
            return "is ALSA's \(name) plugin, which writes a file, runs a program or wraps another device string: not a microphone"
        }
        guard parts.count == 2 else {
            return playbackOnly().contains(name) ? "is a playback device in your ALSA configuration, not a microphone" : nil
        }
        guard let keys = kinds[name] else {
            return "is not a capture device: only \(kinds.keys.sorted().joined(separator: ", ")) take arguments (a card and device)"
        }
        return argumentRefusal(String(parts[1]), keys: keys)
    }

    /// `1,0` or `CARD=C920,DEV=0`: at most one value per key, each a number or a card id.
    private static func argumentRefusal(_ arguments: String, keys: [String]) -> String? {
        let items = arguments.split(separator: ",", omittingEmptySubsequences: false)
        guard items.count <= keys.count else { return "has \(items.count) arguments; it takes \(keys.joined(separator: ","))" }
        var seen: Set<Substring> = []
        for (position, item) in items.enumerated() {
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = pair.count == 2 ? pair[0] : Substring(keys[position])
            let value = pair.count == 2 ? pair[1] : pair[0]
            guard keys.contains(String(key)), seen.insert(key).inserted else {
                return "takes the arguments \(keys.joined(separator: ",")), not \(key)"
            }
            guard !value.isEmpty, value.allSatisfy(valueCharacters.contains) else {
                return "argument \(key) is not a number or a card id (letters, digits, _ and -)"
            }
        }
        return nil
    }

    /// The PCM names the configuration's hints list as playback only (IOID Output).
    static func hintedPlaybackNames() -> Set<String> {
        var hints: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
        guard snd_device_name_hint(-1, "pcm", &hints) == 0, let hints else { return [] }
        defer { snd_device_name_free_hint(hints) }
        var names: Set<String> = []
        var index = 0
        while let hint = hints[index] {
            index += 1
            guard let direction = take(snd_device_name_get_hint(hint, "IOID")), direction == "Output",
                  let name = take(snd_device_name_get_hint(hint, "NAME")) else { continue }
            names.insert(name)
        }
        return names
    }

    /// A string libasound allocated, freed.
    private static func take(_ text: UnsafeMutablePointer<CChar>?) -> String? {
        guard let text else { return nil }
        defer { free(text) }
        return String(cString: text)
    }
}
