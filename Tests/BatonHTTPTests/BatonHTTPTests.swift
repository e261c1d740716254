import Testing

@testable import BatonHTTP
