/// The newest `capacity` values appended, oldest first, in a ring: appending costs the same whether or not the log
/// is full (the oldest value is overwritten in place, nothing is shifted).
///
/// `RequestLog` keeps the sandbox's last 10,000 provider calls in one; an array dropping its first element would copy
/// every other entry on each request once full.
struct BoundedLog<Element> {
    /// The most values kept.
    let capacity: Int
    private var storage: [Element] = []
    /// Where the oldest value is in `storage` once it has wrapped (0 until then).
    private var head = 0

    /// An empty log keeping at most `capacity` (at least 1) values.
    init(capacity: Int) {
        precondition(capacity > 0, "a bounded log keeps at least one value")
        self.capacity = capacity
    }

    /// The number of values kept.
    var count: Int { storage.count }

    /// Whether nothing is kept.
    var isEmpty: Bool { storage.isEmpty }

    /// Appends `value`, dropping the oldest value when the log is full.
    mutating func append(_ value: Element) {
        if storage.count < capacity {
            storage.append(value)
        } else {
            storage[head] = value
            head = head + 1 == capacity ? 0 : head + 1
        }
    }

    /// The value at `position`, counted from the oldest (0) to the newest (`count - 1`).
    subscript(position: Int) -> Element {
        get { storage[slot(position)] }
        set { storage[slot(position)] = newValue }
    }

    /// Every value, oldest first.
    var elements: [Element] {
        Array(storage[head...]) + storage[..<head]
    }

    /// Forgets every value.
    mutating func removeAll() {
        storage.removeAll(keepingCapacity: true)
        head = 0
    }

    private func slot(_ position: Int) -> Int {
        precondition(position >= 0 && position < storage.count, "position out of range")
        let slot = head + position
        return slot < storage.count ? slot : slot - storage.count
    }
}

extension BoundedLog: Sendable where Element: Sendable {}
