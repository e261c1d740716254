'use strict';
// Runtime stub of `react-native-webview` for node tests: a host component named WebView that react-test-renderer
// renders with its props, so a test reads what the journey component set. Never shipped.
module.exports = { WebView: 'WebView', default: 'WebView', __esModule: true };
