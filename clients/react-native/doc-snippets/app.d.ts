// What the TypeScript blocks of docs/react-native.md take from "your app" — the names a guide snippet uses without
// defining them. scripts/doc-snippets type-checks every ```ts/```tsx block against the built package with these.
declare const baton: import('@baton/react-native').BatonConfiguration;
declare const DEV_TOKEN: string;
declare const auth: { currentAppToken(): string | null; signInAgain(): void };
declare const navigation: { navigate(screen: string): void };
declare const myRouter: { open(url: string): void };
declare function clearAndroidWebViewData(): Promise<void>;
declare function VerificationScreenView(props: {
  screen: import('@baton/react-native').VerificationScreen;
  onVerify(): void;
}): import('react').ReactElement;
declare function ConnectScreenView(props: {
  screen: import('@baton/react-native').ConnectScreen;
  onConnect(): void;
}): import('react').ReactElement;
