/*
 * A reader for the API document that needs nothing from outside: one HTML page and one script, served by the edge
 * beside the document (the edge's Content-Security-Policy allows scripts from its own origin only). The script
 * writes text, never HTML, so nothing in the document can inject markup.
 */

export const VIEWER_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Beacon API reference</title>
<link rel="icon" href="data:,">
<style>
body { font: 15px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 70rem; padding: 1rem 1.5rem 4rem; color: #1d2430; }
h1 { margin-bottom: .2rem; } h2 { margin-top: 2rem; border-bottom: 1px solid #d5dae1; text-transform: capitalize; }
.op { border: 1px solid #d5dae1; border-radius: 6px; margin: .5rem 0; }
.op > summary { cursor: pointer; padding: .45rem .7rem; display: flex; gap: .8rem; align-items: baseline; }
.method { font: 600 12px/1 ui-monospace, monospace; text-transform: uppercase; min-width: 4.2rem; }
.path { font-family: ui-monospace, monospace; }
.what { color: #4a5565; }
.access { margin-left: auto; font-size: 12px; padding: .1rem .45rem; border-radius: 4px; background: #eef1f5; }
.id { font: 12px ui-monospace, monospace; color: #4a5565; }
.access.admin { background: #fde2e1; } .access.public { background: #e3f4e6; }
.access.viewer, .access.publisher, .access.approver { background: #fdf0d5; }
.body { padding: 0 .9rem .8rem; }
table { border-collapse: collapse; } td, th { text-align: left; padding: .15rem .8rem .15rem 0; vertical-align: top; }
pre { background: #f6f8fa; padding: .6rem; overflow: auto; font-size: 12.5px; }
</style>
</head>
<body>
<h1>Beacon API reference</h1>
<p id="status">Loading <a href="/api/docs">/api/docs</a>\u2026</p>
<main id="api"></main>
<script src="/api/docs/viewer.js"></script>
</body>
</html>
`;

export const VIEWER_SCRIPT = `'use strict';
(async function () {
  const status = document.getElementById('status');
  const main = document.getElementById('api');
  const el = (tag, text, className) => {
    const node = document.createElement(tag);
    if (text !== undefined) node.textContent = text;
    if (className) node.className = className;
    return node;
  };
  let api;
  try {
    const res = await fetch('/api/docs', { headers: { accept: 'application/json' } });
    api = await res.json();
    if (!res.ok) throw new Error(api.message || 'HTTP ' + res.status);
  } catch (e) {
    status.textContent = 'The API document could not be loaded: ' + e.message;
    return;
  }
  const schemas = (api.components && api.components.schemas) || {};
  const responses = (api.components && api.components.responses) || {};
  const refName = (schema) => (schema && schema.$ref ? schema.$ref.split('/').pop() : null);
  const schemaBlock = (label, schema, description) => {
    const box = el('details');
    const name = refName(schema);
    box.append(el('summary', label + (name ? ': ' + name : description ? ': ' + description : '')));
    const seen = new Set();
    const expand = (s) => {
      const n = refName(s);
      if (n && !seen.has(n)) { seen.add(n); return { ['$ref ' + n]: expand(schemas[n]) }; }
      if (Array.isArray(s)) return s.map(expand);
      if (s && typeof s === 'object') return Object.fromEntries(Object.entries(s).map(([k, v]) => [k, expand(v)]));
      return s;
    };
    box.append(el('pre', JSON.stringify(expand(schema), null, 2)));
    return box;
  };
  status.textContent = api.info.title + ' ' + api.info.version + '. ' + (api.info.description || '') + ' The JSON document: ';
  const link = el('a', '/api/docs');
  link.href = '/api/docs';
  status.append(link);
  const byTag = new Map();
  for (const [path, item] of Object.entries(api.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const tag = (op.tags && op.tags[0]) || 'other';
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag).push({ path, method, op });
    }
  }
  for (const [tag, ops] of byTag) {
    main.append(el('h2', tag));
    for (const { path, method, op } of ops) {
      const box = el('details', undefined, 'op');
      const summary = el('summary');
      const access = op['x-beacon-access'] || 'public';
      summary.append(el('span', method, 'method'), el('span', path, 'path'), el('span', op.summary || '', 'what'), el('span', access, 'access ' + access));
      box.append(summary);
      const body = el('div', undefined, 'body');
      for (const paragraph of (op.description || '').split('\\n\\n')) if (paragraph) body.append(el('p', paragraph));
      body.append(el('p', 'operationId: ' + op.operationId, 'id'));
      if (op.parameters && op.parameters.length) {
        const table = el('table');
        const head = el('tr');
        head.append(el('th', 'parameter'), el('th', 'in'), el('th', 'required'), el('th', 'schema'));
        table.append(head);
        for (const p of op.parameters) {
          const row = el('tr');
          row.append(el('td', p.name), el('td', p.in), el('td', p.required ? 'yes' : 'no'), el('td', JSON.stringify(p.schema)));
          table.append(row);
        }
        body.append(table);
      }
      if (op.requestBody) for (const [type, c] of Object.entries(op.requestBody.content)) body.append(schemaBlock('Request body (' + type + ')', c.schema));
      for (const [code, answer] of Object.entries(op.responses)) {
        const r = (answer.$ref && responses[answer.$ref.split('/').pop()]) || answer;
        const content = Object.entries(r.content || {});
        if (!content.length) body.append(el('p', code + ': ' + r.description));
        // a named type says what the body is; an error says its codes (in its description)
        for (const [type, c] of content) body.append(schemaBlock(code + ' (' + type + ')', c.schema, refName(c.schema) ? '' : r.description));
      }
      box.append(body);
      main.append(box);
    }
  }
})();
`;
