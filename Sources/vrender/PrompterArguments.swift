import ArgumentParser
import VRenderPrompter

/// The prompter's speed, size and ending: one set of options for `capture --prompter` and
/// `concat --prompter-overlay`. Values outside the seed's ranges are clamped, with a notice.
struct PrompterArguments: ParsableArguments {
    @Option(name: .customLong("prompter-speed"),
            help: ArgumentHelp("Prompter scroll speed, points per second (8-60, default 24).", valueName: "pt/s"))
    var speed: Double = PrompterSettings().speed

    @Option(name: .customLong("prompter-font"),
            help: ArgumentHelp("Prompter font size, points (18-36, default 28).", valueName: "pt"))
    var fontSize: Double = PrompterSettings().fontSize

    @Option(name: .customLong("prompter-end"),
            help: "At the script's end: pause there (default) or loop to the top.")
    var ending: PrompterEndArgument = .pause

    /// The settings, clamped, and a notice per value that was.
    var settings: (settings: PrompterSettings, notices: [String]) {
        PrompterSettings.clamped(speed: speed, fontSize: fontSize, ending: ending.value)
    }

    /// True when any of these options was given a value other than its default (they mean
    /// nothing without a script).
    var isChanged: Bool {
        speed != PrompterSettings().speed || fontSize != PrompterSettings().fontSize || ending != .pause
    }
}

enum PrompterEndArgument: String, ExpressibleByArgument, CaseIterable {
    case pause, loop
    var value: PrompterEnding { self == .pause ? .pause : .loop }
}
