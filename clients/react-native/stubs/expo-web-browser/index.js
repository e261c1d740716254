'use strict';
// Runtime stub of `expo-web-browser` for node tests: records each call and answers what the test scripted. Never shipped.
const WebBrowserResultType = { CANCEL: 'cancel', DISMISS: 'dismiss', OPENED: 'opened', LOCKED: 'locked' };
const calls = [];
let next = [];
module.exports = {
  WebBrowserResultType,
  calls,
  script(results) {
    next = results.slice();
  },
  openAuthSessionAsync(url, redirectUrl, options) {
    calls.push({ fn: 'openAuthSessionAsync', url, redirectUrl, options });
    const answer = next.shift();
    return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer ?? { type: 'dismiss' });
  },
  dismissAuthSession() {
    calls.push({ fn: 'dismissAuthSession' });
  },
  openBrowserAsync(url) {
    calls.push({ fn: 'openBrowserAsync', url });
    return Promise.resolve({ type: 'opened' });
  },
  dismissBrowser() {},
};
