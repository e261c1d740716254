// Must be rejected: WKMediaCaptureType is a non-frozen enum, so a switch without `@unknown default` is a warning
// (an error here), exactly as on iOS.
#if BATON_APPLE_STUBS
import WebKit

func captureName(_ type: WKMediaCaptureType) -> String {
    switch type {
    case .camera: "camera"
    case .microphone: "microphone"
    case .cameraAndMicrophone: "both"
    }
}
#endif
