// The sandbox proxy (the extension's double iframe): served from another origin than the host's
// page, under the Content Security Policy the host built (an HTTP header of sandbox.html, which
// the view's srcdoc frame inherits). It tells the host it is ready, loads the view it is sent
// into an inner sandboxed frame, and passes every other message between the two.
'use strict';
(function () {
  var inner = null;
  window.addEventListener('message', function (event) {
    var message = event.data;
    if (event.source === window.parent) {
      if (message && message.method === 'ui/notifications/sandbox-resource-ready') {
        var params = message.params || {};
        inner = document.createElement('iframe');
        inner.id = 'inner';
        inner.setAttribute('sandbox', params.sandbox || 'allow-scripts');
        inner.srcdoc = params.html;
        document.body.appendChild(inner);
        return;
      }
      if (inner && inner.contentWindow) inner.contentWindow.postMessage(message, '*');
    } else if (inner && event.source === inner.contentWindow) {
      window.parent.postMessage(message, '*');
    }
  });
  window.parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} }, '*');
})();
