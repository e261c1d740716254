import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A TCP listener that accepts one connection, reads the request, and closes without answering.
final class DroppingListener: Sendable {
    let port: UInt16
    private let fd: Int32

    init() {
        let (fd, port) = bindLoopbackSocket()
        listen(fd, 16)
        self.fd = fd
        self.port = port
        Thread {
            while true {
                let client = accept(fd, nil, nil)
                if client < 0 { return }
                var buffer = [UInt8](repeating: 0, count: 4096)
                _ = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
                var linger = Glibc.linger(l_onoff: 1, l_linger: 0)  // close with RST
                setsockopt(client, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
                close(client)
            }
        }.start()
    }

    func stop() {
        shutdown(fd, Int32(SHUT_RDWR))
        close(fd)
    }
}

/// A port on 127.0.0.1 that refuses connections for as long as the value is kept: the socket is bound but never
/// listens, so no other test's server can take the port in the meantime (a port merely found free and released can
/// be).
final class RefusingPort: Sendable {
    let port: UInt16
    private let fd: Int32

    init() {
        (fd, port) = bindLoopbackSocket()
    }

    deinit { close(fd) }
}

/// A TCP socket bound to 127.0.0.1 on a port the kernel picks, and that port.
private func bindLoopbackSocket() -> (fd: Int32, port: UInt16) {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            _ = bind(fd, $0, length)
            _ = getsockname(fd, $0, &length)
        }
    }
    return (fd, UInt16(bigEndian: address.sin_port))
}
