/**
 * `@baton/react-native`: the Baton SDK for React Native apps (docs/react-native.md). One import for the public API:
 * configuration and backend client, the three flows as hooks over controllers, their screens and events, the
 * components, the browser adapters and the strict return-link parsers.
 */

// Configuration and the backend client.
export {
  BatonConfiguration,
  BatonReturnUrls,
  BatonScheduler,
  BatonStorage,
  BatonStorageKeys,
  createBackendClient,
  JourneyWebDataEraser,
  signOut,
  storageKeys,
  systemScheduler,
} from './configuration';
export { BackendClient, BatonConfigurationError, encodePathSegment, FetchBackendClient, FetchBackendClientOptions, TokenProvider } from './backend/BackendClient';
export { BackendError, BackendErrorKind, ProblemCode, PROBLEM_CODES, TransportFailure } from './backend/BackendError';
export {
  ConnectCallback,
  ConnectCallbackKind,
  ConnectSession,
  ConnectSessionState,
  ConnectSessionStatus,
  HandoffSession,
  isVerificationSettled,
  VERIFICATION_IN_PROGRESS_STATUSES,
  VerificationHandoff,
  VerificationState,
} from './backend/BackendResponseDecoding';
export { BackendRequest, BackendResponse, BackendTransport, FetchFunction, fetchTransport, TransportError } from './backend/BackendTransport';
export { DEVELOPMENT_URL_POLICY, isLoopbackHost, PRODUCTION_URL_POLICY, UrlPolicy } from './core/urlPolicy';

export { BatonLinkRouter, LinkFlow, LinkHandlers, LinkRoute } from './core/linkRouter';

// The flows: hooks, controllers (logic without React), machines, screens and events.
export { BankConnect, ChiaHandoff, useBankConnect, useChiaHandoff, useLinkRouter, useVerification, Verification, VerificationJourneyRequest } from './hooks';
export {
  ChiaHandoffOptions,
  chooseConnectCallback,
  createBankConnect,
  createChiaEffects,
  createChiaHandoff,
  createLinkRouter,
  createVerification,
  deviceCatchesHttpsCallback,
  supportsHttpsCallback,
} from './flows';
export { ChiaEffects, ChiaHandoffController, ShareResult } from './ChiaHandoffController';
export { VerificationController, VerificationPresenter } from './VerificationController';
export { AuthSessionAdapter, BankConnectController } from './BankConnectController';
export { BatonFlowFailure, BrowserCompletion } from './presentation';
export { ChiaAction, ChiaEvent, ChiaHandoffMachine, ChiaNotice, ChiaScreen, screenActionLabels } from './core/chiaMachine';
export { VerificationAction, VerificationEvent, VerificationMachine, VerificationScreen } from './core/verificationMachine';
export { ConnectAction, ConnectEvent, ConnectMachine, ConnectReturnHint, ConnectScreen } from './core/connectMachine';
export { PollingPolicy, RequestFailure } from './core/polling';

// Components and platform presenters.
export {
  AuthSessionLibraryResult,
  authSessionVerificationPresenter,
  expoWebBrowserAuthSession,
  ExpoWebBrowserModule,
  inAppBrowserAuthSession,
  InAppBrowserModule,
  LibraryAuthSessionAdapter,
} from './authSessionAdapters';
export { JourneyNavigationDecision, JourneyWebPolicy } from './journeyWebPolicy';
export { JourneyNavigationRequest, JourneyWebViewProps, VerificationJourney, VerificationJourneyProps } from './VerificationJourney';
export { CALL_TO_ACTION_LABEL, CARD_IMAGE_STYLE, CatalogCardView, CatalogCardViewProps, handleGenericReturn, openExternal, useGenericReturn } from './Handoff';

// Contract values: the journey URL, share attempts, catalog cards, return links.
export {
  attemptBodyJson,
  classifyShareOutcome,
  isIdempotencyKey,
  PendingAttempt,
  retryAfterSeconds,
  RetryDecision,
  SensitiveUrl,
  ShareOutcome,
} from './core/retry';
export { RandomFill, uuidV4 } from './core/uuid';
export {
  actionLabels,
  CatalogBlock,
  CatalogCard,
  CONTINUE_LABEL,
  CONTINUE_WITHOUT_SHARING_LABEL,
  decodeCatalogCard,
  MobileHandoff,
  SESSION_CREATION_PATH,
  SHARE_LABEL,
} from './core/catalogCard';
export {
  ConnectReturn,
  ConnectReturnParser,
  GenericReturnParser,
  MARKETPLACE_HOME,
  RegisteredReturnUrl,
  ReturnLinkRejection,
  ReturnLinkResult,
  ReturnUrlRegistrationCode,
  ReturnUrlRegistrationError,
  VerificationReturn,
  VerificationReturnParser,
} from './core/returnLinks';
