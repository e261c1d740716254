/// The answer of a return-link parser: a return with its typed fields, or not a return and why.
public enum ReturnLinkResult<Return: Sendable & Hashable>: Sendable, Hashable {
    /// The URL is a return link of this flow.
    case accepted(Return)
    /// The URL is not a return link of this flow; ignore it.
    case rejected(ReturnLinkRejection)

    /// The return, or `nil` when the URL was rejected.
    public var accepted: Return? {
        if case .accepted(let value) = self { return value }
        return nil
    }

    /// The rejection reason, or `nil` when the URL was accepted.
    public var rejection: ReturnLinkRejection? {
        if case .rejected(let reason) = self { return reason }
        return nil
    }
}
