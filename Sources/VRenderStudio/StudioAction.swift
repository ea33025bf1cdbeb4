/// Every change a page can ask for: one POST each (`StudioServer` maps the routes, README
/// "vrender studio" lists them). The session performs them with the calls the CLI makes.
package enum StudioAction: Sendable, Equatable {
    /// POST /api/record {"record": true|false}: start or stop a take (explicit, not a toggle,
    /// so two pages pressing at once do not undo each other).
    case record(Bool)
    /// POST /api/camera {"lens": 0.5|1|2}
    case lens(Double)
    /// POST /api/camera {"zoom": F}: ramps to F as the camera's zoom does.
    case zoom(Double)
    /// POST /api/camera {"torch": true|false}
    case torch(Bool)
    /// POST /api/camera {"flip": true}: front/back.
    case flip
    /// POST /api/camera {"exposurePoint": [x, y]}: fractions of the picture, 0...1.
    case exposurePoint(x: Double, y: Double)
    /// POST /api/preview {"filter": "mono"} ("" for none).
    case previewFilter(String)
    /// POST /api/prompter {"command": "hold"|"faster"|"slower"|"larger"|"smaller"|"restart"}
    /// ("restart": back to the top of the script, as capture's r key).
    case prompter(PrompterAction)
    /// POST /api/prompter {"box": [x, y, w, h]}: fractions of the picture.
    case prompterBox([Double])
    /// POST /api/takes/delete {"file": NAME}
    case deleteTake(file: String)
    /// POST /api/takes/order {"files": [NAME, ...]}: every take, in the new order.
    case reorderTakes(files: [String])
    /// POST /api/export {"filter": "mono", "prompter": true, "captions": true, "cutRetakes": true}:
    /// joins the takes in takes.json's order into the exports folder; `prompter` burns the
    /// prompter box in, `captions` captions it from the prompter's script (a subtitle track, and
    /// .srt and .vtt beside it), `cutRetakes` cuts the lines read twice.
    case export(filter: String, burnPrompter: Bool, captions: Bool = false, cutRetakes: Bool = false)
    /// POST /api/export/cancel {}
    case cancelExport

    package enum PrompterAction: String, Sendable, Equatable, CaseIterable {
        case hold, faster, slower, larger, smaller, restart
    }
}

/// A refused action: `message` is for the user (it names the take, the filter or the value);
/// `status` is the HTTP status the server answers with (400 bad value, 404 no such take,
/// 409 not now, e.g. an export while recording).
package struct StudioActionError: Error, Sendable, Equatable {
    package var status: Int
    package var message: String

    package init(status: Int, _ message: String) {
        self.status = status
        self.message = message
    }
}
