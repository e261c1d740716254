import BatonCore
import Foundation

/// A ``ServiceStateProvider`` that never derives evidence, so every item fails safe to `neutral_only`: no sharing
/// action is ever offered.
///
/// It is what `baton serve` uses outside `--sandbox`: a command line cannot know the partner's account system, and
/// evidence read from a configuration file would be a claim nobody derived. A partner who wants sharing builds their
/// own executable and passes their provider to ``BatonBackend/build(configuration:evidence:overrides:)``.
public struct NoEvidenceServiceStateProvider: ServiceStateProvider {
    /// Creates the provider.
    public init() {}

    /// Always `nil`.
    public func evidence(for user: AuthenticatedUser, now: Date) async throws -> ServiceStateEvidence? { nil }
}
