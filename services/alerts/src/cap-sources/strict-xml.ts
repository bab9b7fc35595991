import { SaxesParser } from 'saxes';

/** A refused document: the reason is logged and shown in the source's recent refusals. */
export class CapRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CapRefusal';
  }
}

export interface XmlLimits {
  /** Bytes (UTF-8), checked before parsing. */
  maxBytes: number;
  maxElements: number;
  maxDepth: number;
}

export const DEFAULT_XML_LIMITS: XmlLimits = { maxBytes: 1024 * 1024, maxElements: 20_000, maxDepth: 32 };

export interface XmlElement {
  ns: string;
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  /** The element's own text (text and CDATA directly inside it), untrimmed. */
  text: string;
}

/**
 * Parses untrusted XML strictly: the size is capped before parsing, any DOCTYPE is refused outright (so no internal
 * entity can be declared, the billion-laughs attack, and no external entity or DTD can be named), an entity other than
 * XML's five predefined ones is an error (saxes does not expand anything else), and the element count and depth are
 * capped. Not well-formed: refused. Namespaces are resolved (xmlns), so CAP is matched on its namespace URI.
 */
export function parseStrictXml(text: string, limits: XmlLimits = DEFAULT_XML_LIMITS): XmlElement {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > limits.maxBytes) throw new CapRefusal(`the document is ${bytes} bytes, more than the ${limits.maxBytes} allowed`);
  const parser = new SaxesParser({ xmlns: true, position: false });
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  let count = 0;
  let error: string | null = null;
  parser.on('doctype', () => {
    throw new CapRefusal('the document has a DOCTYPE (entity declarations and external DTDs are refused)');
  });
  parser.on('error', (e) => {
    error ??= e.message;
  });
  parser.on('opentag', (tag) => {
    if (++count > limits.maxElements) throw new CapRefusal(`the document has more than ${limits.maxElements} elements`);
    if (stack.length >= limits.maxDepth) throw new CapRefusal(`the document is nested deeper than ${limits.maxDepth} elements`);
    const attrs: Record<string, string> = {};
    for (const a of Object.values(tag.attributes)) {
      if (typeof a === 'string') continue;
      if (a.prefix === 'xmlns' || a.name === 'xmlns') continue;
      attrs[a.local] = a.value;
    }
    const el: XmlElement = { ns: tag.uri ?? '', name: tag.local ?? tag.name, attrs, children: [], text: '' };
    if (stack.length) stack[stack.length - 1].children.push(el);
    else root = el;
    stack.push(el);
  });
  const addText = (t: string) => {
    if (stack.length) stack[stack.length - 1].text += t;
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  parser.on('closetag', () => {
    stack.pop();
  });
  try {
    parser.write(text).close();
  } catch (e) {
    if (e instanceof CapRefusal) throw e;
    throw new CapRefusal(`the document is not well-formed XML: ${firstLine((e as Error).message)}`);
  }
  if (error) throw new CapRefusal(`the document is not well-formed XML: ${firstLine(error)}`);
  if (!root) throw new CapRefusal('the document has no root element');
  return root;
}

const firstLine = (s: string) => s.split('\n')[0].slice(0, 200);

export const childrenNamed = (el: XmlElement, name: string, ns?: string) => el.children.filter((c) => c.name === name && (ns === undefined || c.ns === ns));
export const childText = (el: XmlElement, name: string, ns?: string): string | null => {
  const c = childrenNamed(el, name, ns)[0];
  return c ? c.text.trim() : null;
};
