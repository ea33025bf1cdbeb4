import VRenderCore
import VRenderPrompter

/// How an export draws the prompter: the script, the box in the output picture, the settings
/// for takes without a recorded scroll, and what takes.json recorded of each take.
package struct PrompterPlan: Sendable {
    package var script: PrompterScript
    package var settings: PrompterSettings
    package var geometry: PrompterGeometry
    package var takes: [PrompterTimeline.Take]

    /// The plan for `request` over `plan`'s output, with notices: a box that had to be fitted,
    /// a takes.json that could not be read, and how many takes replay a recorded scroll.
    /// `names`: `ExportOptions.inputNames`.
    static func make(request: PrompterOverlayRequest, plan: ExportPlan,
                     names: [String: String]? = nil) -> (plan: PrompterPlan, notices: [String]) {
        var notices = request.notices
        let (width, height) = (plan.canvasWidth, plan.canvasHeight)
        var geometry = PrompterGeometry(pictureWidth: width, pictureHeight: height)
        if let box = request.box {
            let fitted = PrompterGeometry.fitted(box, pictureWidth: width, pictureHeight: height)
            geometry = fitted.geometry
            if let notice = fitted.notice { notices.append(notice) }
        }
        let read = PrompterTakes.takes(of: plan, names: names)
        notices += read.notices
        let recorded = read.takes.filter { $0.record != nil }.count
        if recorded > 0 {
            notices.append("prompter: \(recorded) of \(read.takes.count) take(s) replay the scroll recorded in takes.json")
        }
        let prompter = PrompterPlan(script: request.script, settings: request.settings,
                                    geometry: geometry, takes: read.takes)
        return (prompter, notices)
    }
}
