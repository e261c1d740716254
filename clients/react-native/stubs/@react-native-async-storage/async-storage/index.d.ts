// A reduced typed stub of `@react-native-async-storage/async-storage` for type-checking examples/react-native-app only;
// never shipped, never run. The signatures follow the package's published `AsyncStorageStatic` (src/types.ts),
// reduced to the three calls BatonStorage needs.
export type Callback = (error?: Error | null) => void;
export type CallbackWithResult<T> = (error?: Error | null, result?: T | null) => void;
export type AsyncStorageStatic = {
  getItem: (key: string, callback?: CallbackWithResult<string>) => Promise<string | null>;
  setItem: (key: string, value: string, callback?: Callback) => Promise<void>;
  removeItem: (key: string, callback?: Callback) => Promise<void>;
};
declare const AsyncStorage: AsyncStorageStatic;
export default AsyncStorage;
