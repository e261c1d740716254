// BatonApple: the iOS presenters. Every decision is made in BatonClient (machines, `JourneyWebPolicy`,
// `ConnectCallback.supported`); these files only call Apple's APIs. Compiled only where Apple's frameworks exist,
// an empty module elsewhere.
