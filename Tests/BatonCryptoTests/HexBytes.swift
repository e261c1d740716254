import Foundation

/// `[UInt8]` from a hex string in a vector file; a malformed file is a test bug, so it traps.
func hexBytes(_ string: String) -> [UInt8] {
    var output = [UInt8]()
    var index = string.startIndex
    while index < string.endIndex {
        let next = string.index(index, offsetBy: 2)
        output.append(UInt8(string[index..<next], radix: 16)!)
        index = next
    }
    return output
}
