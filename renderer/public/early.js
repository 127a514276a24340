/*
 * The web shell's first calls, sent before the app's bundle has loaded (issue 19 point 2). A classic script
 * (the CSP allows 'self' scripts only, none inline): it opens the WebSocket at once and asks for what the
 * first picture waits for (the canvas's graph and pins, the vault's status and schema), keeping every message
 * that arrives. renderer/api/ws.ts adopts the socket and the kept messages; each early call's answer goes to
 * the app's first call of the same channel and payload (any other call is sent as usual). Nothing happens in
 * Electron (window.lorecraft, IPC) or outside http(s).
 */
/* global window, location, WebSocket, URLSearchParams */
(function () {
  'use strict';
  if (window.lorecraft || !/^https?:$/.test(location.protocol)) return;
  var token = new URLSearchParams(location.search).get('token') || '';
  var ws;
  try {
    ws = new WebSocket((location.protocol === 'https:' ? 'wss' : 'ws') + '://' + location.host + '/ws?token=' + encodeURIComponent(token));
  } catch {
    return;
  }
  // the app's own first calls, exactly as it makes them (features/vault/slice.ts loadAll, features/canvas/slice.ts loadGraph)
  var calls = [
    ['canvas-positions-get', { audience: 'gm' }],
    ['graph-compact', { audience: 'gm' }],
    ['vault-status', {}],
    ['schema-get', {}],
  ];
  // deliver: set by ws.ts once it has taken the kept messages; adopted: ws.ts took the socket before it opened
  // (it then sends the app's calls itself)
  var early = { ws: ws, messages: [], calls: [], deliver: null, adopted: false };
  ws.addEventListener('message', function (ev) {
    if (early.deliver) early.deliver(ev.data); else early.messages.push(ev.data);
  });
  ws.addEventListener('open', function () {
    if (early.adopted) return;
    for (var i = 0; i < calls.length; i++) {
      var id = i + 1;
      early.calls.push({ id: id, channel: calls[i][0], payload: JSON.stringify(calls[i][1]) });
      ws.send(JSON.stringify({ id: id, channel: calls[i][0], payload: calls[i][1] }));
    }
  });
  window.__lorecraftEarly = early;
})();
