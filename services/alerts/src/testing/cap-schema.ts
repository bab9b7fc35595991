import { SaxesParser } from 'saxes';

/**
 * The OASIS CAP 1.2 schema's rules that a message's structure must keep, checked on the document as a strict parser
 * reads it: each element's children in the schema's sequence with their cardinalities, the enumerated values, the
 * dateTime form (seconds, a numeric offset), and the forms of references, polygon and circle. Returns the problems
 * found (none: the message is valid in these respects). Tests read the feed through it, as a CAP consumer would.
 */

interface Node {
  name: string;
  ns: string;
  text: string;
  children: Node[];
}

type Rule = [name: string, min: number, max: number];
const ONE: [number, number] = [1, 1];
const OPT: [number, number] = [0, 1];
const ANY: [number, number] = [0, Infinity];
const SOME: [number, number] = [1, Infinity];
const seq = (...rules: [string, [number, number]][]): Rule[] => rules.map(([n, [min, max]]) => [n, min, max]);

const SEQUENCES: Record<string, Rule[]> = {
  alert: seq(
    ['identifier', ONE],
    ['sender', ONE],
    ['sent', ONE],
    ['status', ONE],
    ['msgType', ONE],
    ['source', OPT],
    ['scope', ONE],
    ['restriction', OPT],
    ['addresses', OPT],
    ['code', ANY],
    ['note', OPT],
    ['references', OPT],
    ['incidents', OPT],
    ['info', ANY],
  ),
  info: seq(
    ['language', OPT],
    ['category', SOME],
    ['event', ONE],
    ['responseType', ANY],
    ['urgency', ONE],
    ['severity', ONE],
    ['certainty', ONE],
    ['audience', OPT],
    ['eventCode', ANY],
    ['effective', OPT],
    ['onset', OPT],
    ['expires', OPT],
    ['senderName', OPT],
    ['headline', OPT],
    ['description', OPT],
    ['instruction', OPT],
    ['web', OPT],
    ['contact', OPT],
    ['parameter', ANY],
    ['resource', ANY],
    ['area', ANY],
  ),
  area: seq(['areaDesc', ONE], ['polygon', ANY], ['circle', ANY], ['geocode', ANY], ['altitude', OPT], ['ceiling', OPT]),
  eventCode: seq(['valueName', ONE], ['value', ONE]),
  parameter: seq(['valueName', ONE], ['value', ONE]),
  geocode: seq(['valueName', ONE], ['value', ONE]),
};

const VALUES: Record<string, string[]> = {
  status: ['Actual', 'Exercise', 'System', 'Test', 'Draft'],
  msgType: ['Alert', 'Update', 'Cancel', 'Ack', 'Error'],
  scope: ['Public', 'Restricted', 'Private'],
  category: ['Geo', 'Met', 'Safety', 'Security', 'Rescue', 'Fire', 'Health', 'Env', 'Transport', 'Infra', 'CBRNE', 'Other'],
  responseType: ['Shelter', 'Evacuate', 'Prepare', 'Execute', 'Avoid', 'Monitor', 'Assess', 'AllClear', 'None'],
  urgency: ['Immediate', 'Expected', 'Future', 'Past', 'Unknown'],
  severity: ['Extreme', 'Severe', 'Moderate', 'Minor', 'Unknown'],
  certainty: ['Observed', 'Likely', 'Possible', 'Unlikely', 'Unknown'],
};

const DATE_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[-+]\d\d:\d\d$/;
const TIMES = new Set(['sent', 'effective', 'onset', 'expires']);
const POINT = /^-?\d+(\.\d+)?,-?\d+(\.\d+)?$/;
const CAP_NS = 'urn:oasis:names:tc:emergency:cap:1.2';

function parse(xml: string): Node {
  const root: Node = { name: '#document', ns: '', text: '', children: [] };
  const stack = [root];
  const parser = new SaxesParser({ xmlns: true });
  parser.on('error', (e) => {
    throw e;
  });
  parser.on('opentag', (tag) => {
    const node: Node = { name: tag.local, ns: tag.uri, text: '', children: [] };
    stack[stack.length - 1].children.push(node);
    stack.push(node);
  });
  parser.on('text', (t) => {
    stack[stack.length - 1].text += t;
  });
  parser.on('closetag', () => {
    stack.pop();
  });
  parser.write(xml).close();
  return root;
}

function checkSequence(node: Node, rules: Rule[], path: string, problems: string[]) {
  let i = 0;
  for (const [name, min, max] of rules) {
    let n = 0;
    while (i < node.children.length && node.children[i].name === name) {
      n++;
      i++;
    }
    if (n < min) problems.push(`${path}: <${name}> is required here`);
    if (n > max) problems.push(`${path}: <${name}> may appear at most ${max} time(s), found ${n}`);
  }
  if (i < node.children.length) problems.push(`${path}: <${node.children[i].name}> is not allowed at position ${i + 1} (schema order)`);
}

function checkNode(node: Node, path: string, problems: string[]) {
  if (node.ns !== CAP_NS) problems.push(`${path}: not in the CAP 1.2 namespace`);
  const text = node.text.trim();
  const rules = SEQUENCES[node.name];
  if (rules) checkSequence(node, rules, path, problems);
  else if (node.children.length) problems.push(`${path}: <${node.name}> holds no elements`);
  if (VALUES[node.name] && !VALUES[node.name].includes(text)) problems.push(`${path}: "${text}" is not a CAP ${node.name}`);
  if (TIMES.has(node.name) && !DATE_TIME.test(text)) problems.push(`${path}: "${text}" is not a CAP dateTime`);
  if (node.name === 'references') {
    for (const ref of text.split(/\s+/)) {
      const parts = ref.split(',');
      if (parts.length !== 3 || !parts[0] || !parts[1] || !DATE_TIME.test(parts[2])) problems.push(`${path}: "${ref}" is not sender,identifier,sent`);
    }
  }
  if (node.name === 'polygon') {
    const points = text.split(/\s+/);
    if (points.length < 4 || points.some((p) => !POINT.test(p)) || points[0] !== points[points.length - 1])
      problems.push(`${path}: a polygon is 4 or more lat,lon pairs, the first equal to the last`);
  }
  if (node.name === 'circle' && !/^-?\d+(\.\d+)?,-?\d+(\.\d+)?\s+\d+(\.\d+)?$/.test(text)) problems.push(`${path}: a circle is "lat,lon radius"`);
  if ((node.name === 'identifier' || node.name === 'sender') && (/[\s,<&]/.test(text) || !text))
    problems.push(`${path}: ${node.name} must not be empty or hold spaces, commas, < or &`);
  node.children.forEach((c, i) => checkNode(c, `${path}/${c.name}[${i + 1}]`, problems));
}

export function validateCap(xml: string): string[] {
  const root = parse(xml);
  const problems: string[] = [];
  const alert = root.children[0];
  if (!alert || root.children.length !== 1 || alert.name !== 'alert') return ['the document is not one CAP <alert>'];
  checkNode(alert, '/alert', problems);
  const msgType = alert.children.find((c) => c.name === 'msgType')?.text;
  const references = alert.children.some((c) => c.name === 'references');
  if ((msgType === 'Update' || msgType === 'Cancel') && !references) problems.push(`/alert: an ${msgType} must reference the message(s) it updates or cancels`);
  return problems;
}
