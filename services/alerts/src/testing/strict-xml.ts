import { SaxesParser } from 'saxes';

/**
 * The texts of each element name (and, when asked, each element's attributes), read by saxes: a strict parser that
 * refuses undefined entities (`&nbsp;`) and characters XML 1.0 forbids, where xmlbuilder2's own parser lets them by.
 */
export function strictParse(xml: string, attributes: Record<string, string>[] = []): Map<string, string[]> {
  const texts = new Map<string, string[]>();
  const stack: { name: string; text: string }[] = [];
  const parser = new SaxesParser({ xmlns: true });
  parser.on('error', (e) => {
    throw e;
  });
  parser.on('opentag', (tag) => {
    stack.push({ name: tag.local, text: '' });
    attributes.push(Object.fromEntries(Object.values(tag.attributes).map((a) => [a.local, a.value])));
  });
  parser.on('text', (t) => {
    if (stack.length) stack[stack.length - 1].text += t;
  });
  parser.on('cdata', (t) => {
    if (stack.length) stack[stack.length - 1].text += t;
  });
  parser.on('closetag', () => {
    const el = stack.pop()!;
    texts.set(el.name, [...(texts.get(el.name) ?? []), el.text]);
  });
  parser.write(xml).close();
  return texts;
}
