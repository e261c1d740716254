'use strict';
// Runtime stub of `react-native-inappbrowser-reborn` for node tests: records calls, answers what the test scripted.
const calls = [];
let next = [];
const InAppBrowser = {
  available: true,
  calls,
  script(results) {
    next = results.slice();
  },
  open(url) {
    calls.push({ fn: 'open', url });
    return Promise.resolve({ type: 'cancel' });
  },
  close() {},
  openAuth(url, redirectUrl, options) {
    calls.push({ fn: 'openAuth', url, redirectUrl, options });
    const answer = next.shift();
    return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer ?? { type: 'cancel' });
  },
  closeAuth() {
    calls.push({ fn: 'closeAuth' });
  },
  isAvailable() {
    return Promise.resolve(InAppBrowser.available);
  },
};
module.exports = { InAppBrowser, default: InAppBrowser, __esModule: true };
