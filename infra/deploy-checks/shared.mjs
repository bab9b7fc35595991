/** What more than one subject needs: reading YAML files and turning JSON-schema errors into problem lines. */
import { readFileSync } from 'node:fs';
import YAML from 'yaml';

/** A committed private key, wherever it appears. */
export const PEM = /-----BEGIN [A-Z ]*PRIVATE KEY-----/;

/** The non-empty documents of a YAML file; a document that does not parse is reported and left out. */
export function parseYamlDocuments(file, report) {
  const source = readFileSync(file, 'utf8');
  const docs = YAML.parseAllDocuments(source, { merge: true, prettyErrors: true });
  const out = [];
  for (const doc of Array.isArray(docs) ? docs : [docs]) {
    if (doc.errors?.length) {
      for (const e of doc.errors) report.error(file, '', `YAML does not parse: ${e.message.split('\n')[0]}`);
      continue;
    }
    const value = doc.toJS({ maxAliasCount: 1000 });
    if (value !== null && value !== undefined) out.push(value);
  }
  return out;
}

export function formatAjvErrors(errors) {
  const list = (errors ?? []).filter((e) => !['oneOf', 'anyOf', 'if'].includes(e.keyword));
  const shown = list.length ? list : (errors ?? []);
  // keep the most specific errors: drop one whose location is a parent of another's
  const specific = shown.filter((e) => !shown.some((o) => o !== e && o.instancePath.startsWith(`${e.instancePath}/`)));
  const lines = specific.map((e) => {
    const where = e.instancePath
      ? e.instancePath
          .replace(/^\//, '')
          .replace(/\/(\d+)(?=\/|$)/g, '[$1]')
          .replace(/\//g, '.')
      : '(top level)';
    const extra = e.params?.additionalProperty
      ? ` ('${e.params.additionalProperty}')`
      : e.params?.allowedValues
        ? ` (${e.params.allowedValues.map((v) => JSON.stringify(v)).join(', ')})`
        : e.params?.format
          ? ` ('${e.params.format}')`
          : '';
    return `${where}: ${e.message}${extra}`;
  });
  return [...new Set(lines)];
}
