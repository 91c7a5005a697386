#if Secrets
/// The members of one dictionary as a parser meets them: in file order, a repeated key keeping
/// its first place and its last value (as Foundation reads it), with a warning.
struct PropertyListMembers {
    private(set) var members: [PropertyListNode.Member] = []
    private var positions: [String: Int] = [:]
    private var repeats: [String: Int] = [:]
    private var repeatOrder: [String] = []

    mutating func add(_ member: PropertyListNode.Member) {
        if let existing = positions[member.key] {
            if repeats[member.key] == nil { repeatOrder.append(member.key) }
            repeats[member.key, default: 1] += 1
            members[existing] = member
        } else {
            positions[member.key] = members.count
            members.append(member)
        }
    }

    /// One warning per repeated key of the dictionary at `path` ("" for the top level).
    func repeatWarnings(at path: String) -> [String] {
        let place = path.isEmpty ? "" : " in the dictionary at \(path)"
        return repeatOrder.map { "key '\($0)' appears \(repeats[$0] ?? 2) times\(place); the last value wins" }
    }
}
#endif
