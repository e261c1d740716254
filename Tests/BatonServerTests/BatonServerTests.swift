import Testing

@testable import BatonServer
