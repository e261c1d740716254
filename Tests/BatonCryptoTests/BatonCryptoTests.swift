import Testing

@testable import BatonCrypto
