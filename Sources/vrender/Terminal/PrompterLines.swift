import VRenderCore
import VRenderPrompter

/// The prompter as text for standard error.
///
/// On a terminal: the view's header, then one row per line the box shows, top row first
/// (`PrompterSession`'s "Points to terminal rows"), each after a bar that marks the block, a
/// broken one for a line the box cuts at its top or bottom edge:
///
///     prompter: 24 pt/s 28 pt scrolling  12%
///     ┆ Bom dia! Hoje vamos falar sobre a
///     │ informação que cada ação deixa
///     │ no caminho, e não é pouca.
enum PrompterLines {
    static let wholeBar = "│ ", cutBar = "┆ "

    static func lines(for view: PrompterView) -> [String] {
        [view.header] + view.rows.map { ($0.isCut ? cutBar : wholeBar) + $0.text }
    }

    /// For a log, when a take starts: "prompter: from line 13 of 60 (20%), 24 pt/s 28 pt".
    static func startLine(for view: PrompterView) -> String {
        "prompter: from line \(view.firstLine + 1) of \(view.lineCount) (\(view.percent)%), "
            + "\(ValueSyntax.text(view.speed)) pt/s \(ValueSyntax.text(view.fontSize)) pt" + (view.state == .held ? ", held" : "")
    }

}
