// BatonApple: iOS presenters. Compiled only where Apple's frameworks exist; empty elsewhere.
#if canImport(UIKit)
import BatonClient
#endif
