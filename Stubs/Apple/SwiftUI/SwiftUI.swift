// Stub of SwiftUI (iOS 18 SDK declarations) for scripts/typecheck-apple; see Stubs/Apple/README.md. Never shipped.
// Only what Sources/BatonApple, docs/ios.md and examples/ios-app use; modifiers return `some View`, as Apple's do
// where it declares an opaque type. On iOS, `import SwiftUI` also imports UIKit, as here.
import Foundation
@_exported import UIKit

// MARK: - View and its builder

@available(iOS 13.0, *)
@MainActor @preconcurrency public protocol View {
    associatedtype Body: View
    @ViewBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

extension Never: View {
    public typealias Body = Never
    public var body: Never { fatalError() }
}

@available(iOS 13.0, *)
extension Optional: View where Wrapped: View {
    public typealias Body = Never
    public var body: Never { fatalError() }
}

@available(iOS 13.0, *)
public struct EmptyView: View {
    public init() {}
    public var body: Never { fatalError() }
}

@available(iOS 13.0, *)
public struct TupleView<T>: View {
    public init(_ value: T) { fatalError() }
    public var body: Never { fatalError() }
}

@available(iOS 13.0, *)
public struct _ConditionalContent<TrueContent: View, FalseContent: View>: View {
    public var body: Never { fatalError() }
}

@available(iOS 13.0, *)
public struct AnyView: View {
    public init<V: View>(_ view: V) { fatalError() }
    public var body: Never { fatalError() }
}

@available(iOS 13.0, *)
@resultBuilder public struct ViewBuilder {
    public static func buildExpression<Content: View>(_ content: Content) -> Content { content }
    public static func buildBlock() -> EmptyView { EmptyView() }
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
    public static func buildBlock<each Content: View>(
        _ content: repeat each Content
    ) -> TupleView<(repeat each Content)> { fatalError() }
    public static func buildIf<Content: View>(_ content: Content?) -> Content? { content }
    public static func buildEither<TrueContent: View, FalseContent: View>(
        first: TrueContent
    ) -> _ConditionalContent<TrueContent, FalseContent> { fatalError() }
    public static func buildEither<TrueContent: View, FalseContent: View>(
        second: FalseContent
    ) -> _ConditionalContent<TrueContent, FalseContent> { fatalError() }
    public static func buildLimitedAvailability<Content: View>(_ content: Content) -> AnyView { fatalError() }
}

@available(iOS 13.0, *)
public protocol DynamicProperty {}

// MARK: - App and scenes

@available(iOS 14.0, *)
@MainActor @preconcurrency public protocol App {
    associatedtype Body: Scene
    @SceneBuilder @MainActor @preconcurrency var body: Self.Body { get }
    @MainActor @preconcurrency init()
}

@available(iOS 14.0, *)
extension App {
    @MainActor @preconcurrency public static func main() { fatalError() }
}

@available(iOS 14.0, *)
@MainActor @preconcurrency public protocol Scene {
    associatedtype Body: Scene
    @SceneBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

extension Never: Scene {}

@available(iOS 14.0, *)
@resultBuilder public struct SceneBuilder {
    public static func buildExpression<Content: Scene>(_ content: Content) -> Content { content }
    public static func buildBlock<Content: Scene>(_ content: Content) -> Content { content }
}

@available(iOS 14.0, *)
public struct WindowGroup<Content: View>: Scene {
    public init(@ViewBuilder content: () -> Content) { fatalError() }
    public var body: Never { fatalError() }
}

@available(iOS 14.0, *)
public enum ScenePhase: Comparable, Hashable, Sendable {
    case background, inactive, active
}

@available(iOS 13.0, *)
@MainActor @preconcurrency open class UIHostingController<Content: View>: UIViewController {
    public init(rootView: Content) { fatalError() }
    public required init?(coder aDecoder: NSCoder) { fatalError() }
}

// MARK: - Values

@available(iOS 13.0, *)
public struct Font: Hashable, Sendable {
    public static let headline = Font()
    public static let subheadline = Font()
    public static let body = Font()
    public static let callout = Font()
    public static let footnote = Font()
}

@available(iOS 13.0, *)
public struct HorizontalAlignment: Equatable, Sendable {
    public static let leading = HorizontalAlignment()
    public static let center = HorizontalAlignment()
    public static let trailing = HorizontalAlignment()
}

@available(iOS 13.0, *)
public struct Alignment: Equatable, Sendable {
    public static let leading = Alignment()
    public static let center = Alignment()
    public static let trailing = Alignment()
}

@available(iOS 13.0, *)
public enum Axis: Int8, Sendable {
    case horizontal, vertical
    public struct Set: OptionSet, Sendable {
        public let rawValue: Int8
        public init(rawValue: Int8) { self.rawValue = rawValue }
        public static let horizontal = Set(rawValue: 1)
        public static let vertical = Set(rawValue: 2)
    }
}

@available(iOS 13.0, *)
public struct Animation: Equatable, Sendable {
    public static let `default` = Animation()
}

@available(iOS 13.0, *)
public struct Transaction {
    public init() {}
    public var animation: Animation?
    public var disablesAnimations: Bool = false
}

@available(iOS 13.0, *)
public struct AccessibilityTraits: SetAlgebra, Sendable {
    public init() {}
    public static let isHeader = AccessibilityTraits()
    public static let isButton = AccessibilityTraits()
    public static let isLink = AccessibilityTraits()
    public static let isImage = AccessibilityTraits()
    public func union(_ other: Self) -> Self { fatalError() }
    public func intersection(_ other: Self) -> Self { fatalError() }
    public func symmetricDifference(_ other: Self) -> Self { fatalError() }
    public func contains(_ member: Self) -> Bool { fatalError() }
    public mutating func insert(_ newMember: Self) -> (inserted: Bool, memberAfterInsert: Self) { fatalError() }
    public mutating func remove(_ member: Self) -> Self? { fatalError() }
    public mutating func update(with newMember: Self) -> Self? { fatalError() }
    public mutating func formUnion(_ other: Self) { fatalError() }
    public mutating func formIntersection(_ other: Self) { fatalError() }
    public mutating func formSymmetricDifference(_ other: Self) { fatalError() }
    public static func == (lhs: Self, rhs: Self) -> Bool { fatalError() }
}

@available(iOS 13.0, *)
public struct AccessibilityChildBehavior: Hashable, Sendable {
    public static let ignore = AccessibilityChildBehavior()
    public static let contain = AccessibilityChildBehavior()
    public static let combine = AccessibilityChildBehavior()
}

// MARK: - Environment and focus

@available(iOS 13.0, *)
public struct EnvironmentValues {
    public init() {}
    public var accessibilityReduceMotion: Bool { fatalError() }
    @available(iOS 14.0, *)
    public var scenePhase: ScenePhase { fatalError() }
    public var dynamicTypeSize: DynamicTypeSize { fatalError() }
}

@available(iOS 15.0, *)
public enum DynamicTypeSize: Hashable, Comparable, CaseIterable, Sendable {
    case xSmall, small, medium, large, xLarge, xxLarge, xxxLarge
    case accessibility1, accessibility2, accessibility3, accessibility4, accessibility5
    public var isAccessibilitySize: Bool { fatalError() }
}

@available(iOS 13.0, *)
@propertyWrapper public struct Environment<Value>: DynamicProperty {
    public init(_ keyPath: KeyPath<EnvironmentValues, Value>) { fatalError() }
    public var wrappedValue: Value { fatalError() }
}

@available(iOS 13.0, *)
@propertyWrapper public struct State<Value>: DynamicProperty {
    public init(wrappedValue value: Value) { fatalError() }
    public init(initialValue value: Value) { fatalError() }
    public var wrappedValue: Value {
        get { fatalError() }
        nonmutating set { fatalError() }
    }
    public var projectedValue: Binding<Value> { fatalError() }
}

@available(iOS 13.0, *)
extension State where Value: ExpressibleByNilLiteral {
    public init() { fatalError() }
}

/// Apple's is also `@dynamicMemberLookup`; only passing `$state` on is used here.
@available(iOS 13.0, *)
@propertyWrapper public struct Binding<Value> {
    public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) { fatalError() }
    public init(projectedValue: Binding<Value>) { fatalError() }
    public var wrappedValue: Value {
        get { fatalError() }
        nonmutating set { fatalError() }
    }
    public var projectedValue: Binding<Value> { fatalError() }
}

@available(iOS 15.0, *)
@propertyWrapper public struct AccessibilityFocusState<Value: Hashable>: DynamicProperty {
    // Apple's is also a property wrapper (for passing focus down); only its projection is used here.
    public struct Binding {
        public var wrappedValue: Value {
            get { fatalError() }
            nonmutating set { fatalError() }
        }
        public var projectedValue: AccessibilityFocusState<Value>.Binding { self }
    }
    public var wrappedValue: Value {
        get { fatalError() }
        nonmutating set { fatalError() }
    }
    public var projectedValue: AccessibilityFocusState<Value>.Binding { fatalError() }
    public init() where Value == Bool { fatalError() }
    public init<T: Hashable>() where Value == T? { fatalError() }
}

// MARK: - Views

@available(iOS 13.0, *)
public struct Text: View, Equatable {
    public init(verbatim content: String) { fatalError() }
    public init<S: StringProtocol>(_ content: S) { fatalError() }
    public func font(_ font: Font?) -> Text { fatalError() }
    public var body: Never { fatalError() }
    nonisolated public static func == (lhs: Text, rhs: Text) -> Bool { fatalError() }
}

@available(iOS 13.0, *)
public struct Image: View, Equatable {
    public enum ResizingMode: Sendable { case tile, stretch }
    public func resizable(capInsets: EdgeInsets = EdgeInsets(), resizingMode: Image.ResizingMode = .stretch) -> Image {
        fatalError()
    }
    public var body: Never { fatalError() }
    nonisolated public static func == (lhs: Image, rhs: Image) -> Bool { fatalError() }
}

@available(iOS 13.0, *)
public struct EdgeInsets: Equatable, Sendable {
    public init() {}
}

@available(iOS 13.0, *)
public struct Color: View, Hashable, Sendable {
    public static let clear = Color()
    public var body: Never { fatalError() }
}

@available(iOS 13.0, *)
public struct VStack<Content: View>: View {
    public init(alignment: HorizontalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content)
    { fatalError() }
    public var body: Never { fatalError() }
}

@available(iOS 13.0, *)
public struct ScrollView<Content: View>: View {
    public init(_ axes: Axis.Set = .vertical, showsIndicators: Bool = true, @ViewBuilder content: () -> Content) {
        fatalError()
    }
    public var body: Never { fatalError() }
}

@available(iOS 13.0, *)
public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content> {
    public var data: Data { fatalError() }
}

@available(iOS 13.0, *)
extension ForEach: View where Content: View {
    public typealias Body = Never
    public var body: Never { fatalError() }
    public init(_ data: Data, @ViewBuilder content: @escaping (Data.Element) -> Content)
    where ID == Data.Element.ID, Data.Element: Identifiable { fatalError() }
    public init(_ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: @escaping (Data.Element) -> Content)
    { fatalError() }
}

@available(iOS 15.0, *)
public struct AsyncImage<Content: View>: View {
    public init<I: View, P: View>(
        url: URL?, scale: CGFloat = 1, @ViewBuilder content: @escaping (Image) -> I,
        @ViewBuilder placeholder: @escaping () -> P
    ) where Content == _ConditionalContent<I, P> { fatalError() }
    public var body: Never { fatalError() }
}

@available(iOS 13.0, *)
public struct Button<Label: View>: View {
    public init(action: @escaping @MainActor () -> Void, @ViewBuilder label: () -> Label) { fatalError() }
    public var body: Never { fatalError() }
}

@available(iOS 13.0, *)
extension Button where Label == Text {
    public init<S: StringProtocol>(_ title: S, action: @escaping @MainActor () -> Void) { fatalError() }
}

/// Apple's `Label == Text` initializers also take a `LocalizedStringKey` (not stubbed: `Text` has none here either).
@available(iOS 13.0, *)
public struct SecureField<Label: View>: View {
    public var body: Never { fatalError() }
}

@available(iOS 13.0, *)
extension SecureField where Label == Text {
    public init<S: StringProtocol>(_ title: S, text: Binding<String>) { fatalError() }
}

@available(iOS 14.0, *)
public struct Link<Label: View>: View {
    public init(destination: URL, @ViewBuilder label: () -> Label) { fatalError() }
    public var body: Never { fatalError() }
}

@available(iOS 13.0, *)
public protocol PrimitiveButtonStyle {}

@available(iOS 15.0, *)
public struct BorderedButtonStyle: PrimitiveButtonStyle {
    public init() {}
}

@available(iOS 15.0, *)
extension PrimitiveButtonStyle where Self == BorderedButtonStyle {
    public static var bordered: BorderedButtonStyle { fatalError() }
}

// MARK: - Modifiers

@available(iOS 13.0, *)
extension View {
    public func font(_ font: Font?) -> some View { fatalError() }
    public func fixedSize(horizontal: Bool, vertical: Bool) -> some View { fatalError() }
    public func frame(
        minWidth: CGFloat? = nil, idealWidth: CGFloat? = nil, maxWidth: CGFloat? = nil, minHeight: CGFloat? = nil,
        idealHeight: CGFloat? = nil, maxHeight: CGFloat? = nil, alignment: Alignment = .center
    ) -> some View { fatalError() }
    public func scaledToFit() -> some View { fatalError() }
    public func disabled(_ disabled: Bool) -> some View { fatalError() }
    public func buttonStyle<S: PrimitiveButtonStyle>(_ style: S) -> some View { fatalError() }
    public func transaction(_ transform: @escaping (inout Transaction) -> Void) -> some View { fatalError() }
    public func onAppear(perform action: (() -> Void)? = nil) -> some View { fatalError() }
    @available(iOS 14.0, *)
    public func onOpenURL(perform action: @escaping (URL) -> Void) -> some View { fatalError() }
    @available(iOS 15.0, *)
    // The SDK's interface also marks the action `@_inheritActorContext` (Apple's pages omit underscored attributes):
    // the closure runs on the view's main actor, as a `Task { }` formed there does.
    public func task(
        priority: TaskPriority = .userInitiated,
        @_inheritActorContext _ action: sending @escaping @isolated(any) () async -> Void
    ) -> some View { fatalError() }
    @available(
        iOS, introduced: 14.0, deprecated: 17.0,
        message: "Use `onChange` with a two or zero parameter action closure instead."
    )
    public func onChange<V: Equatable>(of value: V, perform action: @escaping (_ newValue: V) -> Void) -> some View {
        fatalError()
    }
    // The iOS 17 forms (`onChange(of:initial:_:)`, zero or two arguments) are left out on purpose: Linux does not
    // enforce iOS availability, and the package supports iOS 16 (Stubs/Apple/MustFail/TwoArgumentOnChange.swift).
    @available(iOS 14.0, *)
    public func accessibilityLabel(_ label: Text) -> some View { fatalError() }
    @available(iOS 14.0, *)
    public func accessibilityHint(_ hint: Text) -> some View { fatalError() }
    @available(iOS 14.0, *)
    public func accessibilityAddTraits(_ traits: AccessibilityTraits) -> some View { fatalError() }
    @available(iOS 14.0, *)
    public func accessibilityElement(children: AccessibilityChildBehavior = .ignore) -> some View { fatalError() }
    @available(iOS 15.0, *)
    public func accessibilityFocused<Value: Hashable>(
        _ binding: AccessibilityFocusState<Value>.Binding, equals value: Value
    ) -> some View { fatalError() }
}
