// A minimal typed stub of `react-native` for type-checking and node tests only; never shipped. The declarations are
// copied, reduced, from react-native's own types (Libraries/Linking, AppState, Components) so a misuse fails `tsc`.
import * as React from 'react';

export interface EmitterSubscription {
  remove(): void;
}

export interface LinkingStatic {
  openURL(url: string): Promise<any>;
  canOpenURL(url: string): Promise<boolean>;
  getInitialURL(): Promise<string | null>;
  addEventListener(type: 'url', handler: (event: { url: string }) => void): EmitterSubscription;
}
export const Linking: LinkingStatic;

export interface PlatformStatic {
  OS: 'ios' | 'android' | 'windows' | 'macos' | 'web';
  /** iOS: the version string (`'17.4'`); Android: the API level. */
  Version: number | string;
}
export const Platform: PlatformStatic;

export type AppStateStatus = 'active' | 'background' | 'inactive' | 'unknown' | 'extension';
export interface AppStateStatic {
  currentState: AppStateStatus;
  addEventListener(type: 'change', listener: (state: AppStateStatus) => void): EmitterSubscription;
}
export const AppState: AppStateStatic;

export type AccessibilityRole = 'none' | 'button' | 'link' | 'header' | 'image' | 'text' | 'summary' | 'list';
export interface AccessibilityState {
  disabled?: boolean;
  busy?: boolean;
}
export interface AccessibilityProps {
  accessible?: boolean;
  accessibilityRole?: AccessibilityRole;
  accessibilityLabel?: string;
  accessibilityHint?: string;
  accessibilityState?: AccessibilityState;
}
export interface ViewProps extends AccessibilityProps {
  testID?: string;
  style?: object;
  children?: React.ReactNode;
}
export interface TextProps extends AccessibilityProps {
  testID?: string;
  style?: object;
  numberOfLines?: number;
  allowFontScaling?: boolean;
  onPress?: () => void;
  children?: React.ReactNode;
}
export interface PressableProps extends AccessibilityProps {
  testID?: string;
  style?: object;
  disabled?: boolean | null;
  onPress?: () => void;
  children?: React.ReactNode;
}
export interface ImageProps extends AccessibilityProps {
  testID?: string;
  source: { uri: string };
  style?: object;
  resizeMode?: 'cover' | 'contain' | 'stretch' | 'repeat' | 'center';
}
/** Reduced from react-native's Libraries/Components/TextInput/TextInput.d.ts (`TextInputProps`, `TextInput`). */
export interface TextInputProps extends ViewProps {
  value?: string | undefined;
  defaultValue?: string | undefined;
  placeholder?: string | undefined;
  onChangeText?: ((text: string) => void) | undefined;
  secureTextEntry?: boolean | undefined;
  autoCapitalize?: 'none' | 'sentences' | 'words' | 'characters' | undefined;
  autoCorrect?: boolean | undefined;
  editable?: boolean | undefined;
  textContentType?: 'none' | 'username' | 'password' | 'oneTimeCode' | undefined;
}
export const View: React.ComponentType<ViewProps>;
export const Text: React.ComponentType<TextProps>;
export const Pressable: React.ComponentType<PressableProps>;
export const Image: React.ComponentType<ImageProps>;
export const ScrollView: React.ComponentType<ViewProps>;
export const TextInput: React.ComponentType<TextInputProps>;
