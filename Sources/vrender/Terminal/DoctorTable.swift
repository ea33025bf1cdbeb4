import VRenderDoctor

/// `vrender doctor`'s table: one line per finding (status, area, what, what for or what to
/// install), then whether the core works. On a narrow terminal long cells wrap (`TextTable`).
enum DoctorTable {
    static func text(_ report: DoctorReport) -> String {
        let columns: [TextTable.Column] = [
            .init(title: "status"), .init(title: "area"), .init(title: "found", fit: .shorten(minimum: 16, rank: 1)),
            .init(title: "what for / what to do", fit: .shorten(minimum: 24)),
        ]
        let rows = report.findings.map { finding in
            [finding.status.rawValue + (finding.failsCore ? " (core)" : ""), finding.area, finding.name,
             finding.detail + (finding.fix.map { " → \($0)" } ?? "")]
        }
        let verdict = report.coreWorks
            ? "vrender \(report.version): recording and exporting work here"
            : "vrender \(report.version): recording and exporting cannot work here (the lines marked core above)"
        let table = TextTable(columns: columns, rows: rows)
        return (table.lines(width: TextTable.standardOutputWidth) + [verdict]).joined(separator: "\n")
    }
}
