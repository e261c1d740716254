'use strict';
// Runtime stub of `@react-native-async-storage/async-storage` for running examples/react-native-app under node
// (test/live/sample.tsx): an in-memory key-value store whose `items` a test reads. Never shipped.
const items = new Map();
const AsyncStorage = {
  items,
  getItem: (key) => Promise.resolve(items.has(key) ? items.get(key) : null),
  setItem: (key, value) => {
    items.set(key, String(value));
    return Promise.resolve();
  },
  removeItem: (key) => {
    items.delete(key);
    return Promise.resolve();
  },
};
module.exports = { __esModule: true, default: AsyncStorage };
