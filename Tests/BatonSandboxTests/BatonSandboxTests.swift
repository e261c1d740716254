import Testing

@testable import BatonSandbox
