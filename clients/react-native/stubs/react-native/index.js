'use strict';
// Runtime stub of `react-native` for node tests: host components are plain strings (react-test-renderer renders them
// as host nodes), Linking and AppState record what the shell asks of them. Never shipped.
const listeners = { url: [], change: [] };
const Linking = {
  opened: [],
  initialURL: null,
  openURL(url) {
    Linking.opened.push(url);
    return Promise.resolve(true);
  },
  canOpenURL() {
    return Promise.resolve(true);
  },
  getInitialURL() {
    return Promise.resolve(Linking.initialURL);
  },
  addEventListener(type, handler) {
    listeners[type].push(handler);
    return { remove: () => listeners[type].splice(listeners[type].indexOf(handler), 1) };
  },
  emit(url) {
    for (const handler of [...listeners.url]) handler({ url });
  },
  listenerCount() {
    return listeners.url.length;
  },
};
const AppState = {
  currentState: 'active',
  addEventListener(type, handler) {
    listeners[type].push(handler);
    return { remove: () => listeners[type].splice(listeners[type].indexOf(handler), 1) };
  },
  emit(state) {
    AppState.currentState = state;
    for (const handler of [...listeners.change]) handler(state);
  },
};
const Platform = { OS: 'ios', Version: '17.4' };
module.exports = { Linking, AppState, Platform, View: 'View', Text: 'Text', Pressable: 'Pressable', Image: 'Image', ScrollView: 'ScrollView', TextInput: 'TextInput' };
