'use strict';
// The addon if it was built (and loads), else null with the reason: callers fall back to node:crypto.
let addon = null;
let loadError = null;
try {
  addon = require('./build/Release/webpush_native.node');
} catch (e) {
  loadError = e && e.message ? e.message.split('\n')[0] : String(e);
}
module.exports = { addon, loadError };
