import Testing

@testable import BatonClient
