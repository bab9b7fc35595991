import { isAbsolute, relative, sep } from 'node:path';

/** Every problem as `<file>: <object>: <what is wrong>`, with files inside the checked repository shown relative to it. */
export class Report {
  constructor(root) {
    this.root = root;
    this.problems = [];
    /** Printed loudly but not failing the check: what cannot be fixed from inside the repository alone. */
    this.warnings = [];
  }
  show(file) {
    const rel = relative(this.root, file);
    return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split(sep).join('/') : file;
  }
  warn(message) {
    this.warnings.push(message);
  }
  error(file, object, message) {
    this.problems.push(`${this.show(file)}: ${object ? `${object}: ` : ''}${message}`);
  }
}
