/// Where a walk over a JSON document is, kept as components and spelled out (`$.dives[0].uuid`)
/// only when something is reported there: a walk that built the text for every value would
/// spend most of its time on the paths of profile samples nobody ever reads.
struct JSONPath {
    enum Component {
        case member(String)
        case index(Int)
    }

    private(set) var components: [Component] = []

    mutating func push(_ c: Component) { components.append(c) }
    mutating func pop() { components.removeLast() }

    /// The path as text, e.g. `$.dives[0].cylinders[1]`.
    var text: String {
        var s = "$"
        for c in components {
            switch c {
            case .member(let name): s += "." + name
            case .index(let i): s += "[\(i)]"
            }
        }
        return s
    }
}
